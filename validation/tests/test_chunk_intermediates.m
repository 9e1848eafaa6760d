% test_chunk_intermediates.m -- the 'Intermediates' of kda_chunk / gdn_chunk
% satisfy, chunk by chunk, the equations that define them (docs/recurrence.md,
% docs/chunk_forward.md).  Run with
%   addpath ('octave'); test ('validation/tests/test_chunk_intermediates.m')
%
% For one chunk of c steps (rows i = 1..c), h = state entering the chunk,
% Q, K (c x K), V (c x V) the used (transformed) inputs, g the used gate:
%   G      = cumsum (g)                         (inside the chunk)
%   A_raw  (i,j) = beta_i k_i' diag(exp(G_i - G_j)) k_j      j < i, else 0
%   (I + A_raw) A = diag (beta)                 (A lower triangular)
%   w = A (exp(G) .* K),   u = A V,   v_new = u - w h
%   Aqk (i,j) = scale q_i' diag(exp(G_i - G_j)) k_j          j <= i, else 0
%   o  = scale (exp(G) .* Q) h + Aqk v_new
%   h of the next chunk = diag(exp(G_c)) h + (exp(G_c - G) .* K)' v_new,
%   and after the last chunk of a sequence that is its final state S.
% The aux arrays A_raw, A, Aqk are C x T x HV x B: the chunk's block is
% aux.A_raw(1:c, t0:t0+c-1, hv, b).'.  Every check is relative, in double,
% <= 1e-12 (the reference is formed here in Octave, independently).

%!function e = err_ (ref, x, sc)
%!  % Frobenius error of x relative to the scale sc (default: norm of ref)
%!  if (nargin < 3)
%!    sc = norm (double (ref(:)));
%!  end
%!  d = norm (double (ref(:)) - double (x(:)));
%!  if (sc == 0)
%!    e = d;
%!  else
%!    e = d / sc;
%!  end
%!endfunction

