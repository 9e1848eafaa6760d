function row = lab_row (section, name, value, bound, varargin)
% LAB_ROW  One row of the lab: a check (finite bound) or information (NaN bound).
%
%   row = lab_row (section, name, value, bound)
%   row = lab_row (section, name, value, bound, detail)
%   row = lab_row (..., Name, Value, ...)
%   row = lab_row ()      an empty row array with the same fields
%
%   The one result type of the lab's sections, of the derivation checks
%   (validation/derivation/check_*.m) and of the hazards experiments
%   (validation/hazards/).  Fields: section, name, value (double), bound
%   (double), pass, detail, eq, file.
%
%   A check passes when value is finite and value <= bound.  A row whose
%   bound is NaN reports a measurement without a claim: it is 'info', never
%   'passed', and the counts leave it out (lab_count).
%
%   Options:
%     'eq'    the equation the row reproduces: a number, or a tag such as
%             'H5' or 'index' (derivation rows; default [])
%     'file'  the docs/ page of that equation (default '')
%     'kind'  'atmost' (default) or 'atleast': a demonstration, which
%             passes when value >= bound (a NaN or Inf value as well: the
%             hazard is reproduced when the error is large); its detail is
%             'hazard reproduced when value >= bound' (lab_worst reads it)
%
%   Example
%     lab_row ('derivations', 'dk vs finite differences', 3e-9, 1e-6, ...
%              'eq', 14, 'file', 'docs/recurrence.md')
%
%   See also: lab_count, lab_worst, lab_report.

  if (nargin == 0)
    row = struct ('section', {}, 'name', {}, 'value', {}, 'bound', {}, ...
                  'pass', {}, 'detail', {}, 'eq', {}, 'file', {});
    return;
  end
  detail = '';
  if (mod (numel (varargin), 2) == 1)
    detail = varargin{1};
    varargin(1) = [];
  end
  [opt, rest] = take_option (varargin, struct ('eq', [], 'file', '', 'kind', 'atmost'));
  if (~isempty (rest) || ~any (strcmp (opt.kind, {'atmost', 'atleast'})))
    error ('lab_row: options are ''eq'', ''file'' and ''kind'' (''atmost'' or ''atleast'')');
  end
  row = struct ('section', section, 'name', name, 'value', double (value), ...
                'bound', double (bound), 'pass', true, 'detail', detail, ...
                'eq', opt.eq, 'file', opt.file);
  if (isnan (bound))
    return;
  end
  if (strcmp (opt.kind, 'atleast'))
    row.pass = ~(value < bound);          % NaN or Inf: reproduced as well
    row.detail = 'hazard reproduced when value >= bound';
  else
    row.pass = isfinite (value) && value <= bound;
  end
end

%!test
%! % a check passes when finite and within its bound; NaN bound: info
%! assert (lab_row ('s', 'n', 1e-12, 1e-10).pass);
%! assert (~lab_row ('s', 'n', 1e-9, 1e-10).pass);
%! assert (~lab_row ('s', 'n', NaN, 1e-10).pass);
%! assert (~lab_row ('s', 'n', Inf, Inf).pass);
%! r = lab_row ('s', 'n', Inf, NaN, 'why');
%! assert (r.pass && isnan (r.bound) && strcmp (r.detail, 'why'));
%!test
%! % 'atleast': a hazard reproduced when the value is large (NaN, Inf too)
%! r = lab_row ('hazards', 'n', 0.5, 1e-2, 'kind', 'atleast');
%! assert (r.pass && strcmp (r.detail, 'hazard reproduced when value >= bound'));
%! assert (~lab_row ('hazards', 'n', 1e-3, 1e-2, 'kind', 'atleast').pass);
%! assert (lab_row ('hazards', 'n', NaN, 1e-2, 'kind', 'atleast').pass);
%!test
%! % the derivation fields; every row has the same fields, so rows concatenate
%! r = lab_row ('derivations', 'n', single (3), 4, 'eq', 'H5', 'file', 'docs/hazards.md');
%! assert (r.eq, 'H5');  assert (r.file, 'docs/hazards.md');
%! assert (class (r.value), 'double');
%! rows = [lab_row(), r, lab_row('s', 'm', 1, 2, 'd')];
%! assert (numel (rows), 2);
%! assert (fieldnames (rows), fieldnames (lab_row ()));
%! assert (isempty (rows(2).eq) && isempty (rows(2).file));
%!error <options are 'eq', 'file' and 'kind'>
%! lab_row ('s', 'n', 1, 2, 'Equation', 3);
%!error <options are 'eq', 'file' and 'kind'>
%! lab_row ('s', 'n', 1, 2, 'kind', 'below');
