% GDN_RECURRENT_BWD  Gradients of gdn_recurrent (backpropagation through time).
%
%   [dq, dk, dv, dg, dbeta, dS0, dALog, dDtBias] = ...
%       gdn_recurrent_bwd (q, k, v, g, beta, do, dS)
%   [...] = gdn_recurrent_bwd (q, k, v, g, beta, do, dS, Name, Value, ...)
%
%   Given the inputs of [o, S] = gdn_recurrent (q, k, v, g, beta, ...) and
%   the gradients do = dL/do and dS = dL/dS of a scalar loss L with respect
%   to its two outputs, returns the gradient of L with respect to every
%   input.  With the same options as the forward call, this is the exact
%   derivative of the recurrence
%
%       S'_t = exp (g_t) * S_{t-1}
%       S_t  = S'_t + beta_t * k_t * (v_t - S'_t' * k_t)'
%       o_t  = S_t' * (scale * q_t)
%
%   taken backwards from t = T to 1, through the in-kernel transforms
%   (UseQKL2Norm, GateInKernel, BetaSigmoid) when they are on.  The forward
%   states are not stored: they are recomputed from checkpoints kept every
%   'ChunkSize' steps, so the memory is O(K V T / ChunkSize + K V ChunkSize)
%   per head; the result does not depend on ChunkSize beyond rounding.
%
%   Arguments: q, k, v, g (T x HV x B), beta exactly as for gdn_recurrent, and
%     do     V x T x HV x B   the gradient of o (the size of v)
%     dS     K x V x HV x N   the gradient of the final state (V x K x HV x N
%                             with 'StateLayout', 'VK'), or [] for zero
%
%   Outputs:
%     dq, dk      size of q, k      (with GVA summed over each group of
%                                    value heads that read the head)
%     dv          size of v
%     dg          size of g         (of the raw g with 'GateInKernel')
%     dbeta       size of beta      (of the logit with 'BetaSigmoid')
%     dS0         the gradient of the initial state: the size of
%                 InitialState, or K x V x HV x N (V x K x HV x N with 'VK')
%                 when no InitialState was given (the gradient at S_0 = 0)
%     dALog       size of ALog      ([] unless 'GateInKernel')
%     dDtBias     size of DtBias, or HV x 1 when DtBias was not given
%                 ([] unless 'GateInKernel')
%
%   Options: those of gdn_recurrent (Scale, InitialState, CuSeqlens,
%   UseQKL2Norm, GateInKernel, ALog, DtBias, LowerBound, BetaSigmoid,
%   AllowNegEigval, StateLayout), plus
%     'ChunkSize'      64         the checkpoint interval of the backward:
%                                 any positive integer (1 keeps every state;
%                                 larger than T keeps only S_0)
%   Pass the same options as to the forward call.
%
%   Precision: q, k, v, g, beta and do must be all single or all double; the
%   work and all outputs are in that class.  InitialState, dS, ALog and
%   DtBias may be single or double either way.  NaN and Inf propagate.
%
%   Errors: as gdn_recurrent (identifiers gdn:nargin, gdn:nargout,
%   gdn:badClass, gdn:badShape, gdn:badOption, gdn:badCuSeqlens,
%   gdn:outOfMemory), here with 7 fixed arguments and at most 8 outputs;
%   do must be the size of v, dS [] or the size of the state.
%
%   Example (the gradient of L = sum (o(:) .^ 2) / 2):
%     K = 8; V = 8; T = 50;
%     q = randn (K, T); k = randn (K, T); v = randn (V, T);
%     g = -rand (T, 1); beta = rand (T, 1);
%     o = gdn_recurrent (q, k, v, g, beta, 'UseQKL2Norm', true);
%     [dq, dk, dv, dg, dbeta] = gdn_recurrent_bwd (q, k, v, g, beta, o, [], ...
%                                                  'UseQKL2Norm', true);
%
%   See also: gdn_recurrent, gdn_chunk_bwd, kda_recurrent_bwd.

function varargout = gdn_recurrent_bwd (varargin)
  [varargout{1:max(nargout, 1)}] = la_mex ('gdn_recurrent_bwd', varargin{:});
end

% ---- argument errors (each with its identifier) ---------------------------
%!shared q, k, v, g, b, dO, dS, S0
%! q = randn (4, 5, 1, 2);  k = randn (4, 5, 1, 2);  v = randn (3, 5, 2, 2);
%! g = -rand (5, 2, 2);     b = rand (5, 2, 2);      dO = randn (3, 5, 2, 2);
%! dS = randn (4, 3, 2, 2); S0 = zeros (4, 3, 2, 2);

% the test data itself is fine
%!test
%! out = cell (1, 8);
%! [out{:}] = gdn_recurrent_bwd (q, k, v, g, b, dO, dS, 'InitialState', S0);
%! assert (size (out{1}), size (q));
%! assert (size (out{6}), size (S0));

