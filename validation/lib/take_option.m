% TAKE_OPTION  The option parser of the validation helpers.
%
%   [val, rest] = take_option (rest, name)
%   [val, rest] = take_option (rest, name, default)
%   [cfg, rest] = take_option (rest, defaults)
%
%   rest is a Name/Value cell.  With a NAME, every pair whose name equals NAME
%   (case-insensitive) is removed from REST; VAL is the value of the last one,
%   or DEFAULT ([] if not given) when there is none.
%
%   With a struct DEFAULTS, every field of DEFAULTS is taken that way: CFG is
%   DEFAULTS with the values found in REST, and REST keeps the pairs that name
%   no field.  A caller that accepts no other option checks isempty (rest).
%
%   Example
%     [cfg, rest] = take_option ({'tol', 1e-3, 'Scale', 2}, struct ('Tol', 1e-6))
%     % cfg.Tol = 1e-3, rest = {'Scale', 2}
%
%   See also: fd_check, rand_problem, ref_transform.

function [val, rest] = take_option (rest, name, default)
  if (mod (numel (rest), 2) ~= 0)
    error ('take_option: options must come in Name, Value pairs');
  end
  if (isstruct (name))
    val = name;
    fields = fieldnames (name);
    for i = 1:numel (fields)
      [val.(fields{i}), rest] = take_option (rest, fields{i}, name.(fields{i}));
    end
    return;
  end
  if (nargin < 3)
    default = [];
  end
  val = default;
  keep = true (1, numel (rest));
  for i = 1:2:numel (rest) - 1
    if (ischar (rest{i}) && strcmpi (rest{i}, name))
      val = rest{i + 1};
      keep([i, i + 1]) = false;
    end
  end
  rest = rest(keep);
end

%!test
%! [v, r] = take_option ({'a', 1, 'B', 2, 'b', 3}, 'b');
%! assert (v, 3);
%! assert (r, {'a', 1});
%! [v, r] = take_option ({'a', 1}, 'c', 7);
%! assert (v, 7);
%! assert (r, {'a', 1});
%!test
%! [cfg, r] = take_option ({'tol', 1e-3, 'Scale', 2}, struct ('Tol', 1e-6, 'Seed', []));
%! assert (cfg.Tol, 1e-3);
%! assert (isempty (cfg.Seed));
%! assert (r, {'Scale', 2});
%!error <pairs> take_option ({'a'}, 'a')
