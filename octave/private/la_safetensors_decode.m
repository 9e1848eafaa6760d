% LA_SAFETENSORS_DECODE  The tensors of one .safetensors file.
%
%   [s, dtypes] = la_safetensors_decode (bytes, file)
%
%   The published format: an 8-byte little-endian header length N, N bytes
%   of JSON mapping each tensor name to {dtype, shape, data_offsets} (byte
%   offsets into the buffer that follows; an optional "__metadata__" entry
%   of strings is skipped), then the buffer, little-endian, row-major.
%   Field names are the tensor names exactly as written ("do" stays do:
%   s.("do")).  dtypes: a struct of the numpy names of the stored types.
%   Read as the safetensors library reads: the header at most 100 MB and
%   starting with '{', JSON without duplicate keys (la_json_decode), dtype
%   one of its exact names, shape a list of integers, data_offsets two
%   integers, and the tensors, in offset order, tiling the buffer with no
%   gap, overlap or byte left over.  Anything else is 'la:badFile'.

function [s, dtypes] = la_safetensors_decode (bytes, file)
  bytes = uint8 (bytes(:)');
  if (numel (bytes) < 8)
    la_bad_file (file, 'truncated (no header length)');
  end
  hlen = double (typecast (bytes(1:8), 'uint64'));
  if (hlen > numel (bytes) - 8)
    la_bad_file (file, 'header of %.0f bytes announced, the file has %d', hlen, numel (bytes));
  elseif (hlen > 1e8)
    la_bad_file (file, 'header of %.0f bytes, over the 100 MB safetensors reads', hlen);
  elseif (hlen < 2 || bytes(9) ~= '{')
    la_bad_file (file, 'header does not start with ''{''');
  end
  header = la_json_decode (bytes(9:8 + hlen), file);
  buffer = bytes(9 + hlen:end);
  st_names = {'F16', 'BF16', 'F32', 'F64', 'I8', 'U8', 'I16', 'U16', 'I32', 'U32', 'I64', 'U64', 'BOOL'};
  np_names = {'float16', 'bfloat16', 'float32', 'float64', 'int8', 'uint8', 'int16', ...
              'uint16', 'int32', 'uint32', 'int64', 'uint64', 'bool'};
  names = fieldnames (header);
  if (isfield (header, '__metadata__'))
    meta = header.('__metadata__');
    if (~isstruct (meta) || ~all (cellfun (@ischar, struct2cell (meta))))
      la_bad_file (file, '__metadata__ is not an object of strings');
    end
    names = names(~strcmp (names, '__metadata__'));
  end
  entries = cellfun (@(n) header.(n), names, 'UniformOutput', false);
  offsets = zeros (numel (names), 2);
  types = zeros (numel (names), 1);
  for i = 1:numel (names)
    e = entries{i};
    name = names{i};
    if (~isstruct (e) || ~all (isfield (e, {'dtype', 'shape', 'data_offsets'})))
      la_bad_file (file, 'entry "%s" lacks dtype, shape or data_offsets', name);
    end
    if (ischar (e.dtype))
      types(i) = max ([0, find(strcmp (e.dtype, st_names), 1)]);
    end
    if (types(i) == 0)
      la_bad_file (file, 'entry "%s": dtype %s is not supported (%s)', name, ...
                   disp_value (e.dtype), strjoin (st_names, ', '));
    end
    if (~is_int_list (e.shape))
      la_bad_file (file, 'entry "%s": shape is not a list of integers', name);
    end
    if (~is_int_list (e.data_offsets) || numel (e.data_offsets) ~= 2)
      la_bad_file (file, 'entry "%s": data_offsets is not two integers', name);
    end
    offsets(i, :) = [e.data_offsets{:}];
  end
  % the tensors must tile the buffer: sorted by start, each begins where
  % the one before ends, the last ends at the buffer's end
  [~, order] = sortrows (offsets);
  pos = 0;
  for i = order'
    if (offsets(i, 1) ~= pos || offsets(i, 2) < offsets(i, 1))
      la_bad_file (file, 'entry "%s": data_offsets [%.0f, %.0f] %s', names{i}, offsets(i, :), ...
                   ternary (offsets(i, 1) < pos, 'overlap another tensor', 'leave a gap'));
    elseif (offsets(i, 2) > numel (buffer))
      la_bad_file (file, 'entry "%s": data_offsets [%.0f, %.0f] outside the %d-byte buffer', ...
                   names{i}, offsets(i, :), numel (buffer));
    end
    pos = offsets(i, 2);
  end
  if (pos ~= numel (buffer))
    la_bad_file (file, 'the tensors end at byte %.0f of the %d-byte buffer', pos, numel (buffer));
  end
  s = struct ();
  dtypes = struct ();
  for i = 1:numel (names)
    name = names{i};
    s.(name) = la_bytes_to_array (buffer(offsets(i, 1) + 1:offsets(i, 2)), np_names{types(i)}, ...
                                  false, [entries{i}.shape{:}], true, file, ['entry "' name '"']);
    dtypes.(name) = np_names{types(i)};
  end
end

function tf = is_int_list (v)
  % a JSON list of non-negative integers (la_json_decode gives a cell)
  tf = iscell (v) && all (cellfun (@(x) isnumeric (x) && isscalar (x) && x >= 0 && x == fix (x) ...
                                         && x < flintmax (), v));
end

function t = ternary (c, a, b)
  if (c)
    t = a;
  else
    t = b;
  end
end

function t = disp_value (v)
  if (ischar (v))
    t = ['"' v '"'];
  else
    t = ['of class ' class(v)];
  end
end
