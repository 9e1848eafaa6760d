% VERIFY_COMPARE  One row of the verification report: the dump's tensor against ours.
%
%   row = verify_compare (name, ref, x, tol, warn_tol, problem)
%
%   ref: this library's double result, x: the dump's tensor, both in FLA
%   layout.  row: name, shape, ratio = rms(ref - x)/rms(ref) (la_ratio's
%   convention: rms(x) when ref is zero), max_abs, cosine, tol, warn_tol,
%   status ('pass', 'warn' above warn_tol, 'fail' above tol or for a
%   wrong shape), pass (status is not 'fail'), and for a tensor that does
%   not pass where (verify_divergence against the bound it exceeds) and
%   err_map, the error over (step, head) for the heat map ([] for tensors
%   without steps).

function row = verify_compare (name, ref, x, tol, warn_tol, problem)
  row = struct ('name', name, 'shape', size (ref), 'ratio', NaN, 'max_abs', NaN, ...
                'cosine', NaN, 'tol', tol, 'warn_tol', warn_tol, 'status', 'fail', ...
                'pass', false, 'where', '', 'err_map', []);
  if (~isequal (squeeze_shape (size (x)), squeeze_shape (size (ref))))
    row.where = sprintf ('shape [%s], expected [%s]', num2str (size (x)), num2str (size (ref)));
    return;
  end
  x = reshape (double (x), size (ref));
  d = ref - x;
  den = norm (ref(:));
  if (den == 0)
    row.ratio = norm (x(:)) / sqrt (max (1, numel (x)));
  else
    row.ratio = norm (d(:)) / den;
  end
  row.max_abs = max ([0; abs(d(:))]);
  row.cosine = (ref(:)' * x(:)) / (den * norm (x(:)));
  if (den == 0 && norm (x(:)) == 0)
    row.cosine = 1;
  end
  row.pass = isfinite (row.ratio) && row.ratio <= tol;
  if (~row.pass)
    [row.where, row.err_map] = verify_divergence (name, ref, x, tol, problem);
  elseif (row.ratio > warn_tol)
    row.status = 'warn';
    [row.where, row.err_map] = verify_divergence (name, ref, x, warn_tol, problem);
  else
    row.status = 'pass';
  end
end

function s = squeeze_shape (s)
  % trailing and leading-batch singleton dimensions do not matter
  s = s(s ~= 1);
end
