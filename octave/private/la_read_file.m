% LA_READ_FILE  The bytes of a regular file, as a uint8 row.
%
%   bytes = la_read_file (file)
%
%   The file is opened once, in C (la_mex ('file', 'read'); see
%   mex/files/la_files_io.c), and what is checked is that open descriptor:
%   a special file (FIFO, device, socket, folder, or a link to one) is a
%   'la:badFile' error before a byte is read, and a FIFO never blocks the
%   open (O_NONBLOCK), so swapping the name between a check and the read
%   changes nothing.  A file larger than the memory available, one that
%   cannot be opened, or one that changes size while it is read is a
%   'la:badFile' error too.  It is read in steps of 1 MiB, Ctrl-C polled
%   between them ('la:interrupted').

function bytes = la_read_file (file)
  [bytes, err] = la_mex ('file', 'read', file);
  if (~isempty (err))
    la_bad_file (file, '%s', err);
  end
end
