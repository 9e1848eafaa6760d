% test_chunk_bwd.m -- the chunked backward (kda_chunk_bwd, gdn_chunk_bwd)
% against the recurrent backward (kda_recurrent_bwd, gdn_recurrent_bwd),
% which is verified against finite differences elsewhere, and, independently
% of that, against central finite differences of the chunked forward.  Run with
%   addpath ('octave'); test ('validation/tests/test_chunk_bwd.m')
%
% All eight outputs (dq, dk, dv, dg, dbeta, dS0, dALog, dDtBias) are compared
% with ratio = rms(ref - x) / rms(ref), in double (docs/api.md, accuracy): <= 1e-10
% for double results; single results of the chunked path are compared with
% the double recurrent result, <= 1e-4.
%
% Test data: unit-norm keys, beta in (0, 1) and decays exp(g) <= 1, so the
% recurrence is contractive and outputs and gradients are O(1) over any T.

%!function [ok, msg, Xc] = cmpb_ (op, clss, Cs, q, k, v, g, beta, dout, dS, varargin)
%!  % chunked backward in each class of clss (data and dout cast to it; dS
%!  % and the options as given) and each chunk size of Cs, against the
%!  % recurrent backward in double (computed once).  Asserts the class, the
%!  % shape and finiteness of every output; ok: every ratio within the
%!  % bound of its class, msg: the worst case; Xc: the last chunked result.
%!  fr = str2func ([op '_recurrent_bwd']);
%!  fc = str2func ([op '_chunk_bwd']);
%!  Xr = cell (1, 8);
%!  Xc = cell (1, 8);
%!  [Xr{:}] = fr (q, k, v, g, beta, dout, dS, varargin{:});
%!  ins = {q, k, v, g, beta};
%!  ok = true;
%!  msg = '';
%!  worst = -1;
%!  for ic = 1:numel (clss)
%!    cls = clss{ic};
%!    cv = @(x) cast (x, cls);
%!    for C = Cs
%!      [Xc{:}] = fc (cv (q), cv (k), cv (v), cv (g), cv (beta), cv (dout), dS, ...
%!                    'ChunkSize', C, varargin{:});
%!      r = zeros (1, 8);
%!      for i = 1:8
%!        assert (size (Xc{i}), size (Xr{i}));
%!        if (i <= 5)
%!          assert (size (Xc{i}), size (ins{i}));
%!        end
%!        if (isempty (Xr{i}) && i >= 7)
%!          continue;     % dALog, dDtBias without GateInKernel
%!        end
%!        assert (class (Xc{i}), cls);
%!        assert (all (isfinite (Xc{i}(:))));
%!        r(i) = la_ratio (Xr{i}, Xc{i});
%!      end
%!      q_ = max (r) / tol_ (cls);
%!      if (~ (q_ <= 1))
%!        ok = false;
%!      end
%!      if (~ (q_ <= worst))
%!        worst = q_;
%!        msg = sprintf ('%s C = %d:%s', cls, C, rs_ (r));
%!      end
%!    end
%!  end
%!endfunction

%!function tol = tol_ (cls)
%!  if (strcmp (cls, 'double'))
%!    tol = 1e-10;
%!  else
%!    tol = 1e-4;
%!  end
%!endfunction

%!function s = rs_ (r)
%!  % the ratios as text for the failure messages
%!  names = {'dq', 'dk', 'dv', 'dg', 'dbeta', 'dS0', 'dALog', 'dDtBias'};
%!  s = '';
%!  for i = 1:numel (r)
%!    s = [s sprintf(' %s %.2g', names{i}, r(i))];
%!  end
%!endfunction

%!function [dout, dS] = mkd_ (K, V, T, HV, B, N)
%!  % random output and final-state gradients
%!  dout = randn (V, T, HV, B);
%!  dS = randn (K, V, HV, N);
%!endfunction

% ---- chunk sizes x sequence lengths ---------------------------------------
% T = 1, T < C, T = C -+ 1, T a multiple of C and not; dS given and [].

%!test
%! % double: every chunk size against every T, both ops
%! randn ('seed', 1); rand ('seed', 1);
%! K = 8; V = 6; H = 1; HV = 2; B = 2;
%! Ts = [1 2 6 7 8 15 16 17 63 64 65 99 100 101 150];
%! Tnods = [1 16 65 101];      % also with dS = []
%! for op = {'kda', 'gdn'}
%!   for T = Ts
%!     [q, k, v, g, beta] = rand_qkvgb (op{1}, K, V, T, H, HV, B, 0.5);
%!     [dout, dS] = mkd_ (K, V, T, HV, B, B);
%!     h0 = 0.5 * randn (K, V, HV, B);
%!     [ok, msg] = cmpb_ (op{1}, {'double'}, [1 7 16 64 100], q, k, v, g, beta, dout, dS, ...
%!                        'InitialState', h0);
%!     assert (ok, '%s T = %d, %s', op{1}, T, msg);
%!     if (any (T == Tnods))
%!       [ok, msg] = cmpb_ (op{1}, {'double'}, [1 7 16 64 100], q, k, v, g, beta, dout, []);
%!       assert (ok, '%s T = %d, dS = [], %s', op{1}, T, msg);
%!     end
%!   end
%! end

