% Tests: properties of kda_recurrent / gdn_recurrent and their backward
% that follow from the math: splitting a sequence, CuSeqlens = separate
% calls, 'VK' = transposed 'KV', GVA = repeated q and k, edge sizes, strong
% gates, class of the outputs, NaN propagation, option conveniences.
% Run with  test test_recurrent_props  or through validation/run_tests.m.

%!function x = take_t (x, t, kda_g)
%!  % steps t of an array whose second dimension is T (or the first, for a
%!  % T x HV x B array: kda_g false)
%!  if (kda_g)
%!    x = x(:, t, :, :);
%!  else
%!    x = x(t, :, :);
%!  end
%!endfunction

% ---- two halves, the second from the first's final state = one run --------
%!test
%! for op = {'kda', 'gdn'}
%!   kda = strcmp (op{1}, 'kda');
%!   P = rand_problem (op{1}, 'T', 13, 'H', 2, 'HV', 4, 'B', 2, ...
%!                     'InitialState', true, 'GateInKernel', true, ...
%!                     'UseQKL2Norm', true, 'BetaSigmoid', true);
%!   [o, S] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, P.opts{:});
%!   opts = P.opts;
%!   i0 = find (strcmp (opts, 'InitialState'));
%!   a = 1:5;  b = 6:13;
%!   [o1, S1] = feval (P.fwd, P.q(:, a, :, :), P.k(:, a, :, :), P.v(:, a, :, :), ...
%!                     take_t (P.g, a, kda), P.beta(a, :, :), opts{:});
%!   opts{i0 + 1} = S1;
%!   [o2, S2] = feval (P.fwd, P.q(:, b, :, :), P.k(:, b, :, :), P.v(:, b, :, :), ...
%!                     take_t (P.g, b, kda), P.beta(b, :, :), opts{:});
%!   assert (la_ratio (o, cat (2, o1, o2)) <= 1e-13);
%!   assert (la_ratio (S, S2) <= 1e-13);
%! end

% ---- CuSeqlens = separate calls -------------------------------------------
%!test
%! for op = {'kda', 'gdn'}
%!   kda = strcmp (op{1}, 'kda');
%!   cu = [0 3 4 11];
%!   P = rand_problem (op{1}, 'T', 11, 'HV', 2, 'CuSeqlens', cu, ...
%!                     'InitialState', true, 'GateInKernel', true);
%!   [o, S] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, P.opts{:});
%!   i0 = find (strcmp (P.opts, 'InitialState'));
%!   S0 = P.opts{i0 + 1};
%!   bopt = P.opts;
%!   bopt([i0, i0 + 1, find(strcmp (bopt, 'CuSeqlens')) + [0 1]]) = [];
%!   % the backward too: dS0 of each segment
%!   gall = cell (1, 8);
%!   [gall{:}] = feval (P.bwd, P.q, P.k, P.v, P.g, P.beta, P.dout, P.dS, P.opts{:});
%!   for n = 1:3
%!     t = cu(n) + 1:cu(n + 1);
%!     [on, Sn] = feval (P.fwd, P.q(:, t), P.k(:, t), P.v(:, t, :), ...
%!                       take_t (P.g, t, kda), P.beta(t, :), bopt{:}, ...
%!                       'InitialState', S0(:, :, :, n));
%!     assert (la_ratio (o(:, t, :), on) <= 1e-13);
%!     assert (la_ratio (S(:, :, :, n), Sn) <= 1e-13);
%!     gn = cell (1, 8);
%!     [gn{:}] = feval (P.bwd, P.q(:, t), P.k(:, t), P.v(:, t, :), ...
%!                      take_t (P.g, t, kda), P.beta(t, :), P.dout(:, t, :), ...
%!                      P.dS(:, :, :, n), bopt{:}, 'InitialState', S0(:, :, :, n));
%!     assert (la_ratio (gall{1}(:, t), gn{1}) <= 1e-13);
%!     assert (la_ratio (gall{3}(:, t, :), gn{3}) <= 1e-13);
%!     assert (la_ratio (take_t (gall{4}, t, kda), gn{4}) <= 1e-13);
%!     assert (la_ratio (gall{6}(:, :, :, n), gn{6}) <= 1e-13);
%!   end
%! end

