function spec = bench_rows (quick)
  % BENCH_ROWS  The rows of run_bench, as a struct array.
  %
  %   spec = bench_rows (quick)
  %
  %   Fields: label, fn (function name), cls ('single' / 'double'), B, T, H,
  %   K, V, mode ('fwd': forward; 'fwdbwd': forward then backward), C (chunk
  %   size).  The peer's size is B = 1, T = 2048, H = 4, K = V = 128; the
  %   T = 8192 rows pair exactly with a T = 2048 row (linearity check,
  %   bench_linearity).  quick: a few rows only (a smoke run).
  %
  %   See also: run_bench, bench_linearity.
  rows = {
    % label                fn              cls       T     H  KV   mode      C
    'kda recurrent',       'kda_recurrent', 'single', 2048, 4, 128, 'fwd',    64
    'kda recurrent',       'kda_recurrent', 'single', 2048, 4, 128, 'fwdbwd', 64
    'gdn recurrent',       'gdn_recurrent', 'single', 2048, 4, 128, 'fwd',    64
    'kda chunk',           'kda_chunk',     'single', 2048, 4, 128, 'fwd',    64
    'kda chunk',           'kda_chunk',     'single', 2048, 4, 128, 'fwdbwd', 64
    'kda chunk C=32',      'kda_chunk',     'single', 2048, 4, 128, 'fwd',    32
    'kda chunk C=32',      'kda_chunk',     'single', 2048, 4, 128, 'fwdbwd', 32
    'kda chunk',           'kda_chunk',     'double', 2048, 4, 128, 'fwd',    64
    'kda chunk',           'kda_chunk',     'double', 2048, 4, 128, 'fwdbwd', 64
    'kda chunk H=1',       'kda_chunk',     'single', 2048, 1, 128, 'fwd',    64
    'kda chunk H=3',       'kda_chunk',     'single', 2048, 3, 128, 'fwd',    64
    'kda chunk K=V=64',    'kda_chunk',     'single', 2048, 4, 64,  'fwd',    64
    'gdn chunk',           'gdn_chunk',     'single', 2048, 4, 128, 'fwd',    64
    'gdn chunk',           'gdn_chunk',     'single', 2048, 4, 128, 'fwdbwd', 64
    'kda chunk',           'kda_chunk',     'single', 8192, 4, 128, 'fwd',    64
    'kda chunk',           'kda_chunk',     'single', 8192, 4, 128, 'fwdbwd', 64
  };
  if (nargin > 0 && quick)
    rows = rows([1, 4, 15], :);
  end
  spec = struct ('label', rows(:, 1), 'fn', rows(:, 2), 'cls', rows(:, 3), 'B', 1, ...
                 'T', rows(:, 4), 'H', rows(:, 5), 'K', rows(:, 6), 'V', rows(:, 6), ...
                 'mode', rows(:, 7), 'C', rows(:, 8));
end