%!test
%! % single chunked vs double recurrent, both ops
%! randn ('seed', 2); rand ('seed', 2);
%! K = 8; V = 6; H = 1; HV = 2; B = 2;
%! for op = {'kda', 'gdn'}
%!   for T = [1 7 16 17 64 101 300]
%!     [q, k, v, g, beta] = rand_qkvgb (op{1}, K, V, T, H, HV, B, 0.5);
%!     [dout, dS] = mkd_ (K, V, T, HV, B, B);
%!     h0 = 0.5 * randn (K, V, HV, B);
%!     [ok, msg] = cmpb_ (op{1}, {'single'}, [1 7 16 64 100], q, k, v, g, beta, dout, dS, ...
%!                        'InitialState', h0);
%!     assert (ok, '%s T = %d, %s', op{1}, T, msg);
%!   end
%! end

%!test
%! % T = 0: empty gradients of the data, dS0 = dS (no step to go through)
%! randn ('seed', 3); rand ('seed', 3);
%! K = 5; V = 4; HV = 2;
%! for op = {'kda', 'gdn'}
%!   [q, k, v, g, beta] = rand_qkvgb (op{1}, K, V, 0, 1, HV, 1, 0.5);
%!   dS = randn (K, V, HV);
%!   h0 = randn (K, V, HV);
%!   fc = str2func ([op{1} '_chunk_bwd']);
%!   for C = [1 16 64]
%!     for cls = {'double', 'single'}
%!       cv = @(x) cast (x, cls{1});
%!       [dq, dk, dv, dg, dbeta, dS0] = fc (cv (q), cv (k), cv (v), cv (g), cv (beta), ...
%!                                          cv (v), dS, 'InitialState', h0, 'ChunkSize', C);
%!       assert (isempty (dq) && isempty (dk) && isempty (dv) && isempty (dg) && isempty (dbeta));
%!       assert (size (dq), size (q)); assert (size (dv), size (v));
%!       assert (size (dg), size (g)); assert (size (dbeta), size (beta));
%!       assert (class (dS0), cls{1});
%!       assert (double (dS0), double (cv (dS)));
%!       [~, ~, ~, ~, ~, dS0] = fc (cv (q), cv (k), cv (v), cv (g), cv (beta), cv (v), [], ...
%!                                  'InitialState', h0, 'ChunkSize', C);
%!       assert (dS0, zeros (K, V, HV, cls{1}));
%!     end
%!   end
%! end

%!test
%! % dS = [] is dS = 0; the default ChunkSize is 64
%! randn ('seed', 4); rand ('seed', 4);
%! for op = {'kda', 'gdn'}
%!   [q, k, v, g, beta] = rand_qkvgb (op{1}, 6, 5, 150, 1, 2, 2, 0.5);
%!   dout = randn (size (v));
%!   fc = str2func ([op{1} '_chunk_bwd']);
%!   X1 = cell (1, 6); X2 = X1; X3 = X1; X4 = X1;
%!   [X1{:}] = fc (q, k, v, g, beta, dout, [], 'ChunkSize', 16);
%!   [X2{:}] = fc (q, k, v, g, beta, dout, zeros (6, 5, 2, 2), 'ChunkSize', 16);
%!   for i = 1:6
%!     assert (la_ratio (X2{i}, X1{i}) <= 1e-15);
%!   end
%!   dS = randn (6, 5, 2, 2);
%!   [X3{:}] = fc (q, k, v, g, beta, dout, dS);
%!   [X4{:}] = fc (q, k, v, g, beta, dout, dS, 'ChunkSize', 64);
%!   assert (X3, X4);
%!   % and dS does matter
%!   [X2{:}] = fc (q, k, v, g, beta, dout, dS, 'ChunkSize', 16);
%!   % (dq = scale S_t dout_t does not depend on dS; dS0 hardly, after 150 decays)
%!   for i = 2:5
%!     assert (la_ratio (X2{i}, X1{i}) > 1e-3);
%!   end
%!   assert (la_ratio (X2{1}, X1{1}) <= 1e-15);
%! end

% ---- every option alone and together, both ops, both classes --------------

