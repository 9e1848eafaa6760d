% VERIFY_COMPARE  One row of the verification report: the dump's tensor against ours.
%
%   row = verify_compare (name, R, tol, warn_tol, problem)
%
%   R: the tensor's error reduced by verify_reduce (this library's double
%   result ref against the dump's x, both in FLA layout, over all heads).
%   row: name, shape, ratio = rms(ref - x)/rms(ref) (la_ratio's
%   convention: rms(x) when ref is zero), max_abs, cosine, tol, warn_tol,
%   status ('pass', 'warn' above warn_tol, 'fail' above tol or for a
%   wrong shape), pass (status is not 'fail'), and for a tensor that does
%   not pass where (verify_divergence against the bound it exceeds) and
%   err_map, the error over (step, head) for the heat map ([] for tensors
%   without steps).

function row = verify_compare (name, R, tol, warn_tol, problem)
  row = struct ('name', name, 'shape', R.shape, 'ratio', NaN, 'max_abs', NaN, ...
                'cosine', NaN, 'tol', tol, 'warn_tol', warn_tol, 'status', 'fail', ...
                'pass', false, 'where', '', 'err_map', []);
  if (R.bad)
    row.where = sprintf ('shape [%s], expected [%s]', num2str (R.xshape), num2str (R.shape));
    return;
  end
  den = sqrt (R.rr);
  if (den == 0)
    row.ratio = sqrt (R.xx) / sqrt (max (1, R.n));
  else
    row.ratio = sqrt (R.dd) / den;
  end
  row.max_abs = R.max_abs;
  row.cosine = R.rx / (den * sqrt (R.xx));
  if (den == 0 && R.xx == 0)
    row.cosine = 1;
  end
  row.pass = isfinite (row.ratio) && row.ratio <= tol;
  if (~row.pass)
    [row.where, row.err_map] = verify_divergence (name, R, tol, problem);
  elseif (row.ratio > warn_tol)
    row.status = 'warn';
    [row.where, row.err_map] = verify_divergence (name, R, warn_tol, problem);
  else
    row.status = 'pass';
  end
end
