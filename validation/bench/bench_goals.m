function [md, g] = bench_goals (core_default, core_avx2, dec, core_blas)
  % BENCH_GOALS  The performance goals against the figures of one bench run.
  %
  %   [md, g] = bench_goals (core_default, core_avx2, dec)
  %   [md, g] = bench_goals (core_default, core_avx2, dec, core_blas)
  %
  %   core_default, core_avx2: the text printed by the C driver bench_core
  %   with the machine's BLAS kernels and with OPENBLAS_CORETYPE=Haswell
  %   (AVX2), '' when not run; dec: bench_decode's struct array.  Each goal
  %   is a ratio to the gemm of the same reps (the "vs gemm" column of the
  %   core's rows) or the decode overhead in microseconds:
  %     single forward, H = 4, K = V = 128        >= 0.85
  %     single forward, H = 4, K = V = 64         >= 0.7
  %     single forward, H = 1, K = V = 128        >= 0.7
  %     single forward + backward, H = 4, K = V = 128  >= 0.75
  %     double forward vs dgemm                   >= 0.75 (the single goal - 0.1)
  %     double forward + backward vs dgemm        >= 0.65 (the same)
  %     with the machine's own kernels (AVX-512 on an AVX-512 machine): the
  %     same, less 0.1, and the single forward at H = 4, K = V = 128 at
  %     least 0.55 of the FMA peak measured in the same run (the "libxsmm
  %     of peak" column of bench_core's engine table)
  %   (The double targets are the single goals less 0.1, not the single
  %   ratios measured less 0.1: a slow single row must not make a slow
  %   double row pass.)
  %     decode overhead (ours, bench_decode)      <= 15 us
  %     the same for each call of bench_decode_pool (dec(1).pool, when
  %     there): plain, tokens, assign, pool at H = 4 and 32
  %   core_blas (optional): the table of bench_core_blas (AVX2 kernels), whose
  %   "GEMMs alone" column (the ratio a row would reach if everything but its
  %   GEMMs took no time) is shown beside the AVX2 goals as the ceiling.
  %   md: a Markdown table (goal, target, measured, met, ceiling) for each
  %   kernel column; g: struct array of the same (NaN where a figure is
  %   missing).
  %
  %   See also: run_bench, bench_decode.
  if (nargin < 4)
    core_blas = '';
  end
  a2 = table_rows (core_avx2, 'vs gemm');
  a5 = table_rows (core_default, 'vs gemm');
  cb = table_rows (core_blas, 'GEMMs alone');
  spec = {
    % goal                                         class     mode       H  K    target
    'forward, H = 4, K = V = 128',                 'single', 'fwd',     4, 128, 0.85
    'forward, H = 4, K = V = 64',                  'single', 'fwd',     4, 64,  0.70
    'forward, H = 1, K = V = 128',                 'single', 'fwd',     1, 128, 0.70
    'forward + backward, H = 4, K = V = 128',      'single', 'fwd+bwd', 4, 128, 0.75
    'double forward (vs dgemm)',                   'double', 'fwd',     4, 128, 0.75
    'double forward + backward (vs dgemm)',        'double', 'fwd+bwd', 4, 128, 0.65
  };
  g = struct ('goal', {}, 'kernels', {}, 'target', {}, 'value', {}, 'met', {}, 'ceiling', {});
  cols = {'AVX2 (OPENBLAS_CORETYPE=Haswell)', a2, 0; 'machine default kernels', a5, 0.1};
  for c = 1:rows (cols)
    tab = cols{c, 2};
    for i = 1:rows (spec)
      v = find_ratio (tab, spec{i, 2}, spec{i, 3}, spec{i, 4}, spec{i, 5});
      target = spec{i, 6} - cols{c, 3};
      ceil_ = NaN;
      if (c == 1)   % bench_core_blas runs with the AVX2 kernels
        ceil_ = find_ratio (cb, spec{i, 2}, spec{i, 3}, spec{i, 4}, spec{i, 5});
      end
      g(end + 1) = struct ('goal', spec{i, 1}, 'kernels', cols{c, 1}, 'target', target, ...
                           'value', v, 'met', v >= target, 'ceiling', ceil_);   %#ok
    end
  end
  v = find_ratio (table_rows (core_default, 'libxsmm of peak'), 'single', 'fwd', 4, 128);
  g(end + 1) = struct ('goal', 'forward, H = 4, K = V = 128, of the FMA peak', ...
                       'kernels', cols{2, 1}, 'target', 0.55, 'value', v, ...
                       'met', v >= 0.55, 'ceiling', NaN);
  for i = 1:numel (dec)
    g(end + 1) = struct ('goal', sprintf ('decode overhead, %s (us per call)', dec(i).fn), ...
                         'kernels', '-', 'target', 15, 'value', dec(i).ours, ...
                         'met', dec(i).ours <= 15, 'ceiling', NaN);   %#ok
  end
  if (numel (dec) > 0 && isfield (dec, 'pool'))
    calls = {'plain', 'tokens', 'assign', 'pool'};
    for i = 1:numel (dec(1).pool)
      x = dec(1).pool(i);
      for j = 1:numel (calls)
        v = x.(calls{j}).ours(1);
        g(end + 1) = struct ('goal', sprintf ('decode overhead with a pool, H = %d, %s (us)', ...
                                              x.H, calls{j}), ...
                             'kernels', '-', 'target', 15, 'value', v, 'met', v <= 15, ...
                             'ceiling', NaN);   %#ok
      end
    end
  end
  md = sprintf (['\n## Goals\n\nRatios to the gemm of the same reps (core rows below; with the ' ...
                 'machine''s own kernels the targets are 0.1 lower), decode overhead in us ' ...
                 '(decode table). "GEMMs alone": the ratio the row would reach if everything ' ...
                 'but its GEMMs took no time (bench_core_blas, AVX2 kernels).\n\n' ...
                 '| goal | kernels | target | measured | met | GEMMs alone |\n' ...
                 '|---|---|---:|---:|---|---:|\n']);
  for i = 1:numel (g)
    met = 'no';
    if (isnan (g(i).value))
      met = 'not measured';
    elseif (g(i).met)
      met = 'yes';
    end
    op = '>=';
    if (strncmp (g(i).goal, 'decode', 6))
      op = '<=';
    end
    ceil_ = '-';
    if (~isnan (g(i).ceiling))
      ceil_ = sprintf ('%.2f', g(i).ceiling);
    end
    md = [md sprintf('| %s | %s | %s %.2f | %.2f | %s | %s |\n', g(i).goal, g(i).kernels, op, ...
                     g(i).target, g(i).value, met, ceil_)];   %#ok
  end
end

% The chunked KDA rows (not the hot ones) of the tables in text whose
% header has the column ratio_col ('vs gemm' in bench_core's, 'GEMMs alone'
% in bench_core_blas's): class, mode, H, K, T (2048 where the table has no
% T), C and that column as ratio.  The header says where each column is.
function t = table_rows (text, ratio_col)
  t = struct ('cls', {}, 'mode', {}, 'H', {}, 'K', {}, 'T', {}, 'C', {}, 'ratio', {});
  c = [];
  lines = strsplit (text, char (10));
  for i = 1:numel (lines)
    f = strtrim (strsplit (lines{i}, '|'));
    if (numel (f) > 2 && strcmp (f{2}, 'row'))   % a header
      at = @(name) find (strcmp (f, name), 1);
      c = struct ('cls', at ('class'), 'mode', at ('mode'), 'T', at ('T'), 'H', at ('H'), ...
                  'K', at ('K=V'), 'C', at ('C'), 'ratio', at (ratio_col));
      continue;
    end
    if (isempty (c) || isempty (c.ratio) || numel (f) <= c.ratio || ~strcmp (f{2}, 'kda chunk'))
      continue;   % other tables, other paths, the hot rows
    end
    T = 2048;
    if (~isempty (c.T))
      T = str2double (f{c.T});
    end
    t(end + 1) = struct ('cls', f{c.cls}, 'mode', f{c.mode}, 'H', str2double (f{c.H}), ...
                         'K', str2double (f{c.K}), 'T', T, 'C', str2double (f{c.C}), ...
                         'ratio', str2double (f{c.ratio}));   %#ok
  end
end

% The ratio of the row at T = 2048, ChunkSize 64 (NaN if absent).
function v = find_ratio (t, cls, mode, H, K)
  v = NaN;
  for i = 1:numel (t)
    if (strcmp (t(i).cls, cls) && strcmp (t(i).mode, mode) && t(i).H == H && t(i).K == K ...
        && t(i).T == 2048 && t(i).C == 64)
      v = t(i).ratio;
      return;
    end
  end
end
