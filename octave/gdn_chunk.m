%  [o, S] = gdn_chunk (q, k, v, g, beta)
%  [o, S] = gdn_chunk (q, k, v, g, beta, Name, Value, ...)
%  [o, S, aux] = gdn_chunk (..., 'Intermediates', true)
%
%  Gated DeltaNet (GDN), computed in chunks of C steps.  Same function,
%  arguments and results as gdn_recurrent; faster for long sequences (the
%  work is matrix products), and with 'Intermediates' it returns the
%  per-chunk quantities of the derivation.
%
%  What is computed, per sequence and value head, with column vectors
%  q_t, k_t (K), v_t (V), a scalar log decay g_t per step and a state
%  S (K x V), for t = 1..T:
%      S'_t = exp (g_t) * S_{t-1}
%      S_t  = S'_t + beta_t * k_t * (v_t - S'_t' * k_t)'
%      o_t  = S_t' * (scale * q_t)
%  S_0 is the initial state (zeros unless 'InitialState'); S returns S_T.
%
%  The chunked algorithm.  Each sequence is cut into chunks of C steps (the
%  last one may be shorter; chunks never cross a CuSeqlens boundary).  For a
%  chunk of c steps, rows i = 1..c of Q, K (c x K) and V (c x V), and the
%  state h entering it:
%      G_i    = g_1 + ... + g_i                 (cumulative gate in the chunk)
%      A_raw(i,j) = beta_i exp (G_i - G_j) k_i' k_j         (j < i; else 0)
%      A      = (I + A_raw) \ Diag (beta)       (forward substitution)
%      w = A (exp (G) .* K),   u = A V,   v_new = u - w h
%      Aqk(i,j)   = scale exp (G_i - G_j) q_i' k_j          (j <= i; else 0)
%      O      = scale (exp (G) .* Q) h + Aqk v_new
%      h      = exp (G_c) h + (exp (G_c - G) .* K)' v_new
%  (G is a c x 1 column here, broadcast over the K columns of Q and K.)
%  Every decay factor exp (G_i - G_j) is formed as a product of per-step
%  decays (each <= 1 when g <= 0), never as exp (G_i) * exp (-G_j), so strong
%  gates (g down to -30 per step, and beyond) cannot overflow.
%
%  Guarantee: the result equals gdn_recurrent to rounding for every chunk
%  size and every T (T need not be a multiple of C, and may be smaller):
%  ratio = rms (ref - x) / rms (ref) <= 1e-10 in double, <= 1e-4 in single.
%
%  Arguments (Octave column-major; trailing singleton dimensions may be
%  dropped):
%      q, k      K x T x H x B     queries, keys (H query/key heads)
%      v         V x T x HV x B    values (HV value heads, a multiple of H)
%      g         T x HV x B        log decays, one per step and value head
%                                  (gate; <= 0 for a decay; any array of
%                                  T*HV*B elements, read in that order)
%      beta      T x HV x B        step sizes (any array of T*HV*B elements)
%  Results:
%      o         V x T x HV x B    outputs, the class of the inputs
%      S         K x V x HV x N    final states (V x K x HV x N with
%                                  'StateLayout', 'VK'); N = B, or the
%                                  number of CuSeqlens segments
%      aux       struct            see 'Intermediates'
%  GVA (grouped value attention): value head j reads query/key head
%  floor ((j-1) / (HV/H)) + 1.
%
%  Options (Name, Value pairs; names are case-insensitive; [] for
%  InitialState, CuSeqlens, LowerBound, ALog, DtBias means "not given"):
%    'ChunkSize'       C, a positive integer.  Default 64.  Any value gives
%                      the same result to rounding; it sets the block size.
%                      A value above the longest sequence acts as its length.
%    'Scale'           finite, > 0.  Default 1 / sqrt (K).
%    'InitialState'    S_0, K x V x HV x N (V x K x HV x N with 'VK'),
%                      single or double.  Default zeros.
%    'CuSeqlens'       [0, t1, ..., T], strictly increasing integers: splits a
%                      batch of one (B = 1) into N = numel - 1 independent
%                      sequences, each with its own initial and final state.
%                      Default: none (B sequences of length T).
%    'UseQKL2Norm'     true: q and k are divided by their L2 norm over K
%                      first (exactly x / norm (x); a zero column stays zero).
%                      Default false.
%    'GateInKernel'    true: g is raw and the gate used is
%                         -exp (ALog(j)) * softplus (g + DtBias(j)),
%                      or with 'LowerBound' lb:
%                         lb * sigmoid (exp (ALog(j)) * (g + DtBias(j))),
%                      for value head j.  Default false.
%    'ALog'            HV values; required with GateInKernel (ignored
%                      without it).
%    'DtBias'          HV values; default zeros (used with GateInKernel
%                      only).
%    'LowerBound'      finite, < 0; selects the sigmoid form above.
%                      Default: not given (softplus form).
%    'BetaSigmoid'     true: beta is a logit, the step used is
%                      sigmoid (beta).  Default false.
%    'AllowNegEigval'  true (with BetaSigmoid): the step used is
%                      2 * sigmoid (beta), so I - beta k k' may have a
%                      negative eigenvalue.  Without BetaSigmoid it has no
%                      effect (beta is used as given).  Default false.
%    'StateLayout'     'KV' (default) or 'VK': the layout of InitialState
%                      and S.
%    'Intermediates'   true: fill aux with the quantities of the chunked
%                      algorithm (above), computed with the transforms
%                      applied (used q, k, gate, beta).  Default false: aux
%                      is a 1 x 1 struct with no fields.  With C the chunk
%                      size used (ChunkSize, or the longest sequence's length
%                      if shorter) and NC the number of chunks over all
%                      sequences:
%        G          T x HV x B       cumulative gate inside each chunk (the
%                   shape g was given in)
%        A_raw, A, Aqk  C x T x HV x B  the chunk's C x C matrices by rows:
%                   column t holds row i of its chunk's matrix, t being the
%                   i-th step of the chunk; for a chunk of c steps starting
%                   at t0 the matrix is  aux.A(1:c, t0:t0+c-1, j, b).'
%                   (entries past the chunk's length are zero)
%        w          K x T x HV x B   rows of w, one column per step
%        u, v_new   V x T x HV x B   rows of u and v_new
%        h          K x V x HV x NC  the state entering each chunk (always
%                   K x V), chunks numbered sequence by sequence
%        chunks     NC x 3           [sequence, first step, length], 1-based
%        ChunkSize  C
%
%  Precision: q, k, v, g, beta must be all single or all double; the work
%  and the results are in that class.  InitialState, ALog, DtBias may be
%  single or double.  NaN and Inf in the data propagate (in the chunked form
%  a non-finite value at step t can also reach the outputs of the earlier
%  steps of its own chunk; gdn_recurrent keeps those finite).
%
%  Errors (identifier, message naming the argument, the size it got and the
%  size it needs): gdn:nargin (argument count, options not in pairs),
%  gdn:nargout, gdn:badClass (not single/double, complex, sparse, classes
%  mixed), gdn:badShape (sizes that do not fit, HV not a multiple of H),
%  gdn:badOption (unknown name, bad value, e.g. ChunkSize not a positive
%  integer), gdn:badCuSeqlens, gdn:outOfMemory.
%
%  Example:
%      K = 16; V = 32; T = 200; H = 2; HV = 4;
%      q = randn (K, T, H);  k = randn (K, T, H);  v = randn (V, T, HV);
%      g = -rand (T, HV);  beta = rand (T, HV);
%      [o, S, aux] = gdn_chunk (q, k, v, g, beta, 'UseQKL2Norm', true, ...
%                               'ChunkSize', 32, 'Intermediates', true);
%      [o2, S2] = gdn_recurrent (q, k, v, g, beta, 'UseQKL2Norm', true);
%      norm (o(:) - o2(:)) / norm (o2(:))     % rounding only
%      c = aux.chunks(2, 3);  t0 = aux.chunks(2, 2);
%      A = aux.A(1:c, t0:t0+c-1, 1).'         % second chunk's A, head 1
%
%  See also: gdn_recurrent, gdn_chunk_bwd, gdn_recurrent_bwd, kda_chunk.
function varargout = gdn_chunk (varargin)
  [varargout{1:max (nargout, 1)}] = la_mex ('gdn_chunk', varargin{:});
endfunction

%!shared q, k, v, g, beta
%! q = randn (4, 6, 2);  k = randn (4, 6, 2);  v = randn (3, 6, 2);
%! g = -rand (6, 2);  beta = rand (6, 2);

%!test
%! % the example of the help text
%! K = 16; V = 32; T = 200; H = 2; HV = 4;
%! q = randn (K, T, H);  k = randn (K, T, H);  v = randn (V, T, HV);
%! g = -rand (T, HV);  beta = rand (T, HV);
%! [o, S, aux] = gdn_chunk (q, k, v, g, beta, 'UseQKL2Norm', true, ...
%!                          'ChunkSize', 32, 'Intermediates', true);
%! [o2, S2] = gdn_recurrent (q, k, v, g, beta, 'UseQKL2Norm', true);
%! assert (norm (o(:) - o2(:)) / norm (o2(:)) < 1e-12);
%! c = aux.chunks(2, 3);  t0 = aux.chunks(2, 2);
%! A = aux.A(1:c, t0:t0+c-1, 1).';
%! assert (size (A), [32 32]);
%! assert (istril (A));

%!test
%! [o, S, aux] = gdn_chunk (q, k, v, g, beta, 'ChunkSize', 4);
%! [o2, S2] = gdn_recurrent (q, k, v, g, beta);
%! assert (o, o2, 1e-12 * max (abs (o2(:))));
%! assert (S, S2, 1e-12 * max (abs (S2(:))));
%! assert (isstruct (aux) && isempty (fieldnames (aux)));

% ChunkSize must be a positive integer scalar
%!error id=gdn:badOption gdn_chunk (q, k, v, g, beta, 'ChunkSize', 0)
%!error id=gdn:badOption gdn_chunk (q, k, v, g, beta, 'ChunkSize', -3)
%!error id=gdn:badOption gdn_chunk (q, k, v, g, beta, 'ChunkSize', 2.5)
%!error id=gdn:badOption gdn_chunk (q, k, v, g, beta, 'ChunkSize', NaN)
%!error id=gdn:badOption gdn_chunk (q, k, v, g, beta, 'ChunkSize', Inf)
%!error id=gdn:badOption gdn_chunk (q, k, v, g, beta, 'ChunkSize', 'abc')
%!error id=gdn:badOption gdn_chunk (q, k, v, g, beta, 'ChunkSize', [16 32])
%!error id=gdn:badOption gdn_chunk (q, k, v, g, beta, 'ChunkSize', [])
%!error id=gdn:badOption gdn_chunk (q, k, v, g, beta, 'ChunkSize', 16i)
%!error <ChunkSize> gdn_chunk (q, k, v, g, beta, 'ChunkSize', 0)

% argument count
%!error id=gdn:nargin gdn_chunk (q, k, v, g)
%!error id=gdn:nargin gdn_chunk ()
%!error id=gdn:nargin gdn_chunk (q, k, v, g, beta, 'ChunkSize')
%!error id=gdn:nargout [a, b, c, d] = gdn_chunk (q, k, v, g, beta)

% classes
%!error id=gdn:badClass gdn_chunk (int32 (q), k, v, g, beta)
%!error id=gdn:badClass gdn_chunk (q, k, complex (v), g, beta)
%!error id=gdn:badClass gdn_chunk (q, k, v, g, sparse (beta))
%!error id=gdn:badClass gdn_chunk (q, k, single (v), g, beta)
%!error id=gdn:badClass gdn_chunk (single (q), single (k), single (v), single (g), beta)
%!error id=gdn:badClass gdn_chunk (q, k, v, g, beta, 'InitialState', int8 (zeros (4, 3, 2)))
%!error id=gdn:badClass gdn_chunk (q, logical (k), v, g, beta)

% sizes
%!error id=gdn:badShape gdn_chunk (q, k(:, 1:5, :), v, g, beta)
%!error id=gdn:badShape gdn_chunk (q, k, v(:, 1:5, :), g, beta)
%!error id=gdn:badShape gdn_chunk (q, k, v, g(1:5, :), beta)
%!error id=gdn:badShape gdn_chunk (q, k, v, g, beta(1:5, :))
%!error id=gdn:badShape gdn_chunk (q, k, v, g, beta, 'InitialState', zeros (3, 4, 2))
%!error id=gdn:badShape gdn_chunk (q, k, cat (3, v, v(:, :, 1)), [g, g(:, 1)], [beta, beta(:, 1)])
%!error id=gdn:badShape gdn_chunk (q, k, v, g, beta, 'GateInKernel', true, 'ALog', [0 0 0])
%!error id=gdn:badShape gdn_chunk (q, k, v, g, beta, 'GateInKernel', true, 'ALog', [0 0], 'DtBias', zeros (3, 1))

% CuSeqlens
%!error id=gdn:badCuSeqlens gdn_chunk (q, k, v, g, beta, 'CuSeqlens', [0 3 5])
%!error id=gdn:badCuSeqlens gdn_chunk (q, k, v, g, beta, 'CuSeqlens', [0 3 3 6])
%!error id=gdn:badCuSeqlens gdn_chunk (q, k, v, g, beta, 'CuSeqlens', [1 3 6])
%!error id=gdn:badCuSeqlens gdn_chunk (q, k, v, g, beta, 'CuSeqlens', [0 2.5 6])
%!error id=gdn:badCuSeqlens gdn_chunk (q, k, v, g, beta, 'CuSeqlens', 6)
%!error id=gdn:badCuSeqlens gdn_chunk (cat (4, q, q), cat (4, k, k), cat (4, v, v), cat (3, g, g), cat (3, beta, beta), 'CuSeqlens', [0 3 6])

% options
%!error id=gdn:badOption gdn_chunk (q, k, v, g, beta, 'Foo', 1)
%!error id=gdn:badOption gdn_chunk (q, k, v, g, beta, 3, 1)
%!error id=gdn:badOption gdn_chunk (q, k, v, g, beta, 'Scale', 0)
%!error id=gdn:badOption gdn_chunk (q, k, v, g, beta, 'Scale', NaN)
%!error id=gdn:badOption gdn_chunk (q, k, v, g, beta, 'LowerBound', 1)
%!error id=gdn:badOption gdn_chunk (q, k, v, g, beta, 'GateInKernel', true)
%!error id=gdn:badOption gdn_chunk (q, k, v, g, beta, 'StateLayout', 'XY')
%!error id=gdn:badOption gdn_chunk (q, k, v, g, beta, 'Intermediates', NaN)
%!error id=gdn:badOption gdn_recurrent (q, k, v, g, beta, 'Intermediates', true)
%!error id=gdn:badOption gdn_chunk_bwd (q, k, v, g, beta, v, [], 'Intermediates', true)
