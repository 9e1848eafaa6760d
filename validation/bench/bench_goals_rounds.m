function [md, G] = bench_goals_rounds (texts)
  % BENCH_GOALS_ROUNDS  The goals over several rounds of the core's goal rows.
  %
  %   [md, G] = bench_goals_rounds (texts)
  %
  %   texts: R x 2 or R x 4 cell, one row per round: the text that
  %   bench_core printed with the machine's BLAS kernels and with
  %   OPENBLAS_CORETYPE=Haswell (`bench_core REPS 1024 goals` prints only
  %   the rows of the goals), then (R x 4) bench_core_blas's with the same
  %   two kernel sets (the GEMMs alone: each row's ceiling).  bench_goals
  %   decides each round's goals (the row's share of its ceiling); this
  %   gathers them.  One run of the bench can move a ratio by 0.26 on a
  %   shared machine (docs/performance.md); the median over rounds, the
  %   range and the number of rounds that meet each target say more than
  %   any one run.  md: a Markdown table (goal, kernels, the medians of the
  %   ratio to the gemm, of the ceiling and of the fraction of the FMA
  %   peak, each round's share, its median with min and max, target, rounds
  %   met); G: struct array with the same (values: 1 x R shares).
  %
  %   See also: bench_goals, run_bench_goals.
  R = rows (texts);
  G = struct ('goal', {}, 'kernels', {}, 'target', {}, 'values', {}, 'median', {}, ...
              'lo', {}, 'hi', {}, 'met', {}, 'ratio', {}, 'ceiling', {}, 'peak', {});
  for r = 1:R
    blas = {};
    if (columns (texts) >= 4)
      blas = texts(r, 3:4);
    end
    [~, g] = bench_goals (texts{r, 1}, texts{r, 2}, [], blas);
    if (r == 1)
      for i = 1:numel (g)
        G(i) = struct ('goal', g(i).goal, 'kernels', g(i).kernels, 'target', g(i).target, ...
                       'values', NaN (1, R), 'median', NaN, 'lo', NaN, 'hi', NaN, 'met', 0, ...
                       'ratio', NaN (1, R), 'ceiling', NaN (1, R), 'peak', NaN (1, R));
      end
    end
    for i = 1:numel (g)
      G(i).values(r) = g(i).value;
      G(i).ratio(r) = g(i).ratio;
      G(i).ceiling(r) = g(i).ceiling;
      G(i).peak(r) = g(i).peak;
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
  md = sprintf (['| goal | kernels | vs gemm | GEMMs alone | of FMA peak | share of ceiling, ' ...
                 'each round | median (min-max) | target | rounds met |\n' ...
                 '|---|---|---:|---:|---:|---|---:|---:|---:|\n']);
  for i = 1:numel (G)
    each = strjoin (arrayfun (@(x) sprintf ('%.2f', x), G(i).values, 'UniformOutput', false), ', ');
    md = [md sprintf('| %s | %s | %s | %s | %s | %s | %.2f (%.2f-%.2f) | >= %.2f | %d of %d |\n', ...
                     G(i).goal, G(i).kernels, med (G(i).ratio), med (G(i).ceiling), ...
                     med (G(i).peak), each, G(i).median, G(i).lo, G(i).hi, G(i).target, ...
                     G(i).met, R)];   %#ok
  end
end

% The median of the figures measured, '-' when none was.
function s = med (x)
  x = x(~isnan (x));
  s = '-';
  if (~isempty (x))
    s = sprintf ('%.2f', median (x));
  end
end
