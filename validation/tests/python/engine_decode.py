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
  fla_bf16pool     KDA, FLA's rules: one slot per step [N, Tmax] with
                   num_accepted_tokens, a bfloat16 pool [slots, HV, K, V]
                   written after every step (the running state stays
                   float32; each stored copy is rounded to nearest)
  vllm_bf16pool    GDN, vLLM's update kernel: [N], padding -1 starts from a
                   zero state, a CUDA-graph padding row of zero length,
                   a bfloat16 pool
  sglang_tree_bf16 GDN, SGLang's target-verify call: an EAGLE tree
                   (retrieve_parent_token), a bfloat16
                   intermediate_states_buffer indexed by
                   intermediate_state_indices, from which a step reads its
                   parent's state back (in bfloat16), a bfloat16 pool
  sglang_sr_bf16   GDN, SGLang's packed decode (T = 1) with stochastic
                   rounding of the bfloat16 pool at the final store
                   (meta.json state_rounding: stochastic)
  sglang_fp16pool  KDA, a float16 pool (--mamba-ssm-dtype float16),
                   bfloat16 inputs, two steps per sequence
  vllm_tree_bf16   GDN, vLLM's fused_recurrent with an EAGLE tree: one
                   slot per step [N, Tmax], each step's state written to
                   its slot of the bfloat16 pool, a step reading its
                   parent's state back from the parent's slot (in
                   bfloat16); a padding row (-1) whose program returns (its
                   o left as garbage)
  *_bug            the same with the decay of token 3, head 1 left out
  calib:OP:DTYPE:SEED:N:STEPS:HV:K:STATES[:bug]
                   a speculative decode call for the local checks'
                   calibration (validation/tests/test_verify_decode_local.m):
                   N sequences of STEPS tokens, FLA's rules (one slot per
                   step [N, STEPS], num_accepted_tokens), all heads of a
                   sequence at once; DTYPE float32 / bfloat16 / float16 for
                   inputs, o and pool; STATES 'pool' (written in place,
                   in DTYPE) or 'tokens' (per-token states, float32, as
                   FLA's inplace_final_state=False).  The gate of one step
                   of one head (the last sequence's middle step, head
                   HV // 2) is weak (-0.05); with 'bug' that step's decay
                   is left out there: a bug confined to one step of one
                   head, too small for the global ratio
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


def stochastic_bf16(x, gen):
    """float32 -> bfloat16 rounded stochastically, as cvt.rs.bf16x2.f32: 16
    random bits added to the magnitude's low bits, then truncated."""
    bits = x.float().contiguous().view(torch.int32)
    r = torch.randint(0, 1 << 16, bits.shape, generator=gen, dtype=torch.int32)
    up = (bits + r) & ~0xFFFF           # the sign bit is untouched: magnitude rounding
    return up.view(torch.float32).to(torch.bfloat16)


def step(op, S, q, k, v, g, beta, scale, decay):
    """one token of one value head: S [K, V] float32 -> (o [V], S)"""
    if decay:
        S = S * (torch.exp(g)[:, None] if op == 'kda' else torch.exp(g))
    u = beta * (v - k @ S)
    S = S + torch.outer(k, u)
    return (q * scale) @ S, S


def run_pool(op, x, rule, bug):
    """A decode call with a state pool stored in its own dtype.  x: q k v g
    beta (FLA layout, [1, T, ...]), pool [P, HV, K, V] (its dtype is the
    storage), cu, idx ([N] or [N, Tmax]); rule: dict with pad ('skip',
    'zero'), accepted (or None), buf (a buffer [E, steps, HV, K, V] in
    its storage dtype, or None), bufidx, parents, sr (a generator: the
    final store rounded stochastically).  Returns o (float32), the pool
    after the call and the buffer, in their storage dtypes."""
    q, k, v, g, beta = (x[n].float() for n in ('q', 'k', 'v', 'g', 'beta'))
    T, H, K = q.shape[1:]
    HV, V = v.shape[2:]
    scale = K ** -0.5
    pool = x['pool'].clone()
    dt = pool.dtype
    buf = rule.get('buf')
    buf = None if buf is None else buf.clone()
    o = torch.zeros(1, T, HV, V)
    cu, idx = x['cu'], x['idx']
    for n in range(len(cu) - 1):
        if cu[n + 1] == cu[n]:
            continue                        # a zero-length row: nothing
        per_step = idx.dim() == 2
        col = idx[n] if per_step else None
        a = rule['accepted'][n] if rule.get('accepted') is not None else 1
        r = int(col[a - 1]) if per_step else int(idx[n])
        if r < 0 and rule['pad'] == 'skip':
            continue                        # o = 0, nothing written
        if r < 0 and rule['pad'] == 'undef':
            o[0, cu[n]:cu[n + 1]] = 7.0     # the program returns: o never written
            continue
        for hv in range(HV):
            h = hv // (HV // H)
            S = pool[r, hv].float().clone() if r >= 0 else torch.zeros(K, V)
            for j, t in enumerate(range(cu[n], cu[n + 1])):
                if j > 0 and rule.get('parents') is not None:
                    p = int(rule['parents'][n][j])      # the parent, read back as stored
                    if rule.get('tree_from') == 'pool':  # vLLM: from the parent's slot
                        S = pool[int(col[p]), hv].float().clone()
                    else:                               # SGLang: from the buffer
                        S = buf[rule['bufidx'][n], p, hv].float().clone()
                o[0, t, hv], S = step(op, S, q[0, t, h], k[0, t, h], v[0, t, hv], g[0, t, hv],
                                      beta[0, t, hv], scale, not (bug and t == 3 and hv == 1))
                if buf is not None and r >= 0:
                    buf[rule['bufidx'][n], j, hv] = S.to(buf.dtype)
                if per_step and r >= 0 and int(col[j]) >= 0:
                    pool[int(col[j]), hv] = S.to(dt)
            if not per_step and r >= 0:
                if rule.get('sr') is not None:
                    pool[r, hv] = stochastic_bf16(S, rule['sr'])
                else:
                    pool[r, hv] = S.to(dt)
    return o, pool, buf


def pool_case(folder, name, bug):
    """the bfloat16 / float16 pool cases of the module's doc string"""
    torch.manual_seed(7)
    bf = torch.bfloat16
    K = V = 32
    H, HV = 1, 2
    op = 'kda' if name in ('fla_bf16pool', 'sglang_fp16pool') else 'gdn'
    meta, rule, extra = {}, {'pad': 'zero'}, {}
    if name == 'fla_bf16pool':
        cu = [0, 2, 5, 6, 6]
        idx = torch.tensor([[1, 2, -1], [3, 4, 5], [-1, 0, 0], [0, 0, 0]], dtype=torch.int32)
        acc = [1, 2, 1, 1]
        rule = {'pad': 'skip', 'accepted': acc}
        P, pdt = 7, bf
        extra = {'ssm_state_indices': idx, 'num_accepted_tokens': torch.tensor(acc, dtype=torch.int32)}
    elif name == 'vllm_bf16pool':
        cu = [0, 1, 2, 2, 3, 4, 4]
        idx = torch.tensor([5, -1, -1, 0, 2, -1], dtype=torch.int32)
        P, pdt = 6, bf
        meta = {'engine': 'vllm'}
        extra = {'ssm_state_indices': idx}
    elif name == 'vllm_tree_bf16':
        cu = [0, 4, 6, 9]
        idx = torch.tensor([[1, 2, 3, 4], [-1, -1, -1, -1], [5, 6, 7, -1]], dtype=torch.int32)
        parents = [[-1, 0, 0, 1], [-1, 0, 0, 0], [-1, 0, 0, -1]]
        rule = {'pad': 'undef', 'parents': parents, 'tree_from': 'pool'}
        P, pdt = 8, bf
        meta = {'engine': 'vllm'}
        extra = {'ssm_state_indices': idx,
                 'retrieve_parent_token': torch.tensor(parents, dtype=torch.int32)}
    elif name == 'sglang_tree_bf16':
        cu = [0, 4, 7]
        idx = torch.tensor([2, 0], dtype=torch.int32)
        parents = [[-1, 0, 0, 1], [-1, 0, 1, -1]]
        bufidx = [1, 0]
        rule = {'pad': 'zero', 'buf': torch.zeros(3, 4, HV, K, V, dtype=bf), 'bufidx': bufidx,
                'parents': parents}
        P, pdt = 3, bf
        meta = {'engine': 'sglang', 'cache_steps': 4}
        extra = {'initial_state_indices': idx,
                 'intermediate_state_indices': torch.tensor(bufidx, dtype=torch.int32),
                 'retrieve_parent_token': torch.tensor(parents, dtype=torch.int32)}
    elif name == 'sglang_sr_bf16':
        cu = list(range(0, 17))
        idx = torch.tensor([3 * n + 1 for n in range(16)], dtype=torch.int32)
        rule = {'pad': 'zero', 'sr': torch.Generator().manual_seed(11)}
        P, pdt = 49, bf
        meta = {'engine': 'sglang', 'state_rounding': 'stochastic'}
        extra = {'initial_state_indices': idx}
    else:  # sglang_fp16pool
        cu = [0, 2, 4, 6]
        idx = torch.tensor([1, 3, -1], dtype=torch.int32)
        P, pdt = 4, torch.float16
        meta = {'engine': 'sglang'}
        extra = {'initial_state_indices': idx}
    T = cu[-1]
    x = {'q': torch.randn(1, T, H, K).to(bf),
         'k': torch.nn.functional.normalize(torch.randn(1, T, H, K), dim=-1).to(bf),
         'v': torch.randn(1, T, HV, V).to(bf),
         'beta': torch.rand(1, T, HV).to(bf),
         'g': (-0.5 * torch.rand(1, T, HV, K) if op == 'kda' else -0.5 * torch.rand(1, T, HV)).to(bf),
         'pool': torch.randn(P, HV, K, V).to(pdt), 'cu': cu, 'idx': idx}
    o, after, buf = run_pool(op, x, rule, bug)
    tensors = {n: x[n] for n in ('q', 'k', 'v', 'g', 'beta')}
    tensors.update(extra)
    tensors.update({'h0': x['pool'], 'o': o.to(bf), 'ht': after})
    if buf is not None:
        tensors['intermediate_states_buffer'] = buf
    if meta.get('engine') == 'sglang':
        if name == 'sglang_fp16pool':
            meta['state_v_first'] = False       # an older SGLang (5a7255c6): [slots, HV, K, V]
        else:                                   # SGLang from 10faf337: K last
            for n in ('h0', 'ht', 'intermediate_states_buffer'):
                if n in tensors:
                    tensors[n] = tensors[n].transpose(-2, -1).contiguous()
    kdagdn_dump.dump(os.path.join(folder, name + ('_bug' if bug else '')), tensors,
                     cu_seqlens=cu, **meta)


def calib_case(folder, spec):
    """the calib: cases of the module's doc string"""
    f = spec.split(':')
    op, dtype, seed, N, steps, HV, K, states = f[1], f[2], int(f[3]), int(f[4]), int(f[5]), \
        int(f[6]), int(f[7]), f[8]
    bug = len(f) > 9 and f[9] == 'bug'
    dt = getattr(torch, dtype)
    torch.manual_seed(seed)
    V, H = K, max(1, HV // 2)
    T, P = N * steps, N * steps + 2
    q = torch.randn(1, T, H, K).to(dt)
    k = torch.nn.functional.normalize(torch.randn(1, T, H, K), dim=-1).to(dt)
    v = torch.randn(1, T, HV, V).to(dt)
    beta = torch.rand(1, T, HV).to(dt)
    g = -0.5 * torch.rand(1, T, HV, K) if op == 'kda' else -0.5 * torch.rand(1, T, HV)
    tb, hb = (N - 1) * steps + steps // 2, HV // 2
    g[0, tb, hb] = -0.05
    g = g.to(dt)
    pool = torch.randn(P, HV, K, V).to(dt)
    perm = torch.randperm(P - 2, generator=torch.Generator().manual_seed(seed)) + 1
    idx = perm[:T].reshape(N, steps).to(torch.int32)          # one slot per step
    acc = torch.randint(1, steps + 1, (N,), dtype=torch.int32)
    # slots all distinct: a sequence reads the slot of its accepted count,
    # one of its own row, which no other sequence reads or writes
    heads = torch.arange(HV) // (HV // H)
    scale = K ** -0.5
    o = torch.zeros(1, T, HV, V)
    after = pool.clone()
    tok = torch.zeros(T, HV, K, V)
    for n in range(N):
        S = pool[int(idx[n, int(acc[n]) - 1])].float()      # [HV, K, V]
        for j in range(steps):
            t = n * steps + j
            qt, kt = q[0, t, heads].float() * scale, k[0, t, heads].float()   # [HV, K]
            gt = torch.exp(g[0, t].float())
            decay = gt[:, :, None] if op == 'kda' else gt[:, None, None]
            if bug and t == tb:
                decay = decay.clone()
                decay[hb] = 1
            S = S * decay
            u = beta[0, t].float()[:, None] * (v[0, t].float() - torch.einsum('hk,hkv->hv', kt, S))
            S = S + kt[:, :, None] * u[:, None, :]
            o[0, t] = torch.einsum('hk,hkv->hv', qt, S)
            tok[t] = S
            after[int(idx[n, j])] = S.to(dt)
    tensors = {'q': q, 'k': k, 'v': v, 'g': g, 'beta': beta, 'h0': pool,
               'ssm_state_indices': idx, 'num_accepted_tokens': acc, 'o': o.to(dt)}
    if states == 'pool':
        tensors['ht'] = after
    else:
        tensors['ht'] = tok
    kdagdn_dump.dump(os.path.join(folder, spec.replace(':', '_')), tensors,
                     cu_seqlens=list(range(0, T + 1, steps)),
                     inplace_final_state=(states == 'pool'))


POOL_CASES = ('fla_bf16pool', 'vllm_bf16pool', 'sglang_tree_bf16', 'sglang_sr_bf16',
              'sglang_fp16pool', 'vllm_tree_bf16')


def case(folder, name):
    if name.startswith('calib:'):
        calib_case(folder, name)
        return
    bug = name.endswith('_bug')
    base = name[:-4] if bug else name
    if base in POOL_CASES:
        pool_case(folder, base, bug)
        return
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
        h0 = pool.transpose(2, 3).contiguous()            # SGLang's [slots, HV, V, K]
        ht = after.transpose(2, 3).contiguous()
        meta = {'engine': 'sglang'}
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
