function w = lab_worst (rows)
% LAB_WORST  The check of a row array closest to (or furthest past) its bound.
%
%   w = lab_worst (rows)
%
%   Among the rows with a bound, the one with the largest value / bound (a
%   non-finite value counts as worst of all); [] when there is no check.

  w = [];
  chk = rows(~isnan ([rows.bound]));
  if (isempty (chk))
    return;
  end
  q = [chk.value] ./ max ([chk.bound], realmin);
  q(~isfinite ([chk.value])) = Inf;
  [~, i] = max (q);
  w = chk(i);
end
