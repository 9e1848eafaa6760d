"""Dump one call of a KDA / GDN kernel for kda_verify / gdn_verify.

    import kdagdn_dump
    o, ht = chunk_kda(q, k, v, g, beta, initial_state=h0, output_final_state=True)
    kdagdn_dump.dump('dump', {'q': q, 'k': k, 'v': v, 'g': g, 'beta': beta,
                              'h0': h0, 'o': o, 'ht': ht}, chunk_size=64)

dump(folder, tensors, **meta) writes folder/tensors.safetensors (every
tensor as it is stored: bfloat16 stays bfloat16) and folder/meta.json (the
keyword arguments: FLA's option names, e.g. chunk_size, scale, cu_seqlens,
use_qk_l2norm_in_kernel, and optionally dtype).  Tensors are torch tensors
(any device; gradients are detached) or numpy arrays (bfloat16 from
ml_dtypes included), in FLA layout ([B, T, H, K] etc.), under FLA's names:
q k v g beta h0 o ht do dht dq dk dv dg dbeta dh0 g_cumsum Akk Aqk w u
v_new h cu_seqlens (docs/verify.md).  A dict is used because `do` is a
Python keyword.  Needs numpy; torch only when given torch tensors.  The
safetensors file is written by this module (the published format: an
8-byte little-endian header length, a JSON header, the raw little-endian
data), so the safetensors package is not needed.
"""
import json
import os

import numpy as np

__all__ = ['dump', 'write_safetensors']

# safetensors' dtype names by numpy dtype name (bfloat16: ml_dtypes)
_ST_DTYPE = {'float64': 'F64', 'float32': 'F32', 'float16': 'F16', 'bfloat16': 'BF16',
             'int64': 'I64', 'int32': 'I32', 'int16': 'I16', 'int8': 'I8',
             'uint8': 'U8', 'bool': 'BOOL'}


def _as_bytes(x):
    """(safetensors dtype, shape, little-endian bytes) of a tensor or array."""
    if type(x).__module__.startswith('torch'):
        import torch
        x = x.detach().cpu().contiguous()
        if x.dtype == torch.bfloat16:     # numpy has no bfloat16: its bits
            return 'BF16', list(x.shape), x.view(torch.int16).numpy().astype('<i2').tobytes()
        x = x.numpy()
    x = np.asarray(x)
    name = x.dtype.name
    if name not in _ST_DTYPE:
        raise TypeError('kdagdn_dump: dtype %s cannot be dumped (%s)'
                        % (name, ', '.join(sorted(_ST_DTYPE))))
    if name == 'bfloat16':                # ml_dtypes: store its raw 16 bits
        raw = np.ascontiguousarray(x).view(np.uint16).astype('<u2')
    else:
        raw = np.ascontiguousarray(x).astype(x.dtype.newbyteorder('<'))
    return _ST_DTYPE[name], list(x.shape), raw.tobytes()


def write_safetensors(path, tensors):
    """Write a dict of tensors / arrays as one .safetensors file."""
    header, blobs, offset = {}, [], 0
    for name, x in tensors.items():
        dtype, shape, raw = _as_bytes(x)
        header[name] = {'dtype': dtype, 'shape': shape,
                        'data_offsets': [offset, offset + len(raw)]}
        blobs.append(raw)
        offset += len(raw)
    text = json.dumps(header).encode('utf-8')
    text += b' ' * (-len(text) % 8)
    tmp = path + '.part'
    with open(tmp, 'wb') as f:
        f.write(len(text).to_bytes(8, 'little'))
        f.write(text)
        for blob in blobs:
            f.write(blob)
    os.replace(tmp, path)


def _plain(value):
    """A meta value as JSON: tensors and numpy scalars become lists / numbers."""
    if type(value).__module__.startswith('torch'):
        value = value.detach().cpu().numpy()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value


def dump(folder, tensors, **meta):
    """Write tensors (a dict name -> tensor) and meta data into folder."""
    tensors = {name: x for name, x in tensors.items() if x is not None}
    os.makedirs(folder, exist_ok=True)
    write_safetensors(os.path.join(folder, 'tensors.safetensors'), tensors)
    with open(os.path.join(folder, 'meta.json'), 'w') as f:
        json.dump({key: _plain(value) for key, value in meta.items()}, f, indent=1)
