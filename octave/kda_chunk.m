% kda_chunk  Kimi Delta Attention, chunked form.
%
%     [o, S] = kda_chunk (q, k, v, g, beta)
%     [o, S] = kda_chunk (q, k, v, g, beta, Name, Value, ...)
%     [o, S, aux] = kda_chunk (..., 'Intermediates', true)
%
%   For every sequence and value head, from the state S_0 (K x V;
%   'InitialState', else zeros), for t = 1, ..., T:
%       S'_t = Diag (exp (g_t)) * S_{t-1}            (decay, per channel)
%       S_t  = S'_t + beta_t * k_t * (v_t - S'_t' * k_t)'    (delta rule)
%       o_t  = S_t' * (Scale * q_t)
%   computed in chunks of ChunkSize steps with matrix products (the WY
%   form of docs/chunk_forward.md; decays formed as products of per-step
%   factors, so strong gates cannot overflow).  Equals kda_recurrent to
%   rounding for every chunk size and every T.
%
%   Arguments (trailing singleton dimensions may be dropped):
%     q, k   K x T x H x B    queries, keys: H heads, B sequences
%     v      V x T x HV x B   values: HV heads, a multiple of H (value head
%                             j reads query/key head floor ((j-1)/(HV/H))+1)
%     g      K x T x HV x B   gates in log space, one per channel (<= 0
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
%   Errors carry the identifiers kda:nargin, kda:nargout, kda:badClass,
%   kda:badShape, kda:badOption, kda:badCuSeqlens and kda:outOfMemory; the
%   rules, the shapes and the classes in full: docs/api.md.
%
%   Example:
%     K = 16; V = 32; T = 200; H = 2; HV = 4;
%     q = randn (K, T, H); k = randn (K, T, H); v = randn (V, T, HV);
%     k = k ./ sqrt (sum (k .^ 2, 1));         % unit keys
%     g = -rand (K, T, HV); beta = rand (T, HV);
%     [o, S, aux] = kda_chunk (q, k, v, g, beta, 'ChunkSize', 32, ...
%                              'Intermediates', true);
%     o2 = kda_recurrent (q, k, v, g, beta);
%     norm (o(:) - o2(:)) / norm (o2(:))      % rounding only
%     t0 = aux.chunks(2, 2); c = aux.chunks(2, 3);
%     A = aux.A(1:c, t0:t0+c-1, 1).'         % the second chunk's A, head 1
%
%   See also: kda_recurrent, kda_chunk_bwd, gdn_chunk, kdagdn

function varargout = kda_chunk (varargin)
  [varargout{1:max (nargout, 1)}] = la_mex ('kda_chunk', varargin{:});
end

%!shared q, k, v, g, beta
%! q = randn (4, 6, 2);  k = randn (4, 6, 2);  v = randn (3, 6, 2);
%! g = -rand (4, 6, 2);  beta = rand (6, 2);

%!test
%! % the recurrent result, for a chunk size that does not divide T
%! [o, S, aux] = kda_chunk (q, k, v, g, beta, 'ChunkSize', 4);
%! [o2, S2] = kda_recurrent (q, k, v, g, beta);
%! assert (o, o2, 1e-12 * max (abs (o2(:))));
%! assert (S, S2, 1e-12 * max (abs (S2(:))));
%! assert (isstruct (aux) && isempty (fieldnames (aux)));

%!test
%! % the intermediates: two chunks of 4 and 2 steps, unit lower-triangular
%! [~, ~, aux] = kda_chunk (q, k, v, g, beta, 'ChunkSize', 4, 'Intermediates', true);
%! assert (aux.chunks, [1 1 4; 1 5 2]);
%! assert (size (aux.A), [4 6 2]);
%! assert (size (aux.h), [4 3 2 2]);
%! A = aux.A(1:4, 1:4, 1).';
%! assert (istril (A));

%!error id=kda:badOption kda_chunk (q, k, v, g, beta, 'ChunkSize', 0)
%!error <ChunkSize> kda_chunk (q, k, v, g, beta, 'ChunkSize', 2.5)

%!demo
%! % any chunk size gives the recurrent result to rounding; it sets the speed
%! K = 64; V = 64; T = 2048;
%! q = randn (K, T); k = randn (K, T); v = randn (V, T);
%! k = k ./ sqrt (sum (k .^ 2, 1));
%! g = -rand (K, T) / 4; beta = rand (T, 1);
%! tic; o_ref = kda_recurrent (q, k, v, g, beta); t_ref = toc;
%! fprintf ('recurrent        %.3f s\n', t_ref);
%! for C = [16 32 64 128]
%!   tic; o = kda_chunk (q, k, v, g, beta, 'ChunkSize', C); t = toc;
%!   fprintf ('ChunkSize %4d   %.3f s   rel. difference %.1e\n', C, t, ...
%!            norm (o(:) - o_ref(:)) / norm (o_ref(:)));
%! end
