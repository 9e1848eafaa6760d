% VERIFY_PAD_ROWS  Pad the rows of a C x T x ... chunk-matrix array to FLA's BT.
%
%   x = verify_pad_rows (x, rows)
%
%   aux holds aux.ChunkSize rows (the chunk size used, at most the longest
%   sequence); FLA's arrays have chunk_size (BT) columns.

function x = verify_pad_rows (x, rows)
  if (size (x, 1) < rows)
    sz = size (x);
    x = cat (1, x, zeros ([rows - sz(1), sz(2:end)]));
  end
end
