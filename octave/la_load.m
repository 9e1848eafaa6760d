% la_load  Read the named arrays of a tensor file (.npy, .npz, .safetensors, .mat).
%
%   s = la_load (file)
%   [s, dtypes] = la_load (file)
%   [...] = la_load (file, 'double')
%
%   Returns a struct with one field per array of FILE:
%     NAME.npy          one field NAME (the file name without extension)
%     NAME.npz          one field per member (numpy's savez and
%                       savez_compressed: stored or deflated members),
%                       named as numpy's np.load keys them (".npy" dropped)
%     NAME.safetensors  one field per tensor (the "__metadata__" entry is skipped)
%     NAME.mat          one field per variable (level-5 MAT-files: save
%                       -v7 or -v6 of Octave and MATLAB, scipy's savemat),
%                       read here, never by load: numeric (complex too),
%                       logical and char (ASCII) arrays only
%   Field names are the names as written, whatever they are ("do", "a-b",
%   "x.y" included): read them with s.("do").  Two .npz members with the
%   same key (q.npy and q) are an error.
%
%   Arrays are indexed like the writer's: x(i, j, ...) is a[i-1, j-1, ...] of
%   numpy or PyTorch, whatever the file's memory order (C or Fortran order,
%   either byte order).  So a PyTorch q of shape [B, T, H, K] comes back
%   B x T x H x K; la_from_fla turns it into this library's K x T x H x B.
%   A 1-D array of n elements comes back n x 1 (a column); la_save writes
%   an n x 1 column 1-D, so both round trips keep the shape.
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
%   A file that numpy or safetensors would refuse or read differently is
%   refused (duplicate header keys, malformed literals, overlapping
%   offsets, colliding member names, ...), and so are special files (FIFO,
%   device, a link to one): each file is opened once, in C, without
%   blocking, and the opened descriptor is checked, so a file swapped
%   under its name between check and read changes nothing.  Files are read
%   in steps of 1 MiB; Ctrl-C between them raises 'la:interrupted'.
%   Every size is checked
%   against the file's before memory is allocated, and a deflated member
%   inflates to at most the size its directory claims (zlib in the MEX; a
%   MEX built by build_mex.m has no zlib and refuses deflated members).
%   A .npz holds at most 4,096 members, each claiming at most 1,032 bytes
%   per compressed byte (deflate's ceiling), all together no more than
%   the memory available.
%   A .mat is read in C, never handed to load (which runs code stored in
%   function handles): a file that is no level-5 MAT-file (v7.3 / HDF5,
%   version 4, text) is refused with what it is, from its first 512 bytes;
%   so is a header whose subsystem offset (bytes 116-123) points at
%   subsystem data, and a variable that is a cell, struct, object, sparse
%   matrix, function handle or of another class (named in the error),
%   that has an empty name, a NUL in its name or the name of another, an
%   element that runs past its file or its matrix, values whose count is
%   not what its dimensions need or that do not fit its integer class,
%   bytes after its values or after a compressed variable's zlib stream,
%   a compressed variable that claims more than 1,032 bytes per compressed
%   byte or whose stream inflates to more than it claims, and variables
%   that need more than the memory available.  At most 4,096 variables of
%   at most 64 dimensions.  A MEX built by build_mex.m (no zlib) refuses
%   compressed variables (save -v7, MATLAB's default): save with -v6.
%
%   Example:
%     f = [tempname() '.npz'];
%     la_save (f, struct ('q', randn (1, 16, 2, 8)));  % or numpy's savez
%     s = la_load (f);                     % s.q is B x T x H x K
%     delete (f);
%
%   See also: la_save, la_from_fla, kda_verify.

function [s, dtypes] = la_load (file, how)
  if (nargin < 1 || ~ischar (file) || ~isrow (file))
    error ('la:badFile', 'la_load: needs a file name');
  end
  widen = (nargin > 1 && ischar (how) && strcmpi (how, 'double'));
  if (nargin > 1 && ~widen)
    error ('la:badFile', 'la_load: the second argument may only be ''double''');
  end
  [~, base, ext] = fileparts (file);
  switch (lower (ext))
    case '.npy'
      [x, dt] = la_npy_decode (la_read_file (file), file);
      s = struct ();
      s.(base) = x;
      dtypes = struct ();
      dtypes.(base) = dt;
    case '.npz'
      [s, dtypes] = load_npz (file);
    case '.safetensors'
      [s, dtypes] = la_safetensors_decode (la_read_file (file), file);
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

function [s, dtypes] = load_npz (file)
  [names, data, keys] = la_zip_read (la_read_file (file), file);
  s = struct ();
  dtypes = struct ();
  for i = 1:numel (names)
    [x, dt] = la_npy_decode (data{i}, [file ':' names{i}]);
    data{i} = [];
    s.(keys{i}) = x;
    dtypes.(keys{i}) = dt;
  end
end

function [s, dtypes] = load_mat (file)
  % read in C from one open descriptor (la_files_mat.c): never by load,
  % which would run the code of a function handle stored in the file
  [s, err] = la_mex ('file', 'mat', file, la_mex ('file', 'mem_available'));
  if (~isempty (err))
    la_bad_file (file, '%s', err);
  end
  dtypes = struct ();
  names = fieldnames (s);
  for i = 1:numel (names)
    dtypes.(names{i}) = 'mat';
  end
end

%!test
%! % round trips through every format; names kept exactly ("do", "a-b")
%! d = tempname ();  mkdir (d);
%! s = struct ('q', reshape (single (1:24), 2, 3, 4), 'i', int64 ([-2; 5]), 'b', [true; false]);
%! s.("do") = [1 2 3];  s.("a-b") = 7;
%! for ext = {'.npz', '.safetensors', '.mat'}
%!   [t, dt] = la_load (la_save (fullfile (d, ['x' ext{1}]), s));
%!   assert (t, s);
%! end
%! assert (dt.("do"), 'mat');
%! [t, dt] = la_load (la_save (fullfile (d, 'do.npy'), [1; 2]));
%! assert (t.("do"), [1; 2]);  assert (dt.("do"), 'float64');

%!test
%! % deflated .npz (savez_compressed) read back, CRC checked
%! f = [tempname() '.npz'];
%! s = struct ('x', randn (3, 4, 5), 'y', zeros (100, 1, 'int32'));
%! assert (la_load (la_save (f, s, 'Compress', true)), s);
%! delete (f);

%!test
%! % 'double' widens every class
%! f = la_save ([tempname() '.safetensors'], struct ('a', single ([1 2]), 'b', int32 (3)));
%! s = la_load (f, 'double');
%! assert (class (s.a), 'double');  assert (s.b, 3);
%! delete (f);

%!test
%! % a truncated file: la:badFile naming the function and the file
%! f = la_save ([tempname() '.npy'], 1:10);
%! fid = fopen (f, 'r+');  fseek (fid, 0, 'bof');  b = fread (fid, Inf, 'uint8=>uint8');  fclose (fid);
%! fid = fopen (f, 'w');  fwrite (fid, b(1:end - 8));  fclose (fid);
%! try
%!   la_load (f);
%!   error ('no error');
%! catch err
%!   assert (err.identifier, 'la:badFile');
%!   assert (strncmp (err.message, ['la_load: ' f], numel (f) + 9), err.message);
%! end
%! delete (f);

%!error <la_load: needs a file name> la_load ()
%!error <unknown extension> la_load ('x.txt')
%!error <cannot open> la_load ('/nonexistent/file.npy')
