% GDN_RECURRENT  Gated DeltaNet (GDN), computed step by step.
%
%   [o, S] = gdn_recurrent (q, k, v, g, beta)
%   [o, S] = gdn_recurrent (q, k, v, g, beta, Name, Value, ...)
%
%   For every sequence and every value head, with the columns q_t, k_t
%   (K x 1), v_t (V x 1), the scalar gate g_t (log space) and the scalar
%   beta_t, starting from the state S_0 (K x V; zeros unless
%   'InitialState' is given), for t = 1, ..., T:
%
%       S'_t = exp (g_t) * S_{t-1}                     (decay)
%       S_t  = S'_t + beta_t * k_t * (v_t - S'_t' * k_t)'   (delta rule)
%       o_t  = S_t' * (scale * q_t)
%
%   This is kda_recurrent with one gate for all K channels.  The result is
%   that of the chunked gdn_chunk to rounding; this form is the reference of
%   the library (one step at a time, no blocking).
%
%   Arguments (trailing singleton dimensions may be dropped):
%     q, k   K x T x H x B    queries and keys: H heads, B sequences
%     v      V x T x HV x B   values: HV value heads, HV a multiple of H
%     g      T x HV x B       gates in log space (usually <= 0; any array
%                             with T*HV*B elements, read in that order)
%     beta   T x HV x B       step sizes of the delta rule (likewise)
%   So q(:, :, h, b) is the K x T matrix whose columns are the q_t.  Value
%   head j reads query/key head floor ((j-1) / (HV/H)) + 1 (grouped value
%   attention, GVA).
%
%   Outputs:
%     o      V x T x HV x B   the outputs o_t
%     S      K x V x HV x N   the final states S_T (V x K x HV x N with
%                             'StateLayout', 'VK'); N = B, or the number of
%                             sequences given by 'CuSeqlens'
%
%   Options (Name, Value; names are case-insensitive; [] means "not given"):
%     'Scale'          1/sqrt(K)  the factor of q; finite and > 0
%     'InitialState'   zeros      S_0, K x V x HV x N (V x K x HV x N with
%                                 'VK'); single or double
%     'CuSeqlens'      none       [0, t1, ..., T]: N+1 strictly increasing
%                                 integers; splits the batch of one (B = 1)
%                                 into N independent sequences, steps
%                                 t_(n-1)+1 ... t_n, each with its own
%                                 initial and final state
%     'UseQKL2Norm'    false      divide every q_t and k_t by its 2-norm first
%                                 (exactly x / norm (x), no epsilon; an
%                                 all-zero column stays zero)
%     'GateInKernel'   false      g is a raw gate; the gate used is
%                                   -exp (ALog(j)) * softplus (g + DtBias(j))
%                                 or, with 'LowerBound' lb,
%                                   lb * sigmoid (exp (ALog(j)) * (g + DtBias(j)))
%                                 (softplus and sigmoid without overflow)
%     'ALog'           none       HV values; required by 'GateInKernel'
%     'DtBias'         zeros      HV values
%     'LowerBound'     none       lb, finite and < 0 (see 'GateInKernel')
%     'BetaSigmoid'    false      beta is a logit: beta_t = sigmoid (beta)
%     'AllowNegEigval' false      with 'BetaSigmoid': beta_t = 2 sigmoid (beta),
%                                 so I - beta_t k_t k_t' may have negative
%                                 eigenvalues; without 'BetaSigmoid' it has
%                                 no effect
%     'StateLayout'    'KV'       'VK': InitialState and S are V x K x HV x N
%     'ChunkSize'      64         accepted for symmetry with gdn_chunk; no
%                                 effect here (any positive integer)
%   'ALog', 'DtBias' and 'LowerBound' are ignored without 'GateInKernel'.
%   Flags accept true/false or numbers (nonzero = true).
%
%   Precision: q, k, v, g and beta must be all single or all double; the
%   work and both outputs are in that class.  InitialState, ALog and DtBias
%   may be single or double either way (converted).  NaN and Inf in the data
%   propagate to the outputs they reach.
%
%   Errors: every bad call raises an error whose message names the
%   argument, the size or class it got and what it needs, with identifier
%     gdn:nargin        fewer than 5 arguments, options not in pairs
%     gdn:nargout       more than 2 outputs
%     gdn:badClass      not single/double (int, char, logical, cell, ...),
%                       complex, sparse, or single and double mixed
%     gdn:badShape      sizes that do not fit together, HV not a multiple
%                       of H, wrong InitialState / ALog / DtBias size
%     gdn:badOption     unknown name, bad value (Scale, ChunkSize,
%                       LowerBound, StateLayout, flags), GateInKernel
%                       without ALog, 'Intermediates' (gdn_chunk only)
%     gdn:badCuSeqlens  CuSeqlens not [0 ... T] strictly increasing
%                       integers, or B > 1
%     gdn:outOfMemory   the work space could not be allocated
%
%   Example:
%     K = 16; V = 32; T = 100; H = 2;
%     q = randn (K, T, H); k = randn (K, T, H); v = randn (V, T, H);
%     g = -rand (T, H); beta = rand (T, H);
%     [o, S] = gdn_recurrent (q, k, v, g, beta, 'UseQKL2Norm', true);
%     size (o)                          % 32 x 100 x 2
%     size (S)                          % 16 x 32 x 2
%     % two sequences of lengths 30 and 70 packed in one batch:
%     [o, S] = gdn_recurrent (q(:, :, 1), k(:, :, 1), v(:, :, 1), g(:, 1), ...
%                             beta(:, 1), 'CuSeqlens', [0 30 100]);
%     size (S)                          % 16 x 32 x 1 x 2
%
%   See also: gdn_recurrent_bwd, gdn_chunk, kda_recurrent.

