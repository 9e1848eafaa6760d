% la_load  Read the named arrays of a tensor file (.npy, .npz, .safetensors, .mat).
%
%   s = la_load (file)
%   [s, dtypes] = la_load (file)
%   [...] = la_load (file, 'double')
%
%   Returns a struct with one field per array of FILE:
%     NAME.npy          one field NAME (the file name without extension)
%     NAME.npz          one field per member (numpy's savez and
%                       savez_compressed: stored or deflated members)
%     NAME.safetensors  one field per tensor (the "__metadata__" entry is skipped)
%     NAME.mat          one field per variable (load of Octave / MATLAB)
%   Arrays are indexed like the writer's: x(i, j, ...) is a[i-1, j-1, ...] of
%   numpy or PyTorch, whatever the file's memory order (C or Fortran order,
%   either byte order).  So a PyTorch q of shape [B, T, H, K] comes back
%   B x T x H x K; la_from_fla turns it into this library's K x T x H x B.
%   A 1-D array is a column.
%
%   Classes: float32 -> single, float64 -> double, int32 / int64 (and the
%   other integer types) -> the same integer class, bool -> logical;
%   float16 and bfloat16 have no Octave class and come back as single,
%   exactly (every half or bfloat16 value is a single value).  bfloat16 is
%   read from .safetensors (BF16) and from .npy files written by numpy with
%   ml_dtypes (JAX), whose descr is '<V2'.  dtypes holds the stored type of
%   each field by its numpy name ('float16', 'bfloat16', 'float32', ...;
%   'mat' for .mat variables), so nothing about the origin is lost.
%   With 'double', every numeric or logical array is converted to double.
%
%   Errors: an unreadable, truncated, mislabelled or oversized file (e.g. a
%   shape that needs more bytes than the file holds, or bytes left over)
%   raises 'la:badFile' with a message naming the file and the problem.
%
%   Example:
%     f = [tempname() '.npz'];
%     la_save (f, struct ('q', randn (1, 16, 2, 8)));  % or numpy's savez
%     s = la_load (f);                     % s.q is B x T x H x K
%     delete (f);
%
%   See also: la_save, la_from_fla, kda_verify.

function [s, dtypes] = la_load (file, how)
  if (nargin < 1 || ~ischar (file))
    error ('la:badFile', 'la_load: needs a file name');
  end
  widen = (nargin > 1 && strcmpi (how, 'double'));
  if (nargin > 1 && ~widen)
    error ('la:badFile', 'la_load: the second argument may only be ''double''');
  end
  [~, base, ext] = fileparts (file);
  switch (lower (ext))
    case '.npy'
      [x, dt] = la_npy_decode (read_bytes (file), file);
      s = struct ();
      s.(valid_name (base)) = x;
      dtypes = struct (valid_name (base), dt);
    case '.npz'
      [s, dtypes] = load_npz (file);
    case '.safetensors'
      [s, dtypes] = la_safetensors_decode (read_bytes (file), file);
    case '.mat'
      [s, dtypes] = load_mat (file);
    otherwise
      la_bad_file (file, 'unknown extension ''%s'' (.npy, .npz, .safetensors, .mat)', ext);
  end
  if (widen)
    names = fieldnames (s);
    for i = 1:numel (names)
      if (isnumeric (s.(names{i})) || islogical (s.(names{i})))
        s.(names{i}) = double (s.(names{i}));
      end
    end
  end
end

function bytes = read_bytes (file)
  fid = fopen (file, 'r');
  if (fid < 0)
    la_bad_file (file, 'cannot open');
  end
  bytes = fread (fid, Inf, 'uint8=>uint8');
  fclose (fid);
end

function [s, dtypes] = load_npz (file)
  [names, data] = la_zip_read (read_bytes (file), file);
  s = struct ();
  dtypes = struct ();
  for i = 1:numel (names)
    name = regexprep (names{i}, '\.npy$', '');
    [x, dt] = la_npy_decode (data{i}, [file ':' names{i}]);
    s.(valid_name (name)) = x;
    dtypes.(valid_name (name)) = dt;
  end
end

function [s, dtypes] = load_mat (file)
  try
    s = load ('-mat', file);
  catch err
    la_bad_file (file, 'not a readable .mat file (%s)', err.message);
  end
  dtypes = struct ();
  names = fieldnames (s);
  for i = 1:numel (names)
    dtypes.(names{i}) = 'mat';
  end
end

function name = valid_name (name)
  name = regexprep (name, '[^A-Za-z0-9_]', '_');
  if (isempty (name) || ~isletter (name(1)))
    name = ['x' name];
  end
end