%!test
%! randn ('seed', 5); rand ('seed', 5);
%! K = 6; V = 5; H = 1; HV = 2; B = 2;
%! for op = {'kda', 'gdn'}
%!   kda = strcmp (op{1}, 'kda');
%!   alog = log (0.5 + rand (HV, 1));
%!   if (kda) dtb = 0.3 * randn (K, HV); else dtb = 0.3 * randn (HV, 1); end
%!   for TC = [37 64; 70 33]'     % T < C; chunks of several sub-blocks, T not a multiple
%!     T = TC(1); C = TC(2);
%!     [q, k, v, g, beta] = rand_qkvgb (op{1}, K, V, T, H, HV, B, 0.5);
%!     [dout, dS] = mkd_ (K, V, T, HV, B, B);
%!     dSvk = permute (dS, [2 1 3 4]);
%!     h0 = 0.5 * randn (K, V, HV, B);
%!     h0vk = permute (h0, [2 1 3 4]);
%!     graw = randn (size (g));       % raw gates for GateInKernel
%!     blogit = 2 * randn (size (beta));
%!     kraw = 3 * randn (size (k));    % keys the kernel has to normalise
%!     qraw = 2 * randn (size (q));
%!     % {description, q, k, g, beta, dS, options}
%!     cases = { ...
%!       'plain',           q,    k,    g,    beta,   dS,   {}; ...
%!       'dS = []',         q,    k,    g,    beta,   [],   {}; ...
%!       'UseQKL2Norm',     qraw, kraw, g,    beta,   dS,   {'UseQKL2Norm', true}; ...
%!       'GIK DtBias',      q,    k,    graw, beta,   dS,   {'GateInKernel', true, 'ALog', alog, 'DtBias', dtb}; ...
%!       'GIK',             q,    k,    graw, beta,   dS,   {'GateInKernel', true, 'ALog', alog}; ...
%!       'GIK LB DtBias',   q,    k,    graw, beta,   dS,   {'GateInKernel', true, 'ALog', alog, 'DtBias', dtb, 'LowerBound', -5}; ...
%!       'GIK LB',          q,    k,    graw, beta,   dS,   {'GateInKernel', true, 'ALog', alog, 'LowerBound', -2}; ...
%!       'BetaSigmoid',     q,    k,    g,    blogit, dS,   {'BetaSigmoid', true}; ...
%!       'AllowNegEigval',  q,    k,    g,    blogit, dS,   {'BetaSigmoid', true, 'AllowNegEigval', true}; ...
%!       'AllowNegEigval alone', q, k,  g,    beta,   dS,   {'AllowNegEigval', true}; ...
%!       'Scale',           q,    k,    g,    beta,   dS,   {'Scale', 0.37}; ...
%!       'InitialState',    q,    k,    g,    beta,   dS,   {'InitialState', h0}; ...
%!       'VK',              q,    k,    g,    beta,   dSvk, {'StateLayout', 'VK', 'InitialState', h0vk}; ...
%!       'VK no h0',        q,    k,    g,    beta,   dSvk, {'statelayout', 'vk'}; ...
%!       'VK dS = []',      q,    k,    g,    beta,   [],   {'StateLayout', 'VK', 'InitialState', h0vk}; ...
%!       'all', qraw, kraw, graw, blogit, dSvk, {'UseQKL2Norm', 1, 'GateInKernel', 1, 'ALog', alog, ...
%!          'DtBias', dtb, 'LowerBound', -3, 'BetaSigmoid', 1, 'AllowNegEigval', 1, ...
%!          'Scale', 0.8, 'InitialState', h0vk, 'StateLayout', 'VK'}; ...
%!       'all softplus KV', qraw, kraw, graw, blogit, dS, {'UseQKL2Norm', 1, 'GateInKernel', 1, ...
%!          'ALog', alog, 'BetaSigmoid', 1, 'Scale', 1.3, 'InitialState', h0}};
%!     for i = 1:rows (cases)
%!       [ok, msg, Xc] = cmpb_ (op{1}, {'double', 'single'}, C, cases{i, 2}, cases{i, 3}, v, ...
%!                              cases{i, 4}, cases{i, 5}, dout, cases{i, 6}, cases{i, 7}{:});
%!       assert (ok, '%s %s T = %d, %s', op{1}, cases{i, 1}, T, msg);
%!       gik = any (strcmpi (cases{i, 7}(1:2:end), 'GateInKernel'));
%!       if (gik)
%!         % dALog the shape of ALog; dDtBias the shape of DtBias or K x HV / HV x 1
%!         assert (size (Xc{7}), size (alog));
%!         assert (size (Xc{8}), size (dtb));
%!       else
%!         assert (isempty (Xc{7}) && isempty (Xc{8}));
%!       end
%!       vk = any (strcmpi (cases{i, 7}, 'vk'));
%!       if (vk)
%!         assert (size (Xc{6}), [V K HV B]);
%!       else
%!         assert (size (Xc{6}), [K V HV B]);
%!       end
%!     end
%!   end
%! end