function varargout = gdn_recurrent (varargin)
  [varargout{1:max(nargout, 1)}] = la_mex ('gdn_recurrent', varargin{:});
end

% ---- argument errors (each with its identifier) ---------------------------
%!shared q, k, v, g, b, S0
%! q = randn (4, 5, 1, 2);  k = randn (4, 5, 1, 2);  v = randn (3, 5, 2, 2);
%! g = -rand (5, 2, 2);     b = rand (5, 2, 2);      S0 = zeros (4, 3, 2, 2);

% the test data itself is fine
%!test
%! [o, S] = gdn_recurrent (q, k, v, g, b, 'InitialState', S0);
%! assert (size (o), [3 5 2 2]);
%! assert (size (S), [4 3 2 2]);

% wrong count
%!error id=gdn:nargin gdn_recurrent ()
%!error id=gdn:nargin gdn_recurrent (q, k, v, g)
%!error id=gdn:nargin gdn_recurrent (q, k, v, g, b, 'Scale')
%!error id=gdn:nargin gdn_recurrent (q, k, v, g, b, 'Scale', 1, 'ChunkSize')
%!error id=gdn:nargout [o, S, x] = gdn_recurrent (q, k, v, g, b)

% not a float array
%!error id=gdn:badClass gdn_recurrent (int32 (q), k, v, g, b)
%!error id=gdn:badClass gdn_recurrent (q, int8 (k), v, g, b)
%!error id=gdn:badClass gdn_recurrent (q, k, uint16 (v), g, b)
%!error id=gdn:badClass gdn_recurrent (q, k, v, int32 (g), b)
%!error id=gdn:badClass gdn_recurrent (q, k, v, g, int32 (b))
%!error id=gdn:badClass gdn_recurrent ('abcd', k, v, g, b)
%!error id=gdn:badClass gdn_recurrent (q, k, v, g, b > 0.5)
%!error id=gdn:badClass gdn_recurrent ({q}, k, v, g, b)
%!error id=gdn:badClass gdn_recurrent (q, k, v, struct ('g', g), b)
% complex, sparse
%!error id=gdn:badClass gdn_recurrent (complex (q), k, v, g, b)
%!error id=gdn:badClass gdn_recurrent (q, k, v, g, b + 1i)
%!error id=gdn:badClass gdn_recurrent (sparse (q(:, :, 1, 1)), k(:, :, 1, 1), v(:, :, 1, 1), g(:, 1, 1), b(:, 1, 1))
% single and double mixed
%!error id=gdn:badClass gdn_recurrent (single (q), k, v, g, b)
%!error id=gdn:badClass gdn_recurrent (q, k, single (v), g, b)
%!error id=gdn:badClass gdn_recurrent (q, k, v, g, single (b))

