% Tests: kda_state_map / gdn_state_map and their backward against plain
% Octave and central differences, for both gates, with every transform,
% grouped value heads, CuSeqlens and both state layouts.
% Run with  test test_state_map  or through validation/run_tests.m.

%!function [q, k, v, g, beta, opts] = problem (op, T, all_options)
%!  % a small random problem: K = 4, V = 3, H = 1, HV = 2 (GVA)
%!  K = 4; V = 3; HV = 2;
%!  q = randn (K, T); k = randn (K, T); v = randn (V, T, HV);
%!  if (strcmp (op, 'kda'))
%!    g = -rand (K, T, HV);
%!  else
%!    g = -rand (T, HV);
%!  end
%!  beta = rand (T, HV);
%!  opts = {'ChunkSize', 4};
%!  if (all_options)
%!    dtb = randn (K, HV) / 4;
%!    if (strcmp (op, 'gdn'))
%!      dtb = dtb(1, :)';
%!    end
%!    opts = [opts, {'UseQKL2Norm', true, 'GateInKernel', true, 'ALog', randn(HV, 1) / 4, ...
%!                   'DtBias', dtb, 'BetaSigmoid', true, 'AllowNegEigval', true, ...
%!                   'CuSeqlens', [0 5 T]}];
%!    beta = randn (T, HV);
%!    g = randn (size (g));
%!  end
%!endfunction

%!function M = transition (k, g, beta, t, h, op)
%!  % one step's K x K transition (I - beta k k') Diag (exp (g)), plain Octave
%!  K = size (k, 1);
%!  if (strcmp (op, 'kda'))
%!    a = exp (g(:, t, h));
%!  else
%!    a = exp (g(t, h)) * ones (K, 1);
%!  end
%!  M = (eye (K) - beta(t, h) * k(:, t) * k(:, t)') * diag (a);
%!endfunction

%!test
%! % P is the product of the transitions, R the final state from zero, for
%! % both gates; every chunk size gives the same map
%! for op = {'kda', 'gdn'}
%!   [q, k, v, g, beta] = problem (op{1}, 11, false);
%!   [P, R] = feval ([op{1} '_state_map'], q, k, v, g, beta, 'ChunkSize', 4);
%!   [~, S] = feval ([op{1} '_recurrent'], q, k, v, g, beta);
%!   assert (R, S, 1e-12 * max (abs (S(:))));
%!   for h = 1:2
%!     M = eye (4);
%!     for t = 1:11
%!       M = transition (k, g, beta, t, h, op{1}) * M;
%!     end
%!     assert (P(:, :, h), M, 1e-12);
%!   end
%!   for C = [1 3 64]
%!     [P2, R2] = feval ([op{1} '_state_map'], q, k, v, g, beta, 'ChunkSize', C);
%!     assert (P2, P, 1e-12);
%!     assert (R2, R, 1e-12 * max (abs (R(:))));
%!   end
%! end

%!test
%! % the backward against central differences along random directions,
%! % through every transform, GVA and CuSeqlens, with the 'VK' layout of dR
%! for op = {'kda', 'gdn'}
%!   [q, k, v, g, beta, opts] = problem (op{1}, 9, true);
%!   opts = [opts, {'StateLayout', 'VK'}];
%!   [err, names] = fd_state_map (op{1}, q, k, v, g, beta, randn (4, 4, 2, 2), ...
%!                                randn (3, 4, 2, 2), opts);
%!   assert (numel (names), 6);
%!   assert (all (err < 1e-7), '%s: %s', op{1}, mat2str (err, 2));
%! end

%!test
%! % single stays single and agrees with double; T = 0 gives P = I, R = 0
%! for op = {'kda', 'gdn'}
%!   [q, k, v, g, beta] = problem (op{1}, 30, false);
%!   fwd = [op{1} '_state_map'];
%!   [P, R] = feval (fwd, q, k, v, g, beta);
%!   [Ps, Rs] = feval (fwd, single (q), single (k), single (v), single (g), single (beta));
%!   assert (isa (Ps, 'single') && isa (Rs, 'single'));
%!   assert (double (Ps), P, 1e-5);
%!   assert (double (Rs), R, 1e-5 * max (abs (R(:))));
%!   s = size (g);  s(end - 1) = 0;
%!   [P0, R0] = feval (fwd, q(:, []), k(:, []), zeros (3, 0, 2), zeros (s), zeros (0, 2));
%!   assert (P0, repmat (eye (4), [1 1 2]));
%!   assert (R0, zeros (4, 3, 2));
%! end

%!test
%! % the lab section in its quick form: every check passes
%! addpath (fullfile (fileparts (fileparts (which ('test_state_map'))), 'lab'));
%! rows = lab_state_map ('quick', '');
%! bad = rows(~[rows.pass]);
%! assert (isempty (bad), '%s', strjoin (arrayfun (@(r) sprintf ('%s = %.2g', r.name, ...
%!         r.value), bad, 'UniformOutput', false), '; '));
%! assert (sum (~isnan ([rows.bound])) >= 20);
