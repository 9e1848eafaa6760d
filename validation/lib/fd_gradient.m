% FD_GRADIENT  Gradient of a scalar function by central differences, every entry.
%
%   d = fd_gradient (f, x)
%   d = fd_gradient (f, x, h)
%
%   d(i) = (f (x + h_i e_i) - f (x - h_i e_i)) / (2 h_i) for every entry i of
%   x (any shape), with h_i = h max (1, |x(i)|) and h = 1e-6 by default: the
%   whole gradient, for small x (2 numel (x) calls of f).  For large inputs
%   or a check of a hand-written backward, la_gradcheck samples directions
%   and entries instead.
%
%   See also: la_gradcheck, fd_check, la_ratio.

function d = fd_gradient (f, x, h)
  if (nargin < 3 || isempty (h))
    h = 1e-6;
  end
  d = zeros (size (x));
  for i = 1:numel (x)
    hi = h * max (1, abs (x(i)));
    xp = x;  xp(i) = xp(i) + hi;
    xm = x;  xm(i) = xm(i) - hi;
    d(i) = (f (xp) - f (xm)) / (2 * hi);
  end
end

%!assert (fd_gradient (@(x) sum (x .^ 3), [1 2]), [3 12], 1e-8)
