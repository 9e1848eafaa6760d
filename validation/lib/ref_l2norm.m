% REF_L2NORM  Columns divided by their 2-norm (UseQKL2Norm), with its backward.
%
%   [y, back] = ref_l2norm (x)
%   [y, back] = ref_l2norm (x, eps2)
%   dx = back (dy)
%
%   y = x ./ sqrt (sum (x .^ 2, 1) + eps2) for every column (over dimension
%   1) of an array of any number of dimensions; eps2 is 'L2NormEps'
%   (default 0: the exact norm, and an all-zero column stays zero).  back
%   maps the gradient dy of y to that of x:
%       dx = (dy - y .* sum (y .* dy, 1)) ./ sqrt (sum (x .^ 2, 1) + eps2)
%   (the same form for every eps2), and 0 for an all-zero column when
%   eps2 = 0 (the library's convention).
%
%   See also: ref_transform, ref_gate, ref_beta.

function [y, back] = ref_l2norm (x, eps2)
  if (nargin < 2)
    eps2 = 0;
  end
  nrm = sqrt (sum (x .^ 2, 1) + eps2);
  nz = nrm;
  nz(nz == 0) = 1;
  y = x ./ nz;
  inv_nrm = zeros (size (nrm), class (x));
  inv_nrm(nrm > 0) = 1 ./ nrm(nrm > 0);
  back = @(dy) inv_nrm .* (dy - y .* sum (y .* dy, 1));
end

%!test
%! x = [3 0; 4 0];
%! [y, back] = ref_l2norm (x);
%! assert (y, [0.6 0; 0.8 0], eps);
%! assert (back ([1 1; 1 1]), [0.032 0; -0.024 0], eps);

%!test
%! % with eps2: the forward's formula, and the backward against central differences
%! x = [3 0 1e-4; 4 0 -2e-4];  e2 = 1e-6;
%! [y, back] = ref_l2norm (x, e2);
%! assert (y, x ./ sqrt (sum (x .^ 2) + e2), eps);
%! assert (y(:, 2), [0; 0]);
%! dy = [0.3 -1 2; 0.7 0.5 -1];  h = 1e-9;  dx = back (dy);
%! for j = 1:numel (x)
%!   d = zeros (size (x));  d(j) = h;
%!   fd = sum (sum (dy .* (ref_l2norm (x + d, e2) - ref_l2norm (x - d, e2)))) / (2 * h);
%!   assert (dx(j), fd, 1e-6 * max (abs (dx(:))));
%! end
