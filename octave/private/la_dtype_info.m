% LA_DTYPE_INFO  Storage facts of a tensor dtype by its numpy name.
%
%   [nbytes, cls] = la_dtype_info (dtype)
%
%   nbytes: bytes per element; cls: the Octave class the stored bits are
%   read as by typecast (half and bfloat16 are read as uint16 and widened
%   later).  Returns nbytes = 0 for a dtype this library does not read.

function [nbytes, cls] = la_dtype_info (dtype)
  names = {'float16', 'bfloat16', 'float32', 'float64', 'int8', 'uint8', ...
           'int16', 'uint16', 'int32', 'uint32', 'int64', 'uint64', 'bool'};
  sizes = [2 2 4 8 1 1 2 2 4 4 8 8 1];
  classes = {'uint16', 'uint16', 'single', 'double', 'int8', 'uint8', ...
             'int16', 'uint16', 'int32', 'uint32', 'int64', 'uint64', 'uint8'};
  i = find (strcmp (dtype, names), 1);
  if (isempty (i))
    nbytes = 0;
    cls = '';
  else
    nbytes = sizes(i);
    cls = classes{i};
  end
end
