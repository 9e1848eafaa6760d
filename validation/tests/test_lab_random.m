% Tests: the tools of the lab's random section (validation/lab/): the
% draws are reproducible, a printed configuration pastes back to the same
% one, and a configuration passes its checks (that they fail on a planted bug is
% what make mutants shows).  Run with  test test_lab_random  or through
% run_tests.m.

%!shared here
%! here = fileparts (which ('test_lab_random'));
%! addpath (fullfile (here, '..', 'lab'));

%!test
%! % the same seed, index and threads give the same configuration
%! assert (isequal (lab_random_draw (36, 7, 2), lab_random_draw (36, 7, 2)));
%! assert (~isequal (lab_random_draw (36, 7, 2), lab_random_draw (37, 7, 2)));

%!test
%! % the printed line evaluates to the configuration it prints
%! for i = [1 5 9 13]
%!   cfg = lab_random_draw (36, i, 2);
%!   s = lab_random_literal (cfg);
%!   assert (strncmp (s, 'lab_random_case (struct (', 25));
%!   back = eval (s(numel ('lab_random_case (') + 1:end - 1));
%!   assert (isequal (back, cfg));
%! end

%!test
%! % the first six draws are the corners of issue 36
%! c = lab_random_draw (36, 1, 2);  assert (c.B > 1 && c.HV > c.H);
%! c = lab_random_draw (36, 2, 2);  assert (c.V > c.K);
%! c = lab_random_draw (36, 3, 2);  assert (c.gik && c.T * c.B > 256);
%! c = lab_random_draw (36, 4, 2);  assert (c.gkgv && strcmp (c.op, 'gdn'));
%! c = lab_random_draw (36, 5, 2);         % past one window: 2^19 numbers of slots
%! assert (c.K <= 8 && c.V == 33 && c.C == 64 && c.T * (3 * c.K * 64 + c.V * 64 + 2 * 64 ^ 2) > 2 ^ 19);
%! c = lab_random_draw (36, 6, 2);  assert (mod (c.V, 2) == 1 && mod (c.HV, 2) == 1);

%!test
%! % a random configuration passes every check it makes
%! cfg = lab_random_draw (36, 2, 2);
%! res = lab_random_case (cfg);
%! assert (numel (res) >= 6 && all ([res.value] <= [res.bound]));

%!test
%! % the draws at the core's edges (lab_edge_case): each kind passes its
%! % checks, and a seed gives the same draw
%! % (windows: seed 45 many items, seed 47 few items of many chunks)
%! draws = {'windows', 45; 'windows', 47; 'wide', 47; 'decode', 47; 'pairs', 47; 'verify', 47};
%! for d = 1:rows (draws)
%!   res = lab_edge_case (draws{d, 1}, draws{d, 2});
%!   assert (numel (res) >= 1);
%!   for j = 1:numel (res)
%!     assert (res(j).value <= res(j).bound, '%s: %g > %g', res(j).check, res(j).value, res(j).bound);
%!   end
%! end
%! a = lab_edge_case ('decode', 3);  b = lab_edge_case ('decode', 3);
%! assert (strcmp (a.check, b.check) && a.value == b.value);
%!error <KIND must be windows, wide, decode, pairs or verify>
%! lab_edge_case ('nothing', 1);
