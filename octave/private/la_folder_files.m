% LA_FOLDER_FILES  The names of a folder's entries that end in one of exts.
%
%   names = la_folder_files (folder, exts)
%
%   exts: a cell of endings such as {'.npy', '.npz'} (compared exactly,
%   case and all, as a glob would on Linux).  Returns a sorted cell row of
%   entry names (files, links or folders: the reader judges each).  The
%   folder is listed as it is, never through a glob pattern: dir (fullfile
%   (folder, '*.npy')) finds nothing in a folder whose name holds a
%   backslash or brackets, and Octave's dir (folder) neither (it globs the
%   name), so Octave lists with readdir.  A folder that cannot be listed
%   is a 'la:badFile' error naming it.

function names = la_folder_files (folder, exts)
  if (exist ('OCTAVE_VERSION', 'builtin'))
    [names, err, msg] = readdir (folder);
    if (err ~= 0)
      la_bad_file (folder, 'cannot list the folder (%s)', msg);
    end
    names = names(:)';
  else
    d = dir (folder);
    names = {d.name};
  end
  keep = false (size (names));
  for i = 1:numel (exts)
    n = numel (exts{i});
    keep = keep | cellfun (@(s) numel (s) > n && strcmp (s(end - n + 1:end), exts{i}), names);
  end
  names = sort (names(keep));
end
