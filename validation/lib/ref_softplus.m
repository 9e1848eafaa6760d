% REF_SOFTPLUS  log (1 + exp (x)) without overflow, elementwise.
%
%   y = ref_softplus (x)
%
%   Written as max (x, 0) + log1p (exp (-|x|)): the exponential never sees a
%   positive argument, so y is finite for every finite x (y = x for large x,
%   y = exp (x) to rounding for very negative x).  The derivative is
%   ref_sigmoid (x).  Computed in the class of x.
%
%   See also: ref_sigmoid, ref_gate.

function y = ref_softplus (x)
  y = max (x, 0) + log1p (exp (-abs (x)));
end

%!assert (ref_softplus ([-1e4 0 1e4]), [0 log(2) 1e4])
%!assert (class (ref_softplus (single (1))), 'single')
