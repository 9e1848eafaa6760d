% LA_BAD_FILE  Raise the error of an unreadable tensor file.
%
%   la_bad_file (file, fmt, ...)
%
%   Throws identifier 'la:badFile' with the message "la_load: FILE:
%   <problem>", so every reader names the public function, the file and
%   what is wrong with it the same way (kda_verify and gdn_verify put their
%   own name in front when they read a dump: verify_read).

function la_bad_file (file, fmt, varargin)
  error ('la:badFile', 'la_load: %s: %s', file, sprintf (fmt, varargin{:}));
end
