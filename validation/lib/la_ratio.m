% LA_RATIO  The accuracy metric of the project: rms (ref - x) / rms (ref).
%
%   r = la_ratio (ref, x)
%
%   ref and x are arrays with the same number of elements (their shapes may
%   differ, e.g. a dropped trailing singleton); both are converted to double
%   and compared over all elements.  When ref is all zero the ratio is not
%   defined and r = rms (x) is returned instead (0 when x is zero too, so an
%   exactly reproduced zero output passes).  Two empty arrays give r = 0.
%   NaN or Inf anywhere gives r = NaN, so a bound r <= tol fails.
%
%   See also: ref_forward, fd_check.

function r = la_ratio (ref, x)
  if (nargin ~= 2)
    error ('la_ratio: needs ref and x');
  end
  if (numel (ref) ~= numel (x))
    error ('la_ratio: ref has %d elements, x has %d', numel (ref), numel (x));
  end
  if (isempty (ref))
    r = 0;
    return;
  end
  ref = double (ref(:));
  x = double (x(:));
  if (~all (isfinite (ref)) || ~all (isfinite (x)))
    r = NaN;
    return;
  end
  % norm () scales internally, so huge or tiny values neither overflow nor
  % underflow; the sqrt (n) of the two rms values cancels in the ratio
  den = norm (ref);
  num = norm (ref - x);
  if (den == 0)
    r = num / sqrt (numel (x));
  else
    r = num / den;
  end
end
