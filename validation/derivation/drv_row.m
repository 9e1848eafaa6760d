function r = drv_row (eq, name, file, residual, bound)
  % r = drv_row (eq, name, file, residual, bound): one result of a derivation
  % check.  pass is residual <= bound (false for NaN, i.e. a skipped check).
  r = struct ('eq', eq, 'name', name, 'file', file, 'residual', double (residual), ...
              'bound', double (bound), 'pass', logical (residual <= bound));
end
