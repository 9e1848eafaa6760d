% LA_BYTES_TO_ARRAY  Decode raw tensor bytes into an Octave array.
%
%   x = la_bytes_to_array (bytes, dtype, big_endian, shape, c_order, file, what)
%
%   bytes: uint8 vector holding exactly prod (shape) elements of dtype (a
%   numpy name, see la_dtype_info); shape: the dimensions as the writer
%   lists them; c_order: true for row-major data (numpy's default, PyTorch,
%   safetensors), false for Fortran order.  The result is indexed like the
%   writer's array: x(i, j, ...) = a[i-1, j-1, ...]; a 1-D array is a
%   column, a 0-D one a scalar.  float16 and bfloat16 come back as single
%   (both are exact in single), bool as logical, other types in their class.
%   The byte count is checked against the shape first, so a mislabelled or
%   truncated file is a 'la:badFile' error naming FILE and WHAT.

function x = la_bytes_to_array (bytes, dtype, big_endian, shape, c_order, file, what)
  [nbytes, cls] = la_dtype_info (dtype);
  if (nbytes == 0)
    la_bad_file (file, '%s: dtype %s is not supported', what, dtype);
  end
  shape = double (shape(:)');
  if (any (shape < 0 | shape ~= round (shape) | shape >= flintmax ()))
    la_bad_file (file, '%s: bad shape', what);
  end
  n = prod (shape);   % 1 for a 0-D array
  % compare in double before allocating anything of the claimed size
  if (n * nbytes ~= numel (bytes))
    la_bad_file (file, '%s: shape [%s] of %s needs %.0f bytes, the file holds %d', ...
                 what, num2str (shape), dtype, n * nbytes, numel (bytes));
  end
  bytes = uint8 (bytes(:));
  if (big_endian && nbytes > 1)
    bytes = reshape (flipud (reshape (bytes, nbytes, [])), [], 1);
  end
  if (c_order && sum (shape > 1) > 1)
    % row-major to column-major in the MEX (Octave's permute of a large
    % N-D array is several times slower)
    bytes = la_mex ('file', 'reverse', bytes', shape, nbytes);
    c_order = false;
  end
  if (n == 0)
    x = zeros (0, 1, cls);
  elseif (strcmp (dtype, 'bfloat16'))
    x = la_mex ('file', 'bf16', bytes(:));   % the high halves of float32s, in C
  else
    x = typecast (bytes, cls);
  end
  if (strcmp (dtype, 'float16'))
    x = la_half_to_single (x);
  elseif (strcmp (dtype, 'bfloat16') && n == 0)
    x = single (x);
  elseif (strcmp (dtype, 'bool'))
    x = (x ~= 0);
  end
  try
    x = la_shape_array (x, shape, c_order);
  catch err
    la_bad_file (file, '%s: cannot hold shape [%s] (%s)', what, num2str (shape), err.message);
  end
end

function x = la_shape_array (x, shape, c_order)
  % give the element vector the writer's shape, indexed like the writer's array
  if (numel (shape) == 0)
    return;                       % 0-D: one element
  elseif (numel (shape) == 1)
    x = reshape (x, shape, 1);
  elseif (c_order)
    x = permute (reshape (x, fliplr (shape)), numel (shape):-1:1);
  else
    x = reshape (x, shape);
  end
end
