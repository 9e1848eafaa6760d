function G = run_bench_goals (varargin)
  % RUN_BENCH_GOALS  The performance goals over several rounds (make bench-goals).
  %
  %   run_bench_goals ('Core', path, 'CoreBlas', path)
  %   G = run_bench_goals (Name, Value, ...)
  %
  %   One `make bench` is one sample of a shared machine: the same code has
  %   read 0.55 in one run and 0.29 in the next (docs/performance.md).  This
  %   runs only the rows of the goals (`bench_core REPS 1024 goals`: each
  %   rep a pause, a gemm, a pause, the row), round after round, with the
  %   machine's BLAS kernels and with OpenBLAS's AVX2 ones (which of the two
  %   goes first alternates), and in each round the same rows through
  %   bench_core_blas (the core with each gemm call timed): the ratio the
  %   GEMMs alone reach as the core calls them, each row's ceiling on this
  %   machine.  Per goal: the medians of the ratio to the same-run gemm, of
  %   the ceiling and of the fraction of the FMA peak, each round's share
  %   of the ceiling (the goal: at least 0.85), the median over the rounds
  %   with its range, and the number of rounds that meet it
  %   (bench_goals_rounds); the header names the CPU.
  %
  %   Options: 'Core' (path of the bench_core program; required),
  %   'CoreBlas' (path of bench_core_blas; without it no ceiling, so no
  %   share), 'Rounds' (default 5), 'Reps' (reps per row and round, at
  %   least 9; default 9), 'Out' (Markdown file, default
  %   validation/bench/results/bench_goals.md; '' for none).  Prints each
  %   round's shares as it goes (about 2 min a round on the project
  %   machine).
  %
  %   See also: bench_core_run, bench_goals_rounds, bench_goals, run_bench.
  here = fileparts (mfilename ('fullpath'));
  addpath (fullfile (here, 'bench'));
  opt = struct ('Core', '', 'CoreBlas', '', 'Rounds', 5, 'Reps', 9, ...
                'Out', fullfile (here, 'bench', 'results', 'bench_goals.md'));
  for i = 1:2:numel (varargin)
    opt.(varargin{i}) = varargin{i+1};
  end
  if (isempty (opt.Core) || ~exist (opt.Core, 'file'))
    error ('run_bench_goals: give the bench_core program: ''Core'', path (make bench-goals does)');
  end
  reps = max (9, opt.Reps);
  R = opt.Rounds;
  nt = 2 + 2 * ~isempty (opt.CoreBlas);
  texts = repmat ({''}, R, nt);
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
      if (nt == 4)
        texts{r, c + 2} = bench_core_run (opt.CoreBlas, reps, 'goals', coretype{c});
      end
    end
    [~, g] = bench_goals (texts{r, 1}, texts{r, 2}, [], texts(r, 3:nt));
    fprintf ('round %d of %d:', r, R);
    fprintf (' %.2f', [g.value]);
    fprintf ('  (shares of the ceiling in the order of the table below)\n');
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
  % the last round's GEMMs alone and the stages of each kernel set
  for c = 1:(nt == 4) * 2
    at = strfind (texts{R, c + 2}, 'Time in BLAS');
    if (~isempty (at))
      md = sprintf ('%s\n## The GEMMs alone, %s (last round)\n\n%s', md, kernels{c}, ...
                    strtrim (texts{R, c + 2}(at(1):end)));
    end
  end
  rounds = 'rounds';
  if (R == 1)
    rounds = 'round';
  end
  head = sprintf (['# The goals over %d %s\n\nWritten by `make bench-goals` ' ...
                   '(`validation/run_bench_goals.m`) on %s; CPU: %s; load average at start %s, ' ...
                   'at end %s.\n\n%s\n\nEach round: `bench_core %d 1024 goals` and ' ...
                   '`bench_core_blas %d 1024 goals` with the machine''s BLAS kernels and with ' ...
                   'OPENBLAS_CORETYPE=Haswell LIBXSMM_TARGET=hsw (AVX2), the order alternating; ' ...
                   'vs gemm: the row''s nominal GFLOP/s over the settled gemm of the same reps; ' ...
                   'GEMMs alone: the same if everything outside its GEMMs took no time (the ' ...
                   'ceiling); share: vs gemm over GEMMs alone, the goal (docs/performance.md); ' ...
                   'of FMA peak: the row''s GFLOP/s over the FMA peak measured in the same ' ...
                   'program.\n\n'], R, rounds, started, bench_cpu (), load0, ...
                  strtrim (fileread ('/proc/loadavg')), blas, reps, reps);
  bench_report ([head md], opt.Out);
end
