% la_save  Write named arrays to a tensor file (.npy, .npz, .safetensors, .mat).
%
%   file = la_save (file, s)
%   file = la_save (file, s, dtype)
%   file = la_save (..., 'Compress', true)
%   la_save ('x.npy', x)
%
%   s: a struct of arrays, indexed like the file's arrays (the convention of
%   la_load, so la_load (la_save (f, s)) gives s back).  Field names are
%   written exactly as they are (a field "do", made with s.("do") = x, is
%   the tensor do).  By extension:
%     .npy          one array (s may be the array itself, or a struct of one
%                   field); format version 1.0, C order, little-endian
%     .npz          one member NAME.npy per field, stored as numpy's savez
%                   writes it, or deflated as savez_compressed does with
%                   'Compress', true (zlib in the MEX; a MEX built by
%                   build_mex.m has no zlib and refuses 'Compress')
%     .safetensors  one tensor per field, per the published format
%     .mat          level 5, uncompressed (save -v6's format: Octave,
%                   MATLAB, scipy and a MEX built without zlib read it)
%   dtype (numpy name) sets the stored type of every floating array:
%   'float32', 'float64' or 'bfloat16' (rounded to nearest even; .npy
%   writes it with descr '<V2' as ml_dtypes does, .safetensors as BF16).
%   Default: after the class (double -> float64, single -> float32, logical
%   -> bool, integers as they are).  .mat ignores dtype.
%
%   Shapes: an array is written with its size, except that an n x 1
%   column is written 1-D, shape (n,), as numpy's vectors are (la_load
%   reads a 1-D array back as a column); a 1 x n row stays (1, n).  A
%   scalar is (1,) in .npy and .npz and a 0-D tensor, shape [], in
%   .safetensors.  Trailing singleton dimensions past the second are not
%   kept (Octave drops them).
%
%   The file lands whole or not at all: it is written under a temporary
%   name in the same folder, every write, the fsync and the close are
%   checked, and only then is it renamed over FILE (and the folder synced,
%   so the new file survives a power loss once la_save returns).  A write
%   that fails (a full disk) or Ctrl-C is 'la:badFile' (or
%   'la:interrupted') and leaves the previous FILE as it was, with no
%   temporary.  Returns the file's name.
%
%   Example:
%     o = randn (8, 16, 2);                % V x T x HV
%     f = la_save ([tempname() '.npy'], la_to_fla ('o', o));  % [1, 16, 2, 8]
%     s = la_load (f);
%     delete (f);
%
%   See also: la_load, la_to_fla.

function file = la_save (file, s, varargin)
  if (nargin < 2)
    error ('la:badFile', 'la_save: needs a file and the arrays');
  end
  if (~ischar (file) || ~isrow (file))
    error ('la:badFile', 'la_save: the file name must be a char row');
  end
  [dtype, compress] = options (varargin);
  [~, base, ext] = fileparts (file);
  if (~isstruct (s))
    t = struct ();
    t.(base) = s;
    s = t;
  end
  if (~isscalar (s))
    error ('la:badFile', 'la_save: %s: s must be a 1 x 1 struct of arrays', file);
  end
  names = fieldnames (s);
  for i = 1:numel (names)
    x = s.(names{i});
    if (~(isnumeric (x) || islogical (x)) || ~isreal (x) || issparse (x))
      error ('la:badFile', 'la_save: %s: field "%s" is not a real full numeric or logical array', ...
             file, names{i});
    end
  end
  if (compress && ~strcmpi (ext, '.npz'))
    error ('la:badFile', 'la_save: %s: ''Compress'' applies to .npz only', file);
  end
  switch (lower (ext))
    case '.npy'
      if (numel (names) ~= 1)
        error ('la:badFile', 'la_save: %s: a .npy file holds one array, got %d', file, numel (names));
      end
      pieces = npy_pieces (s.(names{1}), dtype);
    case '.npz'
      pieces = zip_pieces (s, names, dtype, compress, file);
    case '.safetensors'
      pieces = safetensors_pieces (s, names, dtype);
    case '.mat'
      pieces = mat_pieces (s, names, file);
    otherwise
      error ('la:badFile', 'la_save: %s: unknown extension ''%s'' (.npy, .npz, .safetensors, .mat)', ...
             file, ext);
  end
  write_file (file, pieces);
