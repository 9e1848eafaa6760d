function w = lab_worst (rows)
% LAB_WORST  The check of a row array closest to (or furthest past) its bound.
%
%   w = lab_worst (rows)
%
%   Among the rows with a bound, the one with the largest value / bound (a
%   non-finite value counts as worst of all); [] when there is no check.
%   A row that demonstrates a hazard (detail 'hazard reproduced when value
%   >= bound': lab_row's kind 'atleast') is closest to failing when its
%   value is smallest: bound / value for it.

  w = [];
  chk = rows(~isnan ([rows.bound]));
  if (isempty (chk))
    return;
  end
  q = [chk.value] ./ max ([chk.bound], realmin);
  q(~isfinite ([chk.value])) = Inf;
  atleast = strncmp ({chk.detail}, 'hazard reproduced', 17);
  q(atleast) = [chk(atleast).bound] ./ max ([chk(atleast).value], realmin);
  q(atleast & ~isfinite ([chk.value])) = 0;
  [~, i] = max (q);
  w = chk(i);
end
