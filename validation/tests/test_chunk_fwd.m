% test_chunk_fwd.m -- the chunked forward (kda_chunk, gdn_chunk) against the
% recurrent one (kda_recurrent, gdn_recurrent), which is verified against an
% independent Octave reference elsewhere.  Run with
%   addpath ('octave'); test ('validation/tests/test_chunk_fwd.m')
%
% The chunked form must equal the recurrent one to rounding for every chunk
% size and every T (docs/api.md, accuracy): ratio = rms(ref - x) / rms(ref), in
% double, <= 1e-10 for double results; single results of the chunked path are
% compared with the double recurrent result, <= 1e-4.
%
% Test data: unit-norm keys, beta in (0, 1) and decays exp(g) <= 1, so the
% recurrence is contractive and the outputs are O(1) over any T.

%!function [ro, rS, o2, S2, o1, S1] = cmp_ (op, cls, C, q, k, v, g, beta, varargin)
%!  % chunked path in class cls (data cast to cls, options as given) against
%!  % the recurrent path in double; checks the class of the outputs
%!  fr = str2func ([op '_recurrent']);
%!  fc = str2func ([op '_chunk']);
%!  [o1, S1] = fr (q, k, v, g, beta, varargin{:});
%!  cv = @(x) cast (x, cls);
%!  [o2, S2] = fc (cv (q), cv (k), cv (v), cv (g), cv (beta), 'ChunkSize', C, varargin{:});
%!  assert (class (o2), cls);
%!  assert (class (S2), cls);
%!  assert (size (o2), size (v));
%!  assert (size (S2), size (S1));
%!  assert (all (isfinite (o2(:))) && all (isfinite (S2(:))));
%!  ro = la_ratio (o1, o2);
%!  rS = la_ratio (S1, S2);
%!endfunction

%!function tol = tol_ (cls)
%!  if (strcmp (cls, 'double'))
%!    tol = 1e-10;
%!  else
%!    tol = 1e-4;
%!  end
%!endfunction

% ---- chunk sizes x sequence lengths ---------------------------------------
% T = 1, T < C, T = C -+ 1, T a multiple of C and not, T up to 1000.

%!test
%! % KDA, double: every chunk size against every T
%! randn ('seed', 1); rand ('seed', 1);
%! Ts = [1 2 6 7 8 15 16 17 33 63 64 65 99 100 101 128 250 1000];
%! for T = Ts
%!   [q, k, v, g, beta] = rand_qkvgb ('kda', 12, 10, T, 2, 2, 2, 0.5);
%!   for C = [1 7 16 64 100]
%!     [ro, rS] = cmp_ ('kda', 'double', C, q, k, v, g, beta);
%!     assert (ro <= 1e-10 && rS <= 1e-10, 'T = %d, C = %d: ratio o %g, S %g', T, C, ro, rS);
%!   end
%! end

%!test
%! % GDN, double: every chunk size against every T
%! randn ('seed', 2); rand ('seed', 2);
%! Ts = [1 2 6 7 8 15 16 17 33 63 64 65 99 100 101 128 250 1000];
%! for T = Ts
%!   [q, k, v, g, beta] = rand_qkvgb ('gdn', 12, 10, T, 2, 2, 2, 0.5);
%!   for C = [1 7 16 64 100]
%!     [ro, rS] = cmp_ ('gdn', 'double', C, q, k, v, g, beta);
%!     assert (ro <= 1e-10 && rS <= 1e-10, 'T = %d, C = %d: ratio o %g, S %g', T, C, ro, rS);
%!   end
%! end

%!test
%! % KDA, single chunked vs double recurrent
%! randn ('seed', 3); rand ('seed', 3);
%! for T = [1 7 16 17 64 100 101 333 1000]
%!   [q, k, v, g, beta] = rand_qkvgb ('kda', 12, 10, T, 2, 2, 2, 0.5);
%!   for C = [1 7 16 64 100]
%!     [ro, rS] = cmp_ ('kda', 'single', C, q, k, v, g, beta);
%!     assert (ro <= 1e-4 && rS <= 1e-4, 'T = %d, C = %d: ratio o %g, S %g', T, C, ro, rS);
%!   end
%! end