%!test
%! % StateLayout 'VK': dS read as V x K and dS0 returned as V x K, i.e. the
%! % transposes of the 'KV' call; the options change the gradients (so the
%! % comparisons above test them)
%! randn ('seed', 6); rand ('seed', 6);
%! K = 7; V = 5; T = 40; HV = 2;
%! for op = {'kda', 'gdn'}
%!   [q, k, v, g, beta] = rand_qkvgb (op{1}, K, V, T, 1, HV, 1, 0.5);
%!   [dout, dS] = mkd_ (K, V, T, HV, 1, 1);
%!   h0 = randn (K, V, HV);
%!   fc = str2func ([op{1} '_chunk_bwd']);
%!   X0 = cell (1, 8); X1 = X0;
%!   [X0{:}] = fc (q, k, v, g, beta, dout, dS, 'ChunkSize', 16, 'InitialState', h0);
%!   [X1{:}] = fc (q, k, v, g, beta, dout, permute (dS, [2 1 3]), 'ChunkSize', 16, ...
%!                 'InitialState', permute (h0, [2 1 3]), 'StateLayout', 'VK');
%!   for i = 1:5
%!     assert (la_ratio (X0{i}, X1{i}) <= 1e-14);
%!   end
%!   assert (la_ratio (permute (X0{6}, [2 1 3]), X1{6}) <= 1e-14);
%!   kda = strcmp (op{1}, 'kda');
%!   opts = {{'UseQKL2Norm', true}, {'Scale', 0.5}, {'BetaSigmoid', true}, ...
%!           {'BetaSigmoid', true, 'AllowNegEigval', true}, {'InitialState', 2 * h0}, ...
%!           {'GateInKernel', true, 'ALog', zeros(HV, 1)}, ...
%!           {'GateInKernel', true, 'ALog', zeros(HV, 1), 'LowerBound', -1}};
%!   [X0{:}] = fc (q, k, v, g, beta, dout, dS, 'ChunkSize', 16, 'InitialState', h0);
%!   for j = 1:numel (opts)
%!     [X1{:}] = fc (q, k, v, g, beta, dout, dS, 'ChunkSize', 16, 'InitialState', h0, opts{j}{:});
%!     d = cellfun (@(a, b) la_ratio (a, b), X0(1:6), X1(1:6));
%!     assert (max (d) > 1e-3, 'option set %d has no effect', j);
%!   end
%!   % AllowNegEigval without BetaSigmoid: beta used as given
%!   [X0{:}] = fc (q, k, v, g, beta, dout, dS, 'ChunkSize', 16);
%!   [X1{:}] = fc (q, k, v, g, beta, dout, dS, 'ChunkSize', 16, 'AllowNegEigval', true);
%!   assert (X1, X0);
%! end

% ---- GVA: dq, dk summed over the group -------------------------------------

%!test
%! randn ('seed', 7); rand ('seed', 7);
%! H = 2; K = 6; V = 7; T = 45; B = 2;
%! for op = {'kda', 'gdn'}
%!   fc = str2func ([op{1} '_chunk_bwd']);
%!   for HV = [2 4] * H
%!     G = HV / H;
%!     [q, k, v, g, beta] = rand_qkvgb (op{1}, K, V, T, H, HV, B, 0.5);
%!     [dout, dS] = mkd_ (K, V, T, HV, B, B);
%!     alog = log (0.5 + rand (HV, 1));
%!     for opts = {{}, {'UseQKL2Norm', true, 'GateInKernel', true, 'ALog', alog}}
%!       [ok, msg] = cmpb_ (op{1}, {'double', 'single'}, [7 16 64], q, k, v, g, beta, dout, ...
%!                          dS, opts{1}{:});
%!       assert (ok, '%s HV = %d, %s', op{1}, HV, msg);
%!       for C = [7 16 64]
%!         % explicit copies of q, k per value head; their gradients summed over the group
%!         idx = ceil ((1:HV) / G);
%!         X = cell (1, 8); Xe = X;
%!         [X{:}] = fc (q, k, v, g, beta, dout, dS, 'ChunkSize', C, opts{1}{:});
%!         [Xe{:}] = fc (q(:, :, idx, :), k(:, :, idx, :), v, g, beta, dout, dS, ...
%!                       'ChunkSize', C, opts{1}{:});
%!         dqs = reshape (sum (reshape (Xe{1}, K, T, G, H, B), 3), K, T, H, B);
%!         dks = reshape (sum (reshape (Xe{2}, K, T, G, H, B), 3), K, T, H, B);
%!         assert (size (X{1}), size (q));
%!         assert (la_ratio (dqs, X{1}) <= 1e-13 && la_ratio (dks, X{2}) <= 1e-13);
%!         for i = 3:8
%!           assert (la_ratio (Xe{i}, X{i}) <= 1e-13);
%!         end
%!       end
%!     end
%!   end
%! end

% ---- variable length --------------------------------------------------------