%!function [nchk, aux] = check_aux_ (op, C, q, k, v, g, beta, varargin)
%!  % Run op_chunk with 'Intermediates' and check every field against its
%!  % defining equation; returns the number of chunks checked.
%!  tol = 1e-12;
%!  fc = str2func ([op '_chunk']);
%!  [o, S, aux] = fc (q, k, v, g, beta, 'ChunkSize', C, 'Intermediates', true, varargin{:});
%!  gsz = size (g);
%!  [K, T, H, B] = size (q);
%!  [V, ~, HV, ~] = size (v);
%!  % the inputs as the kernel uses them: the reference's transforms
%!  U = ref_transform (op, q, k, v, g, beta, varargin{:});
%!  q = U.q;  k = U.k;  v = U.v;  g = U.g;  beta = U.beta;  scale = U.scale;
%!  h0 = U.S0;  N = U.N;
%!  cu = double (take_option (varargin, 'CuSeqlens'));
%!  S = double (S);
%!  if (U.vk)
%!    S = permute (S, [2 1 3 4]);
%!  end
%!  Gaux = reshape (double (aux.G), size (g));
%!  % sizes of the fields: the chunk size used is at most the longest sequence
%!  if (isempty (cu)) Ce = min (C, T); else Ce = min (C, max (diff (cu))); end
%!  Ce = max (Ce, 1);
%!  assert (size (aux.G), gsz);           % the shape g was passed in
%!  assert (size (aux.A_raw), size (zeros (Ce, T, HV, B)));
%!  assert (size (aux.A), size (zeros (Ce, T, HV, B)));
%!  assert (size (aux.Aqk), size (zeros (Ce, T, HV, B)));
%!  assert (size (aux.w), size (zeros (K, T, HV, B)));
%!  assert (size (aux.u), size (v));
%!  assert (size (aux.v_new), size (v));
%!  assert (aux.ChunkSize, Ce);
%!  % the chunk list: (sequence, first step, length), sequence by sequence
%!  ch = zeros (0, 3);
%!  for n = 1:N
%!    if (isempty (cu)) a = 1; e = T; else a = cu(n) + 1; e = cu(n + 1); end
%!    for t0 = a:C:e
%!      ch(end + 1, :) = [n, t0, min(C, e - t0 + 1)];
%!    end
%!  end
%!  assert (aux.chunks, ch);
%!  NC = size (ch, 1);
%!  assert (size (aux.h), size (zeros (K, V, HV, NC)));
%!  nchk = 0;
%!  for ci = 1:NC
%!    n = ch(ci, 1); t0 = ch(ci, 2); c = ch(ci, 3);
%!    if (isempty (cu)) b = n; else b = 1; end
%!    cols = t0:t0 + c - 1;
%!    for hv = 1:HV
%!      hq = U.map(hv);
%!      Q = q(:, cols, hq, b).';
%!      Kc = k(:, cols, hq, b).';
%!      Vc = v(:, cols, hv, b).';
%!      bc = beta(cols, hv, b);
%!      % G: the cumulative used gate inside the chunk
%!      G = Gaux(:, cols, hv, b).';
%!      assert (err_ (cumsum (g(:, cols, hv, b).', 1), G) <= tol, 'G, chunk %d', ci);
%!      G = G .* ones (1, K);             % GDN: broadcast over K
%!      EG = exp (G);
%!      % A_raw and Aqk from their definitions
%!      Ar = zeros (c); Aq = zeros (c);
%!      for i = 1:c
%!        E = exp (G(i, :) - G(1:i, :)) .* Kc(1:i, :);       % i x K
%!        Aq(i, 1:i) = scale * (E * Q(i, :).').';
%!        Ar(i, 1:i-1) = bc(i) * (E(1:i-1, :) * Kc(i, :).').';
%!      end
%!      blk = @(F) double (F(1:c, cols, hv, b).');
%!      past = @(F) reshape (F(c+1:end, cols, hv, b), [], 1);
%!      Araw = blk (aux.A_raw); A = blk (aux.A); Aqk = blk (aux.Aqk);
%!      assert (all (past (aux.A_raw) == 0) && all (past (aux.A) == 0) ...
%!              && all (past (aux.Aqk) == 0), 'rows past the chunk, chunk %d', ci);
%!      assert (~any (any (triu (Araw))) && ~any (any (triu (A, 1))) ...
%!              && ~any (any (triu (Aqk, 1))), 'triangular shape, chunk %d', ci);
%!      assert (err_ (Ar, Araw) <= tol, 'A_raw, chunk %d', ci);
%!      assert (err_ (Aq, Aqk) <= tol, 'Aqk, chunk %d', ci);
%!      % (I + A_raw) A = diag (beta), normwise residual
%!      L = eye (c) + Araw;
%!      assert (err_ (diag (bc), L * A, norm (L, 'fro') * norm (A, 'fro')) <= tol, ...
%!              'A, chunk %d', ci);
%!      % w, u
%!      w = double (aux.w(:, cols, hv, b)).';
%!      u = double (aux.u(:, cols, hv, b)).';
%!      KG = EG .* Kc;
%!      assert (err_ (A * KG, w, norm (A, 'fro') * norm (KG, 'fro')) <= tol, 'w, chunk %d', ci);
%!      assert (err_ (A * Vc, u, norm (A, 'fro') * norm (Vc, 'fro')) <= tol, 'u, chunk %d', ci);
%!      % v_new with the state entering the chunk
%!      h = double (aux.h(:, :, hv, ci));
%!      if (ci == 1 || ch(ci - 1, 1) ~= n)
%!        assert (h, h0(:, :, hv, n));      % first chunk: the initial state, exactly
%!      end
%!      vn = double (aux.v_new(:, cols, hv, b)).';
%!      assert (err_ (u - w * h, vn, norm (u, 'fro') + norm (w, 'fro') * norm (h, 'fro')) <= tol, ...
%!              'v_new, chunk %d', ci);
%!      % output of the chunk
%!      oc = double (o(:, cols, hv, b)).';
%!      QG = scale * (Q .* EG);
%!      sc = norm (QG, 'fro') * norm (h, 'fro') + norm (Aqk, 'fro') * norm (vn, 'fro');
%!      assert (err_ (QG * h + Aqk * vn, oc, sc) <= tol, 'o, chunk %d', ci);
%!      % state carried to the next chunk, or the final state
%!      KC = exp (G(c, :) - G) .* Kc;
%!      hn = EG(c, :).' .* h + KC.' * vn;
%!      if (ci < NC && ch(ci + 1, 1) == n)
%!        hx = double (aux.h(:, :, hv, ci + 1));
%!      else
%!        hx = S(:, :, hv, n);
%!      end
%!      sc = norm (h, 'fro') + norm (KC, 'fro') * norm (vn, 'fro');
%!      assert (err_ (hn, hx, sc) <= tol, 'next state, chunk %d', ci);
%!      nchk = nchk + 1;
%!    end
%!  end
%!endfunction

% ---- KDA and GDN, every chunk size -----------------------------------------

%!test
%! randn ('seed', 21); rand ('seed', 21);
%! [q, k, v, g, beta] = rand_qkvgb ('kda', 10, 9, 100, 2, 2, 2, 0.5);
%! h0 = randn (10, 9, 2, 2);
%! for C = [1 7 16 64 100 130]
%!   n = check_aux_ ('kda', C, q, k, v, g, beta, 'InitialState', h0);
%!   assert (n, 2 * 2 * ceil (100 / C));
%! end

%!test
%! randn ('seed', 22); rand ('seed', 22);
%! [q, k, v, g, beta] = rand_qkvgb ('gdn', 10, 9, 100, 2, 2, 2, 0.5);
%! h0 = randn (10, 9, 2, 2);
%! for C = [1 7 16 64 100 130]
%!   n = check_aux_ ('gdn', C, q, k, v, g, beta, 'InitialState', h0);
%!   assert (n, 2 * 2 * ceil (100 / C));
%! end

%!test
%! % GDN: G is T x HV x B (one cumulative gate per step)
%! randn ('seed', 23); rand ('seed', 23);
%! [q, k, v, g, beta] = rand_qkvgb ('gdn', 6, 5, 40, 1, 3, 2, 0.5);
%! [~, ~, aux] = gdn_chunk (q, k, v, g, beta, 'ChunkSize', 16, 'Intermediates', true);
%! assert (size (aux.G), [40 3 2]);
%! assert (aux.G(17:32, 2, 2), cumsum (g(17:32, 2, 2)), 1e-14);
%! check_aux_ ('gdn', 16, q, k, v, g, beta, 'StateLayout', 'VK');

% ---- variable length ---------------------------------------------------------

%!test
%! randn ('seed', 24); rand ('seed', 24);
%! lens = [5 64 70 1];
%! cu = [0 cumsum(lens)];
%! for op = {'kda', 'gdn'}
%!   [q, k, v, g, beta] = rand_qkvgb (op{1}, 8, 7, cu(end), 1, 2, 1, 0.5);
%!   h0 = randn (8, 7, 2, 4);
%!   for C = [16 64]
%!     [n, aux] = check_aux_ (op{1}, C, q, k, v, g, beta, 'CuSeqlens', cu, 'InitialState', h0);
%!     % no chunk crosses a sequence boundary
%!     ends = aux.chunks(:, 2) + aux.chunks(:, 3) - 1;
%!     assert (all (ends <= cu(aux.chunks(:, 1) + 1).'));
%!     assert (all (aux.chunks(:, 2) > cu(aux.chunks(:, 1)).'));
%!   end
%!   [~, aux] = check_aux_ (op{1}, 16, q, k, v, g, beta, 'CuSeqlens', cu);
%!   assert (aux.chunks, [1 1 5; 2 6 16; 2 22 16; 2 38 16; 2 54 16; ...
%!                        3 70 16; 3 86 16; 3 102 16; 3 118 16; 3 134 6; 4 140 1]);
%! end

% ---- options ---------------------------------------------------------------

%!test
%! % GVA (HV = 2H), UseQKL2Norm, GateInKernel with DtBias, BetaSigmoid +
%! % AllowNegEigval, Scale, StateLayout 'VK' with an initial state
%! randn ('seed', 25); rand ('seed', 25);
%! K = 8; V = 6; T = 50; H = 2; HV = 4; B = 2;
%! for op = {'kda', 'gdn'}
%!   [q, k, v, g, beta] = rand_qkvgb (op{1}, K, V, T, H, HV, B, 0.5);
%!   graw = randn (size (g));
%!   if (strcmp (op{1}, 'kda')) dtb = 0.3 * randn (K, HV); else dtb = 0.3 * randn (HV, 1); end
%!   alog = log (0.5 + rand (HV, 1));
%!   h0vk = randn (V, K, HV, B);
%!   check_aux_ (op{1}, 16, q, 2 * k, v, g, beta, 'UseQKL2Norm', true);
%!   check_aux_ (op{1}, 16, q, k, v, graw, beta, 'GateInKernel', true, 'ALog', alog, 'DtBias', dtb);
%!   check_aux_ (op{1}, 7, q, k, v, graw, beta, 'GateInKernel', true, 'ALog', alog);
%!   check_aux_ (op{1}, 16, q, k, v, graw, beta, 'GateInKernel', true, 'ALog', alog, ...
%!               'DtBias', dtb, 'LowerBound', -4);
%!   check_aux_ (op{1}, 16, q, k, v, g, 2 * randn (size (beta)), 'BetaSigmoid', true, ...
%!               'AllowNegEigval', true);
%!   check_aux_ (op{1}, 64, q, k, v, g, beta, 'Scale', 0.3, 'InitialState', h0vk, 'StateLayout', 'VK');
%!   check_aux_ (op{1}, 16, q, 3 * k, v, graw, randn (size (beta)), 'UseQKL2Norm', 1, ...
%!               'GateInKernel', 1, 'ALog', alog, 'DtBias', dtb, 'LowerBound', -2, ...
%!               'BetaSigmoid', 1, 'Scale', 0.7, 'InitialState', h0vk, 'StateLayout', 'VK');
%! end

%!test
%! % larger chunks with off-diagonal sub-blocks, K ~= V, T = 1
%! randn ('seed', 26); rand ('seed', 26);
%! [q, k, v, g, beta] = rand_qkvgb ('kda', 20, 3, 90, 1, 1, 1, 0.2);
%! check_aux_ ('kda', 90, q, k, v, g, beta);
%! check_aux_ ('kda', 48, q, k, v, g, beta);
%! [q, k, v, g, beta] = rand_qkvgb ('kda', 3, 20, 1, 1, 1, 1, 0.2);
%! check_aux_ ('kda', 64, q, k, v, g, beta, 'InitialState', randn (3, 20));

% ---- without 'Intermediates', single precision ------------------------------

%!test
%! randn ('seed', 27); rand ('seed', 27);
%! [q, k, v, g, beta] = rand_qkvgb ('kda', 8, 7, 70, 1, 2, 2, 0.5);
%! [o1, S1, aux1] = kda_chunk (q, k, v, g, beta, 'ChunkSize', 16);
%! [o2, S2, aux2] = kda_chunk (q, k, v, g, beta, 'ChunkSize', 16, 'Intermediates', false);
%! [o3, S3, aux3] = kda_chunk (q, k, v, g, beta, 'ChunkSize', 16, 'Intermediates', true);
%! assert (isstruct (aux1) && isequal (size (aux1), [1 1]) && isempty (fieldnames (aux1)));
%! assert (isstruct (aux2) && isempty (fieldnames (aux2)));
%! assert (sort (fieldnames (aux3)), sort ({'G'; 'A_raw'; 'A'; 'w'; 'u'; 'Aqk'; 'h'; ...
%!                                          'v_new'; 'chunks'; 'ChunkSize'; 'cond'}));
%! % asking for the intermediates does not change the results
%! assert (isequal (o1, o2, o3) && isequal (S1, S2, S3));

%!test
%! % single: fields single, equal to the double ones to single rounding
%! randn ('seed', 28); rand ('seed', 28);
%! for op = {'kda', 'gdn'}
%!   [q, k, v, g, beta] = rand_qkvgb (op{1}, 8, 7, 70, 1, 2, 1, 0.5);
%!   fc = str2func ([op{1} '_chunk']);
%!   [~, ~, ad] = fc (q, k, v, g, beta, 'ChunkSize', 16, 'Intermediates', true);
%!   s = @single;
%!   [~, ~, as] = fc (s (q), s (k), s (v), s (g), s (beta), 'ChunkSize', 16, 'Intermediates', true);
%!   for f = {'G', 'A_raw', 'A', 'w', 'u', 'Aqk', 'h', 'v_new'}
%!     assert (class (as.(f{1})), 'single');
%!     assert (size (as.(f{1})), size (ad.(f{1})));
%!     assert (la_ratio (ad.(f{1}), as.(f{1})) <= 1e-5, '%s %s', op{1}, f{1});
%!   end
%!   assert (as.chunks, ad.chunks);
%! end