% ---- 'VK' = transposed 'KV', forward states and dS0 -------------------------
%!test
%! for op = {'kda', 'gdn'}
%!   P = rand_problem (op{1}, 'K', 5, 'V', 7, 'T', 9, 'HV', 2, 'B', 2, ...
%!                     'InitialState', true);
%!   i0 = find (strcmp (P.opts, 'InitialState'));
%!   S0 = P.opts{i0 + 1};
%!   tr = @(x) permute (x, [2 1 3 4]);
%!   [o1, S1] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, 'InitialState', S0);
%!   [o2, S2] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, ...
%!                     'InitialState', tr (S0), 'StateLayout', 'VK');
%!   assert (isequal (o1, o2));
%!   assert (isequal (S2, tr (S1)));
%!   a = cell (1, 8);  b = cell (1, 8);
%!   [a{:}] = feval (P.bwd, P.q, P.k, P.v, P.g, P.beta, P.dout, P.dS, ...
%!                   'InitialState', S0);
%!   [b{:}] = feval (P.bwd, P.q, P.k, P.v, P.g, P.beta, P.dout, tr (P.dS), ...
%!                   'InitialState', tr (S0), 'StateLayout', 'vk');
%!   assert (la_ratio (tr (a{6}), b{6}) <= 1e-13);
%!   for i = 1:5
%!     assert (la_ratio (a{i}, b{i}) <= 1e-13);
%!   end
%! end

% ---- GVA = q and k repeated over the group; dq, dk sum over it -----------
%!test
%! for op = {'kda', 'gdn'}
%!   H = 2; HV = 6; G = HV / H;
%!   P = rand_problem (op{1}, 'T', 8, 'H', H, 'HV', HV, 'B', 2, ...
%!                     'InitialState', true, 'UseQKL2Norm', true);
%!   map = floor ((0:HV - 1) / G) + 1;               % value head -> qk head
%!   qr = P.q(:, :, map, :);
%!   kr = P.k(:, :, map, :);
%!   [o1, S1] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, P.opts{:});
%!   [o2, S2] = feval (P.fwd, qr, kr, P.v, P.g, P.beta, P.opts{:});
%!   assert (la_ratio (o2, o1) <= 1e-13);
%!   assert (la_ratio (S2, S1) <= 1e-13);
%!   a = cell (1, 8);  b = cell (1, 8);
%!   [a{:}] = feval (P.bwd, P.q, P.k, P.v, P.g, P.beta, P.dout, P.dS, P.opts{:});
%!   [b{:}] = feval (P.bwd, qr, kr, P.v, P.g, P.beta, P.dout, P.dS, P.opts{:});
%!   sz = size (b{1});
%!   dqs = squeeze (sum (reshape (b{1}, sz(1), sz(2), G, H, sz(4)), 3));
%!   dks = squeeze (sum (reshape (b{2}, sz(1), sz(2), G, H, sz(4)), 3));
%!   assert (la_ratio (dqs, a{1}) <= 1e-13);
%!   assert (la_ratio (dks, a{2}) <= 1e-13);
%!   for i = 3:6
%!     assert (la_ratio (b{i}, a{i}) <= 1e-13);
%!   end
%! end

% ---- edge sizes --------------------------------------------------------------
%!test  % T = 1
%! for op = {'kda', 'gdn'}
%!   P = rand_problem (op{1}, 'T', 1, 'HV', 2, 'B', 2, 'InitialState', true);
%!   [o, S] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, P.opts{:});
%!   [or, Sr] = ref_forward (op{1}, P.q, P.k, P.v, P.g, P.beta, P.opts{:});
%!   assert (la_ratio (or, o) <= 1e-12 && la_ratio (Sr, S) <= 1e-12);
%!   res = fd_check (P.fwd, P.bwd, P, P.opts);
%!   assert ([res.pass]);
%! end
%!test  % K = 60, V = 100, double and single
%! for op = {'kda', 'gdn'}
%!   for cls = {'double', 'single'}
%!     P = rand_problem (op{1}, 'K', 60, 'V', 100, 'T', 12, 'Class', cls{1}, ...
%!                       'InitialState', true, 'GateInKernel', true);
%!     [o, S] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, P.opts{:});
%!     [or, Sr] = ref_forward (op{1}, P.q, P.k, P.v, P.g, P.beta, P.opts{:});
%!     tol = 1e-10 + 1e-4 * strcmp (cls{1}, 'single');
%!     assert (la_ratio (or, o) <= tol && la_ratio (Sr, S) <= tol);
%!   end
%! end
%!test  % K = 1, V = 1
%! for op = {'kda', 'gdn'}
%!   P = rand_problem (op{1}, 'K', 1, 'V', 1, 'T', 6, 'B', 2);
%!   [o, S] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, P.opts{:});
%!   [or, Sr] = ref_forward (op{1}, P.q, P.k, P.v, P.g, P.beta, P.opts{:});
%!   assert (la_ratio (or, o) <= 1e-12 && la_ratio (Sr, S) <= 1e-12);
%!   res = fd_check (P.fwd, P.bwd, P, P.opts);
%!   assert ([res.pass]);
%! end
%!test  % T = 0: empty outputs, the state passes through, dS0 = dS
%! for op = {'kda', 'gdn'}
%!   P = rand_problem (op{1}, 'T', 0, 'HV', 2, 'InitialState', true);
%!   [o, S] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, P.opts{:});
%!   assert (size (o), [6 0 2]);
%!   assert (S, P.opts{end});
%!   out = cell (1, 8);
%!   [out{:}] = feval (P.bwd, P.q, P.k, P.v, P.g, P.beta, P.dout, P.dS, P.opts{:});
%!   assert (out{6}, P.dS);
%!   assert (isempty (out{1}) && isempty (out{4}));
%! end

