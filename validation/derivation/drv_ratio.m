function r = drv_ratio (ref, x)
  % r = drv_ratio (ref, x): the SPEC metric rms(ref - x) / rms(ref), in double.
  % A zero reference gives rms(x) (absolute) so that the metric stays defined.
  ref = double (ref(:));
  x = double (x(:));
  den = sqrt (mean (ref .^ 2));
  num = sqrt (mean ((ref - x) .^ 2));
  if (den > 0)
    r = num / den;
  else
    r = num;
  end
end
