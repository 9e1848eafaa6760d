"""A level-5 MAT-file whose one compressed variable is a zlib bomb.

    write_mat_bomb.py FILE GIGABYTES

The miCOMPRESSED element's stream starts with an miMATRIX claiming a 1 x 1
double (56 bytes) and goes on with GIGABYTES x 1024 MiB of zeros: one
full-flushed deflate segment of 1 MiB of zeros, repeated (each segment
stands alone after a full flush), so the file is about 1 KiB per MiB.
The stream's closing Adler-32 is that of the bytes compressed once, not of
the whole: a reader that inflated it all would also find it wrong.
"""
import struct
import sys
import zlib

MIB = 1 << 20


def main(path, gigabytes):
    matrix = (struct.pack('<IIII', 6, 8, 6, 0)            # array flags: double
              + struct.pack('<IIii', 5, 8, 1, 1)          # dimensions 1 x 1
              + struct.pack('<I', 1 << 16 | 1) + b'x\0\0\0'  # name "x"
              + struct.pack('<II', 9, 8) + struct.pack('<d', 7.0))
    c = zlib.compressobj(9)
    head = c.compress(struct.pack('<II', 14, len(matrix)) + matrix + bytes(MIB))
    head += c.flush(zlib.Z_FULL_FLUSH)
    segment = c.compress(bytes(MIB)) + c.flush(zlib.Z_FULL_FLUSH)
    stream = head + segment * (int(gigabytes * 1024) - 1) + c.flush()
    text = b'MATLAB 5.0 MAT-file, a zlib bomb for the hostile-file tests'
    header = text.ljust(116, b' ') + bytes(8) + struct.pack('<H', 0x0100) + b'IM'
    with open(path, 'wb') as f:
        f.write(header + struct.pack('<II', 15, len(stream)) + stream)


if __name__ == '__main__':
    main(sys.argv[1], float(sys.argv[2]))
