function res = check_derivations (verbose)
  % res = check_derivations (verbose): run every derivation check
  % (check_recurrence, check_chunk_forward, check_chunk_backward,
  % check_chunk_bwd_aux, check_stability, check_flops, check_hazards,
  % check_specialisations, check_io, check_index) and return their rows
  % (lab_row: the residual in value, with eq and file), sorted by equation
  % (the numbered equations first, then those with a letter, e.g. 'H5',
  % of check_hazards, check_specialisations and check_io, and check_index's
  % 'index').
  % With verbose (default true when no output is requested) print a table.
  if (nargin < 1)
    verbose = nargout == 0;
  end
  fns = {'check_recurrence', 'check_chunk_forward', 'check_chunk_backward', ...
         'check_chunk_bwd_aux', 'check_stability', 'check_flops', 'check_hazards', ...
         'check_specialisations', 'check_io', 'check_index'};
  drv_lib ();
  res = lab_row ();
  for i = 1:numel (fns)
    r = feval (fns{i});
    res = [res, r(:)'];
  end
  key = zeros (1, numel (res));
  for i = 1:numel (res)
    if (ischar (res(i).eq))             % 'H5': after every numbered equation
      n = str2double (regexprep (res(i).eq, '^[A-Za-z]+', ''));
      key(i) = 1000 + 100 * double (res(i).eq(1)) + (isnan (n) * 99 + ~isnan (n) * n);
    else
      key(i) = res(i).eq;
    end
  end
  [~, ix] = sort (key);
  res = res(ix);
  if (verbose)
    fprintf ('%4s  %-9s %-9s %-5s  %s\n', 'eq', 'residual', 'bound', 'pass', 'check');
    for i = 1:numel (res)
      st = 'ok';
      if (isnan (res(i).value))
        st = 'skip';
      elseif (~ res(i).pass)
        st = 'FAIL';
      end
      eqs = res(i).eq;
      if (~ ischar (eqs))
        eqs = sprintf ('%2d', eqs);
      end
      fprintf ('(%s)  %-9.2e %-9.1e %-5s  %s\n', eqs, res(i).value, res(i).bound, st, res(i).name);
    end
    fprintf ('%d checks, %d failed, %d skipped\n', numel (res), ...
             sum (~ [res.pass] & ~ isnan ([res.value])), sum (isnan ([res.value])));
  end
end