%!test
%! % GDN, single chunked vs double recurrent
%! randn ('seed', 4); rand ('seed', 4);
%! for T = [1 7 16 17 64 100 101 333 1000]
%!   [q, k, v, g, beta] = rand_qkvgb ('gdn', 12, 10, T, 2, 2, 2, 0.5);
%!   for C = [1 7 16 64 100]
%!     [ro, rS] = cmp_ ('gdn', 'single', C, q, k, v, g, beta);
%!     assert (ro <= 1e-4 && rS <= 1e-4, 'T = %d, C = %d: ratio o %g, S %g', T, C, ro, rS);
%!   end
%! end

%!test
%! % weak gates (g = 0: no decay at all) and T = 0
%! randn ('seed', 5); rand ('seed', 5);
%! for op = {'kda', 'gdn'}
%!   [q, k, v, g, beta] = rand_qkvgb (op{1}, 8, 9, 150, 1, 1, 1, 0);
%!   assert (all (g(:) == 0));
%!   for C = [7 16 64]
%!     [ro, rS] = cmp_ (op{1}, 'double', C, q, k, v, g, beta);
%!     assert (ro <= 1e-10 && rS <= 1e-10);
%!   end
%!   h0 = randn (8, 9);
%!   fc = str2func ([op{1} '_chunk']);
%!   if (strcmp (op{1}, 'kda')) g0 = g(:, 1:0); else g0 = g(1:0); end
%!   [o, S] = fc (q(:, 1:0), k(:, 1:0), v(:, 1:0), g0, beta(1:0), 'InitialState', h0);
%!   assert (size (o), [9 0]);
%!   assert (S, h0);
%! end

% ---- every option, both ops, both classes ---------------------------------

%!test
%! randn ('seed', 6); rand ('seed', 6);
%! K = 10; V = 9; H = 1; HV = 2; B = 2;
%! for op = {'kda', 'gdn'}
%!   kda = strcmp (op{1}, 'kda');
%!   GD = 1 + (K - 1) * kda;
%!   alog = log (0.5 + rand (HV, 1));
%!   if (kda) dtb = 0.3 * randn (K, HV); else dtb = 0.3 * randn (HV, 1); end
%!   for TC = [100 16; 37 64; 150 7; 130 100]'
%!     T = TC(1); C = TC(2);
%!     [q, k, v, g, beta] = rand_qkvgb (op{1}, K, V, T, H, HV, B, 0.5);
%!     h0 = 0.5 * randn (K, V, HV, B);
%!     graw = randn (size (g));     % raw gates for GateInKernel
%!     blogit = 2 * randn (size (beta));
%!     kraw = 3 * randn (size (k));  % keys the kernel has to normalise
%!     % {description, g, beta, k, options}
%!     cases = { ...
%!       'plain',          g,    beta,   k,    {}; ...
%!       'UseQKL2Norm',    g,    beta,   kraw, {'UseQKL2Norm', true}; ...
%!       'GateInKernel',   graw, beta,   k,    {'GateInKernel', true, 'ALog', alog, 'DtBias', dtb}; ...
%!       'GateInKernel no DtBias', graw, beta, k, {'GateInKernel', true, 'ALog', alog}; ...
%!       'LowerBound',     graw, beta,   k,    {'GateInKernel', true, 'ALog', alog, 'DtBias', dtb, 'LowerBound', -5}; ...
%!       'BetaSigmoid',    g,    blogit, k,    {'BetaSigmoid', true}; ...
%!       'AllowNegEigval', g,    blogit, k,    {'BetaSigmoid', true, 'AllowNegEigval', true}; ...
%!       'AllowNegEigval alone', g, beta, k,   {'AllowNegEigval', true}; ...
%!       'Scale',          g,    beta,   k,    {'Scale', 0.37}; ...
%!       'InitialState',   g,    beta,   k,    {'InitialState', h0}; ...
%!       'VK',             g,    beta,   k,    {'StateLayout', 'VK', 'InitialState', permute(h0, [2 1 3 4])}; ...
%!       'VK no h0',       g,    beta,   k,    {'statelayout', 'vk'}; ...
%!       'all', graw, blogit, kraw, {'UseQKL2Norm', 1, 'GateInKernel', 1, 'ALog', alog, ...
%!          'DtBias', dtb, 'LowerBound', -3, 'BetaSigmoid', 1, 'AllowNegEigval', 1, ...
%!          'Scale', 0.8, 'InitialState', permute(h0, [2 1 3 4]), 'StateLayout', 'VK'}};
%!     for i = 1:rows (cases)
%!       for cls = {'double', 'single'}
%!         [ro, rS, ~, S2] = cmp_ (op{1}, cls{1}, C, q, cases{i, 4}, v, cases{i, 2}, ...
%!                                  cases{i, 3}, cases{i, 5}{:});
%!         assert (ro <= tol_ (cls{1}) && rS <= tol_ (cls{1}), ...
%!                 '%s %s %s T = %d C = %d: ratio o %g, S %g', op{1}, cases{i, 1}, ...
%!                 cls{1}, T, C, ro, rS);
%!       end
%!     end
%!   end
%! end

