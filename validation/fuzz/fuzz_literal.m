% FUZZ_LITERAL  Octave source text that rebuilds a value (for reproducers).
%
%   s = fuzz_literal (x)
%
%   Works for what the fuzzer passes: numeric (any class, complex, sparse,
%   any number of dimensions, empties with huge extents), logical, char
%   (written as codes, so a NUL survives), cell and struct (scalar, or empty)
%   arrays, function handles.  Doubles are written with 17 significant
%   digits, so eval (fuzz_literal (x)) equals x bit for bit (NaN included).
%
%   See also: fuzz_repro.

function s = fuzz_literal (x)
  sz = size (x);
  dims = ['[' sprintf('%d ', sz) ']'];
  if (iscell (x))
    parts = cellfun (@fuzz_literal, x(:)', 'UniformOutput', false);
    s = sprintf ('reshape({%s}, %s)', strjoin (parts, ', '), dims);
  elseif (isstruct (x))
    s = struct_literal (x, dims);
  elseif (isa (x, 'function_handle'))
    s = func2str (x);
    if (s(1) ~= '@')
      s = ['@' s];
    end
  elseif (ischar (x))
    s = sprintf ('reshape(char([%s]), %s)', sprintf ('%d ', double (x(:))), dims);
  elseif (issparse (x))
    s = sprintf ('sparse(%s)', fuzz_literal (full (x)));
  elseif (isempty (x))
    s = sprintf ('zeros(%s, ''%s'')', dims, class (x));
    if (islogical (x))
      s = sprintf ('false(%s)', dims);
    end
  else
    s = sprintf ('reshape(%s, %s)', number_list (x), dims);
  end
end

function s = number_list (x)
  % the elements, in their class, exactly
  if (isinteger (x))
    body = sprintf ('%d ', x(:));
  elseif (islogical (x))
    body = sprintf ('%d ', double (x(:)));
  else
    re = sprintf ('%.17g ', double (real (x(:))));
    body = re;
    if (iscomplex (x))
      body = sprintf ('complex([%s], [%s])', re, sprintf ('%.17g ', double (imag (x(:)))));
    end
  end
  if (iscomplex (x))
    s = sprintf ('%s(%s)', class (x), body);
  else
    s = sprintf ('%s([%s])', class (x), body);
  end
end

function s = struct_literal (x, dims)
  f = fieldnames (x);
  if (isempty (x))
    if (isempty (f))
      s = sprintf ('reshape(struct([]), %s)', dims);
    else
      s = sprintf ('reshape(struct(%s), %s)', ...
                   strjoin (cellfun (@(n) sprintf ('''%s'', {}', n), f', ...
                                     'UniformOutput', false), ', '), dims);
    end
    return;
  end
  parts = cell (1, numel (f));
  for i = 1:numel (f)
    parts{i} = sprintf ('''%s'', {%s}', f{i}, fuzz_literal (x(1).(f{i})));
  end
  s = sprintf ('struct(%s)', strjoin (parts, ', '));
  if (numel (x) > 1)
    s = sprintf ('repmat(%s, %s)', s, dims);   % (the fuzzer makes no such arrays)
  end
end
