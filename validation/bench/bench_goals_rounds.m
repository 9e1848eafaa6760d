function [md, G] = bench_goals_rounds (texts)
  % BENCH_GOALS_ROUNDS  The goals over several rounds of the core's goal rows.
  %
  %   [md, G] = bench_goals_rounds (texts)
  %
  %   texts: R x 2 cell, one row per round: the text that bench_core printed
  %   with the machine's BLAS kernels and with OPENBLAS_CORETYPE=Haswell
  %   (`bench_core REPS 1024 goals` prints only the rows of the goals).
  %   bench_goals decides each round's goals; this gathers them.  One run
  %   of the bench can move a ratio by 0.26 on a shared machine
  %   (docs/performance.md); the median over rounds, the range and the
  %   number of rounds that meet each target say more than any one run.
  %   md: a Markdown table (goal, kernels, target, each round's ratio,
  %   median with min and max, rounds met); G: struct array with the same
  %   (values: 1 x R).
  %
  %   See also: bench_goals, run_bench_goals.
  R = rows (texts);
  G = struct ('goal', {}, 'kernels', {}, 'target', {}, 'values', {}, 'median', {}, ...
              'lo', {}, 'hi', {}, 'met', {});
  for r = 1:R
    [~, g] = bench_goals (texts{r, 1}, texts{r, 2}, []);
    if (r == 1)
      for i = 1:numel (g)
        G(i) = struct ('goal', g(i).goal, 'kernels', g(i).kernels, 'target', g(i).target, ...
                       'values', NaN (1, R), 'median', NaN, 'lo', NaN, 'hi', NaN, 'met', 0);
      end
    end
    for i = 1:numel (g)
      G(i).values(r) = g(i).value;
    end
  end
  for i = 1:numel (G)
    v = G(i).values(~isnan (G(i).values));
    if (~isempty (v))
      G(i).median = median (v);
      G(i).lo = min (v);
      G(i).hi = max (v);
    end
    G(i).met = sum (v >= G(i).target);
  end
  md = sprintf (['| goal | kernels | target | each round | median (min-max) | rounds met |\n' ...
                 '|---|---|---:|---|---:|---:|\n']);
  for i = 1:numel (G)
    each = strjoin (arrayfun (@(x) sprintf ('%.2f', x), G(i).values, 'UniformOutput', false), ', ');
    md = [md sprintf('| %s | %s | >= %.2f | %s | %.2f (%.2f-%.2f) | %d of %d |\n', G(i).goal, ...
                     G(i).kernels, G(i).target, each, G(i).median, G(i).lo, G(i).hi, ...
                     G(i).met, R)];   %#ok
  end
end