% ---- strong gates: -30 per step and channel --------------------------------
%!test
%! for op = {'kda', 'gdn'}
%!   for cls = {'double', 'single'}
%!     P = rand_problem (op{1}, 'T', 30, 'GateStrength', 30, 'HV', 2, ...
%!                       'Class', cls{1}, 'InitialState', true);
%!     P.g(:) = -30;                      % the extreme everywhere ...
%!     if (strcmp (op{1}, 'kda'))
%!       P.g(1:2:end, 5:7, :) = 0;        % ... with a few open channels
%!     else
%!       P.g(5:7, :) = 0;
%!     end
%!     [o, S] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, P.opts{:});
%!     [or, Sr] = ref_forward (op{1}, P.q, P.k, P.v, P.g, P.beta, P.opts{:});
%!     assert (all (isfinite (o(:))) && all (isfinite (S(:))));
%!     tol = 1e-10 + 1e-4 * strcmp (cls{1}, 'single');
%!     assert (la_ratio (or, o) <= tol && la_ratio (Sr, S) <= tol);
%!     out = cell (1, 8);
%!     [out{:}] = feval (P.bwd, P.q, P.k, P.v, P.g, P.beta, P.dout, P.dS, P.opts{:});
%!     for i = 1:6
%!       assert (all (isfinite (out{i}(:))));
%!     end
%!   end
%! end
%!test  % strong random gates, and strong gates made in the kernel
%! for op = {'kda', 'gdn'}
%!   for gik = [false, true]
%!     P = rand_problem (op{1}, 'T', 25, 'GateStrength', 30, 'HV', 2, ...
%!                       'GateInKernel', gik, 'InitialState', true);
%!     [o, S] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, P.opts{:});
%!     [or, Sr] = ref_forward (op{1}, P.q, P.k, P.v, P.g, P.beta, P.opts{:});
%!     assert (la_ratio (or, o) <= 1e-10 && la_ratio (Sr, S) <= 1e-10);
%!     res = fd_check (P.fwd, P.bwd, P, P.opts, 'NDir', 2, 'NEntry', 2);
%!     assert ([res.pass]);
%!   end
%! end
%!test  % raw gates far out: softplus / sigmoid must not overflow
%! for op = {'kda', 'gdn'}
%!   for lb = {[], -3}
%!     P = rand_problem (op{1}, 'T', 8, 'GateInKernel', true, 'LowerBound', lb{1}, ...
%!                       'BetaSigmoid', true);
%!     P.g = 800 * sign (randn (size (P.g)));
%!     P.beta = 800 * sign (randn (size (P.beta)));
%!     [o, S] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, P.opts{:});
%!     [or, Sr] = ref_forward (op{1}, P.q, P.k, P.v, P.g, P.beta, P.opts{:});
%!     assert (all (isfinite (o(:))) && all (isfinite (S(:))));
%!     assert (la_ratio (or, o) <= 1e-10 && la_ratio (Sr, S) <= 1e-10);
%!     out = cell (1, 8);
%!     [out{:}] = feval (P.bwd, P.q, P.k, P.v, P.g, P.beta, P.dout, P.dS, P.opts{:});
%!     for i = 1:8
%!       assert (all (isfinite (out{i}(:))));
%!     end
%!   end
%! end

