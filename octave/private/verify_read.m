% VERIFY_READ  The tensors and meta data of a kernel dump.
%
%   [t, meta, dtypes, folder] = verify_read (dump)
%   [t, meta, dtypes, folder] = verify_read (dump, 'native')
%
%   dump: a folder, or a struct of arrays in FLA layout (an optional field
%   'meta' holds the meta data as a struct).  From a folder: every NAME.npy,
%   every entry of each .safetensors and .npz file, every variable of each
%   .mat file (la_load: names exactly as written, "do" included), and
%   meta.json (la_json_decode: bounded, exact keys, duplicates refused).
%   t: struct of the arrays in double (indexed like FLA's tensors; with
%   'native', tensors stored as float32, bfloat16 or float16 stay single,
%   which holds them exactly in half a double's memory); dtypes:
%   the stored type of each; folder: the dump folder ('' for a struct).
%   Special files (FIFO, device, a link to one) are refused, not opened.
%   meta.json must be one JSON object whose values are numbers, booleans,
%   strings, null, lists of numbers (a list comes back as a column) or
%   lists of equally long lists of numbers (a matrix, one row per inner
%   list, as FLA's chunk_indices), each known key of the type it needs
%   (chunk_indices and cp_context, which change nothing, may hold any value).  A name found twice, or any unreadable
%   file, is a 'la:badFile' error whose text starts with kda_verify or
%   gdn_verify, whichever was called.

function [t, meta, dtypes, folder] = verify_read (dump, how)
  native = (nargin > 1 && strcmp (how, 'native'));
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
  caller = public_name ();
  folder = dump;
  if (~exist (folder, 'dir'))
    error ('la:badFile', '%s: %s: no such folder', caller, folder);
  end
  try
    [t, dtypes] = read_tensors (folder, caller, native);
    meta = read_meta (fullfile (folder, 'meta.json'));
  catch err
    if (strcmp (err.identifier, 'la:badFile'))
      error ('la:badFile', '%s', regexprep (err.message, '^la_load: ', [caller ': ']));
    end
    rethrow (err);
  end
end

function [t, dtypes] = read_tensors (folder, caller, native)
  t = struct ();
  dtypes = struct ();
  for ext = {'.npy', '.npz', '.safetensors', '.mat'}
    files = la_folder_files (folder, ext);   % no glob: a backslash in folder is a name
    for i = 1:numel (files)
      file = fullfile (folder, files{i});
      if (native)
        [s, dt] = la_load (file);
      else
        [s, dt] = la_load (file, 'double');
      end
      names = fieldnames (s);
      for j = 1:numel (names)
        if (isfield (t, names{j}))
          error ('la:badFile', '%s: %s: tensor ''%s'' is also in another file of the dump', ...
                 caller, file, names{j});
        end
        t.(names{j}) = s.(names{j});
        if (native && ~isa (t.(names{j}), 'single'))
          t.(names{j}) = double (t.(names{j}));   % integers, logicals: double
        end
        s.(names{j}) = [];                      % one copy at a time
        dtypes.(names{j}) = dt.(names{j});
      end
    end
  end
end

function meta = read_meta (mfile)
  meta = struct ();
  if (~exist (mfile, 'file') && ~is_link (mfile))
    return;
  end
  meta = la_json_decode (la_read_file (mfile), mfile);
  if (~isstruct (meta))
    la_bad_file (mfile, 'must be one JSON object {"key": value, ...}');
  end
  booleans = {'use_qk_l2norm_in_kernel', 'use_gate_in_kernel', 'safe_gate', ...
              'use_beta_sigmoid_in_kernel', 'allow_neg_eigval', 'state_v_first', ...
              'transpose_state_layout', 'head_first', 'use_graph', 'output_final_state', ...
              'disable_recompute', 'return_intermediate_states', 'inplace_final_state'};
  numbers = {'scale', 'chunk_size', 'lower_bound', 'max_num_seqs'};
  lists = {'cu_seqlens', 'cu_seqlens_cpu'};
  free = {'chunk_indices', 'cp_context'};      % any JSON value: not used by the math
  keys = fieldnames (meta);
  for i = 1:numel (keys)
    [v, listed] = plain (meta.(keys{i}));
    meta.(keys{i}) = v;
    if (any (strcmp (keys{i}, free)))
      continue;
    elseif (strcmp (keys{i}, 'absent'))           % names given to the writer as None
      if (ischar (v))
        v = {v};
      end
      if (~iscellstr (v))
        la_bad_file (mfile, '"absent" must be a list of tensor names');
      end
      meta.absent = v(:)';
      continue;
    elseif (isstruct (v))
      la_bad_file (mfile, '"%s": an object where a value is expected', keys{i});
    elseif (iscell (v))
      la_bad_file (mfile, '"%s": a list of numbers (or of lists of numbers) expected', keys{i});
    end
    if (any (strcmp (keys{i}, booleans)) && (listed || ~(isscalar (v) && (islogical (v) || isnumeric (v)))))
      la_bad_file (mfile, '"%s" must be true or false', keys{i});
    elseif (any (strcmp (keys{i}, numbers)) && (listed || ~(isempty (v) || (isscalar (v) && isnumeric (v)))))
      la_bad_file (mfile, '"%s" must be a number (or null)', keys{i});
    elseif (strcmp (keys{i}, 'dtype') && ~ischar (v))
      la_bad_file (mfile, '"dtype" must be a string such as "bfloat16"');
    elseif (any (strcmp (keys{i}, lists)) && ~(isnumeric (v) && ~isempty (v)) && ~isequal (v, []))
      la_bad_file (mfile, '"%s" must be a list of integers', keys{i});
    end
  end
end

function [v, listed] = plain (v)
  % JSON lists as arrays: a list of numbers is a column, a list of equally
  % long lists of numbers (FLA's chunk_indices [[i_n, i_t], ...]) a matrix
  % with one row per inner list; anything else stays a cell
  listed = iscell (v);
  if (~listed)
    return;
  end
  if (all (cellfun (@(x) isnumeric (x) && isscalar (x), v)))
    v = reshape ([v{:}], [], 1);
  elseif (~isempty (v) && all (cellfun (@iscell, v)))
    rows = cellfun (@(x) plain (x), v, 'UniformOutput', false);
    if (all (cellfun (@(x) isnumeric (x) && isequal (size (x), size (rows{1})), rows)))
      v = [rows{:}]';
    end
  end
end

function tf = is_link (file)
  % a dangling or special link still counts as there (la_read_file refuses it)
  tf = false;
  if (exist ('OCTAVE_VERSION', 'builtin'))
    [~, err] = lstat (file);
    tf = (err == 0);
  end
end

function name = public_name ()
  % kda_verify or gdn_verify, whichever is reading the dump
  st = dbstack ();
  name = 'kda_verify';
  hit = find (ismember ({st.name}, {'kda_verify', 'gdn_verify'}), 1);
  if (~isempty (hit))
    name = st(hit).name;
  end
end
