% Tests: kda_recurrent_bwd / gdn_recurrent_bwd.  Every gradient output
% against central finite differences in double (fd_check), with and without
% each option, dS given and dS = [], checkpoint intervals (ChunkSize) 1, 3
% and larger than T; single-precision backward against the double one.
% Run with  test test_recurrent_bwd  or through validation/run_tests.m.

%!function fd_both (varargin)
%!  % fd_check for both ops, dS given and dS = []; every gradient must pass
%!  for op = {'kda', 'gdn'}
%!    for withdS = [true, false]
%!      P = rand_problem (op{1}, 'K', 5, 'V', 4, 'T', 7, varargin{:});
%!      res = fd_check (P.fwd, P.bwd, P, P.opts, 'dS', withdS);
%!      bad = res(~[res.pass]);
%!      for r = bad
%!        error ('%s (dS %d): %s fails: size ok %d, errors %.3g (directions), %.3g (entries)', ...
%!               op{1}, withdS, r.name, r.size_ok, r.dir_err, r.entry_err);
%!      end
%!    end
%!  end
%!endfunction

%!function r = single_vs_double (op, varargin)
%!  % ratios of the 8 outputs of the single backward vs the double one on the
%!  % same (single-representable) inputs; checks the classes
%!  P = rand_problem (op, 'Class', 'single', varargin{:});
%!  gs = cell (1, 8);
%!  gd = cell (1, 8);
%!  [gs{:}] = feval (P.bwd, P.q, P.k, P.v, P.g, P.beta, P.dout, P.dS, P.opts{:});
%!  optd = P.opts;
%!  for i = 2:2:numel (optd)
%!    if (isfloat (optd{i}))
%!      optd{i} = double (optd{i});
%!    end
%!  end
%!  [gd{:}] = feval (P.bwd, double (P.q), double (P.k), double (P.v), ...
%!                   double (P.g), double (P.beta), double (P.dout), ...
%!                   double (P.dS), optd{:});
%!  r = zeros (1, 8);
%!  for i = 1:8
%!    if (isempty (gd{i}))
%!      assert (isempty (gs{i}));
%!    else
%!      assert (class (gs{i}), 'single');
%!      assert (size (gs{i}), size (gd{i}));
%!      r(i) = la_ratio (gd{i}, gs{i});
%!    end
%!  end
%!endfunction

% ---- finite differences: plain, then each option -----------------------
%!test
%! fd_both ();
%!test  % batch, heads
%! fd_both ('B', 2, 'H', 2, 'HV', 2);
%!test
%! fd_both ('UseQKL2Norm', true);
%!test
%! fd_both ('GateInKernel', true, 'HV', 2);
%!test  % GateInKernel, DtBias not given: dDtBias still returned and right
%! fd_both ('GateInKernel', true, 'DtBias', false, 'HV', 2);
%!test
%! fd_both ('GateInKernel', true, 'LowerBound', -4, 'HV', 2);
%!test
%! fd_both ('BetaSigmoid', true);
%!test
%! fd_both ('BetaSigmoid', true, 'AllowNegEigval', true);
%!test
%! fd_both ('Scale', 0.45);
%!test
%! fd_both ('InitialState', true, 'B', 2);
%!test
%! fd_both ('StateLayout', 'VK', 'InitialState', true);
%!test
%! fd_both ('StateLayout', 'VK');
%!test
%! fd_both ('T', 9, 'CuSeqlens', [0 2 3 9], 'InitialState', true);
%!test  % GVA: dq, dk sum over the group
%! fd_both ('H', 2, 'HV', 4);
%!test  % checkpoint interval 1
%! fd_both ('ChunkSize', 1, 'InitialState', true);
%!test  % checkpoint interval 3, T = 7 not a multiple
%! fd_both ('ChunkSize', 3, 'InitialState', true);
%!test  % checkpoint interval larger than T
%! fd_both ('ChunkSize', 100, 'InitialState', true);
%!test  % everything together
%! fd_both ('UseQKL2Norm', true, 'GateInKernel', true, 'LowerBound', -3, ...
%!          'BetaSigmoid', true, 'AllowNegEigval', true, 'Scale', 0.8, ...
%!          'InitialState', true, 'StateLayout', 'VK', 'CuSeqlens', [0 3 7], ...
%!          'H', 1, 'HV', 2, 'ChunkSize', 2);
%!test  % everything together, without LowerBound, B > 1
%! fd_both ('UseQKL2Norm', true, 'GateInKernel', true, 'BetaSigmoid', true, ...
%!          'InitialState', true, 'H', 2, 'HV', 4, 'B', 2, 'ChunkSize', 3);

% ---- the checkpoint interval changes nothing but rounding --------------
%!test
%! for op = {'kda', 'gdn'}
%!   P = rand_problem (op{1}, 'T', 23, 'HV', 2, 'InitialState', true, ...
%!                     'GateInKernel', true, 'UseQKL2Norm', true);
%!   ref = cell (1, 8);
%!   [ref{:}] = feval (P.bwd, P.q, P.k, P.v, P.g, P.beta, P.dout, P.dS, ...
%!                     P.opts{:}, 'ChunkSize', 64);
%!   for C = [1, 2, 5, 23, 24, 1000]
%!     out = cell (1, 8);
%!     [out{:}] = feval (P.bwd, P.q, P.k, P.v, P.g, P.beta, P.dout, P.dS, ...
%!                       P.opts{:}, 'ChunkSize', C);
%!     for i = 1:8
%!       assert (la_ratio (ref{i}, out{i}) <= 1e-12);
%!     end
%!   end
%! end

