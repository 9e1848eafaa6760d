function y = pick (c, a, b)
% PICK  a when c is true, else b (MATLAB has no merge / ifelse).
%
%   y = pick (c, a, b)
%
%   Both a and b are evaluated by the caller; use it for values, not for
%   work that one branch must not do.

  if (c)
    y = a;
  else
    y = b;
  end
end
