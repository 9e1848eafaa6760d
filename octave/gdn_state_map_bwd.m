% gdn_state_map_bwd  Gated DeltaNet, gradients of the affine state map.
%
%     [dk, dv, dg, dbeta, dALog, dDtBias] = ...
%         gdn_state_map_bwd (q, k, v, g, beta, dP, dR)
%     [...] = gdn_state_map_bwd (q, k, v, g, beta, dP, dR, Name, Value, ...)
%
%   Given the inputs of [P, R] = gdn_state_map (q, k, v, g, beta, ...) and
%   the gradients dP = dL/dP and dR = dL/dR of a scalar loss L, returns
%   the gradient of L with respect to every input that enters the map: the
%   chunked backward of the forward's augmented problem, with dL/dS_T =
%   [dR, dP] and dL/do = 0 (docs/state_map.md).  Pass the options of the
%   forward call.  q enters neither P nor R: it has no gradient.
%
%   Arguments (trailing singleton dimensions may be dropped):
%     q, k   K x T x H x B    queries (checked, not used), keys
%     v      V x T x HV x B   values
%     g      T x HV x B       gates in log space, one per step and head (<= 0
%                             for a decay; raw with 'GateInKernel')
%     beta   T x HV x B       write strengths (logits with 'BetaSigmoid')
%     dP     K x K x HV x N   dL/dP; [] = zero
%     dR     K x V x HV x N   dL/dR (V x K x HV x N with 'StateLayout',
%                             'VK'); [] = zero
%   q, k, v, g and beta are all single or all double; the work and every
%   output are in that class; dP and dR may be single or double.
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
%   Outputs (each the shape of its input, in the working class):
%     dk, dv, dg, dbeta       the gradients of the inputs as given (of the
%                             raw g with 'GateInKernel', of the logit with
%                             'BetaSigmoid'); dk summed over each group of
%                             value heads that read the head
%     dALog, dDtBias          the gradients of ALog and DtBias with
%                             'GateInKernel' (dDtBias the shape of DtBias,
%                             or its default's), else []
%
%   Errors carry the identifiers gdn:nargin, gdn:nargout, gdn:badClass,
%   gdn:badShape, gdn:badOption, gdn:badCuSeqlens and gdn:outOfMemory; the
%   rules, the shapes and the classes in full: docs/api.md.
%
%   Example:
%     K = 8; V = 4; T = 50;
%     q = randn (K, T); k = randn (K, T); v = randn (V, T);
%     g = -rand (T, 1); beta = rand (T, 1);
%     [P, R] = gdn_state_map (q, k, v, g, beta);
%     dP = randn (size (P)); dR = randn (size (R));
%     [dk, dv, dg] = gdn_state_map_bwd (q, k, v, g, beta, dP, dR);
%     % against central differences along a random direction d of g:
%     L = @(P, R) dP(:)' * P(:) + dR(:)' * R(:);
%     e = 1e-6; d = randn (size (g));
%     [P1, R1] = gdn_state_map (q, k, v, g + e * d, beta);
%     [P2, R2] = gdn_state_map (q, k, v, g - e * d, beta);
%     [(L (P1, R1) - L (P2, R2)) / (2 * e), dg(:)' * d(:)]   % agree
%
%   See also: gdn_state_map, la_state_map_merge, gdn_chunk_bwd, kda_state_map_bwd

function varargout = gdn_state_map_bwd (varargin)
  [varargout{1:max (nargout, 1)}] = la_mex ('gdn_state_map_bwd', varargin{:});
end

%!shared q, k, v, g, beta, dP, dR
%! q = randn (4, 9, 1);  k = randn (4, 9, 1);  v = randn (3, 9, 2);
%! g = -rand (size (randn (9, 2)));  beta = rand (9, 2);
%! dP = randn (4, 4, 2);  dR = randn (4, 3, 2);

%!test
%! % [] is zero
%! X = cell (1, 4);  Y = X;
%! [X{:}] = gdn_state_map_bwd (q, k, v, g, beta, [], dR);
%! [Y{:}] = gdn_state_map_bwd (q, k, v, g, beta, zeros (4, 4, 2), dR);
%! assert (X, Y);

%!error id=gdn:badShape gdn_state_map_bwd (q, k, v, g, beta, dR, dR)
%!error <dR must be> gdn_state_map_bwd (q, k, v, g, beta, dP, dP)
