% Tests: the tools of the lab's random section (validation/lab/): the
% draws are reproducible, a printed configuration pastes back to the same
% one, the schedule model names the two-phase corners, and a configuration
% passes its checks (that they fail on a planted bug is
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
%! c = lab_random_draw (36, 5, 2);
%! lens = diff ([0, c.T]);
%! if (~isempty (c.cu)), lens = diff (c.cu); end
%! p = lab_fwd_plan (c.K, c.V, c.C, c.cls, false, lens, c.HV, 2);
%! assert (~p.per_item && p.ncb > 1 && p.nvb > 1 && p.rem);
%! c = lab_random_draw (36, 6, 2);  assert (mod (c.V, 2) == 1 && mod (c.HV, 2) == 1);

%!test
%! % the schedule model: per item when the threads divide the items
%! p = lab_fwd_plan (16, 32, 64, 'double', false, [100 100], 2, 2);
%! assert (p.per_item);
%! p = lab_fwd_plan (16, 33, 64, 'double', false, 100, 1, 2);
%! assert (~p.per_item && p.nvb == 2 && p.rem && p.ncb == 1);
%! p = lab_fwd_plan (16, 33, 64, 'double', false, [100 50], 1, 1);
%! assert (~p.per_item);                    % uneven chunk counts

%!test
%! % a random configuration passes every check it makes
%! cfg = lab_random_draw (36, 2, 2);
%! res = lab_random_case (cfg);
%! assert (numel (res) >= 6 && all ([res.value] <= [res.bound]));
