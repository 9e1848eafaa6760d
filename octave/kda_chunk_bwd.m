% kda_chunk_bwd  Kimi Delta Attention, gradients of the chunked form.
%
%     [dq, dk, dv, dg, dbeta, dS0, dALog, dDtBias] = ...
%         kda_chunk_bwd (q, k, v, g, beta, dout, dS)
%     [...] = kda_chunk_bwd (q, k, v, g, beta, dout, dS, Name, Value, ...)
%     [dq, ..., dDtBias, aux] = kda_chunk_bwd (..., 'Intermediates', true)
%
%   Given the inputs of [o, S] = kda_chunk (q, k, v, g, beta, ...) and
%   the gradients dout = dL/do and dS = dL/dS of a scalar loss L, returns
%   the gradient of L with respect to every input, chunk by chunk: a
%   forward sweep keeps the state entering each chunk and the chunk's M,
%   A, w and v_new, a reverse sweep back-propagates through them
%   (docs/chunk_backward.md, also for the memory).  Equals
%   kda_recurrent_bwd to rounding.  Pass the options of the forward call.
%
%   Arguments (trailing singleton dimensions may be dropped):
%     q, k   K x T x H x B    queries, keys: H heads, B sequences
%     v      V x T x HV x B   values: HV heads, a multiple of H (value head
%                             j reads query/key head floor ((j-1)/(HV/H))+1)
%     g      K x T x HV x B   gates in log space, one per channel (<= 0
%                             for a decay; raw with 'GateInKernel')
%     beta   T x HV x B       write strengths (logits with 'BetaSigmoid')
%     dout   V x T x HV x B   dL/do, the gradient of o
%     dS     K x V x HV x N   dL/dS, the gradient of the final state (V x K
%                             x HV x N with 'StateLayout', 'VK'); [] = zero
%   q, k, v, g, beta and dout are all single or all double; the work and
%   every output are in that class.
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
%   Outputs (each the shape of its input, in the working class):
%     dq, dk, dv, dg, dbeta   the gradients of the inputs as given (of the
%                             raw g with 'GateInKernel', of the logit with
%                             'BetaSigmoid'); dq, dk summed over each group
%                             of value heads that read the head
%     dS0                     dL/dS_0: the shape of InitialState, or of S
%                             when no InitialState is given
%     dALog, dDtBias          the gradients of ALog and DtBias with
%                             'GateInKernel' (dDtBias the shape of DtBias,
%                             or its default's), else []; dALog is [] when
%                             no ALog is given (LowerBound form)
%     aux                     with 'Intermediates', true: the gradients of
%                             the forward's per-chunk quantities, dh (K x V
%                             x HV x NC, the state entering each chunk),
%                             dv_new, du, dw, dAqk, dA, dA_raw, dG, chunks,
%                             ChunkSize (docs/api.md); else a struct with
%                             no fields
%
%   Errors carry the identifiers kda:nargin, kda:nargout, kda:badClass,
%   kda:badShape, kda:badOption, kda:badCuSeqlens and kda:outOfMemory; the
%   rules, the shapes and the classes in full: docs/api.md.
%
%   Example:
%     K = 16; V = 32; T = 100;
%     q = randn (K, T); k = randn (K, T); v = randn (V, T);
%     g = -rand (K, T); beta = rand (T, 1);
%     [o, S] = kda_chunk (q, k, v, g, beta);
%     dout = randn (size (o)); dS = randn (size (S));
%     [dq, dk, dv, dg] = kda_chunk_bwd (q, k, v, g, beta, dout, dS);
%     % against central differences along a random direction d of g:
%     L = @(o, S) dout(:)' * o(:) + dS(:)' * S(:);
%     e = 1e-6; d = randn (size (g));
%     [o1, S1] = kda_chunk (q, k, v, g + e * d, beta);
%     [o2, S2] = kda_chunk (q, k, v, g - e * d, beta);
%     [(L (o1, S1) - L (o2, S2)) / (2 * e), dg(:)' * d(:)]   % agree
%
%   See also: kda_chunk, kda_recurrent_bwd, gdn_chunk_bwd, kdagdn

function varargout = kda_chunk_bwd (varargin)
  [varargout{1:max (nargout, 1)}] = la_mex ('kda_chunk_bwd', varargin{:});
end

%!shared q, k, v, g, beta, dout, dS
%! q = randn (4, 6, 2);  k = randn (4, 6, 2);  v = randn (3, 6, 2);
%! g = -rand (4, 6, 2);  beta = rand (6, 2);
%! dout = randn (3, 6, 2);  dS = randn (4, 3, 2);

%!test
%! % the recurrent backward's gradients; dS = [] is dS = 0
%! X = cell (1, 8);  Y = X;
%! [X{:}] = kda_chunk_bwd (q, k, v, g, beta, dout, dS, 'ChunkSize', 4);
%! [Y{:}] = kda_recurrent_bwd (q, k, v, g, beta, dout, dS);
%! for i = 1:6
%!   assert (X{i}, Y{i}, 1e-12 * max (abs (Y{i}(:))));
%! end
%! assert (isempty (X{7}) && isempty (X{8}));
%! [X{:}] = kda_chunk_bwd (q, k, v, g, beta, dout, [], 'ChunkSize', 4);
%! [Y{:}] = kda_chunk_bwd (q, k, v, g, beta, dout, zeros (4, 3, 2), 'ChunkSize', 4);
%! assert (X, Y);

%!test
%! % 'Intermediates': the same gradients; dh of the first chunk is dS0, of a
%! % later chunk the state gradient of the backward of the steps from there
%! X = cell (1, 9);  Y = cell (1, 6);
%! [X{:}] = kda_chunk_bwd (q, k, v, g, beta, dout, dS, 'ChunkSize', 4, 'Intermediates', true);
%! [Y{:}] = kda_chunk_bwd (q, k, v, g, beta, dout, dS, 'ChunkSize', 4);
%! assert (isequal (X(1:6), Y));
%! a = X{9};
%! assert (size (a.dh), [4 3 2 2]);
%! assert (a.chunks, [1 1 4; 1 5 2]);
%! assert (a.dh(:, :, :, 1), X{6});
%! assert (isequal (a.du, a.dv_new) && isequal (size (a.dAqk), [4 6 2]) && isequal (size (a.dG), size (g)));
%! [~, ~, f] = kda_chunk (q, k, v, g, beta, 'ChunkSize', 4, 'Intermediates', true);
%! [Y{:}] = kda_chunk_bwd (q(:, 5:6, :), k(:, 5:6, :), v(:, 5:6, :), g(:, 5:6, :), beta(5:6, :), ...
%!                         dout(:, 5:6, :), dS, 'InitialState', f.h(:, :, :, 2));
%! assert (a.dh(:, :, :, 2), Y{6}, 1e-12 * max (abs (Y{6}(:))));
%! % dg is the reverse cumulative sum of dG inside each chunk
%! rc = @(x) flip (cumsum (flip (x, 2), 2), 2);
%! assert ([rc(a.dG(:, 1:4, :)), rc(a.dG(:, 5:6, :))], X{4}, 1e-12 * max (abs (X{4}(:))));
%! [Z{1:9}] = kda_chunk_bwd (q, k, v, g, beta, dout, dS);
%! assert (isempty (fieldnames (Z{9})));

%!error id=kda:badShape kda_chunk_bwd (q, k, v, g, beta, dout(:, 1:5, :), dS)
%!error <do must be the size of v> kda_chunk_bwd (q, k, v, g, beta, dout(1:2, :, :), dS)

%!demo
%! % one gradient step on v lowers L = |o - target|^2 / 2
%! K = 16; V = 16; T = 256;
%! q = randn (K, T); k = randn (K, T); v = randn (V, T);
%! k = k ./ sqrt (sum (k .^ 2, 1));
%! g = -rand (K, T) / 4; beta = rand (T, 1); target = randn (V, T);
%! for step = 0:3
%!   o = kda_chunk (q, k, v, g, beta);
%!   fprintf ('step %d: L = %.2f\n', step, sum ((o(:) - target(:)) .^ 2) / 2);
%!   [~, ~, dv] = kda_chunk_bwd (q, k, v, g, beta, o - target, []);
%!   v = v - 0.5 * dv;
%! end
