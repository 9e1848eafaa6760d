"""An independent chunked KDA / GDN kernel in PyTorch, with planted bugs.

usage: torch_kernel.py ROOT CASE [CASE ...]
  CASE = OP:MODE:BUG:SEED[:SIZE]  writes the dump ROOT/CASE (':' -> '_')
    OP    kda | gdn
    MODE  fp64   float64 throughout
          fp32   float32 throughout
          tf32   float32, every dot's operands rounded to TF32 (10-bit
                 mantissa), as Triton's default float32 dots on a GPU
          bf16   inputs and outputs stored in bfloat16; what FLA keeps in
                 bfloat16 between stages (Akk, Aqk, w, u, v_new, the state
                 snapshot h, o) rounded to it; fp32 accumulation and a fp32
                 running state
    BUG   none | varlen (state not reset between sequences) | partial (the
          last partial chunk skipped) | diag (the backward keeps Akk's
          diagonal) | gva (value head j reads query head j % H instead of
          j // (HV / H)) | exp2 (the state's decay as exp2 in one stage) |
          state16 (the running state rounded to bf16 between chunks) | dq10
          (dq ten times too large) | o16, dqbf16, dh0bf16 (o stored as
          float16, dq as bfloat16, dh0 as bfloat16: right values, too few
          bits) | gate1 (the gate of step 20 of sequence 1, head 1, dropped)
          | nodbeta (right, but dbeta given to the writer as None)
    SIZE  small, slow (make test) | large, large_slow, long (T = 8192,
          H = 4, HV = 8), heads (H = 16, HV = 32), long32k (T = 32768,
          H = HV = 4), serving (T = 8192, H = HV = 32, K = V = 128)
          (calibration); slow:
          weak gates (a long memory); empty: a zero-length sequence between
          two others; graph: two zero-length tail sequences, meta.json
          use_graph (FLA's CUDA-graph padding)
  BUG qgkg also dumps KDA's qg = q exp(G) and kg = k exp(G_last - G) per
  value head, as FLA's recompute_w_u_fwd stores them (disable_recompute);
  qgscaled the same with the scale left in qg (a convention slip)
  The dump is written with octave/python/kdagdn_dump.py; varlen dumps
  (B = 1, cu_seqlens, one h0 per sequence), GVA
  (H = 2, HV = 4) for both.  The backward is PyTorch's autograd through the same
  chunked forward (so it holds the same roundings).

Written from the definitions of FLA's conventions (docs/conventions.md),
not from this library's code: per chunk, with G the in-chunk cumulative
log gate,
  A_raw = tril(beta_i k_i . exp(G_i - G_j) k_j, -1), Akk = (I + A_raw)^-1
  Aqk = tril(scale q_i . exp(G_i - G_j) k_j)
  w = Akk (beta exp(G) k), u = Akk (beta v), v_new = u - w h
  o = scale (q exp(G)) h + Aqk v_new
  h' = exp(G_last) h + (k exp(G_last - G))^T v_new
"""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', 'octave', 'python'))
import kdagdn_dump  # noqa: E402

# T: the sequences' lengths; gate: the log gates are logsigmoid(x + 3) / gate
SIZES = {'small': dict(T=(37, 60), K=16, V=16, BT=16, gate=1),
         'slow': dict(T=(200, 312), K=32, V=32, BT=32, gate=16),
         'large': dict(T=(700, 1348), K=64, V=64, BT=64, gate=1),
         'large_slow': dict(T=(700, 1348), K=64, V=64, BT=64, gate=16),
         # a zero-length sequence in the middle (its state passes through)
         'empty': dict(T=(37, 0, 60), K=16, V=16, BT=16, gate=1),
         # FLA's use_graph: cu_seqlens padded with zero-length tail sequences
         'graph': dict(T=(37, 60, 0, 0), K=16, V=16, BT=16, gate=1,
                       meta=dict(use_graph=True, max_num_seqs=4)),
         # calibration of the local checks: long sequences, many heads
         'long': dict(T=(3000, 5192), K=64, V=64, BT=64, gate=1, H=4, HV=8),
         # at dump scale (sliced by kda_verify): the T = 32768, H = 4,
         # K = V = 64, and a serving size, T = 8192, H = HV = 32, K = V = 128
         'long32k': dict(T=(12000, 20768), K=64, V=64, BT=64, gate=1, H=4, HV=4),
         'serving': dict(T=(3000, 5192), K=128, V=128, BT=64, gate=1, H=32, HV=32),
         'heads': dict(T=(700, 1348), K=32, V=32, BT=64, gate=1, H=16, HV=32)}


