% VERIFY_READ  The tensors and meta data of a kernel dump.
%
%   [t, meta, dtypes, folder] = verify_read (dump)
%
%   dump: a folder, or a struct of arrays in FLA layout (an optional field
%   'meta' holds the meta data as a struct).  From a folder: every NAME.npy,
%   every entry of each .safetensors and .npz file, every variable of each
%   .mat file, and meta.json.  t: struct of the arrays in double (indexed
%   like FLA's tensors); dtypes: the stored type of each; folder: the dump
%   folder ('' for a struct).  A name found twice is a 'la:badFile' error.

function [t, meta, dtypes, folder] = verify_read (dump)
  if (isstruct (dump))
    folder = '';
    meta = struct ();
    if (isfield (dump, 'meta'))
      meta = dump.meta;
      dump = rmfield (dump, 'meta');
    end
    t = dump;
    dtypes = struct ();
    names = fieldnames (t);
    for i = 1:numel (names)
      dtypes.(names{i}) = class (t.(names{i}));
      t.(names{i}) = double (t.(names{i}));
    end
    return;
  end
  folder = dump;
  if (~exist (folder, 'dir'))
    error ('la:badFile', '%s: no such folder', folder);
  end
  t = struct ();
  dtypes = struct ();
  for ext = {'*.npy', '*.npz', '*.safetensors', '*.mat'}
    files = dir (fullfile (folder, ext{1}));
    for i = 1:numel (files)
      file = fullfile (folder, files(i).name);
      [s, dt] = la_load (file, 'double');
      names = fieldnames (s);
      for j = 1:numel (names)
        if (isfield (t, names{j}))
          error ('la:badFile', '%s: tensor ''%s'' is also in another file of the dump', file, names{j});
        end
        t.(names{j}) = s.(names{j});
        dtypes.(names{j}) = dt.(names{j});
      end
    end
  end
  meta = struct ();
  mfile = fullfile (folder, 'meta.json');
  if (exist (mfile, 'file'))
    try
      meta = jsondecode (fileread (mfile));
    catch err
      error ('la:badFile', '%s: not JSON (%s)', mfile, err.message);
    end
  end
end
