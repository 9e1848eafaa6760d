% HZ_FLOPS  Nominal flop count of one way of inverting a c x c unit lower
% triangular matrix (multiply and add counted separately).
%
%   f = hz_flops (method, c)
%   f = hz_flops ('neumann', c, m)
%
%   'subst':    c^3 / 3 (forward substitution with the c right-hand sides
%               of the identity, zeros skipped);
%   'neumann':  2 c^3 (m - 1) (m - 1 dense c x c products: N is free);
%   'doubling': 4 c^3 (r - 1), r = ceil (log2 c) (a squaring and a product
%               per factor after the first);
%   'blocked':  nb (b^3 / 3) for the nb = ceil (c / b) diagonal blocks of
%               b = 16 rows, plus 2 b^3 per block product of the merge:
%               sum over block pairs at distance d of (d + 1) products.
%   Dense counts are what a tensor-core kernel executes; a CPU would skip
%   the zero triangles of the products (a factor of up to 6 fewer).
%
%   See also: hz_inverse.

function f = hz_flops (method, c, m)
  switch method
    case 'subst'
      f = c^3 / 3;
    case 'neumann'
      f = 2 * c^3 * max (m - 1, 0);
    case 'doubling'
      f = 4 * c^3 * max (ceil (log2 (c)) - 1, 0);
    case 'blocked'
      b = 16;
      nb = ceil (c / b);
      d = 1:nb - 1;
      f = nb * b^3 / 3 + 2 * b^3 * sum ((nb - d) .* (d + 1));
    otherwise
      error ('hz_flops: unknown method ''%s''', method);
  end
end

%!test
%! addpath (fullfile (fileparts (which ('la_ratio')), '..', 'hazards'));  % run_tests puts lib on the path
%! assert (hz_flops ('subst', 64), 64^3 / 3);
%! assert (hz_flops ('blocked', 16), 16^3 / 3);
%! assert (hz_flops ('blocked', 64), 4 * 16^3 / 3 + 2 * 16^3 * 16);
%! assert (hz_flops ('doubling', 64), 4 * 64^3 * 5);