%!test
%! % the options change the result (so the comparisons above test them)
%! randn ('seed', 7); rand ('seed', 7);
%! [q, k, v, g, beta] = rand_qkvgb ('kda', 8, 8, 40, 1, 1, 1, 0.5);
%! o0 = kda_chunk (q, k, v, g, beta, 'ChunkSize', 16);
%! o1 = kda_chunk (q, 2 * k, v, g, beta, 'ChunkSize', 16, 'UseQKL2Norm', true);
%! o2 = kda_chunk (q, k, v, g, beta, 'ChunkSize', 16, 'Scale', 0.5);
%! o3 = kda_chunk (q, k, v, g, beta, 'ChunkSize', 16, 'BetaSigmoid', true);
%! o4 = kda_chunk (q, k, v, g, beta, 'ChunkSize', 16, 'BetaSigmoid', true, 'AllowNegEigval', true);
%! o5 = kda_chunk (q, k, v, g, beta, 'ChunkSize', 16, 'InitialState', ones (8));
%! o6 = kda_chunk (q, k, v, g, beta, 'ChunkSize', 16, 'GateInKernel', true, 'ALog', 0);
%! o7 = kda_chunk (q, k, v, g, beta, 'ChunkSize', 16, 'GateInKernel', true, 'ALog', 0, 'LowerBound', -1);
%! % Scale: o is linear in scale
%! assert (la_ratio (o0 * 0.5 * sqrt (8), o2) <= 1e-13);
%! for o = {o1, o3, o4, o5, o6, o7}
%!   assert (la_ratio (o0, o{1}) > 1e-3);
%! end
%! % AllowNegEigval without BetaSigmoid: beta used as given
%! assert (kda_chunk (q, k, v, g, beta, 'ChunkSize', 16, 'AllowNegEigval', true), o0);

% ---- GVA -------------------------------------------------------------------