%!test
%! randn ('seed', 8); rand ('seed', 8);
%! K = 6; V = 7; H = 1; HV = 2;
%! lens = [5 64 70 1];
%! N = numel (lens);
%! cu = [0 cumsum(lens)];
%! T = cu(end);
%! for op = {'kda', 'gdn'}
%!   kda = strcmp (op{1}, 'kda');
%!   [q, k, v, g, beta] = rand_qkvgb (op{1}, K, V, T, H, HV, 1, 0.5);
%!   [dout, dS] = mkd_ (K, V, T, HV, 1, N);
%!   h0 = randn (K, V, HV, N);
%!   fc = str2func ([op{1} '_chunk_bwd']);
%!   alog = log (0.5 + rand (HV, 1));
%!   if (kda) dtb = 0.3 * randn (K, HV); else dtb = 0.3 * randn (HV, 1); end
%!   [ok, msg] = cmpb_ (op{1}, {'double', 'single'}, [16 7 64], q, k, v, g, beta, dout, dS, ...
%!                      'CuSeqlens', cu, 'InitialState', h0);
%!   assert (ok, '%s %s', op{1}, msg);
%!   [ok, msg] = cmpb_ (op{1}, {'double', 'single'}, [16 7 64], q, k, v, g, beta, dout, [], ...
%!                      'CuSeqlens', cu, 'GateInKernel', true, 'ALog', alog, 'DtBias', dtb, ...
%!                      'BetaSigmoid', true);
%!   assert (ok, '%s GIK %s', op{1}, msg);
%!   for C = [16 7 64]
%!     % every sequence alone gives the same gradients
%!     X = cell (1, 6); Xn = X;
%!     [X{:}] = fc (q, k, v, g, beta, dout, dS, 'CuSeqlens', cu, 'InitialState', h0, 'ChunkSize', C);
%!     assert (size (X{6}), [K V HV N]);
%!     for n = 1:N
%!       t = cu(n)+1:cu(n+1);
%!       if (kda) gn = g(:, t, :); else gn = g(t, :); end
%!       [Xn{:}] = fc (q(:, t, :), k(:, t, :), v(:, t, :), gn, beta(t, :), dout(:, t, :), ...
%!                     dS(:, :, :, n), 'InitialState', h0(:, :, :, n), 'ChunkSize', C);
%!       assert (la_ratio (Xn{1}, X{1}(:, t, :)) <= 1e-13);
%!       assert (la_ratio (Xn{2}, X{2}(:, t, :)) <= 1e-13);
%!       assert (la_ratio (Xn{3}, X{3}(:, t, :)) <= 1e-13);
%!       if (kda)
%!         assert (la_ratio (Xn{4}, X{4}(:, t, :)) <= 1e-13);
%!       else
%!         assert (la_ratio (Xn{4}, X{4}(t, :)) <= 1e-13);
%!       end
%!       assert (la_ratio (Xn{5}, X{5}(t, :)) <= 1e-13);
%!       assert (la_ratio (Xn{6}, X{6}(:, :, :, n)) <= 1e-13);
%!     end
%!   end
%! end

% ---- strong gates: g = -30 * rand per step and channel ---------------------

%!test
%! randn ('seed', 9); rand ('seed', 9);
%! K = 8; V = 6;
%! for op = {'kda', 'gdn'}
%!   for T = [20 150]
%!     [q, k, v, g, beta] = rand_qkvgb (op{1}, K, V, T, 1, 2, 2, 30);
%!     [dout, dS] = mkd_ (K, V, T, 2, 2, 2);
%!     g2 = g;
%!     g2(rand (size (g2)) < 0.3) = 0;      % mixed with undecayed steps
%!     g3 = -30 * ones (size (g));          % -30 at every step
%!     h0 = randn (K, V, 2, 2);
%!     gs = {g, g2, g3};
%!     for j = 1:3
%!       [ok, msg] = cmpb_ (op{1}, {'double', 'single'}, [7 16 64 100], q, k, v, gs{j}, beta, ...
%!                          dout, dS, 'InitialState', h0);
%!       assert (ok, '%s T = %d gates %d, %s', op{1}, T, j, msg);
%!     end
%!   end
%! end

%!test
%! % strong gates through GateInKernel (softplus and sigmoid of large inputs)
%! randn ('seed', 10); rand ('seed', 10);
%! for op = {'kda', 'gdn'}
%!   [q, k, v, g, beta] = rand_qkvgb (op{1}, 6, 6, 90, 1, 1, 1, 0);
%!   [dout, dS] = mkd_ (6, 6, 90, 1, 1, 1);
%!   graw = 30 * randn (size (g));
%!   for opts = {{}, {'LowerBound', -30}}
%!     [ok, msg] = cmpb_ (op{1}, {'double', 'single'}, [16 64], q, k, v, graw, beta, dout, dS, ...
%!                        'GateInKernel', true, 'ALog', 0, opts{1}{:});
%!     assert (ok, '%s GIK %s', op{1}, msg);
%!   end
%! end

% ---- K ~= V, odd sizes ------------------------------------------------------

