% kda_state_map  Kimi Delta Attention, the affine state map of each sequence.
%
%     [P, R] = kda_state_map (q, k, v, g, beta)
%     [P, R] = kda_state_map (q, k, v, g, beta, Name, Value, ...)
%
%   A sequence (or a segment of one, e.g. the part one device holds in
%   context parallelism) maps its entering state S_0 to its leaving state
%   S_T affinely, for every S_0:
%       S_T = P * S_0 + R                   (per value head, K x V states)
%   with the per-step transition M_t = (I - beta_t k_t k_t') * Diag (exp (g_t))
%   of S_t = M_t S_{t-1} + beta_t k_t v_t' (the recurrence of kda_chunk):
%       P = M_T * ... * M_2 * M_1           (K x K)
%       R = the final state from S_0 = 0    (K x V)
%   Both come from one chunked forward with the value [v_t; zeros(K, 1)]
%   and the initial state [zeros(K, V), eye(K)], whose final state is
%   [R, P] (docs/state_map.md).  la_state_map_merge composes the maps of
%   consecutive segments.
%
%   Arguments (trailing singleton dimensions may be dropped):
%     q, k   K x T x H x B    queries, keys: H heads, B sequences; q is
%                             checked like kda_chunk's but does not enter
%                             the map (it is an argument so that the call
%                             takes the forward's arguments unchanged)
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
%   'Scale' and 'InitialState' are not options here: q does not enter the
%   map, and the map is what acts on the initial state.
%
%   Outputs:
%     P      K x K x HV x N   the product of the transitions, per sequence
%                             and value head (K x K whatever the layout)
%     R      K x V x HV x N   the final state from a zero initial state (V x
%                             K x HV x N with 'StateLayout', 'VK'; then
%                             S_T' = S_0' * P' + R); N = B, or the number
%                             of CuSeqlens sequences
%
%   Errors carry the identifiers kda:nargin, kda:nargout, kda:badClass,
%   kda:badShape, kda:badOption, kda:badCuSeqlens and kda:outOfMemory; the
%   rules, the shapes and the classes in full: docs/api.md.
%
%   Example:
%     K = 8; V = 16; T = 100; HV = 2;
%     q = randn (K, T); k = randn (K, T); v = randn (V, T, HV);
%     g = -rand (K, T, HV); beta = rand (T, HV);
%     k = k ./ sqrt (sum (k .^ 2, 1));
%     % two segments of 60 and 40 steps, merged, give the whole sequence
%     [P, R] = kda_state_map (q, k, v, g, beta, 'CuSeqlens', [0 60 100]);
%     S = la_state_map_merge (P, R);
%     [~, S_ref] = kda_recurrent (q, k, v, g, beta);
%     norm (S(:) - S_ref(:)) / norm (S_ref(:))        % rounding only
%
%   See also: kda_state_map_bwd, la_state_map_merge, kda_chunk, gdn_state_map

function varargout = kda_state_map (varargin)
  [varargout{1:max (nargout, 1)}] = la_mex ('kda_state_map', varargin{:});
end

%!shared q, k, v, g, beta
%! q = randn (4, 9, 1);  k = randn (4, 9, 1);  v = randn (3, 9, 2);
%! g = -rand (4, 9, 2);  beta = rand (9, 2);

%!test
%! % single stays single; 'VK' transposes R only
%! [P, R] = kda_state_map (single (q), single (k), single (v), single (g), single (beta));
%! [P2, R2] = kda_state_map (q, k, v, g, beta, 'StateLayout', 'VK');
%! assert (isa (P, 'single') && isa (R, 'single'));
%! assert (double (P), P2, 1e-5);
%! assert (double (R), permute (R2, [2 1 3]), 1e-5);

%!error id=kda:badOption kda_state_map (q, k, v, g, beta, 'Scale', 2)
%!error id=kda:badOption kda_state_map (q, k, v, g, beta, 'InitialState', zeros (4, 3, 2))

%!demo
%! % context parallelism: one sequence cut into 1 to 64 segments, each
%! % segment's map computed on its own, then merged; the error does not
%! % grow with the number of segments
%! K = 32; V = 32; T = 1024;
%! q = randn (K, T); k = randn (K, T); v = randn (V, T);
%! k = k ./ sqrt (sum (k .^ 2, 1));
%! g = -rand (K, T) / 4; beta = rand (T, 1); S0 = randn (K, V);
%! [~, S_ref] = kda_recurrent (q, k, v, g, beta, 'InitialState', S0);
%! for n = [1 4 16 64]
%!   [P, R] = kda_state_map (q, k, v, g, beta, 'CuSeqlens', round (linspace (0, T, n + 1)));
%!   S = la_state_map_merge (P, R, S0);
%!   fprintf ('%2d segments: rel. difference of the final state %.1e\n', n, ...
%!            norm (S(:) - S_ref(:)) / norm (S_ref(:)));
%! end