% ---- outputs keep the class of the data ----------------------------------
%!test
%! for op = {'kda', 'gdn'}
%!   for cls = {'single', 'double'}
%!     if (strcmp (cls{1}, 'single'))
%!       other = 'double';
%!     else
%!       other = 'single';
%!     end
%!     P = rand_problem (op{1}, 'Class', cls{1}, 'GateInKernel', true, 'HV', 2);
%!     % InitialState, dS, ALog, DtBias of the other class are accepted
%!     opts = P.opts;
%!     for i = 2:2:numel (opts)
%!       if (isfloat (opts{i}) && ~isscalar (opts{i}))
%!         opts{i} = cast (opts{i}, other);
%!       end
%!     end
%!     opts(end+1:end+2) = {'InitialState', zeros(8, 6, 2, other)};
%!     [o, S] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, opts{:});
%!     assert (class (o), cls{1});
%!     assert (class (S), cls{1});
%!     out = cell (1, 8);
%!     [out{:}] = feval (P.bwd, P.q, P.k, P.v, P.g, P.beta, P.dout, ...
%!                       cast (P.dS, other), opts{:});
%!     for i = 1:8
%!       assert (class (out{i}), cls{1});
%!     end
%!     % and the same numbers as with everything in the class of the data
%!     [o2, S2] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, P.opts{:});
%!     assert (la_ratio (o2, o) <= 1e-6);
%!   end
%! end

% ---- NaN and Inf in the data propagate ------------------------------------
%!test
%! for op = {'kda', 'gdn'}
%!   P = rand_problem (op{1}, 'T', 8, 'HV', 2);
%!   P.v(2, 4, 1) = NaN;
%!   [o, S] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta);
%!   o1 = o(:, :, 1);  S1 = S(:, :, 1);
%!   assert (all (reshape (isfinite (o(:, 1:3, :)), [], 1)));      % before step 4: untouched
%!   assert (all (isnan (o1(2, 4:end))));             % value channel 2 of head 1
%!   assert (any (isnan (S1(:))));
%!   o2 = o(:, :, 2);  S2 = S(:, :, 2);
%!   assert (all (isfinite (o2(:))) && all (isfinite (S2(:))));   % other head
%!   P.v(2, 4, 1) = Inf;
%!   o = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta);
%!   o1 = o(:, 4:end, 1);
%!   assert (~all (isfinite (o1(:))));
%! end

