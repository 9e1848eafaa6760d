% VERIFY_REPORT  The Markdown report of a verification, with heat maps.
%
%   [text, file, json, json_file] = verify_report (op, verdict, rows, unchecked, notes, problem, folder)
%   [...] = verify_report (..., slips)
%
%   rows: the struct array of verify_compare; unchecked: verify_compute's;
%   notes: cell of lines; slips: a struct array of the convention slips
%   that would make a failing dump match (fields name and message; any
%   others are written too), default none.  When folder is not empty,
%   writes folder/verify_report.md, folder/verify_report.json and, for
%   every tensor with a step axis that does not pass, folder/verify_NAME.png:
%   log10 of the relative error over (step, head).  Each file is written
%   fresh and moved into place (a symbolic link of that name is replaced,
%   never written through).  Returns the Markdown text, the report's file
%   name ('' for none), the JSON text and its file name.
%
%   The JSON (schema "kdagdn.verify_report", schema_version 1, docs/verify.md
%   section 2): op, verdict, ok, dtype, chunk_size, library {name,
%   version}, fla {commit}, rows (name, shape, ratio, max_abs, cosine,
%   expected, measured_over_expected, warn_tol, tol, local, status, where,
%   rule), locations (tensor, status, where of every row that does not
%   pass), unchecked (name, reason, severity), notes, slips.  A number the
%   report has none for (NaN) is null.

