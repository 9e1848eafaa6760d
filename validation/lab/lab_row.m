function row = lab_row (section, name, value, bound, detail)
% LAB_ROW  One row of the lab: a check (finite bound) or information (NaN bound).
%
%   row = lab_row (section, name, value, bound)
%   row = lab_row (section, name, value, bound, detail)
%   row = lab_row ()      an empty row array with the same fields
%
%   A check passes when value is finite and value <= bound.  A row whose
%   bound is NaN reports a measurement without a claim: it is 'info', never
%   'passed', and the counts leave it out (lab_count).

  if (nargin == 0)
    row = struct ('section', {}, 'name', {}, 'value', {}, 'bound', {}, ...
                  'pass', {}, 'detail', {});
    return;
  end
  if (nargin < 5)
    detail = '';
  end
  row = struct ('section', section, 'name', name, 'value', double (value), ...
                'bound', bound, 'pass', true, 'detail', detail);
  if (~isnan (bound))
    row.pass = isfinite (value) && value <= bound;
  end
end
