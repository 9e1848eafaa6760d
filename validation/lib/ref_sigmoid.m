% REF_SIGMOID  1 / (1 + exp (-x)) without overflow, elementwise.
%
%   y = ref_sigmoid (x)
%
%   For x >= 0 the textbook form; for x < 0 the equal exp (x) / (1 + exp (x)),
%   so no exponential of a large positive number is ever formed.  The
%   derivative is y .* (1 - y).  Computed in the class of x.
%
%   See also: ref_softplus, ref_gate, ref_beta.

function y = ref_sigmoid (x)
  y = zeros (size (x), class (x));
  pos = x >= 0;
  y(pos) = 1 ./ (1 + exp (-x(pos)));
  e = exp (x(~pos));
  y(~pos) = e ./ (1 + e);
end

%!assert (ref_sigmoid ([-1e4 0 1e4]), [0 0.5 1])
%!assert (all (isfinite (ref_sigmoid (single ([-800 800])))))