def round_tf32(x):
    """x (float32) to TF32 precision, nearest even; gradient passes unchanged."""
    u = x.detach().view(torch.int32).to(torch.int64) & 0xFFFFFFFF
    u = (u + 0xFFF + ((u >> 13) & 1)) & 0xFFFFE000
    r = torch.where(u >= 2 ** 31, u - 2 ** 32, u).to(torch.int32).view(torch.float32)
    return x + (r - x).detach()


def round_bf16(x):
    return x.to(torch.bfloat16).to(x.dtype)


class Kernel:
    def __init__(self, op, mode, bug, BT):
        self.op, self.mode, self.bug, self.BT = op, mode, bug, BT
        self.dt = torch.float64 if mode == 'fp64' else torch.float32
        # store: what FLA keeps in the 16-bit format; dot: a dot's operands
        self.store = round_bf16 if mode == 'bf16' else (lambda x: x)
        self.dot_in = round_tf32 if mode == 'tf32' else (lambda x: x)

    def mm(self, a, b):
        return self.dot_in(a) @ self.dot_in(b)

    def chunk(self, S, q, k, v, g, beta, scale, keep_diag):
        """One chunk of every value head: S [HV,K,V]; q,k [HV,c,K]; g [HV,c,K]."""
        R = self.store
        G = torch.cumsum(g, dim=1)
        c = q.shape[1]
        kg, kn = k * torch.exp(G), k * torch.exp(-G)
        Araw = beta[..., None] * self.mm(kg, kn.transpose(1, 2))
        Araw = torch.tril(Araw, 0 if keep_diag else -1)
        eye = torch.eye(c, dtype=self.dt).expand_as(Araw)
        Akk = R(torch.linalg.solve_triangular(eye + Araw, eye, upper=False))
        qg = scale * q * torch.exp(G)
        Aqk = R(torch.tril(self.mm(qg, kn.transpose(1, 2))))
        w = R(self.mm(Akk, beta[..., None] * kg))
        u = R(self.mm(Akk, beta[..., None] * v))
        h = R(S)
        v_new = R(u - self.mm(w, h))
        o = R(self.mm(qg, h) + self.mm(Aqk, v_new))
        last = G[:, -1:, :]                                    # [HV,1,K]
        decay = torch.exp2(last) if self.bug == 'exp2' else torch.exp(last)
        S = decay.transpose(1, 2) * S + self.mm((k * torch.exp(last - G)).transpose(1, 2), v_new)
        if self.bug == 'state16':
            S = round_bf16(S)
        self.gated = (R(qg if self.bug == 'qgscaled' else q * torch.exp(G)), R(k * torch.exp(last - G)))
        return S, o, Akk, h

    def forward(self, q, k, v, g, beta, h0, cu, scale, keep_diag=False):
        """o [1,T,HV,V], ht [N,HV,K,V], Akk [1,T,HV,BT], h [1,NT,HV,K,V]."""
        HV, H = v.shape[2], q.shape[2]
        heads = torch.arange(HV) % H if self.bug == 'gva' else torch.arange(HV) // (HV // H)
        qh, kh = q[0][:, heads], k[0][:, heads]                # [T,HV,K]
        gk = g[0] if self.op == 'kda' else g[0][..., None].expand_as(kh)
        if self.bug == 'gate1':                                # one step of one head ungated
            gk = gk.clone()
            gk[cu[1] + 20, 1] = 0
        os_, hts, akks, hs, self.qgs, self.kgs = [], [], [], [], [], []
        S = None
        for n in range(len(cu) - 1):
            if S is None or self.bug != 'varlen':
                S = h0[n]
            for t0 in range(cu[n], cu[n + 1], self.BT):
                t1 = min(t0 + self.BT, cu[n + 1])
                sl = [x[t0:t1].transpose(0, 1) for x in (qh, kh, v[0], gk)]
                b = beta[0, t0:t1].transpose(0, 1)
                if self.bug == 'partial' and t1 - t0 < self.BT and t1 == cu[n + 1]:
                    o = torch.zeros_like(sl[2])
                    akk = torch.zeros(HV, t1 - t0, t1 - t0, dtype=self.dt)
                    h = self.store(S)
                else:
                    S, o, akk, h = self.chunk(S, *sl, b, scale, keep_diag)
                    self.qgs.append(self.gated[0].transpose(0, 1))
                    self.kgs.append(self.gated[1].transpose(0, 1))
                os_.append(o.transpose(0, 1))
                akks.append(torch.nn.functional.pad(akk, (0, self.BT - (t1 - t0))).transpose(0, 1))
                hs.append(h)
            hts.append(S)
        o = torch.cat(os_)[None]
        return o, torch.stack(hts), torch.cat(akks)[None], torch.stack(hs)[None]