% ---- transforms: special values and conveniences --------------------------
%!test  % UseQKL2Norm: an all-zero column stays zero and gets zero gradient
%! for op = {'kda', 'gdn'}
%!   P = rand_problem (op{1}, 'T', 8, 'UseQKL2Norm', true);
%!   P.q(:, 3) = 0;
%!   P.k(:, 5) = 0;
%!   [o, S] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, P.opts{:});
%!   assert (o(:, 3), zeros (6, 1));
%!   [or, Sr] = ref_forward (op{1}, P.q, P.k, P.v, P.g, P.beta, P.opts{:});
%!   assert (la_ratio (or, o) <= 1e-12 && la_ratio (Sr, S) <= 1e-12);
%!   [dq, dk] = feval (P.bwd, P.q, P.k, P.v, P.g, P.beta, P.dout, P.dS, P.opts{:});
%!   assert (dq(:, 3), zeros (8, 1));
%!   assert (dk(:, 5), zeros (8, 1));
%! end
%!test  % UseQKL2Norm: the result does not depend on the length of q and k
%! for op = {'kda', 'gdn'}
%!   P = rand_problem (op{1}, 'T', 8, 'UseQKL2Norm', true);
%!   o1 = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, P.opts{:});
%!   s = 0.1 + rand (1, 8);
%!   o2 = feval (P.fwd, P.q .* s, P.k ./ s, P.v, P.g, P.beta, P.opts{:});
%!   assert (la_ratio (o1, o2) <= 1e-13);
%! end
%!test  % AllowNegEigval without BetaSigmoid has no effect
%! for op = {'kda', 'gdn'}
%!   P = rand_problem (op{1});
%!   [o1, S1] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta);
%!   [o2, S2] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, 'AllowNegEigval', true);
%!   assert (isequal (o1, o2) && isequal (S1, S2));
%! end
%!test  % BetaSigmoid + AllowNegEigval = beta 2*sigmoid(beta) given directly
%! for op = {'kda', 'gdn'}
%!   P = rand_problem (op{1}, 'BetaSigmoid', true);
%!   [o1, S1] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, P.opts{:}, 'AllowNegEigval', true);
%!   [o2, S2] = feval (P.fwd, P.q, P.k, P.v, P.g, 2 ./ (1 + exp (-P.beta)));
%!   assert (la_ratio (o2, o1) <= 1e-13 && la_ratio (S2, S1) <= 1e-13);
%! end
%!test  % GateInKernel = the transformed gate given directly
%! for op = {'kda', 'gdn'}
%!   P = rand_problem (op{1}, 'HV', 2, 'GateInKernel', true);
%!   a = P.opts{find (strcmp (P.opts, 'ALog')) + 1};
%!   d = P.opts{find (strcmp (P.opts, 'DtBias')) + 1};
%!   if (strcmp (op{1}, 'kda'))
%!     x = P.g + reshape (d, 8, 1, 2);
%!     a = reshape (exp (a), 1, 1, 2);
%!   else
%!     x = P.g + reshape (d, 1, 2);
%!     a = reshape (exp (a), 1, 2);
%!   end
%!   o1 = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, P.opts{:});
%!   o2 = feval (P.fwd, P.q, P.k, P.v, -a .* log1p (exp (x)), P.beta);
%!   assert (la_ratio (o2, o1) <= 1e-13);
%!   o1 = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, P.opts{:}, 'LowerBound', -2);
%!   o2 = feval (P.fwd, P.q, P.k, P.v, -2 ./ (1 + exp (-a .* x)), P.beta);
%!   assert (la_ratio (o2, o1) <= 1e-13);
%! end
%!test  % ALog, DtBias, LowerBound without GateInKernel are ignored
%! for op = {'kda', 'gdn'}
%!   P = rand_problem (op{1}, 'HV', 2);
%!   [o1, S1] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta);
%!   [o2, S2] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, 'ALog', [1 2], ...
%!                     'DtBias', ones (3, 3), 'LowerBound', -1);
%!   assert (isequal (o1, o2) && isequal (S1, S2));
%! end
%!test  % [] means "not given"; option names are case-insensitive
%! for op = {'kda', 'gdn'}
%!   P = rand_problem (op{1}, 'HV', 2);
%!   [o1, S1] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta);
%!   [o2, S2] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, 'InitialState', [], ...
%!                     'CuSeqlens', [], 'LowerBound', [], 'ALog', [], 'DtBias', []);
%!   assert (isequal (o1, o2) && isequal (S1, S2));
%!   [o3, S3] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, 'SCALE', 0.3, ...
%!                     'initialstate', ones (8, 6, 2), 'statelayout', 'kv');
%!   [o4, S4] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, 'Scale', 0.3, ...
%!                     'InitialState', ones (8, 6, 2));
%!   assert (isequal (o3, o4) && isequal (S3, S4));
%! end
%!test  % the default Scale is 1/sqrt(K); the output is linear in Scale
%! for op = {'kda', 'gdn'}
%!   P = rand_problem (op{1}, 'K', 9);
%!   o1 = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta);
%!   o2 = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, 'Scale', 1 / 3);
%!   o3 = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, 'Scale', 2);
%!   assert (la_ratio (o1, o2) <= 1e-13);
%!   assert (la_ratio (6 * o1, o3) <= 1e-13);
%! end
%!test  % KDA with equal gates over the channels = GDN
%! P = rand_problem ('kda', 'T', 9, 'HV', 2, 'InitialState', true);
%! gs = -rand (9, 2);
%! gk = repmat (reshape (gs, 1, 9, 2), 8, 1, 1);
%! [o1, S1] = kda_recurrent (P.q, P.k, P.v, gk, P.beta, P.opts{:});
%! [o2, S2] = gdn_recurrent (P.q, P.k, P.v, gs, P.beta, P.opts{:});
%! assert (la_ratio (o1, o2) <= 1e-13 && la_ratio (S1, S2) <= 1e-13);
%! a = cell (1, 8);  b = cell (1, 8);
%! [a{:}] = kda_recurrent_bwd (P.q, P.k, P.v, gk, P.beta, P.dout, P.dS, P.opts{:});
%! [b{:}] = gdn_recurrent_bwd (P.q, P.k, P.v, gs, P.beta, P.dout, P.dS, P.opts{:});
%! assert (la_ratio (reshape (sum (a{4}, 1), 9, 2), b{4}) <= 1e-13);
%! for i = [1:3, 5, 6]
%!   assert (la_ratio (a{i}, b{i}) <= 1e-13);
%! end
