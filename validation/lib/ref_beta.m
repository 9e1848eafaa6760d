% REF_BETA  The BetaSigmoid transform (and AllowNegEigval), with its backward.
%
%   [beta, back] = ref_beta (logit, allow_neg)
%   dlogit = back (dbeta)
%
%   beta = f * sigmoid (logit) with f = 2 when allow_neg is true (eigenvalues
%   of I - beta k k' down to -1), else f = 1; the sigmoid is the overflow-free
%   ref_sigmoid.  back applies the derivative f * s .* (1 - s).
%
%   See also: ref_sigmoid, ref_transform.

function [beta, back] = ref_beta (logit, allow_neg)
  f = 1 + logical (allow_neg);
  s = ref_sigmoid (logit);
  beta = f * s;
  back = @(dbeta) dbeta .* f .* s .* (1 - s);
end

%!assert (ref_beta (0, false), 0.5)
%!assert (ref_beta (0, true), 1)
