% VERIFY_RUN  The work of kda_verify and gdn_verify.
%
%   [ok, report] = verify_run (op, dump, out)
%
%   op: 'kda' or 'gdn'; dump: a folder or a struct (see kda_verify); out:
%   the folder the report and heat maps go to ('' for none; [] for the
%   dump folder).  Every error is rethrown with its identifier and a
%   message that starts with OP_verify.

function [ok, report] = verify_run (op, dump, out)
  fn = [op '_verify'];
  try
    [ok, report] = run (fn, op, dump, out);
  catch err
    error (struct ('message', prefixed (fn, err.message), 'identifier', identifier (op, err), ...
                   'stack', err.stack));
  end
end

function [ok, report] = run (fn, op, dump, out)
  if (ischar (dump))
    refuse_unreadable (fn, dump);
  end
  [t, meta, dtypes, folder] = verify_read (dump);
  if (~isnumeric (out) || ~isempty (out))       % the caller names the folder
    folder = out;
    if (~isempty (folder) && ~exist (folder, 'dir'))
      error ('la:badFile', '%s: ReportDir ''%s'' is no folder', fn, folder);
    end
  end
  [t, gate_notes] = gdn_defaults (op, t);
  need = {'q', 'k', 'v', 'g', 'beta'};
  missing = need(~isfield (t, need));
  if (~isempty (missing))
    error ('la:badFile', '%s: the dump lacks the input(s) %s (found: %s)', fn, ...
           strjoin (missing, ', '), strjoin (fieldnames (t)', ', '));
  end
  [meta, decode] = verify_decode ('meta', t, meta);   % a fused recurrent decode call?
  [opts, problem, notes] = verify_options (op, meta, t);
  [problem.dtype, dtype_note] = verify_dtype (fn, op, meta, t, dtypes);
  notes = [{dtype_note}, gate_notes, notes];
  if (isempty (decode))
    verify_layout (fn, op, t, problem);
    [ref, unchecked] = verify_compute (op, t, opts, problem);
    [problem.expected, problem.emu_err] = verify_expected (op, t, opts, problem, ref);
  else
    [ref, unchecked, dec, more, t] = verify_decode ('compute', op, t, opts, problem, decode);
    [problem.expected, more2, problem.decode_emu] = verify_decode ('expected', op, t, opts, ...
                                                                   problem, decode, ref, dtypes);
    notes = [notes, more, more2];
    problem.emu_err = struct ();   % decode rows: their windows in verify_decode 'locate'
  end
  problem.op = op;
  names = intersect (fieldnames (t), fieldnames (ref), 'stable');
  rows = [];
  for i = 1:numel (names)
    [tol, warn_tol, expected, rule] = verify_tolerance (problem.dtype, names{i}, problem);
    row = verify_compare (names{i}, ref.(names{i}), t.(names{i}), tol, warn_tol, problem);
    row.expected = expected;   % what a correct kernel of that dtype gets
    row.rule = rule;
    row = local_check (row, ref.(names{i}), t.(names{i}), problem);
    rows = [rows; row];  %#ok<AGROW>
  end
  if (~isempty (decode))
    rows = verify_decode ('locate', rows, ref, t, dec, problem);   % sequence, step, slot; windows
  end
  if (isempty (rows))
    error ('la:badFile', '%s: the dump holds no output to check (o, ht, dq, ...)', fn);
  end
  pool = '';                     % a decode call writing back into the caller's pool
  if (~isempty (decode) && decode.inplace)
    pool = decode.engine.name;
  end
  rows = verify_precision (rows, t, dtypes, problem.dtype, pool);
  rows = states_from_h (rows);
  verdict = verdict_of (rows, unchecked);
  slips = struct ('name', {}, 'text', {}, 'ratio_after', {}, 'matched', {});
  if (strcmp (verdict, 'fail'))   % named slips: only for a failing dump
    [slips, more] = verify_slips (op, t, opts, problem, rows, decode);
    notes = [notes, more];
  end
  stored = unique (struct2cell (dtypes));
  notes{end + 1} = sprintf ('Stored dtypes in the dump: %s.', strjoin (stored', ', '));
  [text, file, json, json_file] = verify_report (op, verdict, rows, unchecked, notes, problem, ...
                                                 folder, slips);
  ok = ~strcmp (verdict, 'fail');
  report = struct ('ok', ok, 'verdict', verdict, 'rows', rows, 'unchecked', unchecked, ...
                   'notes', {notes}, 'dtype', problem.dtype, 'fla_commit', verify_fla_commit (), ...
                   'slips', slips, 'markdown', text, 'file', file, 'json', json, ...
                   'json_file', json_file);
end

function row = local_check (row, ref, x, problem)
  % the error window by window (verify_local): a worse level replaces the row's
  row.local = 0;
  name = row.name;
  if (strcmp (row.status, 'fail') || ~isfield (problem.emu_err, name) || numel (x) ~= numel (ref))
    return;
  end
  x = reshape (double (x), size (ref));
  [level, where, row.local] = verify_local (name, ref, x, problem.emu_err.(name), row.warn_tol, problem);
  if (strcmp (level, 'pass') || (strcmp (level, 'warn') && strcmp (row.status, 'warn')))
    return;
  end
  row.status = level;
  row.pass = ~strcmp (level, 'fail');
  row.where = where;
  [~, row.err_map] = verify_divergence (name, ref, x, row.warn_tol, problem);
end

function [t, notes] = gdn_defaults (op, t)
  % FLA's fused_recurrent_gated_delta_rule takes g = None (no scalar gate,
  % with gk / gv) and beta = None (ones)
  notes = {};
  if (~strcmp (op, 'gdn') || ~isfield (t, 'v'))
    return;
  end
  heads = [size(t.v, 1), size(t.v, 2), size(t.v, 3)];
  if (~isfield (t, 'g') && any (isfield (t, {'gk', 'gv'})))
    t.g = zeros (heads);
    notes{end + 1} = 'No g in the dump: no scalar gate (FLA''s g = None), only gk / gv.';
  end
  if (~isfield (t, 'beta'))
    t.beta = ones (heads);
    notes{end + 1} = 'No beta in the dump: beta = 1, as FLA''s fused_recurrent_gated_delta_rule takes beta = None.';
  end
end

function verdict = verdict_of (rows, unchecked)
  % fail: a tensor fails or a gradient went unchecked; warn: a tensor warns
  % or anything else went unchecked; else pass
  levels = [{rows.status}, {unchecked.severity}];
  verdict = 'pass';
  if (any (strcmp (levels, 'fail')))
    verdict = 'fail';
  elseif (any (strcmp (levels, 'warn')))
    verdict = 'warn';
  end
end

function rows = states_from_h (rows)
  % a wrong final state (or dh0) points at the first wrong chunk of h (dh)
  pairs = {'ht', 'h'; 'dh0', 'dh'};
  for i = 1:size (pairs, 1)
    s = find (strcmp ({rows.name}, pairs{i, 1}));
    h = find (strcmp ({rows.name}, pairs{i, 2}));
    if (~isempty (s) && ~isempty (h) && ~strcmp (rows(s).status, 'pass') ...
        && ~strcmp (rows(h).status, 'pass'))
      rows(s).where = sprintf ('%s; the dump''s %s: %s', rows(s).where, pairs{i, 2}, rows(h).where);
    end
  end
end

function refuse_unreadable (fn, folder)
  % files that hold tensors this library cannot read: say so, never ignore them
  kinds = {'*.pt', '*.pth', '*.bin', '*.ckpt', '*.pkl', '*.pickle', '*.h5', '*.hdf5'};
  for i = 1:numel (kinds)
    files = la_folder_files (folder, {kinds{i}(2:end)});   % no glob: a backslash in folder is a name
    if (~isempty (files))
      error ('la:badFile', ['%s: %s is a %s file, which this library does not read (torch.save ' ...
             'and pickle files run code to load; HDF5 needs a library): write the dump with ' ...
             'octave/python/kdagdn_dump.py (safetensors), numpy.save or scipy.io.savemat, ' ...
             'and move %s out of the dump folder'], fn, fullfile (folder, files{1}), ...
             kinds{i}(3:end), files{1});
    end
  end
end

function msg = prefixed (fn, msg)
  % "la_mex: kda_chunk: ..." or "meta.json: ..." -> "kda_verify: ..."
  if (strncmp (msg, [fn ':'], numel (fn) + 1))
    return;
  end
  msg = regexprep (msg, '^(error: )?(la_mex: )?', '');
  msg = [fn ': ' msg];
end

function id = identifier (op, err)
  id = err.identifier;
  if (isempty (id))
    id = [op ':badDump'];
  end
end
