% VERIFY_JSON  JSON text of a value (for verify_report.json).
%
%   text = verify_json (x)
%
%   x: a struct (an object; a struct array: a list of objects), a cell (a
%   list), a char row (a string), a logical or numeric scalar (true, false,
%   a number; NaN and Inf as null, which JSON has no number for), a numeric
%   vector (a list of numbers) or [] (null; an empty cell or struct array:
%   []).  Numbers keep 17 significant digits, so they read back exactly.

function text = verify_json (x)
  if (ischar (x))
    text = ['"' escape(x) '"'];
  elseif (isstruct (x) && numel (x) ~= 1)
    text = ['[' strjoin(arrayfun (@verify_json, x(:)', 'UniformOutput', false), ', ') ']'];
  elseif (isstruct (x))
    keys = fieldnames (x);
    parts = cellfun (@(k) sprintf ('"%s": %s', escape (k), verify_json (x.(k))), keys', ...
                     'UniformOutput', false);
    text = ['{' strjoin(parts, ', ') '}'];
  elseif (iscell (x))
    text = ['[' strjoin(cellfun (@verify_json, x(:)', 'UniformOutput', false), ', ') ']'];
  elseif (isempty (x))
    text = 'null';
  elseif (islogical (x) && isscalar (x))
    names = {'false', 'true'};
    text = names{x + 1};
  elseif (isnumeric (x) && isscalar (x))
    text = number (double (x));
  elseif (isnumeric (x) || islogical (x))
    text = ['[' strjoin(arrayfun (@(v) number (double (v)), x(:)', 'UniformOutput', false), ', ') ']'];
  else
    error ('la:badFile', 'verify_json: cannot write a %s', class (x));
  end
end

function s = number (v)
  if (~isfinite (v))
    s = 'null';
  elseif (v == round (v) && abs (v) < 2 ^ 53)
    s = sprintf ('%d', v);
  else
    s = sprintf ('%.17g', v);
  end
end

function s = escape (s)
  % backslash, quote and control characters, as JSON needs them
  s = strrep (s, '\', '\\');
  s = strrep (s, '"', '\"');
  s = strrep (s, sprintf ('\n'), '\n');
  s = strrep (s, sprintf ('\t'), '\t');
  s = strrep (s, sprintf ('\r'), '\r');
  bad = s < 32;
  if (any (bad))
    parts = arrayfun (@(c) sprintf ('\\u%04x', c), double (s(bad)), 'UniformOutput', false);
    out = num2cell (s);
    out(bad) = parts;
    s = [out{:}];
  end
end

%!assert (verify_json (struct ('a', 1, 'b', 'x"y', 'c', true, 'd', NaN, 'e', [1 2.5])), ...
%!        '{"a": 1, "b": "x\"y", "c": true, "d": null, "e": [1, 2.5]}')
%!assert (verify_json (struct ('a', {})), '[]')
%!assert (verify_json ({}), '[]')
%!assert (verify_json (struct ('n', {1, 2})), '[{"n": 1}, {"n": 2}]')
%!assert (verify_json (sprintf ('a\nb\\')), '"a\nb\\"')
%!assert (str2double (verify_json (pi)), pi)   % 17 digits: exact
%!assert (verify_json ([]), 'null')
