%  [dq, dk, dv, dg, dbeta, dS0, dALog, dDtBias] = ...
%        kda_chunk_bwd (q, k, v, g, beta, dout, dS)
%  [...] = kda_chunk_bwd (q, k, v, g, beta, dout, dS, Name, Value, ...)
%
%  Gradients of Kimi Delta Attention (the backward of kda_chunk), computed
%  chunk by chunk.  For a scalar loss L of the outputs [o, S] of
%      [o, S] = kda_chunk (q, k, v, g, beta, Name, Value, ...)
%  and the gradients dout = dL/do and dS = dL/dS (final state; [] means
%  zero), it returns the gradient of L with respect to every input.  (The
%  SPEC calls dout "do"; do is a keyword in Octave.)  Same function,
%  arguments and results as kda_recurrent_bwd.
%
%  The forward, per sequence and value head, t = 1..T (see kda_chunk):
%      S'_t = Diag (exp (g_t)) * S_{t-1}
%      S_t  = S'_t + beta_t * k_t * (v_t - S'_t' * k_t)'
%      o_t  = S_t' * (scale * q_t)
%
%  The chunked backward.  For each (sequence, value head):
%   1. a forward sweep over all chunks forms, from the state h entering
%      each chunk, the pieces of the chunked forward that the state update
%      needs (cumulative gate G, M, A_raw = Diag (beta) M,
%      A = (I + A_raw) \ Diag (beta), w, u, v_new = u - w h) and the next
%      state, and keeps per chunk h (K x V), M and A (C x C), w (K x C) and
%      v_new (V x C); no per-step state;
%   2. a reverse sweep, chunk after chunk, recomputes only the decays, the
%      gated q, k and Aqk (A_raw again from the kept M) and, with the
%      kept blocks, back-propagates dO and the incoming state gradient dh
%      through
%        O      = scale (exp (G) .* Q) h + Aqk v_new
%        h_next = Diag (exp (G_c)) h + (exp (G_c - G) .* K)' v_new
%        v_new  = u - w h,   w = A (exp (G) .* K),   u = A V,
%      through the triangular solve, the gated products A_raw and Aqk
%      (with the same overflow-free decay factors as the forward), and the
%      cumulative gate (each term added to exactly the steps whose gates
%      it depends on, so nothing cancels even for gates of -30); the
%      state gradient passed to the previous chunk is
%        dh_prev = scale (exp (G) .* Q)' dO + Diag (exp (G_c)) dh - w' dv_new;
%   3. the gradients are chained through the in-kernel transforms
%      (UseQKL2Norm, GateInKernel, BetaSigmoid), and dq, dk are summed over
%      the value heads of each GVA group.
%  Memory: ceil (T/C) (K V + 2 C^2 + C (K + V)) kept numbers and a
%  workspace of O(K V + C (K + V) + C^2) per (sequence, value head) in
%  progress, i.e. O(T/C K V + T (2 C + K + V)).
%
%  Guarantee: the gradients equal those of kda_recurrent_bwd to rounding
%  for every chunk size and every T (ratio = rms (ref - x) / rms (ref)
%  <= 1e-10 in double, <= 1e-4 in single), and agree with central finite
%  differences of the forward.
%
%  Arguments: q, k, v, g, beta, and every Name, Value option, exactly as
%  passed to kda_chunk (shapes: q, k K x T x H x B; v V x T x HV x B;
%  g K x T x HV x B; beta T x HV x B), and
%      dout      V x T x HV x B    dL/do (the size of v)
%      dS        K x V x HV x N    dL/dS for the final state (V x K x HV x N
%                                  with 'StateLayout', 'VK'), or [] (zero)
%  Results (each the shape of its input, in the class of the data):
%      dq, dk    K x T x H x B     gradients of the raw q, k (through the
%                                  L2 norm with UseQKL2Norm; summed over
%                                  each GVA group)
%      dv        V x T x HV x B
%      dg        K x T x HV x B    with respect to the raw g with GateInKernel
%      dbeta     shape of beta     with respect to the logit with BetaSigmoid
%      dS0       shape of InitialState, or K x V x HV x N (V x K x HV x N
%                with 'VK') when it was not given: dL/dS_0
%      dALog     shape of ALog, [] unless GateInKernel
%      dDtBias   shape of DtBias (K x HV when DtBias was not given), []
%                unless GateInKernel
%
%  Options (names case-insensitive; the same meaning and defaults as in
%  kda_chunk):
%    'ChunkSize'       C, a positive integer, default 64: the chunk length
%                      of the backward (the result does not depend on it
%                      beyond rounding).
%    'Scale'           finite, > 0; default 1 / sqrt (K).
%    'InitialState'    S_0 (K x V x HV x N, or V x K x HV x N with 'VK');
%                      default zeros.
%    'CuSeqlens'       [0, t1, ..., T] (B = 1): independent sequences.
%    'UseQKL2Norm'     q, k divided by their L2 norm over K; default false.
%    'GateInKernel'    gate = -exp (ALog(j)) softplus (g + DtBias(:, j)), or
%                      lb sigmoid (exp (ALog(j)) (g + DtBias(:, j))) with
%                      'LowerBound' lb < 0; default false.
%    'ALog'            HV values (required with GateInKernel).
%    'DtBias'          K x HV; default zeros.
%    'LowerBound'      finite, < 0; default: not given (softplus form).
%    'BetaSigmoid'     beta is a logit, beta used = sigmoid (beta);
%                      default false.
%    'AllowNegEigval'  with BetaSigmoid: beta used = 2 sigmoid (beta);
%                      default false.
%    'StateLayout'     'KV' (default) or 'VK' for InitialState, dS, dS0.
%  'Intermediates' is not accepted (kda:badOption).
%
%  Precision: q, k, v, g, beta, dout must be all single or all double; the
%  work and the results are in that class.  InitialState, dS, ALog, DtBias
%  may be single or double.
%
%  Errors: as kda_chunk (kda:nargin, kda:nargout, kda:badClass,
%  kda:badShape -- also for dout and dS --, kda:badOption,
%  kda:badCuSeqlens, kda:outOfMemory), each message naming the argument,
%  the size it got and the size it needs.
%
%  Example (a directional derivative against central differences):
%      K = 16; V = 32; T = 100;
%      q = randn (K, T);  k = randn (K, T);  k = k ./ sqrt (sum (k .^ 2));
%      v = randn (V, T);  g = -rand (K, T);  beta = rand (T, 1);
%      [o, S] = kda_chunk (q, k, v, g, beta);
%      dout = randn (size (o));  dS = randn (size (S));
%      [dq, dk, dv, dg] = kda_chunk_bwd (q, k, v, g, beta, dout, dS);
%      L = @(o, S) dout(:)' * o(:) + dS(:)' * S(:);
%      e = 1e-6;  d = randn (size (g));
%      [o1, S1] = kda_chunk (q, k, v, g + e * d, beta);
%      [o2, S2] = kda_chunk (q, k, v, g - e * d, beta);
%      [(L (o1, S1) - L (o2, S2)) / (2 * e), dg(:)' * d(:)]   % agree
%
%  See also: kda_chunk, kda_recurrent_bwd, kda_recurrent, gdn_chunk_bwd.
function varargout = kda_chunk_bwd (varargin)
  [varargout{1:max (nargout, 1)}] = la_mex ('kda_chunk_bwd', varargin{:});
endfunction

%!shared q, k, v, g, beta, dout, dS
%! q = randn (4, 6, 2);  k = randn (4, 6, 2);  v = randn (3, 6, 2);
%! g = -rand (4, 6, 2);  beta = rand (6, 2);
%! dout = randn (3, 6, 2);  dS = randn (4, 3, 2);

%!test
%! % the same gradients as the recurrent backward; dS = [] is dS = 0
%! X = cell (1, 8);  Y = X;
%! [X{:}] = kda_chunk_bwd (q, k, v, g, beta, dout, dS, 'ChunkSize', 4);
%! [Y{:}] = kda_recurrent_bwd (q, k, v, g, beta, dout, dS);
%! for i = 1:6
%!   assert (X{i}, Y{i}, 1e-12 * max (abs (Y{i}(:))));
%! end
%! assert (isempty (X{7}) && isempty (X{8}));
%! [X{:}] = kda_chunk_bwd (q, k, v, g, beta, dout, [], 'ChunkSize', 4);
%! [Y{:}] = kda_chunk_bwd (q, k, v, g, beta, dout, zeros (4, 3, 2), 'ChunkSize', 4);
%! assert (X, Y);

% argument count: the backward needs 7 (q, k, v, g, beta, do, dS)
%!error id=kda:nargin kda_chunk_bwd (q, k, v, g, beta, dout)
%!error id=kda:nargin kda_chunk_bwd (q, k, v, g, beta)
%!error id=kda:nargin kda_chunk_bwd ()
%!error <at least 7> kda_chunk_bwd (q, k, v, g, beta, dout)
%!error id=kda:nargin kda_chunk_bwd (q, k, v, g, beta, dout, dS, 'ChunkSize')
%!error id=kda:nargout [a, b, c, d, e, f, g2, h, i] = kda_chunk_bwd (q, k, v, g, beta, dout, dS)

% do: the size and class of v
%!error id=kda:badShape kda_chunk_bwd (q, k, v, g, beta, dout(:, 1:5, :), dS)
%!error id=kda:badShape kda_chunk_bwd (q, k, v, g, beta, dout(1:2, :, :), dS)
%!error id=kda:badShape kda_chunk_bwd (q, k, v, g, beta, dout(:, :, 1), dS)
%!error id=kda:badShape kda_chunk_bwd (q, k, v, g, beta, [], dS)
%!error <do must be the size of v> kda_chunk_bwd (q, k, v, g, beta, dout(:, 1:5, :), dS)
%!error id=kda:badClass kda_chunk_bwd (q, k, v, g, beta, single (dout), dS)
%!error id=kda:badClass kda_chunk_bwd (single (q), single (k), single (v), single (g), single (beta), dout, dS)
%!error id=kda:badClass kda_chunk_bwd (q, k, v, g, beta, complex (dout), dS)
%!error id=kda:badClass kda_chunk_bwd (q, k, v, g, beta, int32 (dout), dS)
%!error id=kda:badClass kda_chunk_bwd (q, k, v, g, beta, sparse (dout(:, :, 1)), dS)

% dS: [] or the size of the state (K x V x HV x N; V x K x HV x N with 'VK'), float, real
%!error id=kda:badShape kda_chunk_bwd (q, k, v, g, beta, dout, dS(:, :, 1))
%!error id=kda:badShape kda_chunk_bwd (q, k, v, g, beta, dout, permute (dS, [2 1 3]))
%!error id=kda:badShape kda_chunk_bwd (q, k, v, g, beta, dout, dS, 'StateLayout', 'VK')
%!error id=kda:badShape kda_chunk_bwd (q, k, v, g, beta, dout, cat (4, dS, dS))
%!error id=kda:badShape kda_chunk_bwd (q, k, v, g, beta, dout, 0)
%!error <dS must be> kda_chunk_bwd (q, k, v, g, beta, dout, dS(:, :, 1))
%!error id=kda:badClass kda_chunk_bwd (q, k, v, g, beta, dout, complex (dS))
%!error id=kda:badClass kda_chunk_bwd (q, k, v, g, beta, dout, int32 (dS))
%!error id=kda:badClass kda_chunk_bwd (q, k, v, g, beta, dout, logical (dS))
%!error id=kda:badClass kda_chunk_bwd (q, k, v, g, beta, dout, 'abc')
%!error <dS> kda_chunk_bwd (q, k, v, g, beta, dout, int32 (dS))

% options
%!error id=kda:badOption kda_chunk_bwd (q, k, v, g, beta, dout, dS, 'ChunkSize', 0)
%!error id=kda:badOption kda_chunk_bwd (q, k, v, g, beta, dout, dS, 'ChunkSize', 2.5)
%!error id=kda:badOption kda_chunk_bwd (q, k, v, g, beta, dout, dS, 'ChunkSize', -1)
%!error id=kda:badOption kda_chunk_bwd (q, k, v, g, beta, dout, dS, 'ChunkSize', Inf)
%!error id=kda:badOption kda_chunk_bwd (q, k, v, g, beta, dout, dS, 'ChunkSize', [])
%!error id=kda:badOption kda_chunk_bwd (q, k, v, g, beta, dout, dS, 'Foo', 1)
%!error id=kda:badOption kda_chunk_bwd (q, k, v, g, beta, dout, dS, 3, 1)
%!error id=kda:badOption kda_chunk_bwd (q, k, v, g, beta, dout, dS, 'Intermediates', true)
%!error id=kda:badOption kda_chunk_bwd (q, k, v, g, beta, dout, dS, 'Intermediates', false)
%!error <Intermediates> kda_chunk_bwd (q, k, v, g, beta, dout, dS, 'Intermediates', true)
%!error id=kda:badOption kda_chunk_bwd (q, k, v, g, beta, dout, dS, 'GateInKernel', true)

%!test
%! % the example of the help text, with its "agree" asserted (last: it
%! % overwrites the shared variables)
%! K = 16; V = 32; T = 100;
%! q = randn (K, T);  k = randn (K, T);  k = k ./ sqrt (sum (k .^ 2));
%! v = randn (V, T);  g = -rand (K, T);  beta = rand (T, 1);
%! [o, S] = kda_chunk (q, k, v, g, beta);
%! dout = randn (size (o));  dS = randn (size (S));
%! [dq, dk, dv, dg] = kda_chunk_bwd (q, k, v, g, beta, dout, dS);
%! L = @(o, S) dout(:)' * o(:) + dS(:)' * S(:);
%! e = 1e-6;  d = randn (size (g));
%! [o1, S1] = kda_chunk (q, k, v, g + e * d, beta);
%! [o2, S2] = kda_chunk (q, k, v, g - e * d, beta);
%! fd = (L (o1, S1) - L (o2, S2)) / (2 * e);
%! assert (abs (fd - dg(:)' * d(:)) <= 1e-6 * abs (fd));