end

function [dtype, compress] = options (args)
  dtype = '';
  compress = false;
  if (mod (numel (args), 2) == 1)
    dtype = args{1};
    args = args(2:end);
    if (~ischar (dtype))
      error ('la:badFile', 'la_save: dtype must be a numpy name such as ''float32''');
    end
  end
  for i = 1:2:numel (args)
    if (ischar (args{i}) && strcmpi (args{i}, 'Compress') && isscalar (args{i + 1}) ...
        && (islogical (args{i + 1}) || isnumeric (args{i + 1})))
      compress = logical (args{i + 1});
    else
      error ('la:badFile', 'la_save: unknown option (la_save (file, s, dtype, ''Compress'', tf))');
    end
  end
end

function dt = float_dtype (x, dtype)
  % the requested dtype applies to floating arrays only
  if (isfloat (x))
    dt = dtype;
  else
    dt = '';
  end
end

function pieces = npy_pieces (x, dtype)
  % {prefix, data}: the .npy file in two pieces (no copy of the data)
  [data, shape, dt] = la_array_to_bytes (x, float_dtype (x, dtype));
  descrs = struct ('float64', '<f8', 'float32', '<f4', 'bfloat16', '<V2', 'bool', '|b1', ...
                   'int8', '|i1', 'uint8', '|u1', 'int16', '<i2', 'uint16', '<u2', ...
                   'int32', '<i4', 'uint32', '<u4', 'int64', '<i8', 'uint64', '<u8');
  dims = sprintf ('%d, ', shape);
  if (numel (shape) > 1)
    dims = dims(1:end - 2);
  else
    dims = dims(1:end - 1);
  end
  header = sprintf ('{''descr'': ''%s'', ''fortran_order'': False, ''shape'': (%s), }', ...
                    descrs.(dt), dims);
  % pad with spaces so that the data starts at a multiple of 64 bytes
  pad = 64 - mod (10 + numel (header) + 1, 64);
  header = [header, repmat(' ', 1, mod (pad, 64)), char(10)];
  pieces = {[uint8([147 double('NUMPY') 1 0]), typecast(uint16 (numel (header)), 'uint8'), ...
             uint8(header)], data};
end

function pieces = safetensors_pieces (s, names, dtype)
  st = struct ('float64', 'F64', 'float32', 'F32', 'bfloat16', 'BF16', 'bool', 'BOOL', ...
               'int8', 'I8', 'uint8', 'U8', 'int16', 'I16', 'uint16', 'U16', ...
               'int32', 'I32', 'uint32', 'U32', 'int64', 'I64', 'uint64', 'U64');
  entries = cell (1, numel (names));
  blobs = cell (1, numel (names));
  offset = 0;
  for i = 1:numel (names)
    x = s.(names{i});
    [blobs{i}, shape, dt] = la_array_to_bytes (x, float_dtype (x, dtype));
    if (isequal (size (x), [1 1]))
      shape = [];
    end
    entries{i} = sprintf ('"%s":{"dtype":"%s","shape":[%s],"data_offsets":[%d,%d]}', ...
                          json_escape (names{i}), st.(dt), ...
                          strjoin (arrayfun (@(d) sprintf ('%d', d), shape, 'UniformOutput', false), ','), ...
                          offset, offset + numel (blobs{i}));
    offset = offset + numel (blobs{i});
  end
  header = ['{' strjoin(entries, ',') '}'];
  header = [header, repmat(' ', 1, mod (-numel (header), 8))];   % 8-byte aligned buffer
  pieces = [{[typecast(uint64 (numel (header)), 'uint8'), uint8(header)]}, blobs];
