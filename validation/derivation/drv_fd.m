function d = drv_fd (f, x, h)
  % d = drv_fd (f, x, h): gradient of the scalar function f at x (any shape)
  % by central differences with step h (default 1e-6 max(1, |x|)).
  if (nargin < 3 || isempty (h))
    h = 1e-6;
  end
  d = zeros (size (x));
  for i = 1:numel (x)
    hi = h * max (1, abs (x(i)));
    xp = x; xp(i) = xp(i) + hi;
    xm = x; xm(i) = xm(i) - hi;
    d(i) = (f (xp) - f (xm)) / (2 * hi);
  end
end