% sizes
%!error id=gdn:badShape gdn_recurrent (q, k(:, 1:4, :, :), v, g, b)
%!error id=gdn:badShape gdn_recurrent (q, k(1:3, :, :, :), v, g, b)
%!error id=gdn:badShape gdn_recurrent (q, k(:, :, :, 1), v, g, b)
%!error id=gdn:badShape gdn_recurrent (q, k, v(:, 1:4, :, :), g, b)
%!error id=gdn:badShape gdn_recurrent (q, k, v(:, :, :, 1), g, b)
%!error id=gdn:badShape gdn_recurrent (q, k, v, g(1:3, :, :), b)
%!error id=gdn:badShape gdn_recurrent (q, k, v, g(:, 1, :), b)
%!error id=gdn:badShape gdn_recurrent (q, k, v, -rand (4, 5, 2, 2), b)
%!error id=gdn:badShape gdn_recurrent (q, k, v, g, b(1:4, :, :))
%!error id=gdn:badShape gdn_recurrent (q, k, v, g, b(:, 1, :))
%!error id=gdn:badShape gdn_recurrent (randn (4, 5, 1, 2, 2), k, v, g, b)
%!error id=gdn:badShape gdn_recurrent (zeros (0, 5), zeros (0, 5), v(:, :, 1, 1), zeros (0, 5), b(:, 1, 1))
% HV not a multiple of H
%!error id=gdn:badShape gdn_recurrent (cat (3, q, q), cat (3, k, k), v(:, :, [1 2 1], :), g(:, [1 2 1], :), b(:, [1 2 1], :))

% CuSeqlens
%!error id=gdn:badCuSeqlens gdn_recurrent (q, k, v, g, b, 'CuSeqlens', [0 2 5])
%!error id=gdn:badCuSeqlens gdn_recurrent (q(:, :, :, 1), k(:, :, :, 1), v(:, :, :, 1), g(:, :, 1), b(:, :, 1), 'CuSeqlens', [1 2 5])
%!error id=gdn:badCuSeqlens gdn_recurrent (q(:, :, :, 1), k(:, :, :, 1), v(:, :, :, 1), g(:, :, 1), b(:, :, 1), 'CuSeqlens', [0 2 4])
%!error id=gdn:badCuSeqlens gdn_recurrent (q(:, :, :, 1), k(:, :, :, 1), v(:, :, :, 1), g(:, :, 1), b(:, :, 1), 'CuSeqlens', [0 2 6])
%!error id=gdn:badCuSeqlens gdn_recurrent (q(:, :, :, 1), k(:, :, :, 1), v(:, :, :, 1), g(:, :, 1), b(:, :, 1), 'CuSeqlens', [0 3 2 5])
%!error id=gdn:badCuSeqlens gdn_recurrent (q(:, :, :, 1), k(:, :, :, 1), v(:, :, :, 1), g(:, :, 1), b(:, :, 1), 'CuSeqlens', [0 2 2 5])
%!error id=gdn:badCuSeqlens gdn_recurrent (q(:, :, :, 1), k(:, :, :, 1), v(:, :, :, 1), g(:, :, 1), b(:, :, 1), 'CuSeqlens', [0 2.5 5])
%!error id=gdn:badCuSeqlens gdn_recurrent (q(:, :, :, 1), k(:, :, :, 1), v(:, :, :, 1), g(:, :, 1), b(:, :, 1), 'CuSeqlens', [0 NaN 5])
%!error id=gdn:badCuSeqlens gdn_recurrent (q(:, :, :, 1), k(:, :, :, 1), v(:, :, :, 1), g(:, :, 1), b(:, :, 1), 'CuSeqlens', [0 -1 5])
%!error id=gdn:badCuSeqlens gdn_recurrent (q(:, :, :, 1), k(:, :, :, 1), v(:, :, :, 1), g(:, :, 1), b(:, :, 1), 'CuSeqlens', 5)
%!error id=gdn:badCuSeqlens gdn_recurrent (q(:, :, :, 1), k(:, :, :, 1), v(:, :, :, 1), g(:, :, 1), b(:, :, 1), 'CuSeqlens', [0 2; 3 5])
%!error id=gdn:badCuSeqlens gdn_recurrent (q(:, :, :, 1), k(:, :, :, 1), v(:, :, :, 1), g(:, :, 1), b(:, :, 1), 'CuSeqlens', 'abc')
%!error id=gdn:badCuSeqlens gdn_recurrent (q(:, :, :, 1), k(:, :, :, 1), v(:, :, :, 1), g(:, :, 1), b(:, :, 1), 'CuSeqlens', {0, 5})
%!error id=gdn:badCuSeqlens gdn_recurrent (q(:, :, :, 1), k(:, :, :, 1), v(:, :, :, 1), g(:, :, 1), b(:, :, 1), 'CuSeqlens', complex ([0 5]))