end

function t = json_escape (name)
  % a JSON string body: quote, backslash and control characters escaped
  t = regexprep (name, '(["\\])', '\\$1');
  ctl = find (t < 32);
  for i = fliplr (ctl)
    t = [t(1:i - 1), sprintf('\\u%04x', double (t(i))), t(i + 1:end)];
  end
end

function pieces = zip_pieces (s, names, dtype, compress, file)
  % a zip archive of NAME.npy members, stored (method 0) as numpy's savez
  % writes them, or deflated (method 8) as savez_compressed does
  pieces = {};
  central = {};
  offset = 0;
  for i = 1:numel (names)
    name = uint8 (names{i});
    name = [name, uint8('.npy')];
    npy = npy_pieces (s.(names{i}), dtype);
    crc = la_mex ('file', 'crc32', npy{1});
    crc = la_mex ('file', 'crc32', npy{2}, crc);
    usize = numel (npy{1}) + numel (npy{2});
    method = 0;
    if (compress)
      [data, err] = la_mex ('file', 'deflate', [npy{:}]);
      if (~isempty (err))
        error ('la:badFile', 'la_save: %s: cannot compress: %s', file, err);
      end
      npy = {data};
      method = 8;
    end
    csize = sum (cellfun (@numel, npy));
    if (max (usize, offset + csize) >= 2 ^ 32 - 1)
      error ('la:badFile', 'la_save: %s: members over 4 GB (zip64) are not written; use .safetensors', file);
    end
    flags = 2048 * any (name > 127);   % bit 11: the name is UTF-8
    common = [le(flags, 2), le(method, 2), le(0, 2), le(33, 2), le(crc, 4), ...
              le(csize, 4), le(usize, 4), le(numel (name), 2), le(0, 2)];
    loc = [le(hex2dec ('04034b50'), 4), le(20, 2), common, name];
    central{end + 1} = [le(hex2dec ('02014b50'), 4), le(20, 2), le(20, 2), common, ...
                        le(0, 2), le(0, 2), le(0, 2), le(0, 4), le(offset, 4), name];
    pieces = [pieces, {loc}, npy];
    offset = offset + numel (loc) + csize;
  end
  cd_bytes = [central{:}];
  if (numel (names) >= 65535 || offset + numel (cd_bytes) >= 2 ^ 32 - 1)
    error ('la:badFile', 'la_save: %s: too many or too large members for a zip without zip64', file);
  end
  eocd = [le(hex2dec ('06054b50'), 4), le(0, 2), le(0, 2), le(numel (names), 2), ...
          le(numel (names), 2), le(numel (cd_bytes), 4), le(offset, 4), le(0, 2)];
  pieces = [pieces, {cd_bytes, eocd}];
end

function b = le (v, n)
  b = uint8 (mod (floor (v ./ 256 .^ (0:n - 1)), 256));
end

function pieces = mat_pieces (s, names, file)
  % a level-5 MAT-file, uncompressed (the format of save -v6): the header,
  % then per variable an miMATRIX of flags, dimensions, name and values
  % in the class's own type (logical: uint8 with the logical flag)
  classes = {'double', 6, 9; 'single', 7, 7; 'int8', 8, 1; 'uint8', 9, 2; 'int16', 10, 3; ...
             'uint16', 11, 4; 'int32', 12, 5; 'uint32', 13, 6; 'int64', 14, 12; 'uint64', 15, 13; ...
             'logical', 9, 2};
  text = uint8 ('MATLAB 5.0 MAT-file, written by kdagdn la_save');
  pieces = {[text, repmat(uint8(' '), 1, 124 - numel (text)), le(256, 2), uint8('IM')]};
  for i = 1:numel (names)
    x = s.(names{i});
    c = classes(strcmp (class (x), classes(:, 1)), :);
    if (islogical (x))
      data = uint8 (x(:))';
    else
      data = typecast (x(:), 'uint8')';
    end
    if (numel (data) > 2^32 - 256 || any (size (x) > 2^31 - 1))
      error ('la:badFile', 'la_save: %s: field "%s" is too large for a .mat file (4 GiB a variable): use .npy or .safetensors', ...
             file, names{i});
    end
    dims = typecast (int32 (size (x)), 'uint8');
    name = uint8 (names{i});
    head = [mat_el(6, [le(c{2} + 512 * islogical (x), 4), le(0, 4)]), mat_el(5, dims), mat_el(1, name), ...
            le(c{3}, 4), le(numel (data), 4)];
    pad = zeros (1, mod (-numel (data), 8), 'uint8');
    pieces = [pieces, {[le(14, 4), le(numel (head) + numel (data) + numel (pad), 4), head], data, pad}];
  end
