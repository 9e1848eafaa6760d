% Tests: kda_recurrent / gdn_recurrent against the independent reference
% ref_forward (validation/lib), for every option on its own and a few
% together, in double (ratio <= 1e-10) and in single (ratio <= 1e-4).
% Run with  test test_recurrent_fwd  or through validation/run_tests.m.

%!function r = fwd_vs_ref (op, cls, varargin)
%!  % ratios [o, S] of the public forward vs ref_forward on random inputs;
%!  % also checks the class and the sizes of both outputs
%!  P = rand_problem (op, 'Class', cls, varargin{:});
%!  [o, S] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, P.opts{:});
%!  [oref, Sref] = ref_forward (op, P.q, P.k, P.v, P.g, P.beta, P.opts{:});
%!  assert (class (o), cls);
%!  assert (class (S), cls);
%!  assert (size (o), size (oref));
%!  assert (size (S), size (Sref));
%!  assert (all (isfinite (o(:))) && all (isfinite (S(:))));
%!  r = [la_ratio(oref, o), la_ratio(Sref, S)];
%!endfunction

%!function check_both (varargin)
%!  % both ops, double (1e-10) and single (1e-4)
%!  for op = {'kda', 'gdn'}
%!    rd = fwd_vs_ref (op{1}, 'double', varargin{:});
%!    assert (rd <= 1e-10, '%s double: ratios o %g, S %g', op{1}, rd(1), rd(2));
%!    rs = fwd_vs_ref (op{1}, 'single', varargin{:});
%!    assert (rs <= 1e-4, '%s single: ratios o %g, S %g', op{1}, rs(1), rs(2));
%!  end
%!endfunction

% ---- the plain recurrence ------------------------------------------------
%!test
%! check_both ('K', 8, 'V', 6, 'T', 20);
%!test  % batch and several heads
%! check_both ('K', 7, 'V', 5, 'T', 12, 'H', 2, 'HV', 2, 'B', 3);
%!test  % K > V and K < V
%! check_both ('K', 16, 'V', 4, 'T', 9);
%! check_both ('K', 3, 'V', 16, 'T', 9);

% ---- each option on its own -------------------------------------------------
%!test
%! check_both ('UseQKL2Norm', true, 'B', 2);
%!test
%! check_both ('GateInKernel', true, 'HV', 2);
%!test  % GateInKernel without DtBias
%! check_both ('GateInKernel', true, 'DtBias', false, 'HV', 2);
%!test  % GateInKernel with LowerBound
%! check_both ('GateInKernel', true, 'LowerBound', -5, 'HV', 2);
%!test
%! check_both ('BetaSigmoid', true, 'HV', 2);
%!test
%! check_both ('BetaSigmoid', true, 'AllowNegEigval', true, 'HV', 2);
%!test
%! check_both ('AllowNegEigval', true);
%!test
%! check_both ('Scale', 0.37);
%!test
%! check_both ('InitialState', true, 'B', 2, 'HV', 2);
%!test
%! check_both ('StateLayout', 'VK', 'K', 5, 'V', 7);
%!test
%! check_both ('StateLayout', 'VK', 'InitialState', true, 'K', 5, 'V', 7);
%!test
%! check_both ('T', 15, 'CuSeqlens', [0 4 5 11 15]);
%!test  % CuSeqlens as a column, of class int32
%! check_both ('T', 9, 'CuSeqlens', int32 ([0; 3; 9]), 'InitialState', true);
%!test  % GVA: HV = 3 H
%! check_both ('H', 2, 'HV', 6, 'B', 2);
%!test  % ChunkSize is accepted by the forward
%! check_both ('ChunkSize', 3);

% ---- several together ---------------------------------------------------
%!test
%! check_both ('UseQKL2Norm', true, 'GateInKernel', true, 'BetaSigmoid', true, ...
%!             'AllowNegEigval', true, 'Scale', 0.5, 'InitialState', true, ...
%!             'H', 2, 'HV', 4, 'B', 2);
%!test
%! check_both ('GateInKernel', true, 'LowerBound', -2, 'StateLayout', 'VK', ...
%!             'InitialState', true, 'CuSeqlens', [0 2 7 12], 'T', 12, ...
%!             'H', 1, 'HV', 3, 'K', 6, 'V', 9);
%!test
%! check_both ('UseQKL2Norm', true, 'BetaSigmoid', true, 'CuSeqlens', [0 6 10], ...
%!             'H', 2, 'HV', 4, 'Scale', 1.3, 'StateLayout', 'VK');

% ---- longer sequence, single precision stays within 1e-4 ----------------
%!test
%! for op = {'kda', 'gdn'}
%!   r = fwd_vs_ref (op{1}, 'single', 'T', 400, 'K', 16, 'V', 16, 'HV', 2, ...
%!                   'UseQKL2Norm', true, 'GateInKernel', true);
%!   assert (r <= 1e-4);
%! end

% ---- ChunkSize has no effect on the forward ----------------------------
%!test
%! for op = {'kda', 'gdn'}
%!   P = rand_problem (op{1}, 'T', 11, 'HV', 2);
%!   [o1, S1] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta);
%!   [o2, S2] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, 'ChunkSize', 4);
%!   assert (isequal (o1, o2) && isequal (S1, S2));
%! end

% ---- the reference itself: a hand-computed single step -----------------
%!test
%! % one step from S0: S = diag(exp(g)) S0 + beta k (v - (diag(exp(g)) S0)' k)'
%! K = 3; V = 2;
%! q = [1; 2; 0.5]; k = [0.6; 0; 0.8]; v = [1; -1]; g = [-0.1; -0.2; -0.3];
%! b = 0.7; S0 = [1 2; 3 4; 5 6];
%! Sp = diag (exp (g)) * S0;
%! S1 = Sp + b * k * (v - Sp' * k)';
%! o1 = S1' * (q / sqrt (K));
%! [o, S] = ref_forward ('kda', q, k, v, g, b, 'InitialState', S0);
%! assert (o, o1, 1e-14);
%! assert (S, S1, 1e-14);
%! [o, S] = kda_recurrent (q, k, v, g, b, 'InitialState', S0);
%! assert (o, o1, 1e-14);
%! assert (S, S1, 1e-14);
%! % GDN: the scalar gate g(1) for every row
%! Sp = exp (g(1)) * S0;
%! S1 = Sp + b * k * (v - Sp' * k)';
%! [o, S] = gdn_recurrent (q, k, v, g(1), b, 'InitialState', S0);
%! assert (o, S1' * (q / sqrt (K)), 1e-14);
%! assert (S, S1, 1e-14);
