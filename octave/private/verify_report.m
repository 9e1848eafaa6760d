% VERIFY_REPORT  The Markdown report of a verification, with heat maps.
%
%   text = verify_report (op, rows, notes, problem, folder)
%
%   rows: the struct array of verify_compare; notes: cell of lines.  When
%   folder is not empty, writes folder/verify_report.md and, for every
%   failing tensor with a step axis, folder/verify_NAME.png: log10 of the
%   relative error over (step, head).  Returns the Markdown text.

function text = verify_report (op, rows, notes, problem, folder)
  ok = all ([rows.pass]);
  verdict = {'FAIL', 'PASS'};
  lines = {sprintf('# %s_verify: %s', op, verdict{ok + 1}), '', ...
           sprintf('Kernel dtype `%s`, chunk_size %d. Reference: this library in double. ', ...
                   problem.dtype, problem.chunk_size), ...
           'ratio = rms(ref - x) / rms(ref); indices are 0-based, as in FLA.', '', ...
           ['| tensor | shape | ratio | max abs err | cosine | expected | measured / expected ' ...
            '| tolerance | result |'], '| --- | --- | --- | --- | --- | --- | --- | --- | --- |'};
  for i = 1:numel (rows)
    r = rows(i);
    lines{end + 1} = sprintf ('| `%s` | [%s] | %.3g | %.3g | %.8f | %.3g | %.2f | %.3g | %s |', ...
                              r.name, strjoin (arrayfun (@num2str, r.shape, 'UniformOutput', ...
                              false), ', '), r.ratio, r.max_abs, r.cosine, r.expected, ...
                              r.ratio / r.expected, r.tol, verdict{r.pass + 1});
  end
  lines{end + 1} = '';
  for i = find (~[rows.pass])
    lines{end + 1} = sprintf ('- `%s` fails: %s', rows(i).name, rows(i).where);
    if (~isempty (folder) && ~isempty (rows(i).err_map))
      png = sprintf ('verify_%s.png', rows(i).name);
      heat_map (rows(i), fullfile (folder, png));
      lines{end + 1} = sprintf ('\n  ![error of %s over (step, head)](%s)\n', rows(i).name, png);
    end
  end
  notes = [notes(:)', {tolerance_note(rows)}];
  lines = [lines, {'', '## Notes', ''}, strcat({'- '}, notes)];
  text = sprintf ('%s\n', lines{:});
  if (~isempty (folder))
    fid = fopen (fullfile (folder, 'verify_report.md'), 'w');
    fprintf (fid, '%s', text);
    fclose (fid);
  end
end

function s = tolerance_note (rows)
  % how the tolerances were set (verify_tolerance): the rules used
  rules = unique ({rows.rule});
  s = ['Tolerances (verify_tolerance): ' strjoin(rules, '; ') '. "expected" is the error ' ...
       'of this library''s emulation of a kernel of that dtype (''Emulate'', ' ...
       'docs/emulation.md) on the same inputs; NaN where none applies.'];
end

function heat_map (row, file)
  if (exist ('OCTAVE_VERSION', 'builtin'))
    warning ('off', 'Octave:gnuplot-graphics');   % headless: gnuplot is what there is
  end
  fig = figure ('visible', 'off');
  cleanup = onCleanup (@() close (fig));
  imagesc (0:size (row.err_map, 1) - 1, 0:size (row.err_map, 2) - 1, ...
           log10 (row.err_map' + eps));
  set (gca, 'ydir', 'normal', 'ytick', 0:size (row.err_map, 2) - 1);
  colorbar ();
  xlabel ('step t (0-based)');
  ylabel ('head');
  title (sprintf ('%s: log10 of |error| rms / rms(ref), tolerance %.3g', row.name, row.tol));
  print (fig, '-dpng', '-r80', file);
end