%!test
%! randn ('seed', 8); rand ('seed', 8);
%! H = 2; K = 9; V = 11; T = 77; B = 2;
%! for op = {'kda', 'gdn'}
%!   for HV = [2 4] * H
%!     [q, k, v, g, beta] = rand_qkvgb (op{1}, K, V, T, H, HV, B, 0.5);
%!     for C = [16 64]
%!       for cls = {'double', 'single'}
%!         [ro, rS, o2, S2] = cmp_ (op{1}, cls{1}, C, q, k, v, g, beta);
%!         assert (ro <= tol_ (cls{1}) && rS <= tol_ (cls{1}));
%!       end
%!       % value head j reads qk head ceil(j / (HV/H)): same as explicit copies
%!       idx = ceil ((1:HV) / (HV / H));
%!       fc = str2func ([op{1} '_chunk']);
%!       [o, S] = fc (q, k, v, g, beta, 'ChunkSize', C);
%!       [oe, Se] = fc (q(:, :, idx, :), k(:, :, idx, :), v, g, beta, 'ChunkSize', C);
%!       assert (la_ratio (oe, o) <= 1e-14 && la_ratio (Se, S) <= 1e-14);
%!     end
%!   end
%! end

% ---- variable length: chunks never cross a sequence boundary --------------

%!test
%! randn ('seed', 9); rand ('seed', 9);
%! K = 8; V = 10; H = 1; HV = 2;
%! lens = [5 64 70 1];
%! cu = [0 cumsum(lens)];
%! T = cu(end);
%! for op = {'kda', 'gdn'}
%!   [q, k, v, g, beta] = rand_qkvgb (op{1}, K, V, T, H, HV, 1, 0.5);
%!   h0 = randn (K, V, HV, numel (lens));
%!   fc = str2func ([op{1} '_chunk']);
%!   for C = [16 64 7]
%!     for cls = {'double', 'single'}
%!       [ro, rS, o, S] = cmp_ (op{1}, cls{1}, C, q, k, v, g, beta, 'CuSeqlens', cu, 'InitialState', h0);
%!       assert (ro <= tol_ (cls{1}) && rS <= tol_ (cls{1}), '%s C = %d %s', op{1}, C, cls{1});
%!       assert (size (S), [K V HV numel(lens)]);
%!     end
%!     % every sequence alone gives the same output and final state
%!     [o, S] = fc (q, k, v, g, beta, 'CuSeqlens', cu, 'InitialState', h0, 'ChunkSize', C);
%!     for n = 1:numel (lens)
%!       t = cu(n)+1:cu(n+1);
%!       if (strcmp (op{1}, 'kda')) gn = g(:, t, :); else gn = g(t, :); end
%!       [on, Sn] = fc (q(:, t, :), k(:, t, :), v(:, t, :), gn, beta(t, :), ...
%!                      'InitialState', h0(:, :, :, n), 'ChunkSize', C);
%!       assert (la_ratio (on, o(:, t, :)) <= 1e-13);
%!       assert (la_ratio (Sn, S(:, :, :, n)) <= 1e-13);
%!     end
%!     % CuSeqlens as an integer column vector: the same
%!     [o2, S2] = fc (q, k, v, g, beta, 'CuSeqlens', int32 (cu(:)), 'InitialState', h0, 'ChunkSize', C);
%!     assert (o2, o);
%!     assert (S2, S);
%!   end
%! end

%!test
%! % a single sequence via CuSeqlens = [0 T] is the plain call
%! randn ('seed', 10); rand ('seed', 10);
%! [q, k, v, g, beta] = rand_qkvgb ('gdn', 8, 8, 50, 1, 1, 1, 0.5);
%! [o1, S1] = gdn_chunk (q, k, v, g, beta, 'ChunkSize', 16);
%! [o2, S2] = gdn_chunk (q, k, v, g, beta, 'ChunkSize', 16, 'CuSeqlens', [0 50]);
%! assert (o2, o1);
%! assert (S2, S1);

% ---- strong gates: g = -30 * rand per step and channel ---------------------

