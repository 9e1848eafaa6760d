"""Write tensor files with numpy and scipy, for validation/tests/test_tensor_files.m.

usage: write_tensor_files.py FOLDER

Every array holds a[i, j, k] = (12 i + 4 j + k) / 2 - 3 (shape [2, 3, 4])
or a[i] = i - 2 (shape [5]), so the test can rebuild what it must read.
"""
import os
import sys

import numpy as np
import scipy.io

folder = sys.argv[1]
os.makedirs(folder, exist_ok=True)
a = np.arange(24, dtype=np.float64).reshape(2, 3, 4) / 2 - 3
i = np.arange(5) - 2


def path(name):
    return os.path.join(folder, name)


np.save(path('f64.npy'), a)
np.save(path('f32_big.npy'), a.astype('>f4'))
np.save(path('f64_fortran.npy'), np.asfortranarray(a))
np.save(path('f16.npy'), a.astype(np.float16))
np.save(path('i32.npy'), i.astype(np.int32))
np.save(path('i64_big.npy'), i.astype('>i8'))
np.save(path('bool.npy'), i > 0)
for version in [(2, 0), (3, 0)]:
    with open(path('v%d.npy' % version[0]), 'wb') as f:
        np.lib.format.write_array(f, a.astype(np.float32), version=version)
# bfloat16 as numpy.save writes an ml_dtypes array: descr '<V2'
bits = (a.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
np.save(path('bf16.npy'), bits.view(np.dtype('V2')))
np.savez(path('stored.npz'), a=a, i=i.astype(np.int64))
np.savez_compressed(path('deflated.npz'), a=a.astype(np.float32), b=i > 0)
scipy.io.savemat(path('scipy.mat'), {'a': a, 'i': i.astype(np.int32)})

# safetensors by hand, per the published format: u64 little-endian header
# size, a JSON header of {dtype, shape, data_offsets}, the row-major buffer
entries = [('F64', a), ('F32', a.astype(np.float32)), ('F16', a.astype(np.float16)),
           ('BF16', bits), ('I32', i.astype(np.int32)), ('I64', i.astype(np.int64)),
           ('BOOL', i > 0)]
header, buffer = {'__metadata__': {'format': 'pt'}}, b''
for st_dtype, x in entries:
    raw = np.ascontiguousarray(x).astype(x.dtype.newbyteorder('<')).tobytes()
    header['t_' + st_dtype] = {'dtype': st_dtype, 'shape': list(x.shape),
                               'data_offsets': [len(buffer), len(buffer) + len(raw)]}
    buffer += raw
text = __import__('json').dumps(header).encode()
with open(path('all.safetensors'), 'wb') as f:
    f.write(len(text).to_bytes(8, 'little') + text + buffer)
