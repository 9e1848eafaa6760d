% VERIFY_PRECISION  Flag tensors kept in less precision than FLA keeps them.
%
%   rows = verify_precision (rows, t, dtypes, dtype)
%
%   What FLA keeps each tensor in: the kernel's dtype, except that a
%   bfloat16 / float16 kernel keeps ht, dh0 (its running state and the
%   state gradient, `initial_state` must be fp32), g_cumsum, dAqk, dAkk,
%   dA_log and ddt_bias in float32.  Two ways a tensor has less:
%     stored narrower   its stored type has fewer bits (o stored as float16
%                       in a float32 dump): the storage rounds it, by an
%                       error the tolerance may not see
%     values narrower   stored in 32 or 64 bits, but every value is a
%                       bfloat16 (float16) value where FLA keeps fp32: the
%                       kernel rounded it (e.g. a running state kept in
%                       bf16, within about 1.2 x a correct kernel's error);
%                       needs at least 16 nonzero values (a chance match
%                       has probability 2^-(16 n))
%   A row that would pass becomes 'warn' with the reason in its where (a
%   row that warns already gets the reason added); a failing row is left
%   as it is.  The reason names the tensor, its storage and what FLA keeps.
%
%   rows = verify_precision (..., pool): a decode call that writes its
%   states back into the caller's pool (pool: the engine's name, '' for
%   none; FLA's inplace_final_state too) writes them in the pool's own
%   type: ht stored as h0 is stored (a bf16 pool) is that format, not a slip.

function rows = verify_precision (rows, t, dtypes, dtype, pool)
  if (nargin < 5)
    pool = '';
  end
  bits = struct ('float64', 53, 'double', 53, 'float32', 24, 'single', 24, 'float16', 11, ...
                 'bfloat16', 8);
  if (~isfield (bits, dtype))
    return;
  end
  wide32 = {'ht', 'dh0', 'g_cumsum', 'dAqk', 'dAkk', 'dA_log', 'ddt_bias'};
  for i = find (~strcmp ({rows.status}, 'fail'))
    n = rows(i).name;
    if (~isfield (dtypes, n) || ~isfield (bits, dtypes.(n)))
      continue;
    end
    kept = dtype;
    if (bits.(dtype) < 24 && any (strcmp (n, wide32)))
      kept = 'float32';
    end
    stored = dtypes.(n);
    why = '';
    if (strcmp (n, 'ht') && ~isempty (pool) && isfield (dtypes, 'h0') ...
        && isfield (bits, dtypes.h0) && bits.(dtypes.h0) <= bits.(stored))
      continue;   % the engine's pool, in its own type
    end
    if (bits.(stored) < bits.(kept))
      why = sprintf (['`%s` is stored as %s, but FLA returns it as %s for a %s kernel: the ' ...
                      'storage rounds it (dump it as the kernel returns it)'], n, stored, kept, dtype);
    elseif (bits.(kept) == 24 && bits.(stored) >= 24)
      why = values_narrower (n, t.(n)(:), stored, kept);
    end
    if (isempty (why))
      continue;
    end
    if (strcmp (rows(i).status, 'warn') && ~isempty (rows(i).where))
      rows(i).where = [rows(i).where '; ' why];
    else
      rows(i).where = why;
    end
    rows(i).status = 'warn';
  end
end

function why = values_narrower (n, x, stored, kept)
  why = '';
  if (nnz (x) < 16 || ~all (isfinite (x)))
    return;
  end
  for fmt = {'bf16', 'bfloat16'; 'fp16', 'float16'}'
    if (isequal (x, verify_round (x, fmt{1})))
      why = sprintf (['`%s` is stored as %s, but every value is a %s value: the kernel rounds ' ...
                      'it to %s (e.g. keeps its running state in %s), where FLA keeps %s'], ...
                     n, stored, fmt{2}, fmt{2}, fmt{2}, kept);
      return;
    end
  end
end

%!test
%! % a bf16 pool written in place: ht stored as h0 is, no warning; not a pool: warned
%! row = struct ('name', 'ht', 'status', 'pass', 'where', '');
%! t = struct ('ht', single (1:32));
%! d = struct ('ht', 'bfloat16', 'h0', 'bfloat16');
%! r = verify_precision (row, t, d, 'bfloat16', 'sglang');
%! assert (r.status, 'pass');
%! r = verify_precision (row, t, d, 'bfloat16');
%! assert (r.status, 'warn');
%! r = verify_precision (row, t, setfield (d, 'h0', 'float32'), 'bfloat16', 'flashinfer');
%! assert (r.status, 'warn');