%!test
%! randn ('seed', 11); rand ('seed', 11);
%! for op = {'kda', 'gdn'}
%!   for T = [20 300]
%!     [q, k, v, g, beta] = rand_qkvgb (op{1}, 12, 10, T, 1, 2, 2, 30);
%!     g2 = g;
%!     g2(rand (size (g2)) < 0.3) = 0;      % mixed with undecayed steps
%!     g3 = -30 * ones (size (g));          % -30 at every step
%!     h0 = randn (12, 10, 2, 2);
%!     for gg = {g, g2, g3}
%!       for C = [7 16 64 100]
%!         for cls = {'double', 'single'}
%!           [ro, rS] = cmp_ (op{1}, cls{1}, C, q, k, v, gg{1}, beta, 'InitialState', h0);
%!           assert (ro <= tol_ (cls{1}) && rS <= tol_ (cls{1}), ...
%!                   '%s T = %d C = %d %s: ratio o %g, S %g', op{1}, T, C, cls{1}, ro, rS);
%!         end
%!       end
%!     end
%!   end
%! end

%!test
%! % strong gates through GateInKernel (softplus of large inputs)
%! randn ('seed', 12); rand ('seed', 12);
%! [q, k, v, g, beta] = rand_qkvgb ('kda', 8, 8, 130, 1, 1, 1, 0);
%! graw = 30 * randn (size (g));
%! for C = [16 64]
%!   for cls = {'double', 'single'}
%!     [ro, rS] = cmp_ ('kda', cls{1}, C, q, k, v, graw, beta, 'GateInKernel', true, 'ALog', 0);
%!     assert (ro <= tol_ (cls{1}) && rS <= tol_ (cls{1}));
%!   end
%! end

% ---- K ~= V, odd sizes ------------------------------------------------------

%!test
%! randn ('seed', 13); rand ('seed', 13);
%! for op = {'kda', 'gdn'}
%!   for KV = [60 100; 100 60; 1 1; 1 7; 7 1; 3 17; 17 3; 33 5]'
%!     K = KV(1); V = KV(2);
%!     for TC = [40 16; 70 64; 23 7; 5 100]'
%!       [q, k, v, g, beta] = rand_qkvgb (op{1}, K, V, TC(1), 1, 1, 1, 0.5);
%!       h0 = randn (K, V);
%!       for cls = {'double', 'single'}
%!         [ro, rS] = cmp_ (op{1}, cls{1}, TC(2), q, k, v, g, beta, 'InitialState', h0);
%!         assert (ro <= tol_ (cls{1}) && rS <= tol_ (cls{1}), ...
%!                 '%s K = %d V = %d T = %d C = %d %s', op{1}, K, V, TC(1), TC(2), cls{1});
%!       end
%!     end
%!   end
%! end

%!test
%! % large chunk sizes: C > T, and C not a multiple of the internal sub-block
%! randn ('seed', 14); rand ('seed', 14);
%! [q, k, v, g, beta] = rand_qkvgb ('kda', 8, 8, 200, 1, 1, 1, 0.3);
%! for C = [17 31 33 48 199 200 201 1000]
%!   [ro, rS] = cmp_ ('kda', 'double', C, q, k, v, g, beta);
%!   assert (ro <= 1e-10 && rS <= 1e-10, 'C = %d', C);
%! end

% ---- classes and shapes of the outputs -------------------------------------

%!test
%! randn ('seed', 15); rand ('seed', 15);
%! K = 6; V = 5; T = 20; HV = 2;
%! [q, k, v, g, beta] = rand_qkvgb ('kda', K, V, T, 1, HV, 1, 0.5);
%! h0 = randn (K, V, HV);
%! alog = zeros (HV, 1); dtb = zeros (K, HV);
%! % double data with single options: double outputs
%! [o, S] = kda_chunk (q, k, v, g, beta, 'InitialState', single (h0), 'GateInKernel', true, ...
%!                     'ALog', single (alog), 'DtBias', single (dtb));
%! assert (class (o), 'double'); assert (class (S), 'double');
%! % single data with double options: single outputs, also for aux
%! s = @single;
%! [o, S, aux] = kda_chunk (s (q), s (k), s (v), s (g), s (beta), 'InitialState', h0, ...
%!                          'GateInKernel', true, 'ALog', alog, 'DtBias', dtb, 'Intermediates', true);
%! assert (class (o), 'single'); assert (class (S), 'single');
%! for f = {'G', 'A_raw', 'A', 'w', 'u', 'Aqk', 'h', 'v_new'}
%!   assert (class (aux.(f{1})), 'single');
%! end
%! [o, S] = gdn_chunk (s (q), s (k), s (v), s (squeeze (g(1, :, :))), s (beta), 'InitialState', h0);
%! assert (class (o), 'single'); assert (class (S), 'single');
%! assert (size (o), [V T HV]);
%! assert (size (S), [K V HV]);

