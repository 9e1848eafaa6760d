% kda_recurrent  Kimi Delta Attention, recurrent form.
%
%     [o, S] = kda_recurrent (q, k, v, g, beta)
%     [o, S] = kda_recurrent (q, k, v, g, beta, Name, Value, ...)
%
%   For every sequence and value head, from the state S_0 (K x V;
%   'InitialState', else zeros), for t = 1, ..., T:
%       S'_t = Diag (exp (g_t)) * S_{t-1}            (decay, per channel)
%       S_t  = S'_t + beta_t * k_t * (v_t - S'_t' * k_t)'    (delta rule)
%       o_t  = S_t' * (Scale * q_t)
%   one step at a time: the reference form of the library.  kda_chunk
%   computes the same to rounding, faster for long sequences.
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
%   Errors carry the identifiers kda:nargin, kda:nargout, kda:badClass,
%   kda:badShape, kda:badOption, kda:badCuSeqlens, kda:badSlot and
%   kda:outOfMemory; the rules, the shapes and the classes in full:
%   docs/api.md; the decode options (Slots, AcceptedTokens, UpdatePool):
%   docs/decode.md.
%
%   Example:
%     K = 16; V = 32; T = 100; H = 2;
%     q = randn (K, T, H); k = randn (K, T, H); v = randn (V, T, H);
%     g = -rand (K, T, H); beta = rand (T, H);
%     [o, S] = kda_recurrent (q, k, v, g, beta, 'UseQKL2Norm', true);
%     % 50 more steps of the same sequences, from the final state:
%     [o2, S2] = kda_recurrent (q(:, 1:50, :), k(:, 1:50, :), v(:, 1:50, :), ...
%                               g(:, 1:50, :), beta(1:50, :), ...
%                               'UseQKL2Norm', true, 'InitialState', S);
%
%   See also: kda_recurrent_bwd, kda_chunk, gdn_recurrent, kdagdn

function [o, S, varargout] = kda_recurrent (varargin)
  % named outputs: a decode step (T = 1) pays 20-60 us less than through
  % varargout alone (docs/performance.md)
  if (nargout < 2)
    o = la_mex ('kda_recurrent', varargin{:});
  elseif (nargout == 2)
    [o, S] = la_mex ('kda_recurrent', varargin{:});
  else
    [o, S, varargout{1:nargout - 2}] = la_mex ('kda_recurrent', varargin{:});
  end
end

%!shared q, k, v, g, b, S0
%! q = randn (4, 5, 1, 2);  k = randn (4, 5, 1, 2);  v = randn (3, 5, 2, 2);
%! g = -rand (4, 5, 2, 2);  b = rand (5, 2, 2);      S0 = zeros (4, 3, 2, 2);

%!test
%! % one step by hand
%! q1 = [1; 2]; k1 = [0.6; 0.8]; v1 = [1; -1; 2]; g1 = [-0.5; -0.1]; b1 = 0.3;
%! S1 = [1 2 3; 4 5 6];
%! Sp = diag (exp (g1)) * S1;
%! S2 = Sp + b1 * k1 * (v1 - Sp' * k1)';
%! [o, S] = kda_recurrent (q1, k1, v1, g1, b1, 'InitialState', S1, 'Scale', 0.5);
%! assert (S, S2, 1e-14);
%! assert (o, S2' * (0.5 * q1), 1e-14);

%!test
%! % the class of the data is the working class; InitialState is converted
%! [o, S] = kda_recurrent (single (q), single (k), single (v), single (g), single (b));
%! assert ({class(o), class(S)}, {'single', 'single'});
%! [o, S] = kda_recurrent (q, k, v, g, b, 'InitialState', single (S0));
%! assert ({class(o), class(S)}, {'double', 'double'});
%! assert (size (o), [3 5 2 2]);

%!test
%! % the message names the argument, the size it got and the size it needs
%! try
%!   kda_recurrent (q, k, v, g(:, 1:4, :, :), b);
%!   error ('no error');
%! catch err
%!   assert (err.identifier, 'kda:badShape');
%!   assert (~isempty (strfind (err.message, 'g must be')));
%!   assert (~isempty (strfind (err.message, '4x5x2x2')));
%!   assert (~isempty (strfind (err.message, '4x4x2x2')));
%! end

%!error id=kda:nargin kda_recurrent (q, k, v, g)
%!error id=kda:badShape kda_recurrent (q, k, v, g, b, 'InitialState', zeros (4, 3, 2))

%!demo
%! % how fast the gate forgets: the same inputs under weaker and stronger
%! % constant gates; the outputs shrink as the state forgets.
%! K = 16; V = 16; T = 200;
%! q = randn (K, T); k = randn (K, T); v = randn (V, T);
%! k = k ./ sqrt (sum (k .^ 2, 1));
%! for s = [0.01 0.1 1 10]
%!   o = kda_recurrent (q, k, v, -s * ones (K, T), 0.5 * ones (T, 1));
%!   last = o(:, 101:end);
%!   fprintf ('gate -%-5g  rms (o_t), t > 100: %.3f\n', s, sqrt (mean (last(:) .^ 2)));
%! end

%!demo
%! % decode as a server runs it (docs/decode.md, section 4): a speculative
%! % step in a state pool.  Slot 2 holds the sequence's state; a draft of 4
%! % tokens writes its states to slots 2..5; 2 are accepted, and the next
%! % call starts from slot 3 (AcceptedTokens 2).  Slot 1 is another
%! % sequence's and keeps its bits.
%! K = 8; V = 8; HV = 2;
%! q = randn (K, 8);  k = randn (K, 8);  k = k ./ sqrt (sum (k .^ 2));
%! v = randn (V, 8, HV);  g = -0.3 * rand (K, 8, HV);  beta = rand (8, HV);
%! pool = randn (K, V, HV, 5);
%! slots = [2 3 4 5]';
%! d = 1:4;  n = 5:8;
%! [o, pool1] = kda_recurrent (q(:, d), k(:, d), v(:, d, :), g(:, d, :), beta(d, :), ...
%!                             'InitialState', pool, 'Slots', slots);
%! [o2, pool2] = kda_recurrent (q(:, n), k(:, n), v(:, n, :), g(:, n, :), beta(n, :), ...
%!                              'InitialState', pool1, 'Slots', slots, 'AcceptedTokens', 2);
%! changed = @(a, b) find (squeeze (any (any (any (a != b, 1), 2), 3)))';
%! printf ('draft call:  slots written %s\n', mat2str (changed (pool, pool1)));
%! printf ('next call:   slots written %s (started from slot 3)\n', mat2str (changed (pool1, pool2)));
%! acc = [1 2 5 6 7 8];   % the accepted draft tokens, then the next four
%! op = kda_recurrent (q(:, acc), k(:, acc), v(:, acc, :), g(:, acc, :), beta(acc, :), ...
%!                     'InitialState', pool(:, :, :, 2));
%! printf ('next call vs the plain call over the accepted tokens: max |diff| = %.1e\n', ...
%!         max (abs (o2(:) - reshape (op(:, 3:6, :), [], 1))));
