"""Write a KDA / GDN kernel dump in FLA layout, for validation/tests/test_verify.m.

usage: kda_dump.py FOLDER KIND SEED
  KIND: double  float64 inputs and outputs; inputs as .npy, h0 by
                scipy.io.savemat, intermediates (g_cumsum, Akk, Aqk, w, u,
                v_new, h) by numpy.savez_compressed
        bf16    inputs rounded to bfloat16; the kernel computes in float32
                and stores o, ht in bfloat16 (q k v as .npy with descr '<V2'
                as ml_dtypes writes, the rest in a BF16 .safetensors file)
        bug     as double, with a bug planted in chunk 2 of sequence 0: the
                output of that chunk misses its intra-chunk (delta) term
        gdn     as double, with a scalar gate per step (g: [B, T, HV])
        gkgv    GDN as FLA's fused_recurrent_gated_delta_rule with g, gk
                [B, T, HV, K] and gv [B, T, HV, V]: o, ht as .npy

An implementation independent of the library: the recurrence step by step
for o and ht, and the chunk quantities written out from their definitions
(FLA's conventions: Akk = (I + A_raw)^-1, log2 cumulative gates, Aqk with
the scale), all in numpy.
"""
import json
import os
import sys

import numpy as np
import scipy.io

B, T, H, HV, K, V, BT = 2, 50, 1, 2, 8, 6, 16


