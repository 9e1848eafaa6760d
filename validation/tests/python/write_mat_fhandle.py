"""A level-5 MAT-file whose one variable is an anonymous function handle.

    write_mat_fhandle.py FILE CODE

The attack of issue 46: variable "f" of class 16 (function handle) whose
"function" text is CODE (after 4 characters that the loader drops), and
the header's subsystem offset (bytes 116-123) pointing at subsystem data
shaped as Octave's load looks for it (MCOS.MCOS, a cell of a cell of a
struct: the handle's workspace).  Octave's load evaluates the text to
rebuild the handle, so CODE runs when the file is loaded; la_load must
refuse the file without running anything.
"""
import struct
import sys


def el(mtype, data):
    """A data element: tag, data, zero padding to 8 bytes."""
    return struct.pack('<II', mtype, len(data)) + data + bytes(-len(data) % 8)


def matrix(cls, dims, name, body):
    """An miMATRIX element: array flags, dimensions, name, then body."""
    return el(14, el(6, struct.pack('<II', cls, 0)) + el(5, struct.pack('<%di' % len(dims), *dims))
              + el(1, name) + body)


def text(name, s):
    return matrix(4, [1, len(s)], name, el(16, s))


def struct_of(name, fields):
    """A 1 x 1 struct; fields: (name, element without its name)."""
    names = b''.join(f.ljust(32, b'\0') for f, _ in fields)
    return matrix(2, [1, 1], name, struct.pack('<HHi', 5, 4, 32) + el(1, names)  # a small element
                  + b''.join(v(b'') for _, v in fields))


def cell_of(name, items):
    return matrix(1, [1, len(items)], name, b''.join(v(b'') for v in items))


def empty(name):
    return matrix(6, [0, 0], name, el(9, b''))


def main(path, code):
    handle = struct_of(b'', [
        (b'function_handle', lambda n: struct_of(n, [
            (b'function', lambda m: text(m, b'@<a>' + code.encode())),
            (b'type', lambda m: text(m, b'anonymous')),
            (b'file', lambda m: text(m, b'')),
            (b'workspace', lambda m: struct_of(m, [
                (b'MCOS', lambda k: matrix(13, [1, 5], k, el(6, struct.pack('<5I', 0, 0, 0, 0, 0))))]))]))])
    variable = matrix(16, [1, 1], b'f', handle)  # the handle's struct follows the name
    inner = struct_of(b'', [(b'MCOS', lambda n: struct_of(n, [
        (b'MCOS', lambda m: cell_of(m, [empty, lambda k: cell_of(k, [empty, lambda j: struct_of(j, [])])]))]))])
    payload = b'\x00\x01IM\x00\x00\x00\x00' + inner
    subsystem = matrix(9, [1, len(payload)], b'', el(2, payload))
    offset = 128 + len(variable)
    head = b'MATLAB 5.0 MAT-file, a function handle for the hostile-file tests'
    header = head.ljust(116, b' ') + struct.pack('<Q', offset) + struct.pack('<H', 0x0100) + b'IM'
    with open(path, 'wb') as f:
        f.write(header + variable + subsystem)


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
