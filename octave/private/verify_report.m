% VERIFY_REPORT  The Markdown report of a verification, with heat maps.
%
%   [text, file] = verify_report (op, verdict, rows, unchecked, notes, problem, folder)
%
%   rows: the struct array of verify_compare; unchecked: verify_compute's;
%   notes: cell of lines.  When folder is not empty, writes
%   folder/verify_report.md and, for every tensor with a step axis that
%   does not pass, folder/verify_NAME.png: log10 of the relative error over
%   (step, head).  Each file is written fresh and moved into place (a
%   symbolic link of that name is replaced, never written through).
%   Returns the Markdown text and the report's file name ('' for none).

function [text, file] = verify_report (op, verdict, rows, unchecked, notes, problem, folder)
  lines = {sprintf('# %s_verify: %s', op, upper (verdict)), '', ...
           sprintf('Kernel dtype `%s`, chunk_size %d. Reference: this library in double. ', ...
                   problem.dtype, problem.chunk_size), ...
           'ratio = rms(ref - x) / rms(ref); indices are 0-based, as in FLA.', '', ...
           ['| tensor | shape | ratio | max abs err | cosine | expected | measured / expected ' ...
            '| warn above | fail above | result |'], ...
           '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |'};
  for i = 1:numel (rows)
    r = rows(i);
    lines{end + 1} = sprintf ('| `%s` | [%s] | %.3g | %.3g | %.8f | %s | %s | %.3g | %.3g | %s |', ...
                              r.name, strjoin (arrayfun (@num2str, r.shape, 'UniformOutput', ...
                              false), ', '), r.ratio, r.max_abs, r.cosine, number (r.expected), ...
                              number (r.ratio / r.expected), r.warn_tol, r.tol, upper (r.status));
  end
  lines{end + 1} = '';
  for i = find (~strcmp ({rows.status}, 'pass'))
    if (strcmp (rows(i).status, 'fail'))
      lines{end + 1} = sprintf ('- `%s` fails: %s', rows(i).name, rows(i).where);
    else
      lines{end + 1} = sprintf ('- `%s` warns: %s', rows(i).name, warning_of (rows(i), problem));
    end
    if (~isempty (folder) && ~isempty (rows(i).err_map))
      png = sprintf ('verify_%s.png', rows(i).name);
      heat_map (op, rows(i), folder, png);
      lines{end + 1} = sprintf ('\n  ![error of %s over (step, head)](%s)\n', rows(i).name, png);
    end
  end
  if (~isempty (unchecked))
    lines = [lines, {'', '## Not checked', ''}];
    for u = unchecked(:)'
      lines{end + 1} = sprintf ('- `%s`: %s (counts as %s).', u.name, u.reason, upper (u.severity));
    end
  end
  notes = [notes(:)', {tolerance_note(rows)}];
  lines = [lines, {'', '## Notes', ''}, strcat({'- '}, notes)];
  text = sprintf ('%s\n', lines{:});
  file = '';
  if (~isempty (folder))
    file = fullfile (folder, 'verify_report.md');
    % whole or not at all (la_files_io.c): a failed write is an error, not a verdict
    err = la_mex ('file', 'write', file, unicode2native (text, 'UTF-8'));
    if (~isempty (err))
      error ('la:badFile', '%s_verify: cannot write the report %s: %s', op, file, err);
    end
  end
end

function s = warning_of (r, problem)
  % within tolerance, but above the warn bound or with too few bits
  if (r.ratio > r.warn_tol)
    s = sprintf (['within tolerance, but %s x the error of a correct %s kernel (%s): look ' ...
                  'for a precision loss, e.g. a running state kept in 16 bits; %s'], ...
                 number (r.ratio / r.expected), problem.dtype, number (r.expected), r.where);
  else
    s = r.where;
  end
end

function s = number (x)
  if (isfinite (x) && x ~= 0)
    s = sprintf ('%.3g', x);
  else
    s = '-';
  end
end

function s = tolerance_note (rows)
  % how the bounds were set (verify_tolerance): the rules used
  rules = unique ({rows.rule});
  s = ['Bounds (verify_tolerance): ' strjoin(rules, '; ') '. "expected" is the error ' ...
       'of this library''s emulation of a kernel of that dtype (''Emulate'', ' ...
       'docs/emulation.md) on the same inputs; - where none applies.'];
end

function tmp = fresh_name (folder, ext)
  % a new file name in folder (written, then renamed over the final name)
  [~, base] = fileparts (tempname ());
  tmp = fullfile (folder, ['.verify_' base ext]);
end

function move_into_place (op, tmp, file)
  [status, msg] = rename (tmp, file);     % rename(2): replaces a link, never follows it
  if (status ~= 0)
    unlink (tmp);
    error ('la:badFile', '%s_verify: cannot write %s (%s)', op, file, msg);
  end
end

function heat_map (op, row, folder, png)
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
  title (sprintf ('%s: log10 of |error| rms / rms(ref), fail above %.3g', row.name, row.tol));
  tmp = fresh_name (folder, '.png');
  print (fig, '-dpng', '-r80', tmp);
  move_into_place (op, tmp, fullfile (folder, png));
end