function [text, file, json, json_file] = verify_report (op, verdict, rows, unchecked, notes, problem, folder, slips)
  if (nargin < 8)
    slips = struct ('name', {}, 'text', {}, 'ratio_after', {}, 'matched', {});
  end
  lines = {sprintf('# %s_verify: %s', op, upper (verdict)), '', ...
           sprintf('Kernel dtype `%s`, chunk_size %d. Reference: this library in double. ', ...
                   problem.dtype, problem.chunk_size), ...
           'ratio = rms(ref - x) / rms(ref); indices are 0-based, as in FLA.', '', ...
           [fla_line() '.'], '', ...
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
      key = heat_map (op, rows(i), folder, png);
      lines{end + 1} = sprintf ('\n  ![error of %s over (step, head)](%s)\n\n  %s\n', ...
                                rows(i).name, png, key);
    end
  end
  if (~isempty (unchecked))
    lines = [lines, {'', '## Not checked', ''}];
    for u = unchecked(:)'
      lines{end + 1} = sprintf ('- `%s`: %s (counts as %s).', u.name, u.reason, upper (u.severity));
    end
  end
  matched = slips([slips.matched]);   % verify_slips lists every slip it tried
  if (~isempty (matched))
    lines = [lines, {'', '## Slips', '', ['The dump matches when read with this slip ' ...
                     'undone, so the kernel (or the dump) likely makes it:'], ''}];
    for sl = matched(:)'
      lines{end + 1} = sprintf ('- `%s`: %s', sl.name, sl.text);
    end
  end
  notes = [notes(:)', {tolerance_note(rows)}];
  json = json_report (op, verdict, rows, unchecked, notes, problem, slips);
  json_file = '';
  if (~isempty (folder))
    json_file = fullfile (folder, 'verify_report.json');
    write_whole (op, json_file, json);
  end
  lines = [lines, {'', '## Notes', ''}, strcat({'- '}, notes)];
  text = sprintf ('%s\n', lines{:});
  file = '';
  if (~isempty (folder))
    file = fullfile (folder, 'verify_report.md');
    write_whole (op, file, text);
  end
end

function write_whole (op, file, text)
  % whole or not at all (la_files_io.c): a failed write is an error, not a verdict
  err = la_mex ('file', 'write', file, unicode2native (text, 'UTF-8'));
  if (~isempty (err))
    error ('la:badFile', '%s_verify: cannot write the report %s: %s', op, file, err);
  end
end

function json = json_report (op, verdict, rows, unchecked, notes, problem, slips)
  % the machine-readable report: every row, where each goes wrong, slips
  R = struct ('name', {}, 'shape', {}, 'ratio', {}, 'max_abs', {}, 'cosine', {}, ...
              'expected', {}, 'measured_over_expected', {}, 'warn_tol', {}, 'tol', {}, ...
              'local', {}, 'status', {}, 'where', {}, 'rule', {});
  L = struct ('tensor', {}, 'status', {}, 'where', {});
  for r = rows(:)'
    R(end + 1) = struct ('name', r.name, 'shape', r.shape, 'ratio', r.ratio, ...
                         'max_abs', r.max_abs, 'cosine', r.cosine, 'expected', r.expected, ...
                         'measured_over_expected', r.ratio / r.expected, 'warn_tol', r.warn_tol, ...
                         'tol', r.tol, 'local', field_or (r, 'local', NaN), 'status', r.status, ...
                         'where', r.where, 'rule', r.rule);  %#ok<AGROW>
    if (~strcmp (r.status, 'pass'))
      L(end + 1) = struct ('tensor', r.name, 'status', r.status, 'where', r.where);  %#ok<AGROW>
    end
  end
  s = struct ('schema', 'kdagdn.verify_report', 'schema_version', 1, 'op', op, ...
              'verdict', verdict, 'ok', ~strcmp (verdict, 'fail'), 'dtype', problem.dtype, ...
              'chunk_size', problem.chunk_size, ...
              'library', struct ('name', 'kdagdn', 'version', kdagdn_version ()), ...
              'fla', struct ('commit', verify_fla_commit ()));
  s.rows = num2cell (R);                 % lists, also of one element
  s.locations = num2cell (L);
  s.unchecked = num2cell (unchecked);
  s.notes = notes;
  s.slips = num2cell (slips);
  json = [verify_json(s) sprintf('\n')];
end

function v = field_or (s, name, default)
  v = default;
  if (isfield (s, name))
    v = s.(name);
  end
end

function s = fla_line ()
  [~, s] = verify_fla_commit ();
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

function key = heat_map (op, row, folder, png)
  % the error over (step, head) as a picture written directly (no plot
  % window: a gnuplot figure took longer than the whole check); at most
  % 1024 columns, each the worst of its steps, so a single wrong step shows
  [T, H] = size (row.err_map);
  w = ceil (T / 1024);
  m = row.err_map;
  if (w > 1)
    m(end + 1:w * ceil (T / w), :) = 0;
    m = reshape (max (reshape (m, w, [])), [], H);
  end
  hi = log10 (row.tol) + 1;                    % 10 x the bound: yellow
  lo = hi - 5;                                 % 1e-4 x the bound: dark
  level = (log10 (m' + realmin) - lo) / (hi - lo);   % H x columns
  level = round (255 * min (max (level, 0), 1)) + 1;
  level(isnan (m')) = 256;
  band = max (2, min (32, floor (256 / H)));   % pixels per head
  widen = max (1, floor (512 / size (m, 1)));  % pixels per column
  idx = kron (level, ones (band, widen));
  map = viridis (256);
  img = uint8 (255 * reshape (map(idx, :), [size(idx), 3]));
  per = '';
  if (~exist ('__magick_write__'))
    key = 'No heat map: this Octave was built without an image writer (GraphicsMagick).';
    return;
  end
  tmp = fresh_name (folder, '.png');
  imwrite (img, tmp);
  move_into_place (op, tmp, fullfile (folder, png));
  if (w > 1)
    per = sprintf (', each the worst of %d steps', w);
  end
  key = sprintf (['Heat map: heads 0 to %d top to bottom, steps 0 to %d left to right%s; ' ...
                     'colour log10 of the error rms over channels / rms(ref), viridis from ' ...
                     '%.2g (dark) to %.2g (yellow; the fail bound %.3g is at 80%%).'], ...
                    H - 1, T - 1, per, 10 ^ lo, 10 ^ hi, row.tol);
end

%!test
%! % slips reach the Markdown and the JSON; the JSON has its schema and rows
%! row = struct ('name', 'o', 'shape', [1 4 2 3], 'ratio', 0.5, 'max_abs', 1, 'cosine', 0.9, ...
%!               'expected', NaN, 'warn_tol', 0.01, 'tol', 0.01, 'status', 'fail', 'pass', false, ...
%!               'where', 'first divergence: sequence 0', 'err_map', [], 'rule', 'r', 'local', 0);
%! slips = struct ('name', {'scale_default', 'scale_one'}, ...
%!                 'text', {'matches if scale = 1/sqrt(K)', 'matches if scale = 1'}, ...
%!                 'ratio_after', {1e-7, 0.4}, 'matched', {true, false});
%! problem = struct ('dtype', 'float32', 'chunk_size', 64);
%! [text, file, json, json_file] = verify_report ('kda', 'fail', row, ...
%!     struct ('name', {}, 'reason', {}, 'severity', {}), {'a note'}, problem, '', slips);
%! assert (isempty (file) && isempty (json_file));
%! assert (~isempty (strfind (text, '## Slips')) && ~isempty (strfind (text, '1/sqrt(K)')));
%! assert (isempty (strfind (text, 'matches if scale = 1\n')), 'an unmatched slip listed');
%! for piece = {'"schema": "kdagdn.verify_report"', '"schema_version": 1', '"verdict": "fail"', ...
%!              '"slips": [{"name": "scale_default"', '"expected": null', '"locations": [{"tensor": "o"', ...
%!              '"unchecked": []', '"notes": ["a note"', '"commit": "bc3b101'}
%!   assert (~isempty (strfind (json, piece{1})), piece{1});
%! end
%! [text, ~, json] = verify_report ('kda', 'fail', row, struct ('name', {}, 'reason', {}, ...
%!                                  'severity', {}), {}, problem, '');
%! assert (isempty (strfind (text, '## Slips')) && ~isempty (strfind (json, '"slips": []')));
