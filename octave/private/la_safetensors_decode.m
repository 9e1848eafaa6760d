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
%   starting with '{', JSON without duplicate keys, nested at most 64
%   deep, each dtype one of its exact names, shape a list of integers,
%   data_offsets two integers spanning exactly shape x dtype bytes, and the
%   tensors, in offset order, tiling the buffer with no gap, overlap or
%   byte left over (la_mex ('file', 'safetensors'), la_files_safetensors.c).
%   Anything else is a 'la:badFile' error.

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
  [h, err] = la_mex ('file', 'safetensors', bytes(9:8 + hlen), numel (bytes) - 8 - hlen);
  if (~isempty (err))
    la_bad_file (file, 'header: %s', err);
  end
  start = 8 + hlen;
  np_names = {'float16', 'bfloat16', 'float32', 'float64', 'int8', 'uint8', 'int16', ...
              'uint16', 'int32', 'uint32', 'int64', 'uint64', 'bool'};
  classes = {'uint16', 'uint16', 'single', 'double', 'int8', 'uint8', 'int16', ...
             'uint16', 'int32', 'uint32', 'int64', 'uint64', 'uint8'};
  % one typecast per dtype over the bytes of all its tensors (they tile
  % the buffer), split by element counts; sizes were checked in the MEX
  buffer = bytes(start + 1:end);
  names = mat2cell (char (h.name), 1, h.name_len);
  n = numel (names);
  values = cell (n, 1);
  sizes = [2 2 4 8 1 1 2 2 4 4 8 8 1];
  [~, order] = sort (h.offsets(:, 1));
  for d = unique (h.dtype(:))'
    g = order(h.dtype(order) == d);
    if (numel (g) <= 64)                 % few tensors: their slices
      x = typecast (cell2mat (arrayfun (@(i) buffer(h.offsets(i, 1) + 1:h.offsets(i, 2)), g(:)', ...
                                        'UniformOutput', false)), classes{d});
    else                                 % many: one mask over the buffer
      edge = accumarray ([h.offsets(g, 1); h.offsets(g, 2)] + 1, [ones(numel (g), 1); -ones(numel (g), 1)], ...
                         [numel(buffer) + 1, 1]);
      x = typecast (buffer(cumsum (edge(1:end - 1)) > 0), classes{d});
    end
    if (d == 1)
      x = la_half_to_single (x);
    elseif (d == 2)
      x = typecast (bitshift (uint32 (x), 16), 'single');
    elseif (d == 13)
      x = (x ~= 0);
    end
    values(g) = mat2cell (x(:), (h.offsets(g, 2) - h.offsets(g, 1)) / sizes(d), 1);
  end
  % a 1-D tensor is the column it already is, 0-D a scalar; the rest take
  % their shape (row-major)
  shapes = mat2cell (h.dims, 1, h.ndims);
  for i = find (h.ndims(:)' > 1)
    shape = shapes{i};
    try
      v = values{i};
      if (sum (shape > 1) > 1)            % row-major to column-major in the MEX
        if (islogical (v))
          v = la_mex ('file', 'reverse', uint8 (v(:)'), shape, 1) ~= 0;
        else
          b = typecast (v(:)', 'uint8');
          v = typecast (la_mex ('file', 'reverse', b, shape, numel (b) / numel (v)), class (v));
        end
      end
      values{i} = reshape (v, shape);
    catch e
      la_bad_file (file, 'entry "%s": cannot hold shape [%s] (%s)', names{i}, num2str (shape), e.message);
    end
  end
  s = cell2struct (values, names(:), 1);
  dtypes = cell2struct (np_names(h.dtype)', names(:), 1);
  if (n == 0)
    s = struct ();
    dtypes = struct ();
  end
end