end

function e = mat_el (type, data)
  % a data element: tag, data, zero padding to 8 bytes
  e = [le(type, 4), le(numel (data), 4), data, zeros(1, mod (-numel (data), 8), 'uint8')];
end

function write_file (file, pieces)
  % whole or not at all (la_files_io.c): a temporary file in the same
  % folder, every write, the fsync and the close checked, then renamed
  err = la_mex ('file', 'write', file, pieces);
  if (~isempty (err))
    error ('la:badFile', 'la_save: %s: %s; the previous file, if any, is left as it was', file, err);
  end
end

%!test
%! % returns the file; la_load (la_save (f, s)) is s
%! f = [tempname() '.npz'];
%! s = struct ('q', randn (2, 3, 4), 'n', int32 ([1; 2; 3]));
%! assert (la_save (f, s), f);
%! assert (la_load (la_save (f, s)), s);
%! delete (f);

%!test
%! % shapes: an n x 1 column is 1-D (n,), a 1 x n row (1, n), as numpy reads them
%! d = tempname ();  mkdir (d);
%! f = la_save (fullfile (d, 'c.npy'), (1:3)');
%! fid = fopen (f);  h = char (fread (fid, 128)');  fclose (fid);
%! assert (~isempty (strfind (h, '''shape'': (3,)')));
%! f = la_save (fullfile (d, 'r.npy'), 1:3);
%! fid = fopen (f);  h = char (fread (fid, 128)');  fclose (fid);
%! assert (~isempty (strfind (h, '''shape'': (1, 3)')));
%! s = la_load (f);  assert (s.r, 1:3);
%! f = la_save (fullfile (d, 's.safetensors'), struct ('c', (1:3)', 'r', 1:3, 'x', 5));
%! fid = fopen (f);  h = char (fread (fid, 200)');  fclose (fid);
%! assert (~isempty (strfind (h, '"c":{"dtype":"F64","shape":[3]')));
%! assert (~isempty (strfind (h, '"r":{"dtype":"F64","shape":[1,3]')));
%! assert (~isempty (strfind (h, '"x":{"dtype":"F64","shape":[]')));

%!test
%! % bfloat16 rounds to nearest even; names with quotes are escaped
%! f = [tempname() '.safetensors'];
%! s = struct ();  s.('a"b') = [1, 1 + 2^-8, 1 + 3 * 2^-8];
%! t = la_load (la_save (f, s, 'bfloat16'));
%! assert (double (t.('a"b')), [1, 1, 1 + 2^-6]);
%! delete (f);

%!test
%! % a failed save leaves no file and no temporary behind
%! d = tempname ();  mkdir (d);
%! try
%!   la_save (fullfile (d, 'x.npz'), struct ('a', 1, 'b', {{2}}));
%! catch err
%!   assert (err.identifier, 'la:badFile');
%! end
%! assert (numel (dir (d)), 2);

%!error <needs a file and the arrays> la_save ('x.npy')
%!error <holds one array> la_save ([tempname() '.npy'], struct ('a', 1, 'b', 2))
%!error <'Compress' applies to .npz only> la_save ([tempname() '.npy'], 1, 'Compress', true)
%!error <unknown extension> la_save ('x.txt', 1)