def recurrent(q, k, v, g, beta, h0, scale, bug_chunk=None, dtype=np.float64, gv=None):
    """o [B,T,HV,V] and ht [B,HV,K,V] of the delta rule, step by step
    (g [B,T,HV,K] or [B,T,HV,1]; gv [B,T,HV,V]: FLA's per-value gate)."""
    q, k = np.repeat(q, HV // H, axis=2), np.repeat(k, HV // H, axis=2)
    S = h0.astype(dtype).copy()
    o = np.zeros(v.shape, dtype)
    for t in range(T):
        S = S * np.exp(g[:, t])[..., None]
        if gv is not None:
            S = S * np.exp(gv[:, t])[..., None, :]
        pred = np.einsum('bhk,bhkv->bhv', k[:, t], S)
        S_before = S.copy()
        S = S + np.einsum('bhk,bhv->bhkv', beta[:, t, :, None] * k[:, t], v[:, t] - pred)
        o[:, t] = np.einsum('bhk,bhkv->bhv', scale * q[:, t], S)
        if bug_chunk is not None and t // BT == bug_chunk:
            o[0, t] = np.einsum('hk,hkv->hv', scale * q[0, t], S_before[0])
    return o.astype(dtype), S.astype(dtype)


def chunk_intermediates(q, k, v, g, beta, h0, scale):
    """FLA's forward intermediates, chunk by chunk, from their definitions."""
    q, k = np.repeat(q, HV // H, axis=2), np.repeat(k, HV // H, axis=2)
    NT = -(-T // BT)
    out = {n: np.zeros((B, T, HV, d)) for n, d in
           [('g_cumsum', K), ('Akk', BT), ('Aqk', BT), ('w', K), ('u', V), ('v_new', V)]}
    out['h'] = np.zeros((B, NT, HV, K, V))
    for b in range(B):
        for j in range(HV):
            S = h0[b, j].copy()
            for n in range(NT):
                s = slice(n * BT, min(T, (n + 1) * BT))
                c = s.stop - s.start
                Q, Kc, Vc, bet = q[b, s, j], k[b, s, j], v[b, s, j], beta[b, s, j]
                G = np.cumsum(g[b, s, j], axis=0)
                D = np.exp(G[:, None, :] - G[None, :, :])       # [i, j, K]
                M = np.einsum('ik,ijk,jk->ij', Kc, D, Kc)
                Araw = np.tril(bet[:, None] * M, -1)
                Akk = np.linalg.inv(np.eye(c) + Araw)
                Aqk = np.tril(scale * np.einsum('ik,ijk,jk->ij', Q, D, Kc))
                w = Akk @ (bet[:, None] * np.exp(G) * Kc)
                u = Akk @ (bet[:, None] * Vc)
                out['h'][b, n, j] = S
                vn = u - w @ S
                for name, val in [('g_cumsum', G / np.log(2)), ('w', w), ('u', u), ('v_new', vn)]:
                    out[name][b, s, j] = val
                out['Akk'][b, s, j, :c] = Akk
                out['Aqk'][b, s, j, :c] = Aqk
                S = np.exp(G[-1])[:, None] * S + (np.exp(G[-1] - G) * Kc).T @ vn
    return out


def bf16(x):
    """float32 -> bfloat16 bits (uint16), round to nearest even."""
    u = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def bf16_value(x):
    return (bf16(x).astype(np.uint32) << 16).view(np.float32)


def save_bf16_npy(path, x):
    """As numpy.save writes an ml_dtypes bfloat16 array: descr '<V2'."""
    np.save(path, bf16(x).view(np.dtype('V2')))


def save_safetensors(path, tensors):
    """The published format: u64 header size, JSON header, raw LE buffer."""
    header, blobs, off = {}, [], 0
    for name, (st_dtype, arr) in tensors.items():
        raw = np.ascontiguousarray(arr).tobytes()
        header[name] = {'dtype': st_dtype, 'shape': list(arr.shape),
                        'data_offsets': [off, off + len(raw)]}
        blobs.append(raw)
        off += len(raw)
    header['__metadata__'] = {'format': 'pt'}
    text = json.dumps(header).encode()
    text += b' ' * (-len(text) % 8)
    with open(path, 'wb') as f:
        f.write(len(text).to_bytes(8, 'little') + text + b''.join(blobs))


def main(folder, kind, seed):
    rng = np.random.default_rng(seed)
    os.makedirs(folder, exist_ok=True)
    q = rng.standard_normal((B, T, H, K))
    k = rng.standard_normal((B, T, H, K))
    k /= np.linalg.norm(k, axis=-1, keepdims=True)
    v = rng.standard_normal((B, T, HV, V))
    g = -rng.uniform(0, 0.5, (B, T, HV, K if kind not in ('gdn', 'gkgv') else 1))
    beta = rng.uniform(0, 1, (B, T, HV))
    h0 = rng.standard_normal((B, HV, K, V))
    scale = K ** -0.5
    meta = {'chunk_size': BT, 'scale': scale, 'dtype': 'float64',
            'use_qk_l2norm_in_kernel': False, 'output_final_state': True}
    if kind == 'gkgv':
        gk = -rng.uniform(0, 0.3, (B, T, HV, K))
        gv = -rng.uniform(0, 0.3, (B, T, HV, V))
        o, ht = recurrent(q, k, v, g + gk, beta, h0, scale, gv=gv)
        for name, x in [('q', q), ('k', k), ('v', v), ('g', g[..., 0]), ('gk', gk), ('gv', gv),
                        ('beta', beta), ('h0', h0), ('o', o), ('ht', ht)]:
            np.save(os.path.join(folder, name + '.npy'), x)
    elif kind == 'bf16':
        q, k, v, g, beta, h0 = map(bf16_value, (q, k, v, g, beta, h0))
        o, ht = recurrent(q, k, v, g, beta, h0, scale, dtype=np.float32)
        for name, x in [('q', q), ('k', k), ('v', v)]:
            save_bf16_npy(os.path.join(folder, name + '.npy'), x)
        save_safetensors(os.path.join(folder, 'tensors.safetensors'),
                         {n: ('BF16', bf16(x)) for n, x in
                          [('g', g), ('beta', beta), ('h0', h0), ('o', o), ('ht', ht)]})
        meta['dtype'] = 'bfloat16'
    else:
        o, ht = recurrent(q, k, v, g, beta, h0, scale, bug_chunk=2 if kind == 'bug' else None)
        inter = chunk_intermediates(q, k, v, g, beta, h0, scale)
        gs = g[..., 0] if kind == 'gdn' else g
        for name, x in [('q', q), ('k', k), ('v', v), ('g', gs), ('beta', beta), ('o', o)]:
            np.save(os.path.join(folder, name + '.npy'), x)
        np.save(os.path.join(folder, 'ht.npy'), np.asfortranarray(ht))
        scipy.io.savemat(os.path.join(folder, 'state.mat'), {'h0': h0})
        if kind == 'gdn':
            inter['g_cumsum'] = inter['g_cumsum'][..., 0]
        np.savez_compressed(os.path.join(folder, 'inter.npz'), **inter)
    with open(os.path.join(folder, 'meta.json'), 'w') as f:
        json.dump(meta, f)


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
