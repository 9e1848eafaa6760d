% gdn_state_map  Gated DeltaNet, the affine state map of each sequence.
%
%     [P, R] = gdn_state_map (q, k, v, g, beta)
%     [P, R] = gdn_state_map (q, k, v, g, beta, Name, Value, ...)
%
%   A sequence (or a segment of one, e.g. the part one device holds in
%   context parallelism) maps its entering state S_0 to its leaving state
%   S_T affinely, for every S_0:
%       S_T = P * S_0 + R                   (per value head, K x V states)
%   with the per-step transition M_t = (I - beta_t k_t k_t') * exp (g_t)
%   of S_t = M_t S_{t-1} + beta_t k_t v_t' (the recurrence of gdn_chunk):
%       P = M_T * ... * M_2 * M_1           (K x K)
%       R = the final state from S_0 = 0    (K x V)
%   Both come from one chunked forward with the value [v_t; zeros(K, 1)]
%   and the initial state [zeros(K, V), eye(K)], whose final state is
%   [R, P] (docs/state_map.md).  la_state_map_merge composes the maps of
%   consecutive segments.
%
%   Arguments (trailing singleton dimensions may be dropped):
%     q, k   K x T x H x B    queries, keys: H heads, B sequences; q is
%                             checked like gdn_chunk's but does not enter
%                             the map (it is an argument so that the call
%                             takes the forward's arguments unchanged)
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
%   Errors carry the identifiers gdn:nargin, gdn:nargout, gdn:badClass,
%   gdn:badShape, gdn:badOption, gdn:badCuSeqlens and gdn:outOfMemory; the
%   rules, the shapes and the classes in full: docs/api.md.
%
%   Example:
%     K = 8; V = 16; T = 100; HV = 2;
%     q = randn (K, T); k = randn (K, T); v = randn (V, T, HV);
%     g = -rand (T, HV); beta = rand (T, HV);
%     k = k ./ sqrt (sum (k .^ 2, 1));
%     % two segments of 60 and 40 steps, merged, give the whole sequence
%     [P, R] = gdn_state_map (q, k, v, g, beta, 'CuSeqlens', [0 60 100]);
%     S = la_state_map_merge (P, R);
%     [~, S_ref] = gdn_recurrent (q, k, v, g, beta);
%     norm (S(:) - S_ref(:)) / norm (S_ref(:))        % rounding only
%
%   See also: gdn_state_map_bwd, la_state_map_merge, gdn_chunk, kda_state_map

function varargout = gdn_state_map (varargin)
  [varargout{1:max (nargout, 1)}] = la_mex ('gdn_state_map', varargin{:});
end

%!shared q, k, v, g, beta
%! q = randn (4, 9, 1);  k = randn (4, 9, 1);  v = randn (3, 9, 2);
%! g = -rand (9, 2);  beta = rand (9, 2);

%!error id=gdn:badOption gdn_state_map (q, k, v, g, beta, 'Intermediates', true)
%!error id=gdn:nargout [a, b, c] = gdn_state_map (q, k, v, g, beta)

%!demo
%! % context parallelism for GDN: the maps of 4 segments, merged, give the
%! % whole sequence's final state and, from each segment's initial state,
%! % its output
%! K = 32; V = 32; T = 1024; cuts = [0 256 512 768 1024];
%! q = randn (K, T); k = randn (K, T); v = randn (V, T);
%! k = k ./ sqrt (sum (k .^ 2, 1));
%! g = -rand (T, 1) / 4; beta = rand (T, 1);
%! [o_ref, S_ref] = gdn_chunk (q, k, v, g, beta);
%! [P, R] = gdn_state_map (q, k, v, g, beta, 'CuSeqlens', cuts);
%! [S, S_in] = la_state_map_merge (P, R);
%! o = zeros (size (o_ref));
%! for s = 1:4
%!   t = cuts(s) + 1:cuts(s + 1);
%!   o(:, t) = gdn_chunk (q(:, t), k(:, t), v(:, t), g(t), beta(t), 'InitialState', S_in(:, :, 1, s));
%! end
%! fprintf ('final state: rel. difference %.1e\n', norm (S(:) - S_ref(:)) / norm (S_ref(:)));
%! fprintf ('output:      rel. difference %.1e\n', norm (o(:) - o_ref(:)) / norm (o_ref(:)));
