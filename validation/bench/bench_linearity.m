function lin = bench_linearity (rows)
  % BENCH_LINEARITY  Growth in T of the timed rows, each pair keyed exactly.
  %
  %   lin = bench_linearity (rows)
  %
  %   For every row with T = 8192, the row with T = 2048 that equals it in
  %   every other key (fn, cls, mode, B, H, K, V, C) -- exactly one, else
  %   the pair is reported as ambiguous or missing, never guessed.  lin is a
  %   struct array: label, ratio (time(8192) / time(2048); linear: 4), note.
  %
  %   See also: run_bench, bench_rows.
  lin = struct ('label', {}, 'ratio', {}, 'note', {});
  for b = find ([rows.T] == 8192)
    r = rows(b);
    a = find ([rows.T] == 2048 & strcmp ({rows.fn}, r.fn) & strcmp ({rows.cls}, r.cls) & ...
              strcmp ({rows.mode}, r.mode) & [rows.B] == r.B & [rows.H] == r.H & ...
              [rows.K] == r.K & [rows.V] == r.V & [rows.C] == r.C);
    label = sprintf ('%s %s %s H=%d K=%d V=%d C=%d', r.fn, r.cls, r.mode, r.H, r.K, r.V, r.C);
    if (numel (a) == 1)
      lin(end+1) = struct ('label', label, 'ratio', r.sec / rows(a).sec, 'note', '');
    elseif (isempty (a))
      lin(end+1) = struct ('label', label, 'ratio', NaN, 'note', 'no T = 2048 row');
    else
      lin(end+1) = struct ('label', label, 'ratio', NaN, 'note', 'ambiguous T = 2048 rows');
    end
  end
end

%!shared here
%! % run_tests runs from validation/ (make test-octave), where run_bench lives
%! here = fileparts (which ('run_bench'));
%! addpath (fullfile (here, 'bench'));
%!test
%! % the C = 32 row must not be taken for the C = 64 one
%! mk = @(T, C, sec) struct ('fn', 'kda_chunk', 'cls', 'single', 'mode', 'fwd', 'B', 1, ...
%!                          'H', 4, 'K', 128, 'V', 128, 'T', T, 'C', C, 'sec', sec);
%! rows = [mk(2048, 32, 1), mk(2048, 64, 2), mk(8192, 64, 8)];
%! lin = bench_linearity (rows);
%! assert (numel (lin), 1);
%! assert (lin.ratio, 4);
%!test
%! mk = @(T, C, sec) struct ('fn', 'kda_chunk', 'cls', 'single', 'mode', 'fwd', 'B', 1, ...
%!                          'H', 4, 'K', 128, 'V', 128, 'T', T, 'C', C, 'sec', sec);
%! lin = bench_linearity ([mk(2048, 32, 1), mk(8192, 64, 8)]);
%! assert (isnan (lin.ratio));
%! assert (lin.note, 'no T = 2048 row');
%! lin = bench_linearity ([mk(2048, 64, 1), mk(2048, 64, 2), mk(8192, 64, 8)]);
%! assert (lin.note, 'ambiguous T = 2048 rows');
