function r = drv_skip (eq, name, file, bound, why)
  % r = drv_skip (eq, name, file, bound, why): a check that could not run
  % (residual NaN, pass false, the reason appended to the name).
  r = lab_row ('derivations', sprintf ('%s [skipped (%s)]', name, why), NaN, bound, ...
               'eq', eq, 'file', file);
end
