% VERIFY_RUN  The work of kda_verify and gdn_verify.
%
%   [ok, report] = verify_run (op, dump, name, value, ...)
%
%   op: 'kda' or 'gdn'; dump: a folder or a struct (see kda_verify);
%   options (kda_verify's): 'ReportDir' the folder the report and heat
%   maps go to ('' for none; default the dump folder), 'SliceHeads' how
%   many query/key heads (with their value heads) are recomputed and
%   compared at a time ([] for the default: as many as keep a slice's
%   double tensors within half the memory the dump is held in, at least
%   64 MiB), 'Quiet' (false: a call of more than a few seconds prints
%   progress lines to stderr).  A dump read from a folder keeps its
%   float32, bfloat16 and float16 tensors single; each slice is made
%   double, recomputed (verify_compute, verify_expected), reduced over
%   channels (verify_reduce) and freed: the verdict, ratios and locations
%   are those of the whole dump at once, to rounding.  Dumps that cannot
%   be cut by heads (use_gate_in_kernel's A_log, dt_bias; a decode call; a
%   tensor whose head axis is not where FLA keeps it) are checked whole.
%   Every error is rethrown with its identifier and a message that starts
%   with OP_verify.

function [ok, report] = verify_run (op, dump, varargin)
  fn = [op '_verify'];
  opt = options (op, fn, varargin);
  try
    [ok, report] = run (fn, op, dump, opt);
  catch err
    error (struct ('message', prefixed (fn, err.message), 'identifier', identifier (op, err), ...
                   'stack', err.stack));
  end
end

function opt = options (op, fn, args)
  opt = struct ('ReportDir', [], 'SliceHeads', [], 'Quiet', false);
  known = fieldnames (opt);
  if (mod (numel (args), 2) ~= 0)
    error ([op ':nargin'], '%s: needs one dump folder or struct, then option name, value pairs', fn);
  end
  for i = 1:2:numel (args)
    name = args{i};
    value = args{i + 1};
    if (~ischar (name) || ~any (strcmpi (name, known)))
      error ([op ':badOption'], ['%s: unknown option %s (options: ''ReportDir'', a folder or ' ...
             '''''; ''SliceHeads'', a count of heads; ''Quiet'', true or false)'], fn, ...
             disp_name (name));
    end
    name = known{strcmpi (name, known)};
    switch (name)
      case 'ReportDir'
        if (~ischar (value))
          error ([op ':badOption'], '%s: ''ReportDir'' must be a folder name (or ''''), got a %s', ...
                 fn, class (value));
        end
      case 'SliceHeads'
        if (~(isempty (value) || (isnumeric (value) && isscalar (value) && value >= 1 ...
                                  && value == fix (value))))
          error ([op ':badOption'], '%s: ''SliceHeads'' must be a whole number >= 1 (or []), got %s', ...
                 fn, mat2str (value));
        end
      case 'Quiet'
        if (~(isscalar (value) && (islogical (value) || isnumeric (value))))
          error ([op ':badOption'], '%s: ''Quiet'' must be true or false', fn);
        end
        value = logical (value);
    end
    opt.(name) = value;
  end
end

function s = disp_name (name)
  if (ischar (name))
    s = ['''' name ''''];
  else
    s = sprintf ('(a %s)', class (name));
  end
end

function [ok, report] = run (fn, op, dump, opt)
  progress = progress_line (fn, opt.Quiet);
  if (ischar (dump))
    refuse_unreadable (fn, dump);
  end
  [t, meta, dtypes, folder] = verify_read (dump, 'native');
  out = opt.ReportDir;
  if (~isnumeric (out) || ~isempty (out))       % the caller names the folder
    folder = out;
    if (~isempty (folder) && ~exist (folder, 'dir'))
      error ('la:badFile', '%s: ReportDir ''%s'' is no folder', fn, folder);
    end
  end
  [meta, absent] = absent_names (meta);
  [t, gate_notes] = gdn_defaults (op, t);
  need = {'q', 'k', 'v', 'g', 'beta'};
  missing = need(~isfield (t, need));
  if (~isempty (missing))
    error ('la:badFile', '%s: the dump lacks the input(s) %s (found: %s)', fn, ...
           strjoin (missing, ', '), strjoin (fieldnames (t)', ', '));
  end
  [meta, decode] = verify_decode ('meta', t, meta);   % a fused recurrent decode call?
  axes = struct ();
  if (isempty (decode))
    axes = slice_axes (op, t, meta);
  end
  t = to_double (t, setdiff (fieldnames (t), fieldnames (axes)));   % what is not cut: double
  [opts, problem, notes] = verify_options (op, meta, t);
  [problem.dtype, dtype_note] = verify_dtype (fn, op, meta, t, dtypes);
  notes = [{dtype_note}, gate_notes, notes];
  problem.op = op;
  if (isempty (decode))
    verify_layout (fn, op, t, problem);
    [R, unchecked, problem.expected] = sliced (op, t, opts, problem, axes, opt, progress);
  else
    [ref, unchecked, dec, more, t] = verify_decode ('compute', op, t, opts, problem, decode);
    [problem.expected, more2, problem.decode_emu] = verify_decode ('expected', op, t, opts, ...
                                                                   problem, decode, ref, dtypes);
    notes = [notes, more, more2];
    R = struct ();     % decode rows: their windows in verify_decode 'locate'
    for n = intersect (fieldnames (t), fieldnames (ref), 'stable')'
      R.(n{1}) = verify_reduce (n{1}, ref.(n{1}), t.(n{1}), [], problem);
    end
  end
  [unchecked, absent_note] = absent_tensors (absent, t, unchecked);
  notes = [notes, absent_note];
  progress ('comparing');
  names = fieldnames (R);
  rows = [];
  for i = 1:numel (names)
    [tol, warn_tol, expected, rule] = verify_tolerance (problem.dtype, names{i}, problem);
    row = verify_compare (names{i}, R.(names{i}), tol, warn_tol, problem);
    row.expected = expected;   % what a correct kernel of that dtype gets
    row.rule = rule;
    row = local_check (row, R.(names{i}), problem);
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
    progress ('trying the named slips');
    [slips, more] = verify_slips (op, to_double (t, fieldnames (t)), opts, problem, rows, decode);
    notes = [notes, more];
  end
  stored = unique (struct2cell (dtypes));
  notes{end + 1} = sprintf ('Stored dtypes in the dump: %s.', strjoin (stored', ', '));
  progress ('writing the report');
  [text, file, json, json_file] = verify_report (op, verdict, rows, unchecked, notes, problem, ...
                                                 folder, slips);
  ok = ~strcmp (verdict, 'fail');
  report = struct ('ok', ok, 'verdict', verdict, 'rows', rows, 'unchecked', unchecked, ...
                   'notes', {notes}, 'dtype', problem.dtype, 'fla_commit', verify_fla_commit (), ...
                   'slips', slips, 'markdown', text, 'file', file, 'json', json, ...
                   'json_file', json_file);
  progress ('');
end

function [R, unchecked, expected] = sliced (op, t, opts, problem, axes, opt, progress)
  % recompute and compare slice by slice of heads; R: per checked tensor
  % its reduction (verify_reduce) over all heads, in the order of t
  [groups, H] = head_groups (t, axes, opt.SliceHeads);
  G = size (t.v, 3) / H;                       % value heads per query/key head
  R = struct ();
  sums = struct ();                            % per tensor: [sum (ref - emulated) .^ 2, sum ref .^ 2]
  for s = 1:numel (groups)
    heads = groups{s};
    if (numel (groups) > 1)
      progress (sprintf ('heads %d-%d of %d (slice %d of %d)', heads(1) - 1, heads(end) - 1, ...
                         H, s, numel (groups)));
    else
      progress ('recomputing');
    end
    ts = slice_of (t, axes, heads, G);
    [ref, unchecked, lib] = verify_compute (op, ts, opts, problem);
    emulated = problem;
    emulated.lib = lib;                        % the same inputs, made once
    clear lib;
    [~, err] = verify_expected (op, ts, opts, emulated, ref);
    clear emulated;
    names = intersect (fieldnames (ts), fieldnames (ref), 'stable');
    for i = 1:numel (names)
      n = names{i};
      e = [];
      if (isfield (err, n))
        e = err.(n);
        err.(n) = [];
        if (~isfield (sums, n))
          sums.(n) = [0, 0];
        end
        sums.(n) += [sumsq(e(:)), sumsq(ref.(n)(:))];
      end
      prev = [];
      if (isfield (R, n))
        prev = R.(n);
      end
      R.(n) = verify_reduce (n, ref.(n), ts.(n), e, problem, prev);
      ref.(n) = [];
      ts.(n) = [];
      e = [];
    end
    clear ts ref err;
  end
  % verify_expected's figure over every head: rms(ref - emulated) / rms(ref)
  expected = struct ();
  for n = fieldnames (sums)'
    expected.(n{1}) = sqrt (sums.(n{1})(1)) / max (sqrt (sums.(n{1})(2)), realmin);
  end
end

function axes = slice_axes (op, t, meta)
  % per tensor with a head axis: [axis, 1 for query/key heads or 2 for
  % value heads]; an empty struct when the dump cannot be cut by heads
  axes = struct ();
  [H, HV] = deal (size (t.q, 3), size (t.v, 3));
  if (ndims (t.q) ~= 4 || ndims (t.v) ~= 4 || H == 0 || mod (HV, H) ~= 0)
    return;
  end
  svf = isfield (meta, 'state_v_first') && ~isempty (meta.state_v_first) ...
        && logical (meta.state_v_first);
  names = fieldnames (t);
  cut = struct ();
  for i = 1:numel (names)
    try
      kind = la_fla_kind (names{i}, op, svf);
    catch
      continue;                                % not a tensor of FLA's: whole in every slice
    end
    switch (kind)
      case 'qk'
        a = [3, 1];
      case {'v', 'gk', 'tri', 'bt', 'chunkstate'}
        a = [3, 2];
      case 'state'
        a = [2, 2];
      case {'alog', 'dtbias'}
        return;                                % per-head gate parameters: checked whole
      otherwise
        continue;
    end
    count = [H, HV](a(2));
    if (ndims (t.(names{i})) < a(1) || size (t.(names{i}), a(1)) ~= count)
      return;                                  % heads not where FLA keeps them: whole
    end
    cut.(names{i}) = a;
  end
  axes = cut;
end

function [groups, H] = head_groups (t, axes, per_slice)
  % the query/key heads of each slice (1-based), in order
  H = size (t.q, 3);
  if (isempty (fieldnames (axes)))
    groups = {1:H};
    return;
  end
  if (isempty (per_slice))
    held = 0;                                  % the dump's bytes as held, and the cut ones in double
    cut = 0;
    for n = fieldnames (t)'
      x = t.(n{1});
      held = held + numel (x) * (4 + 4 * isa (x, 'double'));
      if (isfield (axes, n{1}))
        cut = cut + 8 * numel (x);
      end
    end
    budget = max (64 * 2 ^ 20, held / 2);
    per_slice = max (1, floor (budget / max (cut / H, 1)));
  end
  per_slice = min (per_slice, H);
  groups = arrayfun (@(a) a:min (a + per_slice - 1, H), 1:per_slice:H, 'UniformOutput', false);
end

function ts = slice_of (t, axes, heads, G)
  % the dump's tensors of query/key heads `heads` and their value heads
  % (value head j reads query/key head ceil (j / G): docs/recurrence.md);
  % states in double (the backward reads dht as it is), the rest as held
  vheads = sort (reshape ((heads(:)' - 1) * G + (1:G)', 1, []));
  ts = t;
  names = fieldnames (axes);
  for i = 1:numel (names)
    n = names{i};
    a = axes.(n);
    idx = repmat ({':'}, 1, ndims (t.(n)));
    if (a(2) == 1)
      idx{a(1)} = heads;
    else
      idx{a(1)} = vheads;
    end
    if (numel (idx{a(1)}) ~= size (t.(n), a(1)))
      ts.(n) = t.(n)(idx{:});
    end
    if (a(1) == 2)
      ts.(n) = double (ts.(n));
    end
  end
end

function t = to_double (t, names)
  for i = 1:numel (names)
    x = t.(names{i});
    if (~isa (x, 'double') && (isnumeric (x) || islogical (x)))
      t.(names{i}) = double (x);
    end
  end
end

function progress = progress_line (fn, quiet)
  % progress (text): after the first three seconds, a line on stderr at
  % most every two seconds; progress ('') ends with the total time
  state = struct ('started', tic (), 'last', -Inf, 'shown', false);
  progress = @(text) say (fn, quiet, text);
  say ([], [], state);                         % reset
end

function say (fn, quiet, text)
  persistent s;
  if (isempty (fn))
    s = text;
    return;
  end
  if (quiet)
    return;
  end
  now_ = toc (s.started);
  if (isempty (text))
    if (s.shown)
      fprintf (stderr, '%s: done in %.1f s\n', fn, now_);
    end
    return;
  end
  if (now_ > 3 && now_ - s.last >= 2)
    fprintf (stderr, '%s: %.0f s: %s\n', fn, now_, text);
    fflush (stderr);
    s.last = now_;
    s.shown = true;
  end
end

function row = local_check (row, R, problem)
  % the error window by window (verify_local): a worse level replaces the row's
  row.local = 0;
  if (strcmp (row.status, 'fail') || isempty (R.e2) || R.bad)
    return;
  end
  [level, where, row.local] = verify_local (row.name, R, row.warn_tol, problem);
  if (strcmp (level, 'pass') || (strcmp (level, 'warn') && strcmp (row.status, 'warn')))
    return;
  end
  row.status = level;
  row.pass = ~strcmp (level, 'fail');
  row.where = where;
  [~, row.err_map] = verify_divergence (row.name, R, row.warn_tol, problem);
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

function [meta, absent] = absent_names (meta)
  % meta.json's "absent" (a cellstr, verify_read): the names the writer was
  % given as None (kdagdn_dump.dump); taken out of meta
  absent = {};
  if (isfield (meta, 'absent'))
    absent = meta.absent;
    meta = rmfield (meta, 'absent');
  end
end

function [unchecked, notes] = absent_tensors (absent, t, unchecked)
  % a gradient the kernel returned as None while the dump has do: not
  % checked, a warning; other absent names: a note
  notes = {};
  grads = {'dq', 'dk', 'dv', 'dg', 'dbeta', 'db', 'dh0', 'dA_log', 'ddt_bias', 'dgk', 'dgv'};
  is_grad = ismember (absent, grads) & isfield (t, 'do');
  for n = absent(is_grad)
    why = ['None in the kernel''s results (meta.json "absent"): the kernel returned no ' ...
           'gradient for it'];
    unchecked(end + 1) = struct ('name', n{1}, 'reason', why, 'severity', 'warn');  %#ok<AGROW>
  end
  if (any (~is_grad))
    notes{1} = sprintf ('None in the kernel''s results, not written (meta.json "absent"): %s.', ...
                        strjoin (absent(~is_grad), ', '));
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
