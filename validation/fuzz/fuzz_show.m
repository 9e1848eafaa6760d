% FUZZ_SHOW  A short readable description of a value (for case reports).
%
%   s = fuzz_show (x)
%
%   A char row is shown quoted, with a NUL as \0; a small numeric or logical
%   array by mat2str; anything else as its size and class, e.g.
%   '0x0 struct', '1x1 cell'.  (fuzz_literal writes values exactly.)
%
%   See also: fuzz_literal.

function s = fuzz_show (x)
  if (ischar (x) && size (x, 1) == 1)
    s = ['''' strrep(x, char (0), '\0') ''''];
  elseif ((isnumeric (x) || islogical (x)) && ~issparse (x) && numel (x) <= 6 && ndims (x) == 2)
    s = mat2str (x);
    if (~isa (x, 'double') && ~islogical (x))
      s = sprintf ('%s(%s)', class (x), s);
    end
  else
    s = sprintf ('%s %s', strjoin (arrayfun (@(d) sprintf ('%d', d), size (x), ...
                                             'UniformOutput', false), 'x'), class (x));
    if (issparse (x))
      s = [s ' sparse'];
    end
  end
end
