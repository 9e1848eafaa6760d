"""A level-5 MAT-file whose one compressed variable is a zlib bomb.

    write_mat_bomb.py FILE GIGABYTES [honest]

The miCOMPRESSED element's stream starts with an miMATRIX claiming a 1 x 1
double (56 bytes) and goes on with GIGABYTES x 1024 MiB of zeros: one
full-flushed deflate segment of 1 MiB of zeros, repeated (each segment
stands alone after a full flush), so the file is about 1 KiB per MiB.
The stream's closing Adler-32 is that of the bytes compressed once, not of
the whole: a reader that inflated it all would also find it wrong.

With "honest", the matrix claims all of it (a 1 x N uint8 of zeros, N =
GIGABYTES x 2^30) and the Adler-32 is right: a valid file that takes a
reader seconds to inflate, for the Ctrl-C test.
"""
import struct
import sys
import zlib

MIB = 1 << 20


def honest(path, gigabytes):
    n = int(gigabytes * 1024) * MIB
    matrix = (struct.pack('<IIII', 6, 8, 9, 0)            # array flags: uint8
              + struct.pack('<IIii', 5, 8, 1, n)          # dimensions 1 x n
              + struct.pack('<I', 1 << 16 | 1) + b'x\0\0\0'  # name "x"
              + struct.pack('<II', 2, n))                 # n bytes of miUINT8
    c = zlib.compressobj(9)
    head = c.compress(struct.pack('<II', 14, len(matrix) + n) + matrix)
    head += c.compress(bytes(MIB)) + c.flush(zlib.Z_FULL_FLUSH)
    segment = c.compress(bytes(MIB)) + c.flush(zlib.Z_FULL_FLUSH)
    adler = zlib.adler32(struct.pack('<II', 14, len(matrix) + n) + matrix)
    for _ in range(n // MIB):
        adler = zlib.adler32(bytes(MIB), adler)
    # the stream: header, the segments, an empty final block, the Adler-32
    body = head + segment * (n // MIB - 1)
    stream = body + b'\x03\x00' + struct.pack('>I', adler)
    write(path, stream)


def write(path, stream):
    text = b'MATLAB 5.0 MAT-file, a zlib bomb for the hostile-file tests'
    header = text.ljust(116, b' ') + bytes(8) + struct.pack('<H', 0x0100) + b'IM'
    with open(path, 'wb') as f:
        f.write(header + struct.pack('<II', 15, len(stream)) + stream)


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
    write(path, stream)


if __name__ == '__main__':
    if len(sys.argv) > 3 and sys.argv[3] == 'honest':
        honest(sys.argv[1], float(sys.argv[2]))
    else:
        main(sys.argv[1], float(sys.argv[2]))
