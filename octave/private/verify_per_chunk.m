% VERIFY_PER_CHUNK  Fill each chunk's block of a C x T x HV x B chunk-matrix array.
%
%   y = verify_per_chunk (aux, y, fn)
%
%   For every chunk of aux.chunks (sequence, first step, length c) and
%   value head j: y(1:c, cols, j, b) = fn (c, cols, j, b), with cols the
%   chunk's steps and b its batch entry (1 with CuSeqlens).  The rows of y
%   are those of the forward's aux (row i of column t: entry i of the row of
%   the chunk matrix that step t is).

function y = verify_per_chunk (aux, y, fn)
  for n = 1:size (aux.chunks, 1)
    b = 1;
    if (size (y, 4) > 1)
      b = aux.chunks(n, 1);
    end
    c = aux.chunks(n, 3);
    cols = aux.chunks(n, 2) + (0:c - 1);
    for j = 1:size (y, 3)
      y(1:c, cols, j, b) = fn (c, cols, j, b);
    end
  end
end
