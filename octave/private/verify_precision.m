% VERIFY_PRECISION  Flag tensors kept in less precision than FLA keeps them.
%
%   rows = verify_precision (rows, t, dtypes, dtype)
%
%   A tensor the kernel should return in more than 16 bits -- for a
%   bfloat16 / float16 kernel the states ht and dh0 (FLA keeps the running
%   state and its gradient in fp32), for a float32 kernel every checked
%   tensor -- that is stored in 32 or 64 bits but whose values are all
%   bfloat16 (or float16) values went through that format: a precision
%   loss the error alone can hide (a running state rounded to bf16 between
%   chunks stays within about 1.2 x a correct kernel's error).  Such a row
%   that passes becomes 'warn', with the reason in its where.  Needs at
%   least 16 nonzero values (a chance match has probability 2^-(16 n)).

function rows = verify_precision (rows, t, dtypes, dtype)
  switch (dtype)
    case {'bfloat16', 'float16'}
      names = {'ht', 'dh0'};
    case 'float32'
      names = {rows.name};
    otherwise
      return;
  end
  for i = find (ismember ({rows.name}, names) & strcmp ({rows.status}, 'pass'))
    n = rows(i).name;
    if (~isfield (dtypes, n) || ~any (strcmp (dtypes.(n), {'float32', 'float64', 'single', 'double'})))
      continue;
    end
    x = t.(n)(:);
    if (nnz (x) < 16 || ~all (isfinite (x)))
      continue;
    end
    for fmt = {'bf16', 'bfloat16'; 'fp16', 'float16'}'
      if (isequal (x, verify_round (x, fmt{1})))
        rows(i).status = 'warn';
        kept = 'fp32 states';
        if (strcmp (dtype, 'float32'))
          kept = 'float32';
        end
        rows(i).where = sprintf (['stored as %s, but every value is a %s value: the kernel ' ...
                                  'rounds it to %s (e.g. keeps its running state in %s), ' ...
                                  'where FLA keeps %s'], dtypes.(n), fmt{2}, fmt{2}, fmt{2}, kept);
        break;
      end
    end
  end
end
