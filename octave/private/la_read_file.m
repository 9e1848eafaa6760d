% LA_READ_FILE  The bytes of a regular file, as a uint8 row.
%
%   bytes = la_read_file (file)
%
%   Special files (FIFO, device, a link to one, a folder) are refused
%   before opening (la_regular_file); a file that changes size while it is
%   read is a 'la:badFile' error, as is one that cannot be opened.

function bytes = la_read_file (file)
  nbytes = la_regular_file (file);
  fid = fopen (file, 'r');
  if (fid < 0)
    la_bad_file (file, 'cannot open');
  end
  closer = onCleanup (@() fclose (fid));
  bytes = fread (fid, [1, nbytes], 'uint8=>uint8');
  if (nbytes == 0)
    bytes = zeros (1, 0, 'uint8');
  end
  if (numel (bytes) ~= nbytes || ~isempty (fread (fid, 1, 'uint8')))
    la_bad_file (file, 'its size changed while it was read');
  end
end
