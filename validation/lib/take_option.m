% TAKE_OPTION  Remove an option from a Name/Value cell and return its value.
%
%   [val, rest] = take_option (rest, name)
%   [val, rest] = take_option (rest, name, default)
%
%   Every pair whose name equals NAME (case-insensitive) is removed from the
%   cell REST; VAL is the value of the last one, or DEFAULT ([] if not given)
%   when there is none.
%
%   See also: fd_check, rand_problem.

function [val, rest] = take_option (rest, name, default)
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
