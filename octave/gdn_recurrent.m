% gdn_recurrent  Gated DeltaNet, recurrent form.
%
%     [o, S] = gdn_recurrent (q, k, v, g, beta)
%     [o, S] = gdn_recurrent (q, k, v, g, beta, Name, Value, ...)
%
%   For every sequence and value head, from the state S_0 (K x V;
%   'InitialState', else zeros), for t = 1, ..., T:
%       S'_t = exp (g_t) * S_{t-1}                   (decay, one per step)
%       S_t  = S'_t + beta_t * k_t * (v_t - S'_t' * k_t)'    (delta rule)
%       o_t  = S_t' * (Scale * q_t)
%   one step at a time: the reference form of the library.  gdn_chunk
%   computes the same to rounding, faster for long sequences.
%
%   Arguments (trailing singleton dimensions may be dropped):
%     q, k   K x T x H x B    queries, keys: H heads, B sequences
%     v      V x T x HV x B   values: HV heads, a multiple of H (value head
%                             j reads query/key head floor ((j-1)/(HV/H))+1)
%     g      T x HV x B       gates in log space, one per step and head (<= 0
%                             for a decay; raw with 'GateInKernel')
%     beta   T x HV x B       write strengths (logits with 'BetaSigmoid'),
%            or V x T x HV x B  one per value channel: u_t = beta_t .* (v_t -
%                             S'_t' * k_t) (FLA's per-channel [B,T,HV,V])
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
%     Slots           none       a state pool's slots (FLA's
%                                ssm_state_indices; from 1, 0 = padding): N,
%                                or Tmax x N per step; InitialState is the
%                                pool, K x V x HV x slots
%     AcceptedTokens  none       N counts (FLA's num_accepted_tokens):
%                                sequence n starts from slot
%                                Slots(AcceptedTokens(n), n)
%     UpdatePool      true       with Slots: S is the pool with each step's
%                                state in its slot (FLA's
%                                inplace_final_state); false: S is every
%                                step's state, K x V x HV x T x B
%
%   Outputs:
%     o      V x T x HV x B   the outputs o_t
%     S      K x V x HV x N   the final states S_T (V x K x HV x N with
%                             'StateLayout', 'VK'); N = B, or the number of
%                             CuSeqlens sequences
%            with 'Slots' (a state pool, docs/decode.md): the pool
%            InitialState with every step's state written to its slot,
%            all other slots unchanged; with 'UpdatePool', false: the state
%            after every step, K x V x HV x T x B
%
%   Errors carry the identifiers gdn:nargin, gdn:nargout, gdn:badClass,
%   gdn:badShape, gdn:badOption, gdn:badCuSeqlens, gdn:badSlot and
%   gdn:outOfMemory; the rules, the shapes and the classes in full:
%   docs/api.md; the decode options (Slots, AcceptedTokens, UpdatePool):
%   docs/decode.md.
%
%   Example:
%     K = 16; V = 32; T = 100; H = 2;
%     q = randn (K, T, H); k = randn (K, T, H); v = randn (V, T, H);
%     g = -rand (T, H); beta = rand (T, H);
%     [o, S] = gdn_recurrent (q, k, v, g, beta, 'UseQKL2Norm', true);
%     size (S)                          % 16 x 32 x 2
%
%   See also: gdn_recurrent_bwd, gdn_chunk, kda_recurrent, kdagdn

function [o, S, varargout] = gdn_recurrent (varargin)
  % named outputs: a decode step (T = 1) pays 20-60 us less than through
  % varargout alone (docs/performance.md)
  if (nargout < 2)
    o = la_mex ('gdn_recurrent', varargin{:});
  elseif (nargout == 2)
    [o, S] = la_mex ('gdn_recurrent', varargin{:});
  else
    [o, S, varargout{1:nargout - 2}] = la_mex ('gdn_recurrent', varargin{:});
  end
end

%!shared q, k, v, g, b, S0
%! q = randn (4, 5, 1, 2);  k = randn (4, 5, 1, 2);  v = randn (3, 5, 2, 2);
%! g = -rand (5, 2, 2);     b = rand (5, 2, 2);      S0 = zeros (4, 3, 2, 2);

%!test
%! % one step by hand
%! q1 = [1; 2]; k1 = [0.6; 0.8]; v1 = [1; -1; 2]; g1 = -0.4; b1 = 0.3;
%! S1 = [1 2 3; 4 5 6];
%! Sp = exp (g1) * S1;
%! S2 = Sp + b1 * k1 * (v1 - Sp' * k1)';
%! [o, S] = gdn_recurrent (q1, k1, v1, g1, b1, 'InitialState', S1, 'Scale', 0.5);
%! assert (S, S2, 1e-14);
%! assert (o, S2' * (0.5 * q1), 1e-14);

%!test
%! % GDN is KDA with the same gate in every channel
%! [o, S] = gdn_recurrent (q, k, v, g, b, 'InitialState', S0 + 1);
%! gk = repmat (reshape (g, [1 5 2 2]), [4 1 1 1]);
%! [o2, S2] = kda_recurrent (q, k, v, gk, b, 'InitialState', S0 + 1);
%! assert (o, o2, 1e-13);
%! assert (S, S2, 1e-13);

%!error id=gdn:badShape gdn_recurrent (q, k, v, g(1:3, :, :), b)
%!error id=gdn:badCuSeqlens gdn_recurrent (q, k, v, g, b, 'CuSeqlens', [0 2 5])

%!demo
%! % two sequences packed in one batch with CuSeqlens = two separate calls
%! K = 8; V = 8; T1 = 30; T2 = 50;
%! q = randn (K, T1 + T2); k = randn (K, T1 + T2); v = randn (V, T1 + T2);
%! g = -rand (T1 + T2, 1); beta = rand (T1 + T2, 1);
%! [o, S] = gdn_recurrent (q, k, v, g, beta, 'CuSeqlens', [0 T1 T1 + T2]);
%! a = 1:T1; b = T1 + 1:T1 + T2;
%! [o1, S1] = gdn_recurrent (q(:, a), k(:, a), v(:, a), g(a), beta(a));
%! [o2, S2] = gdn_recurrent (q(:, b), k(:, b), v(:, b), g(b), beta(b));
%! fprintf ('packed vs separate: max |diff| of o %.1e, of S %.1e\n', ...
%!          max (max (abs (o - [o1, o2]))), ...
%!          max (max (max (abs (S - cat (4, S1, S2))))));