% wrong count
%!error id=gdn:nargin gdn_recurrent_bwd ()
%!error id=gdn:nargin gdn_recurrent_bwd (q, k, v, g, b, dO)
%!error id=gdn:nargin gdn_recurrent_bwd (q, k, v, g, b, dO, dS, 'Scale')
%!error id=gdn:nargout [a1, a2, a3, a4, a5, a6, a7, a8, a9] = gdn_recurrent_bwd (q, k, v, g, b, dO, dS)

% not a float array; complex; sparse; mixed classes
%!error id=gdn:badClass gdn_recurrent_bwd (int32 (q), k, v, g, b, dO, dS)
%!error id=gdn:badClass gdn_recurrent_bwd (q, k, v, g, b, int32 (dO), dS)
%!error id=gdn:badClass gdn_recurrent_bwd (q, k, v, g, b, dO, int32 (dS))
%!error id=gdn:badClass gdn_recurrent_bwd (q, k, v, g, b, dO > 0, dS)
%!error id=gdn:badClass gdn_recurrent_bwd (q, k, v, g, b, dO, dS > 0)
%!error id=gdn:badClass gdn_recurrent_bwd (q, 'k', v, g, b, dO, dS)
%!error id=gdn:badClass gdn_recurrent_bwd (q, k, v, g, {b}, dO, dS)
%!error id=gdn:badClass gdn_recurrent_bwd (q, k, v, g, b, {dO}, dS)
%!error id=gdn:badClass gdn_recurrent_bwd (q, k, v, g, b, dO, {dS})
%!error id=gdn:badClass gdn_recurrent_bwd (q, k, v, g, b, complex (dO), dS)
%!error id=gdn:badClass gdn_recurrent_bwd (q, k, v, g, b, dO, complex (dS))
%!error id=gdn:badClass gdn_recurrent_bwd (q(:, :, 1, 1), k(:, :, 1, 1), v(:, :, 1, 1), g(:, 1, 1), b(:, 1, 1), sparse (dO(:, :, 1, 1)), [])
%!error id=gdn:badClass gdn_recurrent_bwd (q(:, :, 1, 1), k(:, :, 1, 1), v(:, :, 1, 1), g(:, 1, 1), b(:, 1, 1), dO(:, :, 1, 1), sparse (dS(:, :, 1, 1)))
%!error id=gdn:badClass gdn_recurrent_bwd (q, k, v, g, b, single (dO), dS)
%!error id=gdn:badClass gdn_recurrent_bwd (single (q), single (k), single (v), single (g), single (b), dO, dS)

% sizes
%!error id=gdn:badShape gdn_recurrent_bwd (q, k, v, g, b, dO(:, 1:4, :, :), dS)
%!error id=gdn:badShape gdn_recurrent_bwd (q, k, v, g, b, dO(1:2, :, :, :), dS)
%!error id=gdn:badShape gdn_recurrent_bwd (q, k, v, g, b, dO(:, :, 1, :), dS)
%!error id=gdn:badShape gdn_recurrent_bwd (q, k, v, g, b, dO, dS(:, :, :, 1))
%!error id=gdn:badShape gdn_recurrent_bwd (q, k, v, g, b, dO, permute (dS, [2 1 3 4]))
%!error id=gdn:badShape gdn_recurrent_bwd (q, k, v, g, b, dO, dS, 'StateLayout', 'VK')
%!error id=gdn:badShape gdn_recurrent_bwd (q, k(:, 1:4, :, :), v, g, b, dO, dS)
%!error id=gdn:badShape gdn_recurrent_bwd (q, k, v(:, 1:4, :, :), g, b, dO, dS)
%!error id=gdn:badShape gdn_recurrent_bwd (q, k, v, g(:, 1, :), b, dO, dS)
%!error id=gdn:badShape gdn_recurrent_bwd (q, k, v, g, b(1:4, :, :), dO, dS)
%!error id=gdn:badShape gdn_recurrent_bwd (cat (3, q, q), cat (3, k, k), v(:, :, [1 2 1], :), g(:, [1 2 1], :), b(:, [1 2 1], :), dO(:, :, [1 2 1], :), [])
% CuSeqlens (also: dS must have N = number of sequences)
%!error id=gdn:badCuSeqlens gdn_recurrent_bwd (q, k, v, g, b, dO, [], 'CuSeqlens', [0 2 5])
%!error id=gdn:badCuSeqlens gdn_recurrent_bwd (q(:, :, :, 1), k(:, :, :, 1), v(:, :, :, 1), g(:, :, 1), b(:, :, 1), dO(:, :, :, 1), [], 'CuSeqlens', [1 5])
%!error id=gdn:badCuSeqlens gdn_recurrent_bwd (q(:, :, :, 1), k(:, :, :, 1), v(:, :, :, 1), g(:, :, 1), b(:, :, 1), dO(:, :, :, 1), [], 'CuSeqlens', [0 4])
%!error id=gdn:badCuSeqlens gdn_recurrent_bwd (q(:, :, :, 1), k(:, :, :, 1), v(:, :, :, 1), g(:, :, 1), b(:, :, 1), dO(:, :, :, 1), [], 'CuSeqlens', [0 3 1 5])
%!error id=gdn:badCuSeqlens gdn_recurrent_bwd (q(:, :, :, 1), k(:, :, :, 1), v(:, :, :, 1), g(:, :, 1), b(:, :, 1), dO(:, :, :, 1), [], 'CuSeqlens', [0 1.5 5])
%!error id=gdn:badShape gdn_recurrent_bwd (q(:, :, :, 1), k(:, :, :, 1), v(:, :, :, 1), g(:, :, 1), b(:, :, 1), dO(:, :, :, 1), dS(:, :, :, 1), 'CuSeqlens', [0 2 5])

