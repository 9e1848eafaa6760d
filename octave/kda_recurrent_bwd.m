% kda_recurrent_bwd  Kimi Delta Attention, gradients of the recurrent form.
%
%     [dq, dk, dv, dg, dbeta, dS0, dALog, dDtBias] = ...
%         kda_recurrent_bwd (q, k, v, g, beta, dout, dS)
%     [...] = kda_recurrent_bwd (q, k, v, g, beta, dout, dS, Name, Value, ...)
%
%   Given the inputs of [o, S] = kda_recurrent (q, k, v, g, beta, ...)
%   and the gradients dout = dL/do and dS = dL/dS of a scalar loss L,
%   returns the gradient of L with respect to every input:
%   backpropagation through time of the recurrence (docs/recurrence.md),
%   through the in-kernel transforms that are on.  The states are
%   recomputed from checkpoints kept every ChunkSize steps (memory
%   O((T/ChunkSize + ChunkSize) K V) per head; the result does not depend
%   on ChunkSize beyond rounding).  Pass the options of the forward call.
%
%   Arguments (trailing singleton dimensions may be dropped):
%     q, k   K x T x H x B    queries, keys: H heads, B sequences
%     v      V x T x HV x B   values: HV heads, a multiple of H (value head
%                             j reads query/key head floor ((j-1)/(HV/H))+1)
%     g      K x T x HV x B   gates in log space, one per channel (<= 0
%                             for a decay; raw with 'GateInKernel')
%     beta   T x HV x B       write strengths (logits with 'BetaSigmoid'),
%            or V x T x HV x B  one per value channel: u_t = beta_t .* (v_t -
%                             S'_t' * k_t) (FLA's per-channel [B,T,HV,V])
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
%
%   Errors carry the identifiers kda:nargin, kda:nargout, kda:badClass,
%   kda:badShape, kda:badOption, kda:badCuSeqlens and kda:outOfMemory; the
%   rules, the shapes and the classes in full: docs/api.md.
%
%   Example:
%     K = 8; V = 8; T = 50;
%     q = randn (K, T); k = randn (K, T); v = randn (V, T);
%     g = -rand (K, T); beta = rand (T, 1);
%     o = kda_recurrent (q, k, v, g, beta, 'UseQKL2Norm', true);
%     % the gradient of L = sum (o(:) .^ 2) / 2, so dL/do = o:
%     [dq, dk, dv, dg, dbeta] = kda_recurrent_bwd (q, k, v, g, beta, o, [], ...
%                                                  'UseQKL2Norm', true);
%
%   See also: kda_recurrent, kda_chunk_bwd, gdn_recurrent_bwd, kdagdn

function varargout = kda_recurrent_bwd (varargin)
  [varargout{1:max (nargout, 1)}] = la_mex ('kda_recurrent_bwd', varargin{:});
end

%!shared q, k, v, g, b, dO, dS
%! q = randn (4, 5, 1, 2);  k = randn (4, 5, 1, 2);  v = randn (3, 5, 2, 2);
%! g = -rand (4, 5, 2, 2);  b = rand (5, 2, 2);      dO = randn (3, 5, 2, 2);
%! dS = randn (4, 3, 2, 2);

%!test
%! % one step by hand: o = S1' * (s q), L = dO' * o
%! q1 = [1; 2]; k1 = [0.6; 0.8]; v1 = [1; -1; 2]; g1 = [-0.5; -0.1]; b1 = 0.3;
%! S0 = [1 2 3; 4 5 6]; s = 0.5; dO1 = [0.2; -1; 0.7];
%! E = diag (exp (g1));
%! Sp = E * S0;
%! e = v1 - Sp' * k1;
%! S1 = Sp + b1 * k1 * e';
%! dS1 = s * q1 * dO1';
%! de = b1 * dS1' * k1;
%! dSp = dS1 - k1 * de';
%! dg = sum (dSp .* Sp, 2);
%! want = {s * S1 * dO1, b1 * dS1 * e - Sp * de, b1 * dS1' * k1, ...
%!         dg, k1' * dS1 * e, E * dSp};
%! got = cell (1, 6);
%! [got{:}] = kda_recurrent_bwd (q1, k1, v1, g1, b1, dO1, [], ...
%!                               'InitialState', S0, 'Scale', s);
%! for i = 1:6
%!   assert (got{i}, want{i}, 1e-14);
%! end

%!test
%! % single in, single out; dALog and dDtBias are [] without GateInKernel
%! out = cell (1, 8);
%! [out{:}] = kda_recurrent_bwd (single (q), single (k), single (v), single (g), ...
%!                               single (b), single (dO), dS);
%! assert (all (strcmp (cellfun (@class, out(1:6), 'UniformOutput', false), 'single')));
%! assert (isempty (out{7}) && isempty (out{8}));

%!error id=kda:nargin kda_recurrent_bwd (q, k, v, g, b, dO)
%!error <dS> kda_recurrent_bwd (q, k, v, g, b, dO, dS(:, :, 1, :))

%!demo
%! % dbeta against central differences of the forward along a direction d
%! K = 8; V = 8; T = 40;
%! q = randn (K, T); k = randn (K, T); v = randn (V, T);
%! g = -rand (K, T); beta = randn (T, 1);
%! [o, S] = kda_recurrent (q, k, v, g, beta, 'BetaSigmoid', true);
%! dout = randn (size (o));
%! [~, ~, ~, ~, dbeta] = kda_recurrent_bwd (q, k, v, g, beta, dout, [], ...
%!                                          'BetaSigmoid', true);
%! d = randn (T, 1); e = 1e-6;
%! op = kda_recurrent (q, k, v, g, beta + e * d, 'BetaSigmoid', true);
%! om = kda_recurrent (q, k, v, g, beta - e * d, 'BetaSigmoid', true);
%! fprintf ('finite differences %.10f\nbackward           %.10f\n', ...
%!          dout(:)' * (op(:) - om(:)) / (2 * e), dbeta' * d);
