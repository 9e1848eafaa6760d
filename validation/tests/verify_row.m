% VERIFY_ROW  The row of a kda_verify / gdn_verify report for one tensor (tests' helper).
%
%   r = verify_row (report, name)
%
%   Fails unless the report has exactly one row of that name.

function r = verify_row (report, name)
  r = report.rows(strcmp ({report.rows.name}, name));
  assert (numel (r) == 1, 'no row %s', name);
end