%!test
%! randn ('seed', 11); rand ('seed', 11);
%! for op = {'kda', 'gdn'}
%!   for KV = [60 100; 100 60; 1 1; 1 7; 7 1; 3 17]'
%!     K = KV(1); V = KV(2);
%!     for TC = [20 16; 5 64; 23 7]'
%!       [q, k, v, g, beta] = rand_qkvgb (op{1}, K, V, TC(1), 1, 1, 1, 0.5);
%!       [dout, dS] = mkd_ (K, V, TC(1), 1, 1, 1);
%!       h0 = randn (K, V);
%!       [ok, msg] = cmpb_ (op{1}, {'double', 'single'}, TC(2), q, k, v, g, beta, dout, dS, ...
%!                          'InitialState', h0);
%!       assert (ok, '%s K = %d V = %d T = %d, %s', op{1}, K, V, TC(1), msg);
%!     end
%!   end
%! end

% ---- classes and shapes of the outputs -------------------------------------

%!test
%! randn ('seed', 12); rand ('seed', 12);
%! K = 5; V = 4; T = 20; HV = 2;
%! s = @single;
%! for op = {'kda', 'gdn'}
%!   kda = strcmp (op{1}, 'kda');
%!   [q, k, v, g, beta] = rand_qkvgb (op{1}, K, V, T, 1, HV, 1, 0.5);
%!   dout = randn (size (v));
%!   h0 = randn (K, V, HV);  dS = randn (K, V, HV);
%!   alog = zeros (HV, 1);
%!   if (kda) dtb = zeros (K, HV); else dtb = zeros (HV, 1); end
%!   fc = str2func ([op{1} '_chunk_bwd']);
%!   X = cell (1, 8);
%!   % double data with single dS and options: double results
%!   [X{:}] = fc (q, k, v, g, beta, dout, s (dS), 'InitialState', s (h0), 'GateInKernel', true, ...
%!                'ALog', s (alog), 'DtBias', s (dtb), 'ChunkSize', 7);
%!   assert (all (strcmp (cellfun (@class, X, 'UniformOutput', false), 'double')));
%!   % single data with double dS and options: single results
%!   [X{:}] = fc (s (q), s (k), s (v), s (g), s (beta), s (dout), dS, 'InitialState', h0, ...
%!                'GateInKernel', true, 'ALog', alog, 'DtBias', dtb, 'ChunkSize', 7);
%!   assert (all (strcmp (cellfun (@class, X, 'UniformOutput', false), 'single')));
%!   assert (size (X{1}), [K T]); assert (size (X{3}), [V T HV]);
%!   assert (size (X{6}), [K V HV]);
%!   assert (size (X{7}), [HV 1]);  assert (size (X{8}), size (dtb));
%!   % row-vector ALog (and GDN DtBias): the gradients are rows too
%!   if (kda) dtbr = dtb; else dtbr = dtb.'; end
%!   [X{:}] = fc (q, k, v, g, beta, dout, dS, 'GateInKernel', true, 'ALog', alog.', ...
%!                'DtBias', dtbr, 'ChunkSize', 7);
%!   assert (size (X{7}), [1 HV]);
%!   if (kda) assert (size (X{8}), [K HV]); else assert (size (X{8}), [1 HV]); end
%! end

