% gdn_chunk_bwd  Gated DeltaNet, gradients of the chunked form.
%
%     [dq, dk, dv, dg, dbeta, dS0, dALog, dDtBias] = ...
%         gdn_chunk_bwd (q, k, v, g, beta, dout, dS)
%     [...] = gdn_chunk_bwd (q, k, v, g, beta, dout, dS, Name, Value, ...)
%     [dq, ..., dDtBias, aux] = gdn_chunk_bwd (..., 'Intermediates', true)
%
%   Given the inputs of [o, S] = gdn_chunk (q, k, v, g, beta, ...) and
%   the gradients dout = dL/do and dS = dL/dS of a scalar loss L, returns
%   the gradient of L with respect to every input, chunk by chunk: a
%   forward sweep keeps the state entering each chunk and the chunk's M,
%   A, w and v_new, a reverse sweep back-propagates through them
%   (docs/chunk_backward.md, also for the memory).  Equals
%   gdn_recurrent_bwd to rounding.  Pass the options of the forward call.
%
%   Arguments (trailing singleton dimensions may be dropped):
%     q, k   K x T x H x B    queries, keys: H heads, B sequences
%     v      V x T x HV x B   values: HV heads, a multiple of H (value head
%                             j reads query/key head floor ((j-1)/(HV/H))+1)
%     g      T x HV x B       gates in log space, one per step and head (<= 0
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
%   Errors carry the identifiers gdn:nargin, gdn:nargout, gdn:badClass,
%   gdn:badShape, gdn:badOption, gdn:badCuSeqlens and gdn:outOfMemory; the
%   rules, the shapes and the classes in full: docs/api.md.
%
%   Example:
%     K = 16; V = 32; T = 100; HV = 2;
%     q = randn (K, T); k = randn (K, T); v = randn (V, T, HV);
%     k = k ./ sqrt (sum (k .^ 2, 1));          % unit keys
%     g = randn (T, HV); beta = randn (T, HV);     % raw gates and logits
%     a = log ([0.5; 2]);                        % ALog, one per value head
%     opts = {'GateInKernel', true, 'ALog', a, 'BetaSigmoid', true};
%     [o, S] = gdn_chunk (q, k, v, g, beta, opts{:});
%     [dq, dk, dv, dg, dbeta, dS0, dALog, dDtBias] = ...
%         gdn_chunk_bwd (q, k, v, g, beta, ones (size (o)), [], opts{:});
%     size (dALog), size (dDtBias)              % 2 x 1 each
%
%   See also: gdn_chunk, gdn_recurrent_bwd, kda_chunk_bwd, kdagdn

function varargout = gdn_chunk_bwd (varargin)
  [varargout{1:max (nargout, 1)}] = la_mex ('gdn_chunk_bwd', varargin{:});
end

%!shared q, k, v, g, beta, dout, dS
%! q = randn (4, 6, 2);  k = randn (4, 6, 2);  v = randn (3, 6, 2);
%! g = -rand (6, 2);  beta = rand (6, 2);
%! dout = randn (3, 6, 2);  dS = randn (4, 3, 2);

%!test
%! % the recurrent backward's gradients, also through the transforms
%! opts = {'GateInKernel', true, 'ALog', [0.3 -0.2], 'DtBias', [0.1 0], ...
%!         'BetaSigmoid', true, 'UseQKL2Norm', true};
%! X = cell (1, 8);  Y = X;
%! [X{:}] = gdn_chunk_bwd (q, k, v, g, beta, dout, dS, 'ChunkSize', 4, opts{:});
%! [Y{:}] = gdn_recurrent_bwd (q, k, v, g, beta, dout, dS, opts{:});
%! for i = 1:8
%!   assert (X{i}, Y{i}, 1e-12 * max (abs (Y{i}(:))));
%! end

%!test
%! % 'Intermediates' of GDN: one gate per step, so dG is T x HV; its reverse
%! % cumulative sum inside each chunk is dg
%! X = cell (1, 9);
%! [X{:}] = gdn_chunk_bwd (q, k, v, g, beta, dout, dS, 'ChunkSize', 4, 'Intermediates', true);
%! a = X{9};
%! assert (size (a.dG), size (g));
%! rc = @(x) flip (cumsum (flip (x, 1), 1), 1);
%! assert ([rc(a.dG(1:4, :)); rc(a.dG(5:6, :))], X{4}, 1e-12 * max (abs (X{4}(:))));
%! assert (a.dh(:, :, :, 1), X{6});
%! assert (all (all (a.dA_raw(:, 1) == 0)));   % the first row of a strictly lower matrix

%!error id=gdn:badOption gdn_recurrent_bwd (q, k, v, g, beta, dout, dS, 'Intermediates', true)
%!error id=gdn:nargin gdn_chunk_bwd (q, k, v, g, beta, dout)

%!demo
%! % dALog against central differences: the gate's decay rate learns too
%! K = 8; V = 8; T = 64;
%! q = randn (K, T); k = randn (K, T); v = randn (V, T); g = randn (T, 1);
%! beta = rand (T, 1); a = log (0.7); dout = randn (V, T);
%! run = @(a) gdn_chunk (q, k, v, g, beta, 'GateInKernel', true, 'ALog', a);
%! [~, ~, ~, ~, ~, ~, dALog] = gdn_chunk_bwd (q, k, v, g, beta, dout, [], ...
%!                                            'GateInKernel', true, 'ALog', a);
%! e = 1e-6; op = run (a + e); om = run (a - e);
%! fprintf ('dALog: backward %.8f, central differences %.8f\n', dALog, ...
%!          dout(:)' * (op(:) - om(:)) / (2 * e));