def make_case(root, spec):
    parts = spec.split(':')
    op, mode, bug, seed = parts[0], parts[1], parts[2], int(parts[3])
    size = SIZES[parts[4] if len(parts) > 4 else 'small']
    gen = torch.Generator().manual_seed(seed)
    H, HV = size.get('H', 2), size.get('HV', 4)
    K, V, BT = size['K'], size['V'], size['BT']
    lens = size['T']
    cu = [0]
    for n in lens:
        cu.append(cu[-1] + n)
    T = cu[-1]
    rnd = lambda *shape: torch.randn(*shape, generator=gen, dtype=torch.float64)
    q = rnd(1, T, H, K)
    k = rnd(1, T, H, K)
    k = k / k.norm(dim=-1, keepdim=True)
    v = rnd(1, T, HV, V)
    gshape = (1, T, HV, K) if op == 'kda' else (1, T, HV)
    g = torch.nn.functional.logsigmoid(rnd(*gshape) + 3) / size['gate']
    beta = torch.sigmoid(rnd(1, T, HV))
    h0 = rnd(len(lens), HV, K, V) / 4
    do = rnd(1, T, HV, V)
    scale = K ** -0.5
    kern = Kernel(op, mode, bug, BT)
    store_dt = torch.bfloat16 if mode == 'bf16' else kern.dt
    inputs = [x.to(store_dt).to(kern.dt).requires_grad_() for x in (q, k, v, g, beta, h0)]
    o, ht, akk, h = kern.forward(*inputs, cu, scale)
    grad_o = do.to(store_dt).to(kern.dt)
    if bug == 'diag':
        o_diag = kern.forward(*inputs, cu, scale, keep_diag=True)[0]
        grads = torch.autograd.grad(o_diag, inputs, grad_o)
    else:
        grads = torch.autograd.grad(o, inputs, grad_o)
    names = ['q', 'k', 'v', 'g', 'beta', 'h0']
    tensors = {n: x.detach() for n, x in zip(names, inputs)}
    tensors.update({'o': o, 'ht': ht, 'Akk': akk, 'h': h, 'do': grad_o})
    tensors.update({'d' + n: x for n, x in zip(names, grads)})
    if bug in ('qgkg', 'qgscaled'):        # FLA's [B, T, HV, K]
        tensors.update({'qg': torch.cat(kern.qgs)[None], 'kg': torch.cat(kern.kgs)[None]})
    out = {}
    for n, x in tensors.items():          # ht, dh0: fp32, as FLA keeps them
        x = x.detach()
        out[n] = x if mode == 'fp64' else x.float() if n in ('ht', 'dh0') else x.to(store_dt)
    if bug == 'dq10':
        out['dq'] = out['dq'] * 10
    if bug == 'nodbeta':                   # beta.grad left None by the kernel
        out['dbeta'] = None
    narrow = {'o16': ('o', torch.float16), 'dqbf16': ('dq', torch.bfloat16),
              'dh0bf16': ('dh0', torch.bfloat16)}
    if bug in narrow:                      # the right values, stored too narrow
        name, dt = narrow[bug]
        out[name] = out[name].to(dt)
    out['cu_seqlens'] = torch.tensor(cu, dtype=torch.int64)
    if mode == 'fp32':                     # the writer's numpy path
        out = {n: None if x is None else x.numpy() for n, x in out.items()}
    folder = os.path.join(root, spec.replace(':', '_'))
    kdagdn_dump.dump(folder, out, chunk_size=BT, scale=scale, **size.get('meta', {}))


if __name__ == '__main__':
    torch.set_num_threads(1)
    for case in sys.argv[2:]:
        make_case(sys.argv[1], case)
