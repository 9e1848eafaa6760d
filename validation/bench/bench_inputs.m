function [args, in] = bench_inputs (s)
  % BENCH_INPUTS  The inputs of one bench row, as a usual model makes them.
  %
  %   [args, in] = bench_inputs (s)
  %
  %   s: a row of bench_rows (fields fn, cls, B, T, H, K, V, C).  in: {q, k,
  %   v, g, beta} in the row's class, q and k unit columns, g =
  %   log(sigmoid(x)) per channel (KDA) or per step (GDN), beta in (0, 1),
  %   the same for the same row (seeded); args: {'ChunkSize', C} for the
  %   chunked functions, {} otherwise.
  %
  %   See also: bench_time_row, bench_pkg, bench_rows.
  randn ('seed', 1);
  rand ('seed', 1);
  mk = @(varargin) cast (randn (varargin{:}), s.cls);
  q = mk (s.K, s.T, s.H, s.B);
  q = q ./ sqrt (sum (q .^ 2, 1));
  k = mk (s.K, s.T, s.H, s.B);
  k = k ./ sqrt (sum (k .^ 2, 1));
  v = mk (s.V, s.T, s.H, s.B);
  if (strncmp (s.fn, 'kda', 3))
    g = cast (-log1p (exp (-(2 + randn (s.K, s.T, s.H, s.B)))), s.cls);
  else
    g = cast (-log1p (exp (-(2 + randn (s.T, s.H, s.B)))), s.cls);
  end
  beta = cast (rand (s.T, s.H, s.B), s.cls);
  in = {q, k, v, g, beta};
  args = {};
  if (any (strcmp (s.fn, {'kda_chunk', 'gdn_chunk'})))
    args = {'ChunkSize', s.C};
  end
end

%!test
%! addpath (fullfile (fileparts (which ('test_bench_goals')), '..', 'bench'));   % as run_tests runs it
%! s = struct ('fn', 'kda_chunk', 'cls', 'single', 'B', 1, 'T', 8, 'H', 2, 'K', 4, 'V', 3, 'C', 64);
%! [args, in] = bench_inputs (s);
%! assert (args, {'ChunkSize', 64});
%! assert (cellfun (@(x) size (x, 1), in(1:3)), [4 4 3]);
%! assert (size (in{4}), [4 8 2]);
%! assert (all (cellfun (@(x) isa (x, 'single'), in)));
%! assert (all (in{4}(:) < 0) && all (in{5}(:) > 0 & in{5}(:) < 1));
%! [~, in2] = bench_inputs (s);
%! assert (isequal (in, in2));
%!test
%! addpath (fullfile (fileparts (which ('test_bench_goals')), '..', 'bench'));   % as run_tests runs it
%! s = struct ('fn', 'gdn_recurrent', 'cls', 'double', 'B', 1, 'T', 1, 'H', 3, 'K', 4, 'V', 4, 'C', 64);
%! [args, in] = bench_inputs (s);
%! assert (isempty (args));
%! assert (size (in{4}), [1 3]);
