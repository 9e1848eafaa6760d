function [nchk, nfail, ninfo] = lab_count (rows)
% LAB_COUNT  Checks, failed checks and info rows of a lab row array.
%
%   [nchk, nfail, ninfo] = lab_count (rows)
%
%   A check is a row with a bound; a row with bound NaN is information
%   (see lab_row) and counts neither as passed nor as failed.

  if (isempty (rows))
    nchk = 0;  nfail = 0;  ninfo = 0;
    return;
  end
  info = isnan ([rows.bound]);
  nchk = sum (~info);
  nfail = sum (~info & ~[rows.pass]);
  ninfo = sum (info);
end
