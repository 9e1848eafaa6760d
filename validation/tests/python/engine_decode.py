"""Decode calls of serving engines, written independently of kdagdn, dumped
with the shipped kdagdn_dump.py (validation/tests/test_verify_engines.m).

    python3 engine_decode.py FOLDER CASE [CASE ...]

A GDN / KDA decode kernel in torch, one sequence and value head at a time,
written from the recurrence (S <- exp(g) S; u = beta (v - S^T k);
S <- S + k u^T; o = S^T (scale q)), in float32 from the stored inputs, with
the engine's rules as docs/decode.md section 6 gives them.  Cases (each a
sub-folder of FOLDER):

  sglang_bf16      GDN, bfloat16 inputs and outputs, a float32 pool
                   [slots, HV, K, V], one slot per sequence, a padding
                   sequence (-1: zero start, o computed, nothing written)
  flashinfer_bf16  KDA, bfloat16 inputs, outputs and pool [slots, HV, V, K];
                   -1 reads and writes slot 0 (the null buffer)
  *_bug            the same with the decay of token 3, head 1 left out
"""
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', '..', '..', 'octave', 'python'))
import kdagdn_dump  # noqa: E402


def run(op, q, k, v, g, beta, pool, cu, idx, pad, bug):
    """o [1, T, HV, V] (float32) and the pool after the call (float32)."""
    T, H, K = q.shape[1:]
    HV, V = v.shape[2:]
    scale = K ** -0.5
    o = torch.zeros(1, T, HV, V)
    pool = pool.clone()
    for n in range(len(cu) - 1):
        s = int(idx[n])
        write = s
        if s < 0:
            if pad == 'null0':
                s, write = 0, 0
            else:
                write = -1
        for hv in range(HV):
            h = hv // (HV // H)
            S = pool[s, hv].float().clone() if s >= 0 else torch.zeros(K, V)
            for t in range(int(cu[n]), int(cu[n + 1])):
                if not (bug and t == 3 and hv == 1):
                    if op == 'kda':
                        S = S * torch.exp(g[0, t, hv].float())[:, None]
                    else:
                        S = S * torch.exp(g[0, t, hv].float())
                kt = k[0, t, h].float()
                u = beta[0, t, hv].float() * (v[0, t, hv].float() - kt @ S)
                S = S + torch.outer(kt, u)
                o[0, t, hv] = (q[0, t, h].float() * scale) @ S
            if write >= 0:
                pool[write, hv] = S
    return o, pool


def case(folder, name):
    bug = name.endswith('_bug')
    base = name[:-4] if bug else name
    torch.manual_seed(5)
    K = V = 32
    H, HV, P = 1, 2, 6
    cu = [0, 1, 2, 4, 5]
    bf = torch.bfloat16
    T = cu[-1]
    op = 'gdn' if base == 'sglang_bf16' else 'kda'
    q = torch.randn(1, T, H, K).to(bf)
    k = torch.nn.functional.normalize(torch.randn(1, T, H, K), dim=-1).to(bf)
    v = torch.randn(1, T, HV, V).to(bf)
    beta = torch.rand(1, T, HV).to(bf)
    g = (-0.5 * torch.rand(1, T, HV, K) if op == 'kda' else -0.5 * torch.rand(1, T, HV)).to(bf)
    if base == 'sglang_bf16':
        idx = torch.tensor([3, -1, 0, 5], dtype=torch.int32)
        pool = torch.randn(P, HV, K, V)
        o, after = run(op, q, k, v, g, beta, pool, cu, idx, 'zero', bug)
        h0, ht, meta = pool, after, {'engine': 'sglang'}
    else:
        idx = torch.tensor([2, -1, 5, 1], dtype=torch.int32)
        pool = torch.randn(P, HV, K, V).to(bf)
        o, after = run(op, q, k, v, g, beta, pool.float(), cu, idx, 'null0', bug)
        h0 = pool.transpose(2, 3).contiguous()            # [slots, HV, V, K]
        ht = after.to(bf).transpose(2, 3).contiguous()
        meta = {'engine': 'flashinfer'}
    kdagdn_dump.dump(os.path.join(folder, name),
                     {'q': q, 'k': k, 'v': v, 'g': g, 'beta': beta, 'h0': h0,
                      'initial_state_indices': idx, 'o': o.to(bf), 'ht': ht},
                     cu_seqlens=cu, **meta)


if __name__ == '__main__':
    for c in sys.argv[2:]:
        case(sys.argv[1], c)
