% LA_ARRAY_TO_BYTES  Row-major little-endian bytes of an array, for writing.
%
%   [bytes, shape, dtype] = la_array_to_bytes (x, dtype)
%
%   x: numeric or logical array, indexed like the file's array (see
%   la_load); dtype: the numpy name to store ('' = after x's class:
%   double -> float64, single -> float32, logical -> bool, integers as
%   they are).  'bfloat16' rounds to nearest even from single (NaN stays
%   NaN).  shape: the dimensions to write; an n x 1 column is written 1-D.

function [bytes, shape, dtype] = la_array_to_bytes (x, dtype)
  if (isempty (dtype))
    dtype = class_dtype (x);
  end
  shape = size (x);
  if (numel (shape) == 2 && shape(2) == 1)
    shape = shape(1);
  end
  x = x(:);
  switch (dtype)
    case 'bfloat16'
      bits = typecast (single (x), 'uint32');
      odd = bitand (bitshift (bits, -16), uint32 (1));
      rounded = bitshift (bits + uint32 (32767) + odd, -16);   % ties to even
      rounded(isnan (x)) = uint32 (32704);                     % 0x7FC0
      v = uint16 (rounded);
    case 'float16'
      error ('la:badFile', 'la_save: writing float16 is not supported (store float32 or bfloat16)');
    case 'bool'
      v = uint8 (x ~= 0);
    otherwise
      [nbytes, cls] = la_dtype_info (dtype);
      if (nbytes == 0)
        error ('la:badFile', 'la_save: unknown dtype ''%s''', dtype);
      end
      v = cast (x, cls);
  end
  bytes = typecast (v(:)', 'uint8');
  if (isempty (bytes))
    bytes = zeros (1, 0, 'uint8');
  elseif (sum (shape > 1) > 1)
    % column-major to row-major: the axes of the flipped shape reversed
    bytes = la_mex ('file', 'reverse', bytes, fliplr (shape), numel (bytes) / numel (v));
  end
end

function dtype = class_dtype (x)
  switch (class (x))
    case 'double'
      dtype = 'float64';
    case 'single'
      dtype = 'float32';
    case 'logical'
      dtype = 'bool';
    otherwise
      dtype = class (x);    % int32, int64, uint8, ...
  end
end
