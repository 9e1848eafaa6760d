% VERIFY_RUN  The work of kda_verify and gdn_verify.
%
%   [ok, report] = verify_run (op, dump)
%
%   op: 'kda' or 'gdn'; dump: a folder or a struct (see kda_verify).

function [ok, report] = verify_run (op, dump)
  [t, meta, dtypes, folder] = verify_read (dump);
  [meta, decode] = verify_decode ('meta', t, meta);   % a fused recurrent decode call?
  [opts, problem, notes] = verify_options (op, meta, t);
  if (isempty (decode))
    [ref, more] = verify_compute (op, t, opts, problem);
    problem.expected = verify_expected (op, t, opts, problem, ref);
  else
    [ref, more, dec] = verify_decode ('compute', op, t, opts, problem, decode);
    problem.expected = struct ();
  end
  notes = [notes, more];
  names = intersect (fieldnames (t), fieldnames (ref), 'stable');
  rows = [];
  for i = 1:numel (names)
    [tol, expected, rule] = verify_tolerance (problem.dtype, names{i}, problem);
    row = verify_compare (names{i}, ref.(names{i}), t.(names{i}), tol, problem);
    row.expected = expected;   % what a correct kernel of that dtype gets
    row.rule = rule;
    rows = [rows; row];  %#ok<AGROW>
  end
  if (~isempty (decode))
    rows = verify_decode ('locate', rows, ref, t, dec);   % sequence, step, slot
  end
  if (isempty (rows))
    error ('la:badFile', 'the dump holds no output to check (o, ht, dq, ...)');
  end
  stored = unique (struct2cell (dtypes));
  notes{end + 1} = sprintf ('Stored dtypes in the dump: %s.', strjoin (stored', ', '));
  text = verify_report (op, rows, notes, problem, folder);
  ok = all ([rows.pass]);
  report = struct ('ok', ok, 'rows', rows, 'notes', {notes}, 'markdown', text, 'file', '');
  if (~isempty (folder))
    report.file = fullfile (folder, 'verify_report.md');
  end
end
