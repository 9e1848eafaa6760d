% VERIFY_DTYPE  The kernel's dtype: meta.json's, else the one its stored tensors show.
%
%   [dtype, note] = verify_dtype (fn, op, meta, t, dtypes)
%
%   dtype means the format the kernel takes and returns its tensors in
%   (FLA's q.dtype): a bf16 kernel that accumulates in fp32 is 'bfloat16'.
%   Storage: the narrowest stored type of q, k, v (float64 > float32 >
%   bfloat16, float16).  Without meta.json's dtype: that type, or, when q,
%   k, v (and o) are stored wider but all their values are bfloat16
%   (float16) values, 'bfloat16' ('float16').  A meta dtype the storage
%   cannot hold (float32 in bfloat16 storage, bfloat16 vs float16) is an
%   error OP:badOption naming both.  note: a line for the report.

function [dtype, note] = verify_dtype (fn, op, meta, t, dtypes)
  bits = struct ('float64', 53, 'float32', 24, 'float16', 11, 'bfloat16', 8);
  names = intersect ({'q', 'k', 'v'}, fieldnames (dtypes), 'stable');
  stored = '';
  for i = 1:numel (names)
    s = canonical (dtypes.(names{i}));
    if (isfield (bits, s) && (isempty (stored) || bits.(s) < bits.(stored)))
      stored = s;
    end
  end
  if (isfield (meta, 'dtype') && ~isempty (meta.dtype))
    dtype = meta.dtype;
    if (~ischar (dtype) || ~isfield (bits, dtype))
      error ([op ':badOption'], '%s: meta.json: dtype must be float64, float32, bfloat16 or float16', fn);
    end
    both16 = ~isempty (stored) && bits.(stored) < 24 && bits.(dtype) < 24;
    if (~isempty (stored) && (bits.(stored) < bits.(dtype) || (both16 && ~strcmp (stored, dtype))))
      error ([op ':badOption'], ['%s: meta.json says dtype ''%s'' but q, k, v are stored as %s: ' ...
             'dtype is the format the kernel takes and returns (q.dtype in FLA; a bf16 kernel ' ...
             'that accumulates in fp32 is bfloat16): correct dtype or the dump'], fn, dtype, stored);
    end
    note = sprintf ('Kernel dtype `%s` from meta.json (q, k, v stored as %s).', dtype, stored);
    return;
  end
  if (isempty (stored))
    stored = 'float64';      % a struct dump of Octave arrays
  end
  dtype = stored;
  note = sprintf ('meta.json gives no dtype: `%s`, as q, k, v are stored.', dtype);
  if (bits.(stored) >= 24)
    for fmt = {'bfloat16', 'float16'}
      if (holds_only (t, intersect ({'q', 'k', 'v', 'o'}, fieldnames (t)), fmt{1}))
        dtype = fmt{1};
        note = sprintf (['meta.json gives no dtype: `%s`, as every value of q, k, v, o is a ' ...
                         '%s value (stored as %s).'], dtype, dtype, stored);
        return;
      end
    end
  end
end

function s = canonical (class_name)
  s = class_name;
  if (strcmp (s, 'double'))
    s = 'float64';
  elseif (strcmp (s, 'single'))
    s = 'float32';
  end
end

function yes = holds_only (t, names, fmt)
  short = struct ('bfloat16', 'bf16', 'float16', 'fp16');
  yes = ~isempty (names);
  for i = 1:numel (names)
    x = t.(names{i})(:);
    yes = yes && isequal (x, verify_round (x, short.(fmt))) && any (x ~= 0) ...
          && (~strcmp (fmt, 'float16') || max (abs (x)) <= 65504);
  end
end