%!test
%! % trailing singleton dimensions dropped: GDN g and beta T x 1 as columns
%! randn ('seed', 16); rand ('seed', 16);
%! K = 7; V = 6; T = 45;
%! [q, k, v, g, beta] = rand_qkvgb ('gdn', K, V, T, 1, 1, 1, 0.5);
%! [o1, S1] = gdn_recurrent (q, k, v, g, beta);
%! [o2, S2] = gdn_chunk (q, k, v, g(:), beta(:), 'ChunkSize', 16);
%! assert (size (o2), [V T]);
%! assert (size (S2), [K V]);
%! assert (la_ratio (o1, o2) <= 1e-10 && la_ratio (S1, S2) <= 1e-10);
%! % StateLayout 'VK' is the transpose of 'KV'
%! h0 = randn (K, V);
%! [~, Skv] = gdn_chunk (q, k, v, g, beta, 'ChunkSize', 16, 'InitialState', h0);
%! [~, Svk] = gdn_chunk (q, k, v, g, beta, 'ChunkSize', 16, 'InitialState', h0.', 'StateLayout', 'VK');
%! assert (Svk, Skv.');

%!test
%! % the default chunk size is 64
%! randn ('seed', 17); rand ('seed', 17);
%! [q, k, v, g, beta] = rand_qkvgb ('kda', 8, 8, 150, 1, 1, 1, 0.5);
%! [o1, S1] = kda_chunk (q, k, v, g, beta);
%! [o2, S2] = kda_chunk (q, k, v, g, beta, 'ChunkSize', 64);
%! assert (o1, o2); assert (S1, S2);
%! [~, ~, aux] = kda_chunk (q, k, v, g, beta, 'Intermediates', true);
%! assert (aux.ChunkSize, 64);
%! assert (aux.chunks, [1 1 64; 1 65 64; 1 129 22]);

% ---- NaN in the data propagates, and only within its own sequence ---------

%!test
%! randn ('seed', 18); rand ('seed', 18);
%! [q, k, v, g, beta] = rand_qkvgb ('kda', 8, 8, 80, 1, 1, 2, 0.5);
%! v(3, 50, 1, 1) = NaN;
%! [o1, S1] = kda_recurrent (q, k, v, g, beta);
%! [o2, S2] = kda_chunk (q, k, v, g, beta, 'ChunkSize', 16);
%! % value channels are independent: the NaN stays in channel 3
%! assert (all (isnan (S2(:, 3, 1, 1))));
%! assert (isnan (o2(3, 80, 1, 1)));
%! assert (all (all (isfinite (S2(:, [1 2 4:8], 1, 1)))));
%! assert (all (all (isfinite (o2(:, 1:48, 1, 1)))));     % chunks before the NaN
%! assert (la_ratio (o1(:, 1:48, 1, 1), o2(:, 1:48, 1, 1)) <= 1e-10);
%! assert (la_ratio (o1(:, :, 1, 2), o2(:, :, 1, 2)) <= 1e-10);   % other sequence
%! assert (la_ratio (S1(:, :, 1, 2), S2(:, :, 1, 2)) <= 1e-10);
