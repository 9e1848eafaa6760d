% LA_SAFETENSORS_DECODE  The tensors of one .safetensors file.
%
%   [s, dtypes] = la_safetensors_decode (bytes, file)
%
%   The published format: an 8-byte little-endian header length N, N bytes
%   of JSON mapping each tensor name to {dtype, shape, data_offsets} (byte
%   offsets into the buffer that follows; an optional "__metadata__" entry
%   is skipped), then the buffer, little-endian, row-major.  Names become
%   struct fields (jsondecode makes them valid Octave names).  dtypes: a
%   struct of the numpy names of the stored types.  Offsets outside the
%   buffer, a byte count that does not match the shape, or a header longer
%   than the file are 'la:badFile' errors.

function [s, dtypes] = la_safetensors_decode (bytes, file)
  bytes = uint8 (bytes(:)');
  if (numel (bytes) < 8)
    la_bad_file (file, 'truncated (no header length)');
  end
  hlen = double (typecast (bytes(1:8), 'uint64'));
  if (hlen > numel (bytes) - 8)
    la_bad_file (file, 'header of %.0f bytes announced, the file has %d', hlen, numel (bytes));
  end
  try
    header = jsondecode (char (bytes(9:8 + hlen)));
  catch err
    la_bad_file (file, 'header is not JSON (%s)', err.message);
  end
  if (~isstruct (header))
    la_bad_file (file, 'header is not a JSON object');
  end
  buffer = bytes(9 + hlen:end);
  st_names = {'F16', 'BF16', 'F32', 'F64', 'I8', 'U8', 'I16', 'U16', 'I32', 'U32', 'I64', 'U64', 'BOOL'};
  np_names = {'float16', 'bfloat16', 'float32', 'float64', 'int8', 'uint8', 'int16', ...
              'uint16', 'int32', 'uint32', 'int64', 'uint64', 'bool'};
  s = struct ();
  dtypes = struct ();
  fields = fieldnames (header);
  for i = 1:numel (fields)
    name = fields{i};
    if (strcmp (name, 'x__metadata__') || strcmp (name, '__metadata__'))
      continue;
    end
    e = header.(name);
    if (~isstruct (e) || ~all (isfield (e, {'dtype', 'shape', 'data_offsets'})))
      la_bad_file (file, 'entry %s lacks dtype, shape or data_offsets', name);
    end
    j = find (strcmp (e.dtype, st_names), 1);
    if (isempty (j))
      la_bad_file (file, 'entry %s: dtype %s is not supported', name, e.dtype);
    end
    off = double (e.data_offsets);
    if (numel (off) ~= 2 || off(1) < 0 || off(2) < off(1) || off(2) > numel (buffer))
      la_bad_file (file, 'entry %s: data_offsets [%s] outside the %d-byte buffer', ...
                   name, num2str (off(:)'), numel (buffer));
    end
    s.(name) = la_bytes_to_array (buffer(off(1) + 1:off(2)), np_names{j}, false, ...
                                  double (e.shape), true, file, ['entry ' name]);
    dtypes.(name) = np_names{j};
  end
end
