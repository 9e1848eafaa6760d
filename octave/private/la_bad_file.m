% LA_BAD_FILE  Raise the error of an unreadable tensor file.
%
%   la_bad_file (file, fmt, ...)
%
%   Throws identifier 'la:badFile' with the message "FILE: <problem>", so
%   every caller names the file and what is wrong with it the same way.

function la_bad_file (file, fmt, varargin)
  error ('la:badFile', '%s: %s', file, sprintf (fmt, varargin{:}));
end
