% HZ_ROW  One row of the lab's table (fields section, name, value, bound,
% pass, detail), section 'hazards'.
%
%   row = hz_row (name, value, bound)            pass: value <= bound
%   row = hz_row (name, value, bound, 'atleast') pass: value >= bound (a
%         demonstration: the hazard is reproduced when the error is large)
%   row = hz_row (name, value)                   reported, no bound
%
%   See also: lab_hazards.

function row = hz_row (name, value, bound, kind)
  if (nargin < 3)
    bound = NaN;
  end
  if (nargin < 4)
    kind = 'atmost';
  end
  row.section = 'hazards';
  row.name = name;
  row.value = value;
  row.bound = bound;
  if (isnan (bound))
    row.pass = true;
    row.detail = 'reported';
  elseif (strcmp (kind, 'atleast'))
    row.pass = ~(value < bound);          % NaN or Inf: reproduced as well
    row.detail = 'hazard reproduced when value >= bound';
  else
    row.pass = isfinite (value) && value <= bound;
    row.detail = '';
  end
end
