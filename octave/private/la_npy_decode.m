% LA_NPY_DECODE  Decode the bytes of one .npy file (format versions 1-3).
%
%   [x, dtype] = la_npy_decode (bytes, file)
%
%   bytes: uint8 vector of the whole .npy file; file: the name used in
%   error messages.  The header is a Python dict literal with 'descr',
%   'fortran_order' and 'shape' (numpy's format.py); descr is a type string
%   such as '<f4' or '>i8'.  bfloat16 has no numpy type: ml_dtypes (JAX)
%   arrays are saved with descr '<V2' (a 2-byte void), which is read here as
%   bfloat16, as is a descr naming 'bfloat16' outright.  Structured or
%   object arrays are a 'la:badFile' error.

function [x, dtype] = la_npy_decode (bytes, file)
  bytes = uint8 (bytes(:)');
  magic = uint8 ([147 double('NUMPY')]);
  if (numel (bytes) < 10 || ~isequal (bytes(1:6), magic))
    la_bad_file (file, 'not a .npy file (no \\x93NUMPY magic)');
  end
  major = bytes(7);
  if (major == 1)
    hlen = double (bytes(9)) + 256 * double (bytes(10));
    hstart = 11;
  elseif (major == 2 || major == 3)
    if (numel (bytes) < 12)
      la_bad_file (file, 'truncated header');
    end
    hlen = double (typecast (bytes(9:12), 'uint32'));
    hstart = 13;
  else
    la_bad_file (file, 'unknown .npy format version %d', major);
  end
  if (hstart + hlen - 1 > numel (bytes))
    la_bad_file (file, 'truncated header (%d bytes announced)', hlen);
  end
  header = char (bytes(hstart:hstart + hlen - 1));
  [descr, c_order, shape] = parse_header (header, file);
  [dtype, big] = descr_dtype (descr, file);
  x = la_bytes_to_array (bytes(hstart + hlen:end), dtype, big, shape, c_order, file, 'data');
end

function [descr, c_order, shape] = parse_header (header, file)
  tok = regexp (header, '''descr''\s*:\s*''([^'']*)''', 'tokens', 'once');
  if (isempty (tok))
    la_bad_file (file, 'header has no simple ''descr'' (structured arrays are not supported): %s', strtrim (header));
  end
  descr = tok{1};
  tok = regexp (header, '''fortran_order''\s*:\s*(True|False)', 'tokens', 'once');
  if (isempty (tok))
    la_bad_file (file, 'header has no ''fortran_order''');
  end
  c_order = strcmp (tok{1}, 'False');
  tok = regexp (header, '''shape''\s*:\s*\(([^)]*)\)', 'tokens', 'once');
  if (isempty (tok))
    la_bad_file (file, 'header has no ''shape''');
  end
  parts = strtrim (strsplit (tok{1}, ','));
  parts = parts(~cellfun (@isempty, parts));
  shape = zeros (1, numel (parts));
  for i = 1:numel (parts)
    d = str2double (regexprep (parts{i}, 'L$', ''));
    if (~isfinite (d) || d < 0 || d ~= round (d))
      la_bad_file (file, 'bad shape entry ''%s''', parts{i});
    end
    shape(i) = d;
  end
end

function [dtype, big] = descr_dtype (descr, file)
  if (~isempty (strfind (lower (descr), 'bfloat16')))
    dtype = 'bfloat16';
    big = false;
    return;
  end
  tok = regexp (descr, '^([<>|=]?)([a-zA-Z])(\d+)$', 'tokens', 'once');
  if (isempty (tok))
    la_bad_file (file, 'unsupported descr ''%s''', descr);
  end
  big = strcmp (tok{1}, '>');
  code = [tok{2} tok{3}];
  codes = {'f2', 'f4', 'f8', 'i1', 'u1', 'i2', 'u2', 'i4', 'u4', 'i8', 'u8', 'b1', 'V2'};
  names = {'float16', 'float32', 'float64', 'int8', 'uint8', 'int16', 'uint16', ...
           'int32', 'uint32', 'int64', 'uint64', 'bool', 'bfloat16'};
  i = find (strcmp (code, codes), 1);
  if (isempty (i))
    la_bad_file (file, 'unsupported descr ''%s''', descr);
  end
  dtype = names{i};
end
