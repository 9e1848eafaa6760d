function G = run_bench_goals (varargin)
  % RUN_BENCH_GOALS  The performance goals over several rounds (make bench-goals).
  %
  %   run_bench_goals ('Core', path)
  %   G = run_bench_goals (Name, Value, ...)
  %
  %   One `make bench` is one sample of a shared machine: the same code has
  %   read 0.55 in one run and 0.29 in the next (docs/performance.md).  This
  %   runs only the rows of the goals (`bench_core REPS 1024 goals`: each
  %   rep a pause, a gemm, a pause, the row), round after round, with the
  %   machine's BLAS kernels and with OpenBLAS's AVX2 ones (which of the two
  %   goes first alternates), and gives per goal each round's ratio, the
  %   median over the rounds with its range, and the number of rounds that
  %   meet the target (bench_goals_rounds).  The targets are bench_goals's.
  %
  %   Options: 'Core' (path of the bench_core program; required), 'Rounds'
  %   (default 5), 'Reps' (reps per row and round, at least 9; default 9),
  %   'Out' (Markdown file, default validation/bench/results/bench_goals.md; ''
  %   for none).  Prints each round's goals as it goes (about 1 min a round
  %   on the project machine).
  %
  %   See also: bench_core_run, bench_goals_rounds, bench_goals, run_bench.
  here = fileparts (mfilename ('fullpath'));
  addpath (fullfile (here, 'bench'));
  opt = struct ('Core', '', 'Rounds', 5, 'Reps', 9, ...
                'Out', fullfile (here, 'results', 'bench_goals.md'));
  for i = 1:2:numel (varargin)
    opt.(varargin{i}) = varargin{i+1};
  end
  if (isempty (opt.Core) || ~exist (opt.Core, 'file'))
    error ('run_bench_goals: give the bench_core program: ''Core'', path (make bench-goals does)');
  end
  reps = max (9, opt.Reps);
  R = opt.Rounds;
  texts = cell (R, 2);
  coretype = {'', 'Haswell'};   % the machine's BLAS kernels, OpenBLAS's AVX2 ones
  started = datestr (now (), 'yyyy-mm-dd HH:MM:SS');
  load0 = strtrim (fileread ('/proc/loadavg'));
  for r = 1:R
    order = [1 2];
    if (mod (r, 2) == 0)
      order = [2 1];
    end
    for c = order
      texts{r, c} = bench_core_run (opt.Core, reps, 'goals', coretype{c});
    end
    [~, g] = bench_goals (texts{r, 1}, texts{r, 2}, []);
    fprintf ('round %d of %d:', r, R);
    fprintf (' %.2f', [g.value]);
    fprintf ('  (ratios in the order of the table below)\n');
  end
  [md, G] = bench_goals_rounds (texts);
  blas = [regexp(texts{1, 1}, '- BLAS:[^\n]*', 'match', 'once') char(10) ...
          regexp(texts{1, 1}, '- GEMM engine[^\n]*', 'match', 'once') char(10) ...
          regexp(texts{1, 2}, '- BLAS:[^\n]*', 'match', 'once') char(10) ...
          regexp(texts{1, 2}, '- GEMM engine[^\n]*', 'match', 'once')];
  % the last round's engine tables (libxsmm against BLAS, paired; the FMA
  % peak) of each kernel set
  kernels = {'the machine''s own kernels', 'the AVX2 kernels'};
  for c = 1:2
    at = strfind (texts{R, c}, 'The GEMM engine');
    if (~isempty (at))
      md = sprintf ('%s\n## The GEMM engine, %s (last round)\n\n%s', md, kernels{c}, ...
                    strtrim (texts{R, c}(at(1):end)));
    end
  end
  rounds = 'rounds';
  if (R == 1)
    rounds = 'round';
  end
  head = sprintf (['# The goals over %d %s\n\nWritten by `make bench-goals` ' ...
                   '(`validation/run_bench_goals.m`) on %s; load average at start %s, at end ' ...
                   '%s.\n\n%s\n\nEach round: `bench_core %d 1024 goals` with the machine''s ' ...
                   'BLAS kernels and with OPENBLAS_CORETYPE=Haswell LIBXSMM_TARGET=hsw (AVX2), the order ' ...
                   'alternating; each ratio is the row''s nominal GFLOP/s over the settled ' ...
                   'gemm of the same reps (docs/performance.md).  With the machine''s own ' ...
                   'kernels the targets are 0.1 lower.\n\n'], R, rounds, started, load0, ...
                  strtrim (fileread ('/proc/loadavg')), blas, reps);
  fprintf ('\n%s%s', head, md);
  if (~isempty (opt.Out))
    fid = fopen (opt.Out, 'w');
    fprintf (fid, '%s%s', head, md);
    fclose (fid);
    fprintf ('written: %s\n', opt.Out);
  end
end
