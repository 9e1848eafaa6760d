% LA_REGULAR_FILE  Refuse anything but a regular file, before opening it.
%
%   nbytes = la_regular_file (file)
%
%   A FIFO blocks the reader forever, a device (or a link to /dev/zero)
%   reads without end and a folder is not a tensor file: each is a
%   'la:badFile' error here, before fopen.  Links are followed (stat), so a
%   link to a regular file is read like the file.  Returns the file's size
%   in bytes.  MATLAB has no stat: there the size comes from dir and the
%   check is that dir lists one entry that is not a folder.

function nbytes = la_regular_file (file)
  if (exist ('OCTAVE_VERSION', 'builtin'))
    [st, err, msg] = stat (file);
    if (err ~= 0)
      la_bad_file (file, 'cannot open (%s)', msg);
    elseif (~S_ISREG (st.mode))
      la_bad_file (file, 'not a regular file (a %s): refused before reading', kind (st.mode));
    end
    nbytes = st.size;
  else
    d = dir (file);
    if (numel (d) ~= 1 || d.isdir)
      la_bad_file (file, 'cannot open (not a regular file)');
    end
    nbytes = d.bytes;
  end
end

function k = kind (mode)
  if (S_ISFIFO (mode))
    k = 'FIFO';
  elseif (S_ISCHR (mode) || S_ISBLK (mode))
    k = 'device';
  elseif (S_ISDIR (mode))
    k = 'folder';
  elseif (S_ISSOCK (mode))
    k = 'socket';
  else
    k = 'special file';
  end
end