% Scale, ChunkSize, LowerBound, flags, StateLayout
%!error id=gdn:badOption gdn_recurrent (q, k, v, g, b, 'Scale', 0)
%!error id=gdn:badOption gdn_recurrent (q, k, v, g, b, 'Scale', -1)
%!error id=gdn:badOption gdn_recurrent (q, k, v, g, b, 'Scale', NaN)
%!error id=gdn:badOption gdn_recurrent (q, k, v, g, b, 'Scale', Inf)
%!error id=gdn:badOption gdn_recurrent (q, k, v, g, b, 'Scale', [1 2])
%!error id=gdn:badOption gdn_recurrent (q, k, v, g, b, 'Scale', '1')
%!error id=gdn:badOption gdn_recurrent (q, k, v, g, b, 'ChunkSize', 0)
%!error id=gdn:badOption gdn_recurrent (q, k, v, g, b, 'ChunkSize', -4)
%!error id=gdn:badOption gdn_recurrent (q, k, v, g, b, 'ChunkSize', 2.5)
%!error id=gdn:badOption gdn_recurrent (q, k, v, g, b, 'ChunkSize', NaN)
%!error id=gdn:badOption gdn_recurrent (q, k, v, g, b, 'ChunkSize', Inf)
%!error id=gdn:badOption gdn_recurrent (q, k, v, g, b, 'GateInKernel', true, 'ALog', [0 0], 'LowerBound', 0)
%!error id=gdn:badOption gdn_recurrent (q, k, v, g, b, 'GateInKernel', true, 'ALog', [0 0], 'LowerBound', 1)
%!error id=gdn:badOption gdn_recurrent (q, k, v, g, b, 'GateInKernel', true, 'ALog', [0 0], 'LowerBound', -Inf)
%!error id=gdn:badOption gdn_recurrent (q, k, v, g, b, 'GateInKernel', true, 'ALog', [0 0], 'LowerBound', NaN)
%!error id=gdn:badOption gdn_recurrent (q, k, v, g, b, 'UseQKL2Norm', 'yes')
%!error id=gdn:badOption gdn_recurrent (q, k, v, g, b, 'BetaSigmoid', NaN)
%!error id=gdn:badOption gdn_recurrent (q, k, v, g, b, 'AllowNegEigval', [1 1])
%!error id=gdn:badOption gdn_recurrent (q, k, v, g, b, 'StateLayout', 'XY')
%!error id=gdn:badOption gdn_recurrent (q, k, v, g, b, 'StateLayout', 'KVX')
%!error id=gdn:badOption gdn_recurrent (q, k, v, g, b, 'StateLayout', 1)
% unknown or misplaced names
%!error id=gdn:badOption gdn_recurrent (q, k, v, g, b, 'Scalx', 1)
%!error id=gdn:badOption gdn_recurrent (q, k, v, g, b, 'NoSuchOptionWithAVeryLongNameIndeed', 1)
%!error id=gdn:badOption gdn_recurrent (q, k, v, g, b, 3, 1)
%!error id=gdn:badOption gdn_recurrent (q, k, v, g, b, {'Scale'}, 1)
%!error id=gdn:badOption gdn_recurrent (q, k, v, g, b, 'Intermediates', true)