%!test
%! % 2-D inputs (H = HV = B = 1), trailing singletons, GDN g and beta as vectors
%! randn ('seed', 13); rand ('seed', 13);
%! K = 7; V = 6; T = 45;
%! for op = {'kda', 'gdn'}
%!   kda = strcmp (op{1}, 'kda');
%!   [q, k, v, g, beta] = rand_qkvgb (op{1}, K, V, T, 1, 1, 1, 0.5);
%!   [dout, dS] = mkd_ (K, V, T, 1, 1, 1);
%!   fc = str2func ([op{1} '_chunk_bwd']);
%!   fr = str2func ([op{1} '_recurrent_bwd']);
%!   Xr = cell (1, 6); X = Xr;
%!   [Xr{:}] = fr (q, k, v, g, beta, dout, dS);
%!   assert (ndims (q) == 2 && ndims (v) == 2);
%!   % beta as a row vector is a transposed T x 1: badShape
%!   try
%!     fc (q, k, v, g, beta(:).', dout, dS, 'ChunkSize', 16);
%!     error ('no error');
%!   catch err
%!     assert (err.identifier, [op{1} ':badShape']);
%!   end
%!   % beta as a column (and GDN g): the gradients are columns
%!   if (kda) g1 = g; else g1 = g(:); end
%!   [X{:}] = fc (q, k, v, g1, beta(:), dout, dS, 'ChunkSize', 16);
%!   assert (size (X{1}), [K T]); assert (size (X{2}), [K T]); assert (size (X{3}), [V T]);
%!   assert (size (X{4}), size (g1)); assert (size (X{5}), [T 1]); assert (size (X{6}), [K V]);
%!   for i = 1:6
%!     assert (la_ratio (Xr{i}, X{i}) <= 1e-10);
%!   end
%!   % no InitialState, dS = []: dS0 is K x V all the same
%!   [X{:}] = fc (q, k, v, g1, beta, dout, [], 'ChunkSize', 16);
%!   assert (size (X{6}), [K V]);
%! end

% ---- central finite differences of the chunked forward, in double --------
% fd_check (validation/lib): L = sum (Wo .* o) + sum (WS .* S) with
% [o, S] = *_chunk (...), every gradient against central differences.

%!function res = fdchk_ (op, C, in, opts, WS)
%!  % fd_check (validation/lib) of the chunked pair; in: struct with fields
%!  % q k v g beta and (optional) h0 alog dtb, differentiated too;
%!  % WS = 0: the backward gets dS = [] (no state term in the loss)
%!  res = fd_check ([op '_chunk'], [op '_chunk_bwd'], in, [optargs_(in, opts), {'ChunkSize', C}], ...
%!                  'dS', ~ isequal (WS, 0), 'Tol', 1e-6);
%!endfunction

%!function a = optargs_ (in, opts)
%!  a = opts;
%!  if (isfield (in, 'h0') && ~ isempty (in.h0)) a = [a, {'InitialState', in.h0}]; end
%!  if (isfield (in, 'alog') && ~ isempty (in.alog)) a = [a, {'ALog', in.alog}]; end
%!  if (isfield (in, 'dtb') && ~ isempty (in.dtb)) a = [a, {'DtBias', in.dtb}]; end
%!endfunction


%!test
%! randn ('seed', 14); rand ('seed', 14);
%! % C = 5: many chunks, T not a multiple; C = 37: one chunk of three sub-blocks
%! K = 5; V = 4; T = 37; H = 1; HV = 2; B = 2;
%! for op = {'kda', 'gdn'}
%!   kda = strcmp (op{1}, 'kda');
%!   [q, k, v, g, beta] = rand_qkvgb (op{1}, K, V, T, H, HV, B, 0.5);
%!   base = struct ('q', q, 'k', k, 'v', v, 'g', g, 'beta', beta);
%!   h0 = 0.5 * randn (K, V, HV, B);
%!   alog = log (0.5 + rand (HV, 1));
%!   if (kda) dtb = 0.3 * randn (K, HV); else dtb = 0.3 * randn (HV, 1); end
%!   % {description, changes to the inputs, options, WS (0: dS = [], []: random)}
%!   cases = { ...
%!     'plain',        {},                                   {},                             []; ...
%!     'dS = []',      {},                                   {},                             0; ...
%!     'InitialState', {'h0', h0},                           {},                             []; ...
%!     'UseQKL2Norm',  {'q', 2 * q, 'k', 3 * randn(size (k))}, {'UseQKL2Norm', true},        []; ...
%!     'GIK',          {'g', randn(size (g)), 'alog', alog}, {'GateInKernel', true},         []; ...
%!     'GIK DtBias',   {'g', randn(size (g)), 'alog', alog, 'dtb', dtb}, {'GateInKernel', true}, []; ...
%!     'GIK LB',       {'g', randn(size (g)), 'alog', alog, 'dtb', dtb}, {'GateInKernel', true, 'LowerBound', -2}, []; ...
%!     'BetaSigmoid',  {'beta', 2 * randn(size (beta))},     {'BetaSigmoid', true},          []; ...
%!     'NegEigval',    {'beta', 2 * randn(size (beta))},     {'BetaSigmoid', true, 'AllowNegEigval', true}, []; ...
%!     'Scale',        {},                                   {'Scale', 0.7},                 []; ...
%!     'VK',           {'h0', permute(h0, [2 1 3 4])},       {'StateLayout', 'VK'},          []; ...
%!     'all', {'q', 2 * q, 'k', 3 * randn(size (k)), 'g', randn(size (g)), 'alog', alog, ...
%!             'dtb', dtb, 'beta', 2 * randn(size (beta)), 'h0', permute(h0, [2 1 3 4])}, ...
%!            {'UseQKL2Norm', true, 'GateInKernel', true, 'LowerBound', -3, 'BetaSigmoid', true, ...
%!             'AllowNegEigval', true, 'Scale', 0.8, 'StateLayout', 'VK'}, []};
%!   for i = 1:rows (cases)
%!     in = base;
%!     ch = cases{i, 2};
%!     for j = 1:2:numel (ch)
%!       in.(ch{j}) = ch{j+1};
%!     end
%!     for C = [5 37]
%!       res = fdchk_ (op{1}, C, in, cases{i, 3}, cases{i, 4});
%!       assert (all ([res.pass]), '%s %s C = %d: fails %s', op{1}, cases{i, 1}, C, ...
%!               strjoin ({res(~ [res.pass]).name}, ' '));
%!     end
%!   end
%! end

%!test
%! % finite differences with GVA and variable length
%! randn ('seed', 15); rand ('seed', 15);
%! K = 4; V = 5; H = 2; HV = 4;
%! cu = [0 3 37 38 45];
%! T = cu(end);
%! for op = {'kda', 'gdn'}
%!   kda = strcmp (op{1}, 'kda');
%!   [q, k, v, g, beta] = rand_qkvgb (op{1}, K, V, T, H, HV, 1, 0.5);
%!   h0 = 0.5 * randn (K, V, HV, numel (cu) - 1);
%!   if (kda) dtb = 0.3 * randn (K, HV); else dtb = 0.3 * randn (HV, 1); end
%!   in = struct ('q', q, 'k', k, 'v', v, 'g', randn (size (g)), 'beta', beta, 'h0', h0, ...
%!                'alog', log (0.5 + rand (HV, 1)), 'dtb', dtb);
%!   for C = [4 34]
%!     res = fdchk_ (op{1}, C, in, {'CuSeqlens', cu, 'GateInKernel', true, 'UseQKL2Norm', true}, []);
%!     assert (all ([res.pass]), '%s C = %d: fails %s', op{1}, C, strjoin ({res(~ [res.pass]).name}, ' '));
%!   end
%! end

%!test
%! % a ChunkSize far above T (and checkpoint interval of the recurrent
%! % backward) acts as T: same results, no workspace of ChunkSize^2
%! randn ('seed', 16); rand ('seed', 16);
%! for op = {'kda', 'gdn'}
%!   [q, k, v, g, beta] = rand_qkvgb (op{1}, 6, 5, 40, 1, 2, 1, 0.5);
%!   dout = randn (size (v));
%!   fc = str2func ([op{1} '_chunk']);  fr = str2func ([op{1} '_recurrent']);
%!   bc = str2func ([op{1} '_chunk_bwd']);  br = str2func ([op{1} '_recurrent_bwd']);
%!   [o1, S1] = fr (q, k, v, g, beta);
%!   [o2, S2] = fc (q, k, v, g, beta, 'ChunkSize', 1e7);
%!   assert (la_ratio (o1, o2) <= 1e-10 && la_ratio (S1, S2) <= 1e-10);
%!   % 'Intermediates' reports the chunk size used, T
%!   [~, ~, aux] = fc (q, k, v, g, beta, 'ChunkSize', 1e7, 'Intermediates', true);
%!   assert (aux.ChunkSize, 40);  assert (rows (aux.A_raw), 40);
%!   X1 = cell (1, 6); X2 = X1; X3 = X1;
%!   [X1{:}] = br (q, k, v, g, beta, dout, []);
%!   [X2{:}] = bc (q, k, v, g, beta, dout, [], 'ChunkSize', 1e9);
%!   [X3{:}] = br (q, k, v, g, beta, dout, [], 'ChunkSize', 1e9);
%!   for i = 1:6
%!     assert (la_ratio (X1{i}, X2{i}) <= 1e-10 && la_ratio (X1{i}, X3{i}) <= 1e-10);
%!   end
%! end

% ---- the backward's tasks (docs/chunk_backward.md, section 1) ---------------
% A call with fewer (sequence, head) items than threads runs each chunk's own
% parts as OpenMP tasks on every thread; a call with as many items as threads
% runs one item per thread, no tasks.  Both are large enough (T K V above 2^18)
% to run in parallel.  One head alone must give, bit for bit, what the same
% head gives beside a copy of itself.  (On one thread both run without tasks
% and the test still holds.)

%!test
%! randn ('seed', 15); rand ('seed', 15);
%! K = 32; V = 30; T = 700;
%! for op = {'kda', 'gdn'}
%!   for cls = {'single', 'double'}
%!     [q, k, v, g, beta] = rand_qkvgb (op{1}, K, V, T, 1, 1, 1, 0.5);
%!     [dout, dS] = mkd_ (K, V, T, 1, 1, 1);
%!     h0 = 0.5 * randn (K, V, 1, 1);
%!     cv = @(x) cast (x, cls{1});
%!     gd = 3 - strcmp (op{1}, 'gdn');     % the head dimension of g (GDN: T x HV x B)
%!     two = @(x, d) cat (d, x, x);        % the same head twice, along dimension d
%!     one = cell (1, 6);
%!     both = cell (1, 6);
%!     f = str2func ([op{1} '_chunk_bwd']);
%!     [one{:}] = f (cv (q), cv (k), cv (v), cv (g), cv (beta), cv (dout), dS, ...
%!                   'InitialState', h0);
%!     [both{:}] = f (cv (two (q, 3)), cv (two (k, 3)), cv (two (v, 3)), cv (two (g, gd)), ...
%!                    cv (two (beta, 2)), cv (two (dout, 3)), two (dS, 3), ...
%!                    'InitialState', two (h0, 3));
%!     names = {'dq', 'dk', 'dv', 'dg', 'dbeta', 'dS0'};
%!     dims = [3 3 3 gd 2 3];
%!     for i = 1:6
%!       idx = repmat ({':'}, 1, ndims (both{i}));
%!       idx{dims(i)} = 1;                 % head 1
%!       assert (isequal (one{i}, both{i}(idx{:})), '%s %s: %s of the one-head call differs', ...
%!               op{1}, cls{1}, names{i});
%!     end
%!   end
%! end
