% REF_L2NORM  Columns divided by their 2-norm (UseQKL2Norm), with its backward.
%
%   [y, back] = ref_l2norm (x)
%   dx = back (dy)
%
%   y = x ./ ||x(:, j)|| for every column (over dimension 1) of an array of
%   any number of dimensions; an all-zero column stays zero.  back maps the
%   gradient dy of y to that of x:
%       dx = (dy - y .* sum (y .* dy, 1)) / ||x||
%   and 0 for an all-zero column (the library's convention).
%
%   See also: ref_transform, ref_gate, ref_beta.

function [y, back] = ref_l2norm (x)
  nrm = sqrt (sum (x .^ 2, 1));
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
