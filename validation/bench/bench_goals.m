function [md, g] = bench_goals (core_default, core_avx2, dec, core_blas)
  % BENCH_GOALS  The performance goals against the figures of one bench run.
  %
  %   [md, g] = bench_goals (core_default, core_avx2, dec)
  %   [md, g] = bench_goals (core_default, core_avx2, dec, core_blas)
  %
  %   core_default, core_avx2: the text printed by the C driver bench_core
  %   with the machine's BLAS kernels and with OPENBLAS_CORETYPE=Haswell
  %   (AVX2), '' when not run; dec: bench_decode's struct array; core_blas:
  %   the text of bench_core_blas (the core with each gemm call timed) with
  %   the same kernels, {default, AVX2} (a char: the AVX2 one only; '' or
  %   absent: none).
  %
  %   The chunk goals hold per machine: each row's ratio to the gemm of the
  %   same reps ("vs gemm" of bench_core's rows) is put against its
  %   ceiling measured in the same run, the ratio its GEMMs alone reach as
  %   the core calls them ("GEMMs alone" of bench_core_blas: as if
  %   everything outside them took no time), and the goal is the row's
  %   share of that ceiling, at least 0.85, in both kernel columns:
  %     single forward, H = 4, K = V = 128
  %     single forward, H = 4, K = V = 64
  %     single forward, H = 1, K = V = 128
  %     single forward + backward, H = 4, K = V = 128
  %     double forward, double forward + backward (vs dgemm)
  %   Beside it, the other ceiling: the row's GFLOP/s over the FMA peak
  %   measured in the same run (the "libxsmm of peak" column of
  %   bench_core's engine table; 512-bit peak with the machine's kernels on
  %   an AVX-512 CPU, 256-bit with the AVX2 ones).
  %     decode overhead (ours, bench_decode: the call inside the MEX less
  %     bench_core's T = 1 call, which reads and writes its state) <= 15 us
  %     the same for each call of bench_decode_pool (dec(1).pool, when
  %     there): plain, tokens, assign, pool at H = 4 and 32
  %   md: a Markdown table; g: struct array (goal, kernels, target, value:
  %   the share of the ceiling or the decode microseconds, met, ratio: vs
  %   gemm, ceiling: GEMMs alone, peak: of the FMA peak; NaN where a figure
  %   is missing).
  %
  %   See also: run_bench, run_bench_goals, bench_decode.
  if (nargin < 4 || isempty (core_blas))
    core_blas = {'', ''};
  elseif (ischar (core_blas))
    core_blas = {'', core_blas};
  end
  spec = {
    % goal                                         class     mode       H  K
    'forward, H = 4, K = V = 128',                 'single', 'fwd',     4, 128
    'forward, H = 4, K = V = 64',                  'single', 'fwd',     4, 64
    'forward, H = 1, K = V = 128',                 'single', 'fwd',     1, 128
    'forward + backward, H = 4, K = V = 128',      'single', 'fwd+bwd', 4, 128
    'double forward (vs dgemm)',                   'double', 'fwd',     4, 128
    'double forward + backward (vs dgemm)',        'double', 'fwd+bwd', 4, 128
  };
  target = 0.85;
  g = struct ('goal', {}, 'kernels', {}, 'target', {}, 'value', {}, 'met', {}, 'ratio', {}, ...
              'ceiling', {}, 'peak', {});
  cols = {'AVX2 (OPENBLAS_CORETYPE=Haswell)', core_avx2, core_blas{2};
          'machine default kernels', core_default, core_blas{1}};
  for c = 1:rows (cols)
    tab = table_rows (cols{c, 2}, 'vs gemm');
    cb = table_rows (cols{c, 3}, 'GEMMs alone');
    pk = table_rows (cols{c, 2}, 'libxsmm of peak');
    for i = 1:rows (spec)
      key = spec(i, 2:5);
      v = find_ratio (tab, key{:});
      ceil_ = find_ratio (cb, key{:});
      share = v / ceil_;
      g(end + 1) = struct ('goal', spec{i, 1}, 'kernels', cols{c, 1}, 'target', target, ...
                           'value', share, 'met', share >= target, 'ratio', v, ...
                           'ceiling', ceil_, 'peak', find_ratio (pk, key{:}));   %#ok
    end
  end
  for i = 1:numel (dec)
    g(end + 1) = decode_goal (sprintf ('decode overhead, %s (us per call)', dec(i).fn), ...
                              dec(i).ours);   %#ok
  end
  if (numel (dec) > 0 && isfield (dec, 'pool'))
    calls = {'plain', 'tokens', 'assign', 'pool'};
    for i = 1:numel (dec(1).pool)
      x = dec(1).pool(i);
      for j = 1:numel (calls)
        g(end + 1) = decode_goal (sprintf ('decode overhead with a pool, H = %d, %s (us)', ...
                                           x.H, calls{j}), x.(calls{j}).ours(1));   %#ok
      end
    end
  end
  md = sprintf (['\n## Goals\n\nEach chunk row''s ratio to the gemm of the same reps (core ' ...
                 'rows below), its ceiling in the same run (GEMMs alone: the ratio the row ' ...
                 'would reach if everything but its GEMMs took no time, bench_core_blas with ' ...
                 'the same kernels) and its share of that ceiling, the goal; beside it the ' ...
                 'row''s fraction of the FMA peak measured in the same run.  Decode: overhead ' ...
                 'in us (decode table).\n\n' ...
                 '| goal | kernels | vs gemm | GEMMs alone | of FMA peak | share of ceiling ' ...
                 '| target | met |\n|---|---|---:|---:|---:|---:|---:|---|\n']);
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
    md = [md sprintf('| %s | %s | %s | %s | %s | %s | %s %.2f | %s |\n', g(i).goal, ...
                     g(i).kernels, num (g(i).ratio), num (g(i).ceiling), num (g(i).peak), ...
                     num (g(i).value), op, g(i).target, met)];   %#ok
  end
end

function x = decode_goal (goal, us)
  x = struct ('goal', goal, 'kernels', '-', 'target', 15, 'value', us, 'met', us <= 15, ...
              'ratio', NaN, 'ceiling', NaN, 'peak', NaN);
end

function s = num (x)
  s = '-';
  if (~isnan (x))
    s = sprintf ('%.2f', x);
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