% InitialState, GateInKernel parameters
%!error id=gdn:badShape gdn_recurrent (q, k, v, g, b, 'InitialState', zeros (4, 3, 2))
%!error id=gdn:badShape gdn_recurrent (q, k, v, g, b, 'InitialState', zeros (3, 4, 2, 2))
%!error id=gdn:badShape gdn_recurrent (q, k, v, g, b, 'InitialState', S0, 'StateLayout', 'VK')
%!error id=gdn:badClass gdn_recurrent (q, k, v, g, b, 'InitialState', int32 (S0))
%!error id=gdn:badClass gdn_recurrent (q, k, v, g, b, 'InitialState', complex (S0))
%!error id=gdn:badOption gdn_recurrent (q, k, v, g, b, 'GateInKernel', true)
%!error id=gdn:badOption gdn_recurrent (q, k, v, g, b, 'GateInKernel', true, 'ALog', [])
%!error id=gdn:badShape gdn_recurrent (q, k, v, g, b, 'GateInKernel', true, 'ALog', [0 0 0])
%!error id=gdn:badShape gdn_recurrent (q, k, v, g, b, 'GateInKernel', true, 'ALog', zeros (2, 2))
%!error id=gdn:badClass gdn_recurrent (q, k, v, g, b, 'GateInKernel', true, 'ALog', int8 ([0 0]))
%!error id=gdn:badShape gdn_recurrent (q, k, v, g, b, 'GateInKernel', true, 'ALog', [0 0], 'DtBias', zeros (2, 4))
%!error id=gdn:badShape gdn_recurrent (q, k, v, g, b, 'GateInKernel', true, 'ALog', [0 0], 'DtBias', zeros (4, 1))
%!error id=gdn:badShape gdn_recurrent (q, k, v, g, b, 'GateInKernel', true, 'ALog', [0 0], 'DtBias', zeros (2, 2))
%!error id=gdn:badClass gdn_recurrent (q, k, v, g, b, 'GateInKernel', true, 'ALog', [0 0], 'DtBias', 'ab')

% the message names the argument, the size it got and the size it needs
%!test
%! try
%!   gdn_recurrent (q, k, v, g(1:4, :, :), b);
%!   error ('no error');
%! catch err
%!   assert (err.identifier, 'gdn:badShape');
%!   assert (~isempty (strfind (err.message, 'g must be')));
%!   assert (~isempty (strfind (err.message, '5x2x2')));
%!   assert (~isempty (strfind (err.message, '4x2x2')));
%! end
%!test
%! try
%!   gdn_recurrent (q, k, v, g, b, 'InitialState', zeros (4, 3, 2));
%!   error ('no error');
%! catch err
%!   assert (err.identifier, 'gdn:badShape');
%!   assert (~isempty (strfind (err.message, 'InitialState')));
%!   assert (~isempty (strfind (err.message, '4x3x2x2')));
%!   assert (~isempty (strfind (err.message, '4x3x2')));
%! end
%!test
%! try
%!   gdn_recurrent (q, k, single (v), g, b);
%!   error ('no error');
%! catch err
%!   assert (err.identifier, 'gdn:badClass');
%!   assert (~isempty (strfind (err.message, 'v is single')));
%! end

% ---- a few results (the full suites are in validation/tests) -------------
%!test  # single in, single out; double in, double out
%! [o, S] = gdn_recurrent (single (q), single (k), single (v), single (g), single (b));
%! assert (class (o), 'single');
%! assert (class (S), 'single');
%! [o, S] = gdn_recurrent (q, k, v, g, b, 'InitialState', single (S0));
%! assert (class (o), 'double');
%! assert (class (S), 'double');
%!test  # one step by hand
%! q1 = [1; 2]; k1 = [0.6; 0.8]; v1 = [1; -1; 2]; g1 = -0.4; b1 = 0.3;
%! S0 = [1 2 3; 4 5 6];
%! Sp = exp (g1) * S0;
%! S1 = Sp + b1 * k1 * (v1 - Sp' * k1)';
%! [o, S] = gdn_recurrent (q1, k1, v1, g1, b1, 'InitialState', S0, 'Scale', 0.5);
%! assert (S, S1, 1e-14);
%! assert (o, S1' * (0.5 * q1), 1e-14);
%!test  # help text is there
%! assert (~isempty (strfind (help ('gdn_recurrent'), 'gdn:badCuSeqlens')));