% options
%!error id=gdn:badOption gdn_recurrent_bwd (q, k, v, g, b, dO, dS, 'Scale', 0)
%!error id=gdn:badOption gdn_recurrent_bwd (q, k, v, g, b, dO, dS, 'Scale', Inf)
%!error id=gdn:badOption gdn_recurrent_bwd (q, k, v, g, b, dO, dS, 'ChunkSize', 0)
%!error id=gdn:badOption gdn_recurrent_bwd (q, k, v, g, b, dO, dS, 'ChunkSize', 1.5)
%!error id=gdn:badOption gdn_recurrent_bwd (q, k, v, g, b, dO, dS, 'ChunkSize', NaN)
%!error id=gdn:badOption gdn_recurrent_bwd (q, k, v, g, b, dO, dS, 'ChunkSize', -Inf)
%!error id=gdn:badOption gdn_recurrent_bwd (q, k, v, g, b, dO, dS, 'GateInKernel', 1, 'ALog', [0 0], 'LowerBound', 0)
%!error id=gdn:badOption gdn_recurrent_bwd (q, k, v, g, b, dO, dS, 'StateLayout', 'kv ')
%!error id=gdn:badOption gdn_recurrent_bwd (q, k, v, g, b, dO, dS, 'Bogus', 1)
%!error id=gdn:badOption gdn_recurrent_bwd (q, k, v, g, b, dO, dS, 'Intermediates', true)
%!error id=gdn:badOption gdn_recurrent_bwd (q, k, v, g, b, dO, dS, 'GateInKernel', true)
%!error id=gdn:badShape gdn_recurrent_bwd (q, k, v, g, b, dO, dS, 'InitialState', zeros (4, 3))
%!error id=gdn:badShape gdn_recurrent_bwd (q, k, v, g, b, dO, dS, 'GateInKernel', true, 'ALog', 0)
%!error id=gdn:badShape gdn_recurrent_bwd (q, k, v, g, b, dO, dS, 'GateInKernel', true, 'ALog', [0 0], 'DtBias', zeros (4, 2))

% the message names the argument, the size it got and the size it needs
%!test
%! try
%!   gdn_recurrent_bwd (q, k, v, g, b, dO, dS(:, :, 1, :));
%!   error ('no error');
%! catch err
%!   assert (err.identifier, 'gdn:badShape');
%!   assert (~isempty (strfind (err.message, 'dS')));
%!   assert (~isempty (strfind (err.message, '4x3x2x2')));
%!   assert (~isempty (strfind (err.message, '4x3x1x2')));
%! end

% ---- a few results (the full suites are in validation/tests) -------------
%!test  # output classes and the [] outputs without GateInKernel
%! out = cell (1, 8);
%! [out{:}] = gdn_recurrent_bwd (single (q), single (k), single (v), single (g), ...
%!                               single (b), single (dO), dS);
%! for i = 1:6
%!   assert (class (out{i}), 'single');
%! end
%! assert (isempty (out{7}) && isempty (out{8}));
%!test  # one step by hand: o = S1' * (s q), L = dO' * o
%! q1 = [1; 2]; k1 = [0.6; 0.8]; v1 = [1; -1; 2]; g1 = -0.4; b1 = 0.3;
%! S0 = [1 2 3; 4 5 6]; s = 0.5; dO = [0.2; -1; 0.7];
%! E = exp (g1);
%! Sp = E * S0;
%! e = v1 - Sp' * k1;
%! S1 = Sp + b1 * k1 * e';
%! dS1 = s * q1 * dO';                         % dL/dS1
%! dq = s * S1 * dO;
%! dv = b1 * dS1' * k1;
%! dbeta = k1' * dS1 * e;
%! de = b1 * dS1' * k1;                        % dL/de
%! dSp = dS1 - k1 * de';                       % through S1 and e
%! dk = b1 * dS1 * e - Sp * de;
%! dS0 = E * dSp;
%! dg = sum (sum (dSp .* Sp));
%! [a1, a2, a3, a4, a5, a6] = gdn_recurrent_bwd (q1, k1, v1, g1, b1, dO, [], ...
%!                                               'InitialState', S0, 'Scale', s);
%! assert (a1, dq, 1e-14);
%! assert (a2, dk, 1e-14);
%! assert (a3, dv, 1e-14);
%! assert (a4, dg, 1e-14);
%! assert (a5, dbeta, 1e-14);
%! assert (a6, dS0, 1e-14);
%!test  # help text is there
%! assert (~isempty (strfind (help ('gdn_recurrent_bwd'), 'checkpoint')));