% ---- dS = [] is the same as dS = 0 ----------------------------------------
%!test
%! for op = {'kda', 'gdn'}
%!   P = rand_problem (op{1}, 'HV', 2, 'InitialState', true);
%!   a = cell (1, 8);
%!   b = cell (1, 8);
%!   [a{:}] = feval (P.bwd, P.q, P.k, P.v, P.g, P.beta, P.dout, [], P.opts{:});
%!   [b{:}] = feval (P.bwd, P.q, P.k, P.v, P.g, P.beta, P.dout, ...
%!                   zeros (size (P.dS)), P.opts{:});
%!   for i = 1:8
%!     assert (isequal (a{i}, b{i}));
%!   end
%! end

% ---- the backward is linear in (do, dS) -------------------------------------
%!test
%! for op = {'kda', 'gdn'}
%!   P = rand_problem (op{1}, 'HV', 2, 'GateInKernel', true);
%!   a = cell (1, 8); b = cell (1, 8); c = cell (1, 8);
%!   [a{:}] = feval (P.bwd, P.q, P.k, P.v, P.g, P.beta, P.dout, [], P.opts{:});
%!   [b{:}] = feval (P.bwd, P.q, P.k, P.v, P.g, P.beta, 0 * P.dout, P.dS, P.opts{:});
%!   [c{:}] = feval (P.bwd, P.q, P.k, P.v, P.g, P.beta, 2 * P.dout, 3 * P.dS, P.opts{:});
%!   for i = 1:8
%!     assert (la_ratio (2 * a{i} + 3 * b{i}, c{i}) <= 1e-12);
%!   end
%! end

% ---- single backward vs double backward ----------------------------------
%!test
%! for op = {'kda', 'gdn'}
%!   r = single_vs_double (op{1}, 'T', 30, 'K', 8, 'V', 8, 'HV', 2, 'B', 2, ...
%!                         'InitialState', true);
%!   assert (r <= 1e-4);
%! end
%!test
%! for op = {'kda', 'gdn'}
%!   r = single_vs_double (op{1}, 'T', 30, 'K', 8, 'V', 8, 'H', 2, 'HV', 4, ...
%!                         'UseQKL2Norm', true, 'GateInKernel', true, ...
%!                         'BetaSigmoid', true, 'InitialState', true, ...
%!                         'ChunkSize', 7);
%!   assert (r <= 1e-4);
%! end
%!test
%! for op = {'kda', 'gdn'}
%!   r = single_vs_double (op{1}, 'T', 20, 'CuSeqlens', [0 5 20], ...
%!                         'GateInKernel', true, 'LowerBound', -3, ...
%!                         'StateLayout', 'VK', 'InitialState', true, ...
%!                         'BetaSigmoid', true, 'AllowNegEigval', true);
%!   assert (r <= 1e-4);
%! end

% ---- shapes of the outputs ----------------------------------------------
%!test
%! for op = {'kda', 'gdn'}
%!   P = rand_problem (op{1}, 'K', 5, 'V', 4, 'T', 6, 'H', 1, 'HV', 3, 'B', 2);
%!   out = cell (1, 8);
%!   [out{:}] = feval (P.bwd, P.q, P.k, P.v, P.g, P.beta, P.dout, [], P.opts{:});
%!   assert (size (out{1}), size (P.q));
%!   assert (size (out{2}), size (P.k));
%!   assert (size (out{3}), size (P.v));
%!   assert (size (out{4}), size (P.g));
%!   assert (size (out{5}), size (P.beta));
%!   assert (size (out{6}), [5 4 3 2]);                 % no InitialState
%!   assert (isempty (out{7}) && isempty (out{8}));    % no GateInKernel
%!   [out{:}] = feval (P.bwd, P.q, P.k, P.v, P.g, P.beta, P.dout, [], ...
%!                     P.opts{:}, 'StateLayout', 'VK');
%!   assert (size (out{6}), [4 5 3 2]);
%!   % GateInKernel without DtBias: K x HV (KDA), HV x 1 (GDN); ALog as given
%!   [out{:}] = feval (P.bwd, P.q, P.k, P.v, P.g, P.beta, P.dout, [], ...
%!                     'GateInKernel', true, 'ALog', [0.1 0.2 0.3]);
%!   assert (size (out{7}), [1 3]);
%!   if (strcmp (op{1}, 'kda'))
%!     assert (size (out{8}), [5 3]);
%!   else
%!     assert (size (out{8}), [3 1]);
%!   end
%! end
%!test  % GDN: g and beta reshaped (T*HV*B elements, another shape) are badShape
%! P = rand_problem ('gdn', 'T', 6, 'HV', 2, 'B', 2);
%! g = reshape (P.g, 1, []);
%! b = reshape (P.beta, 2, 3, 2, 2);
%! for args = {{g, P.beta}, {P.g, b}}
%!   try
%!     gdn_recurrent_bwd (P.q, P.k, P.v, args{1}{:}, P.dout, P.dS);
%!     error ('no error');
%!   catch err
%!     assert (err.identifier, 'gdn:badShape');
%!   end
%! end
