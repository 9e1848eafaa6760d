% la_save  Write named arrays to a tensor file (.npy, .npz, .safetensors, .mat).
%
%   la_save (file, s)
%   la_save (file, s, dtype)
%   la_save ('x.npy', x)
%
%   s: a struct of arrays, indexed like the file's arrays (the convention of
%   la_load, so la_load (la_save (f, s)) gives s back).  By extension:
%     .npy          one array (s may be the array itself, or a struct of one
%                   field); format version 1.0, C order, little-endian
%     .npz          one member NAME.npy per field, stored (no compression),
%                   as numpy's savez writes
%     .safetensors  one tensor per field, per the published format
%     .mat          save -v7 (Octave and MATLAB read it)
%   dtype (numpy name) sets the stored type of every floating array:
%   'float32', 'float64' or 'bfloat16' (rounded to nearest even; .npy
%   writes it with descr '<V2' as ml_dtypes does, .safetensors as BF16).
%   Default: after the class (double -> float64, single -> float32, logical
%   -> bool, integers as they are).  .mat ignores dtype.
%
%   Example:
%     o = randn (8, 16, 2);                % V x T x HV
%     f = [tempname() '.npy'];
%     la_save (f, la_to_fla ('o', o));     % [1, 16, 2, 8], as FLA's o
%     s = la_load (f);
%     delete (f);
%
%   See also: la_load, la_to_fla.

function la_save (file, s, dtype)
  if (nargin < 2)
    error ('la:badFile', 'la_save: needs a file and the arrays');
  end
  if (nargin < 3)
    dtype = '';
  end
  [~, base, ext] = fileparts (file);
  if (~isstruct (s))
    s = struct (base, {s});
  end
  names = fieldnames (s);
  switch (lower (ext))
    case '.npy'
      if (numel (names) ~= 1)
        error ('la:badFile', '%s: a .npy file holds one array, got %d', file, numel (names));
      end
      write_bytes (file, npy_bytes (s.(names{1}), dtype));
    case '.npz'
      members = cell (1, numel (names));
      for i = 1:numel (names)
        members{i} = npy_bytes (s.(names{i}), dtype);
      end
      write_bytes (file, zip_stored (strcat (names, '.npy'), members));
    case '.safetensors'
      write_bytes (file, safetensors_bytes (s, names, dtype));
    case '.mat'
      save ('-v7', file, '-struct', 's');
    otherwise
      error ('la:badFile', '%s: unknown extension ''%s'' (.npy, .npz, .safetensors, .mat)', file, ext);
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

function out = npy_bytes (x, dtype)
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
  out = [uint8([147 double('NUMPY') 1 0]), typecast(uint16 (numel (header)), 'uint8'), ...
         uint8(header), data];
end

function out = safetensors_bytes (s, names, dtype)
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
                          names{i}, st.(dt), strjoin (arrayfun (@num2str, shape, 'UniformOutput', false), ','), ...
                          offset, offset + numel (blobs{i}));
    offset = offset + numel (blobs{i});
  end
  header = ['{' strjoin(entries, ',') '}'];
  header = [header, repmat(' ', 1, mod (-numel (header), 8))];   % 8-byte aligned buffer
  out = [typecast(uint64 (numel (header)), 'uint8'), uint8(header), [blobs{:}]];
end

function out = zip_stored (names, members)
  % a zip archive of stored members (method 0), as numpy's savez writes
  locals = {};
  central = {};
  offset = 0;
  for i = 1:numel (names)
    name = uint8 (names{i});
    data = members{i};
    crc = la_crc32 (data);
    common = [le(0, 2), le(0, 2), le(0, 2), le(0, 2), le(crc, 4), ...
              le(numel (data), 4), le(numel (data), 4), le(numel (name), 2), le(0, 2)];
    loc = [le(hex2dec ('04034b50'), 4), le(20, 2), common, name, data];
    central{end + 1} = [le(hex2dec ('02014b50'), 4), le(20, 2), le(20, 2), common, ...
                        le(0, 2), le(0, 2), le(0, 2), le(0, 4), le(offset, 4), name];
    locals{end + 1} = loc;
    offset = offset + numel (loc);
  end
  cd_bytes = [central{:}];
  eocd = [le(hex2dec ('06054b50'), 4), le(0, 2), le(0, 2), le(numel (names), 2), ...
          le(numel (names), 2), le(numel (cd_bytes), 4), le(offset, 4), le(0, 2)];
  out = [locals{:}, cd_bytes, eocd];
end

function b = le (v, n)
  b = uint8 (mod (floor (v ./ 256 .^ (0:n - 1)), 256));
end

function write_bytes (file, bytes)
  fid = fopen (file, 'w');
  if (fid < 0)
    error ('la:badFile', '%s: cannot open for writing', file);
  end
  fwrite (fid, bytes, 'uint8');
  fclose (fid);
end
