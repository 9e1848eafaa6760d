% gdn_chunk  Gated DeltaNet, chunked form.
%
%     [o, S] = gdn_chunk (q, k, v, g, beta)
%     [o, S] = gdn_chunk (q, k, v, g, beta, Name, Value, ...)
%     [o, S, aux] = gdn_chunk (..., 'Intermediates', true)
%
%   For every sequence and value head, from the state S_0 (K x V;
%   'InitialState', else zeros), for t = 1, ..., T:
%       S'_t = exp (g_t) * S_{t-1}                   (decay, one per step)
%       S_t  = S'_t + beta_t * k_t * (v_t - S'_t' * k_t)'    (delta rule)
%       o_t  = S_t' * (Scale * q_t)
%   computed in chunks of ChunkSize steps with matrix products (the WY
%   form of docs/chunk_forward.md; decays formed as products of per-step
%   factors, so strong gates cannot overflow).  Equals gdn_recurrent to
%   rounding for every chunk size and every T.
%
%   Arguments (trailing singleton dimensions may be dropped):
%     q, k   K x T x H x B    queries, keys: H heads, B sequences
%     v      V x T x HV x B   values: HV heads, a multiple of H (value head
%                             j reads query/key head floor ((j-1)/(HV/H))+1)
%     g      T x HV x B       gates in log space, one per step and head (<= 0
%                             for a decay; raw with 'GateInKernel')
%     beta   T x HV x B       write strengths (logits with 'BetaSigmoid')
%   q, k, v, g and beta are all single or all double; the work and every
%   output are in that class.
%
%   Options (Name, Value pairs; names case-insensitive; name, default,
%   meaning):
%     Scale           1/sqrt(K)  the factor of q: o_t = S_t' (Scale q_t);
%                                finite and > 0
%     InitialState    zeros      S_0, K x V x HV x N (V x K x HV x N with
%                                'VK'); single or double
%     CuSeqlens       none       [0, t1, ..., T]: splits a batch of one into N
%                                independent sequences
%     ChunkSize       64         chunk size (chunked), checkpoint interval
%                                (recurrent backward); no effect in the
%                                recurrent forward
%     UseQKL2Norm     false      divide every q_t and k_t by its 2-norm over K
%                                first (unnormalised keys can make the state
%                                grow: warning stateGrowth)
%     L2NormEps       0          'UseQKL2Norm' divides by sqrt(sum x^2 + eps)
%                                (FLA: 1e-6); finite and >= 0
%     GateInKernel    false      g is raw: gate = -exp(ALog) softplus(g +
%                                DtBias), or LowerBound sigmoid(exp(ALog) (g +
%                                DtBias))
%     ALog            none       HV values: the log decay rate of
%                                'GateInKernel'; optional with LowerBound
%     DtBias          zeros      K x HV (KDA) or HV (GDN): the bias of
%                                'GateInKernel'
%     LowerBound      none       lb < 0: 'GateInKernel' uses lb sigmoid(...)
%                                instead of the softplus form
%     SafeGate        false      FLA's safe_gate: needs LowerBound in [-5, 0);
%                                without GateInKernel g must lie in
%                                [LowerBound, 0)
%     BetaSigmoid     false      beta is a logit: beta_t = sigmoid(beta)
%     AllowNegEigval  false      with 'BetaSigmoid': beta_t = 2 sigmoid(beta),
%                                in (0, 2)
%     StateLayout     'KV'       'KV' or 'VK': states (InitialState, S, dS,
%                                dS0) are K x V or V x K per head
%     GK              none       K x T x HV x B log gate per key (FLA's gk):
%                                S' = Diag(exp(g + GK)) S Diag(exp(GV));
%                                recurrent paths only
%     GV              none       V x T x HV x B log gate per value (FLA's gv),
%                                with GK's formula; recurrent paths only
%     Intermediates   false      return the per-chunk quantities of the
%                                derivation (or their gradients) in aux
%     Verbose         false      print a progress line each second of a call
%                                that runs a second or more
%     Emulate         'none'     'bf16' or 'fp16': round inputs and stored
%                                intermediates to that format, work in single;
%                                'tf32': round the operands of the products to
%                                10-bit mantissas (a float32 kernel with TF32
%                                dots)
%
%   Outputs:
%     o      V x T x HV x B   the outputs o_t
%     S      K x V x HV x N   the final states S_T (V x K x HV x N with
%                             'StateLayout', 'VK'); N = B, or the number of
%                             CuSeqlens sequences
%     aux    struct           with 'Intermediates', true: the per-chunk
%                             quantities G, A_raw, A, Aqk, w, u, v_new, h,
%                             chunks, ChunkSize (docs/api.md); else a struct
%                             with no fields
%
%   Errors carry the identifiers gdn:nargin, gdn:nargout, gdn:badClass,
%   gdn:badShape, gdn:badOption, gdn:badCuSeqlens and gdn:outOfMemory; the
%   rules, the shapes and the classes in full: docs/api.md.
%
%   Example:
%     K = 16; V = 32; T = 200; H = 2; HV = 4;
%     q = randn (K, T, H); k = randn (K, T, H); v = randn (V, T, HV);
%     g = -rand (T, HV); beta = rand (T, HV);
%     [o, S] = gdn_chunk (q, k, v, g, beta, 'ChunkSize', 32, 'UseQKL2Norm', true);
%     o2 = gdn_recurrent (q, k, v, g, beta, 'UseQKL2Norm', true);
%     norm (o(:) - o2(:)) / norm (o2(:))      % rounding only
%
%   See also: gdn_recurrent, gdn_chunk_bwd, kda_chunk, kdagdn

function varargout = gdn_chunk (varargin)
  [varargout{1:max (nargout, 1)}] = la_mex ('gdn_chunk', varargin{:});
end

%!shared q, k, v, g, beta
%! q = randn (4, 6, 2);  k = randn (4, 6, 2);  v = randn (3, 6, 2);
%! g = -rand (6, 2);  beta = rand (6, 2);

%!test
%! % the recurrent result, for a chunk size that does not divide T
%! [o, S, aux] = gdn_chunk (q, k, v, g, beta, 'ChunkSize', 4);
%! [o2, S2] = gdn_recurrent (q, k, v, g, beta);
%! assert (o, o2, 1e-12 * max (abs (o2(:))));
%! assert (S, S2, 1e-12 * max (abs (S2(:))));
%! assert (isstruct (aux) && isempty (fieldnames (aux)));

%!test
%! % the cumulative gate of the intermediates restarts in every chunk
%! [~, ~, aux] = gdn_chunk (q, k, v, g, beta, 'ChunkSize', 4, 'Intermediates', true);
%! assert (aux.G, [cumsum(g(1:4, :)); cumsum(g(5:6, :))], 1e-14);

%!error id=gdn:badOption gdn_chunk (q, k, v, g, beta, 'ChunkSize', -3)
%!error id=gdn:badOption gdn_recurrent (q, k, v, g, beta, 'Intermediates', true)

%!demo
%! % single precision against double: the relative difference of o over T
%! K = 64; V = 64;
%! for T = [256 1024 4096]
%!   q = randn (K, T); k = randn (K, T); v = randn (V, T);
%!   g = -rand (T, 1) / 8; beta = rand (T, 1);
%!   o = gdn_chunk (q, k, v, g, beta, 'UseQKL2Norm', true);
%!   o1 = gdn_chunk (single (q), single (k), single (v), single (g), ...
%!                   single (beta), 'UseQKL2Norm', true);
%!   fprintf ('T = %5d: single vs double %.1e\n', T, ...
%!            norm (double (o1(:)) - o(:)) / norm (o(:)));
%! end
