"""Write a .safetensors dump as docs/verify.md's PyTorch recipe does, `do` included.

usage: write_torch_safetensors.py FILE

The recipe's save_file call on torch tensors (float32, bfloat16, int64):
with the safetensors package when it is installed (`pip install
safetensors`, what a PyTorch user has), else with the format's reference
layout written here: tensors ordered by dtype size (largest first), then
name; the JSON header compact, "__metadata__" first, padded with spaces to
a multiple of 8 bytes.  Prints the writer used on stdout.

Values: x[i] = i / 4 - 1 in row-major order of each tensor's shape.
"""
import json
import struct
import sys

import torch

try:
    from safetensors.torch import save_file
    WRITER = 'safetensors'
except ImportError:  # Debian has no python3-safetensors
    WRITER = 'reference layout'
    DTYPES = {torch.float64: 'F64', torch.float32: 'F32', torch.float16: 'F16',
              torch.bfloat16: 'BF16', torch.int64: 'I64', torch.int32: 'I32',
              torch.uint8: 'U8', torch.bool: 'BOOL'}

    def save_file(tensors, path, metadata=None):
        order = sorted(tensors, key=lambda n: (-tensors[n].element_size(), n))
        header, blobs, offset = {}, [], 0
        if metadata is not None:
            header['__metadata__'] = metadata
        for name in order:
            t = tensors[name]
            raw = t.contiguous().view(torch.uint8).numpy().tobytes() if t.numel() else b''
            header[name] = {'dtype': DTYPES[t.dtype], 'shape': list(t.shape),
                            'data_offsets': [offset, offset + len(raw)]}
            blobs.append(raw)
            offset += len(raw)
        text = json.dumps(header, separators=(',', ':')).encode()
        text += b' ' * (-len(text) % 8)
        with open(path, 'wb') as f:
            f.write(struct.pack('<Q', len(text)) + text + b''.join(blobs))


def values(*shape, dtype=torch.float32):
    n = 1
    for d in shape:
        n *= d
    return (torch.arange(n, dtype=torch.float64) / 4 - 1).reshape(shape).to(dtype)


B, T, H, K, V = 1, 8, 2, 4, 3
q, k = values(B, T, H, K, dtype=torch.bfloat16), values(B, T, H, K)
o = values(B, T, H, V)
do = values(B, T, H, V) * 2     # the upstream gradient, named as in the recipe
save_file({n: t.detach().contiguous().cpu() for n, t in dict(
    q=q, k=k, o=o, do=do, cu_seqlens=torch.tensor([0, T], dtype=torch.int64)).items()},
    sys.argv[1], metadata={'format': 'pt'})
print(WRITER)
