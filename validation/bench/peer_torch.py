#!/usr/bin/python3
"""peer_torch.py -- the peer for `make bench`: a plain PyTorch reference of
the KDA recurrence (step by step, autograd for the backward), float32, timed
in the same run as the library's rows.

    S'_t = Diag(exp(g_t)) S_{t-1}
    S_t  = S'_t + beta_t k_t (v_t - S'_t^T k_t)^T
    o_t  = S_t^T (scale q_t)

Usage: peer_torch.py T H K V REPS_FWD REPS_FWDBWD
Prints one line per mode: "peer MODE median MIN MAX REPS" (seconds), or
"peer unavailable REASON" when torch cannot be imported.  Needs Debian's
python3-torch (make bench-deps); make test never runs it.
"""
import os
import sys
import time


def kda_reference(q, k, v, g, beta, scale):
    """o (T x H x V) of the recurrence, one step at a time; S is H x K x V."""
    import torch
    T, H, K = q.shape
    V = v.shape[2]
    S = torch.zeros(H, K, V, dtype=q.dtype)
    outs = []
    for t in range(T):
        S = torch.exp(g[t]).unsqueeze(-1) * S                    # decay per channel
        pred = torch.einsum('hkv,hk->hv', S, k[t])               # S'^T k
        delta = beta[t].unsqueeze(-1) * (v[t] - pred)
        S = S + k[t].unsqueeze(-1) * delta.unsqueeze(1)           # rank-1 update
        outs.append(torch.einsum('hkv,hk->hv', S, scale * q[t]))
    return torch.stack(outs), S


def timed(fn, reps):
    if reps > 1:
        fn()  # warm-up (skipped for a single run: forward + backward takes seconds)
    t = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        t.append(time.perf_counter() - t0)
    t.sort()
    return t[len(t) // 2], t[0], t[-1]


def main():
    try:
        import torch
    except ImportError as err:
        print('peer unavailable %s' % err)
        return
    T, H, K, V, reps_f, reps_b = (int(x) for x in sys.argv[1:7])
    torch.set_num_threads(os.cpu_count() or 1)  # all cores, as the library
    torch.manual_seed(1)
    q = torch.nn.functional.normalize(torch.randn(T, H, K), dim=-1)
    k = torch.nn.functional.normalize(torch.randn(T, H, K), dim=-1)
    v = torch.randn(T, H, V)
    g = torch.nn.functional.logsigmoid(2 + torch.randn(T, H, K))
    beta = torch.rand(T, H)
    scale = K ** -0.5

    def fwd():
        with torch.no_grad():
            kda_reference(q, k, v, g, beta, scale)

    leaves = [x.clone().requires_grad_() for x in (q, k, v, g, beta)]

    def fwdbwd():
        o, S = kda_reference(*leaves, scale)
        (o.sum() + S.sum()).backward()

    print("peer threads %d torch %s" % (torch.get_num_threads(), torch.__version__))
    for mode, fn, reps in (('fwd', fwd, reps_f), ('fwdbwd', fwdbwd, reps_b)):
        med, lo, hi = timed(fn, reps)
        print('peer %s %.6f %.6f %.6f %d' % (mode, med, lo, hi, reps))
        sys.stdout.flush()


if __name__ == '__main__':
    main()
