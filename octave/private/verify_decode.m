% VERIFY_DECODE  kda_verify / gdn_verify on a dump of a fused recurrent decode call.
%
%   [meta, decode] = verify_decode ('meta', t, meta)
%   [ref, unchecked, dec, notes, t] = verify_decode ('compute', op, t, opts, problem, decode)
%   [expected, notes, emu_err] = verify_decode ('expected', op, t, opts, problem, decode, ref, dtypes)
%   rows = verify_decode ('locate', rows, ref, t, dec, problem)
%
%   A dump is a decode call (docs/decode.md) when it holds the tensor
%   ssm_state_indices ([N] or [N, Tmax], from 0, -1 padding; SGLang's and
%   FlashInfer's name initial_state_indices too), or a per-channel beta
%   ([B, T, HV, V]); num_accepted_tokens ([N]) and the meta.json key
%   inplace_final_state (default true, as FLA's fused_recurrent_kda_fwd) go
%   with it; h0 is the pool before the call, ht after it (or, not in
%   place, the state after every token, [B*T, HV, K, V]).  The meta.json
%   key engine and the serving tensors output_state_indices,
%   intermediate_states_buffer, intermediate_state_indices,
%   retrieve_parent_token select an engine's rules (verify_engine).
%   'meta':     decode is [] for other dumps, else a struct with fields
%               inplace and engine (verify_engine 'meta'); the keys of
%               both are taken out of meta (verify_options knows FLA's
%               other keys; engine on a chunked dump changes nothing: the
%               engines' chunked kernels follow FLA's).
%   'compute':  FLA's rules: the recurrent path with 'Slots' (+ 1),
%               'AcceptedTokens' and 'UpdatePool' recomputes o and ht in
%               FLA layout; another engine's: verify_engine 'compute'.  dec
%               holds what 'locate' needs.  What the engine leaves
%               undefined (dec.undef) is set to zero in both ref and the
%               returned dump t, so that it counts in no ratio: a padding
%               row's garbage would otherwise dilute every error.
%   'expected': the error of a correct kernel of the dump's dtype, as the
%               chunked paths' 'Emulate': the same call in single from the
%               same inputs, o rounded to bf16 / fp16 for such a dump and
%               the pool (ht, intermediate_states_buffer) to the format it
%               is stored in, and an EAGLE tree's parent state rounded as
%               it is read back (SGLang: from the buffer; vLLM: from its
%               pool slot) (round to nearest; with meta.json
%               state_rounding = 'stochastic' the rounding's share counted
%               twice: stochastic rounding's variance is twice nearest's);
%               expected.unit_roundoff: 2^-21 for a float32 dump (8
%               float32 ulps: other summation orders; its half, 2^-22, is
%               the floor; a fused recurrent kernel has no TF32 dots).  emu_err: per
%               tensor, the reference minus the emulated kernel (for the
%               local checks; empty struct for a float64 dump).
%   'locate':   for a failing o or ht, the first sequence, step and slot
%               (0-based, as in FLA) that goes wrong replaces the row's
%               'where'; ht in place also fails when a slot that no
%               sequence writes differs from h0 at all (a kernel must not
%               touch it).  Then, with problem.decode_emu (emu_err), the
%               local checks of verify_local on every row that does not
%               fail: o and per-token states in windows of one step of one
%               head of one sequence, the pool in place per slot and head,
%               intermediate_states_buffer per entry, step and head; a
%               window above verify_local's bounds makes the row warn or
%               fail there, named in decode terms.

function varargout = verify_decode (what, varargin)
  switch (what)
    case 'meta'
      [varargout{1:2}] = split_meta (varargin{:});
    case 'compute'
      [varargout{1:5}] = compute (varargin{:});
    case 'expected'
      [varargout{1:3}] = expected_error (varargin{:});
    case 'locate'
      rows = locate (varargin{1:4});
      if (numel (varargin) >= 5)
        rows = local_checks (rows, varargin{2:end});
      end
      varargout{1} = rows;
  end
end

function [meta, decode] = split_meta (t, meta)
  decode = [];
  [meta, eng, notes] = verify_engine ('meta', t, meta);
  serving = {'ssm_state_indices', 'initial_state_indices', 'output_state_indices', ...
             'intermediate_states_buffer', 'retrieve_parent_token'};
  if (any (isfield (t, serving)) || (isfield (t, 'beta') && ndims (t.beta) == 4) ...
      || isfield (meta, 'inplace_final_state'))
    decode.inplace = true;   % FLA's fused_recurrent_kda_fwd's default
    if (isfield (meta, 'inplace_final_state'))
      decode.inplace = logical (meta.inplace_final_state);
      meta = rmfield (meta, 'inplace_final_state');
    end
    eng.inplace = decode.inplace;
    decode.engine = eng;
    decode.notes = notes;
  end
end

function yes = engine_rules (t, eng)
  % FLA's rules unless an engine or a serving tensor FLA has not says otherwise
  more = {'initial_state_indices', 'output_state_indices', 'intermediate_states_buffer', ...
          'retrieve_parent_token'};
  yes = ~strcmp (eng.name, 'fla') || any (isfield (t, more)) || eng.disable_state_update ...
        || eng.pad_slot_id ~= -1;
end

function [ref, unchecked, dec, notes, t] = compute (op, t, opts, problem, decode)
  need = {'q', 'k', 'v', 'g', 'beta'};
  missing = need(~isfield (t, need));
  if (~isempty (missing))
    error ('la:badFile', 'the dump lacks the input(s) %s', strjoin (missing, ', '));
  end
  conv = {'Op', op, 'StateVFirst', problem.state_v_first};
  in = cell (1, 5);
  for i = 1:4
    in{i} = la_from_fla (need{i}, t.(need{i}), conv{:});
  end
  if (ndims (t.beta) == 4)
    in{5} = permute (t.beta, [4 2 3 1]);   % per channel: [B, T, HV, V] -> V x T x HV x B
  else
    in{5} = la_from_fla ('beta', t.beta, conv{:});
  end
  notes = decode.notes;
  if (engine_rules (t, decode.engine))
    if (~isfield (t, 'h0'))
      error ('la:badFile', 'the dump has a state pool''s indices but no h0, the pool before the call');
    end
    [ref, dec, more] = verify_engine ('compute', op, t, opts, problem, decode.engine, in, conv);
    notes = [notes, more];
    for f = fieldnames (dec.undef)'
      m = dec.undef.(f{1});
      ref.(f{1})(m) = 0;
      if (isfield (t, f{1}) && numel (t.(f{1})) == numel (m))
        t.(f{1})(reshape (m, size (t.(f{1})))) = 0;
      end
    end
    unchecked = unchecked_of (t, ref);
    return;
  end
  dec = struct ('slots', [], 'per_sequence', false, 'accepted', [], 'inplace', false, 'cu', problem.cu_seqlens, ...
                'T', size (t.q, 2), 'B', size (t.q, 1), 'h0', []);
  if (isfield (t, 'h0'))
    opts = [opts, {'InitialState', la_from_fla('h0', t.h0, conv{:})}];
    dec.h0 = t.h0;
  end
  if (isfield (t, 'ssm_state_indices'))
    if (~isfield (t, 'h0'))
      error ('la:badFile', 'the dump has ssm_state_indices but no h0, the pool before the call');
    end
    idx = t.ssm_state_indices;
    per_sequence = (size (idx, 2) == 1);   % [N] (read as N x 1) or [N, 1]
    dec.per_sequence = per_sequence;
    if (per_sequence)
      dec.slots = idx(:);                % one per sequence
    else
      dec.slots = idx';                  % [N, Tmax] -> Tmax x N
    end
    dec.inplace = decode.inplace;
    opts = [opts, {'Slots', dec.slots + 1, 'UpdatePool', dec.inplace}];
    if (isfield (t, 'num_accepted_tokens'))
      dec.accepted = t.num_accepted_tokens(:);
      opts = [opts, {'AcceptedTokens', dec.accepted}];
    end
    layout = {'one slot per step', 'one slot per sequence'};
    writes = {'per-token states', 'states written in place'};
    notes{end + 1} = sprintf ('A fused recurrent decode call (docs/decode.md): a pool of %d slots, %s, %s.', ...
                              size (t.h0, 1), layout{per_sequence + 1}, writes{dec.inplace + 1});
  end
  fwd = str2func ([op '_recurrent']);
  [o, S] = fwd (in{:}, opts{:});
  ref.o = la_to_fla ('o', o, conv{:});
  if (~isempty (dec.slots) && ~dec.inplace)   % K x V x HV x T x B -> [B*T, HV, K, V]
    sz = [size(S), 1, 1];
    S = reshape (S, sz(1), sz(2), sz(3), []);
  end
  ref.ht = la_to_fla ('ht', S, conv{:});
  unchecked = unchecked_of (t, ref);
end

function unchecked = unchecked_of (t, ref)
  inputs = {'q', 'k', 'v', 'g', 'beta', 'h0', 'A_log', 'dt_bias', 'cu_seqlens', ...
            'ssm_state_indices', 'num_accepted_tokens', 'initial_state_indices', ...
            'output_state_indices', 'intermediate_state_indices', 'retrieve_parent_token'};
  unchecked = struct ('name', {}, 'reason', {}, 'severity', {});
  names = fieldnames (t);
  for i = 1:numel (names)
    if (~isfield (ref, names{i}) && ~any (strcmp (names{i}, inputs)))
      unchecked(end + 1) = struct ('name', names{i}, 'reason', ['a fused recurrent decode ' ...
                                   'call: FLA has no backward of it, this library checks o ' ...
                                   'and ht'], 'severity', 'warn');  %#ok<AGROW>
    end
  end
end

% ---- what a correct kernel of the dump's dtype gets wrong --------------------

function [expected, notes, emu_err] = expected_error (op, t, opts, problem, decode, ref, dtypes)
  notes = {};
  expected = struct ();
  emu_err = struct ();
  formats = struct ('float32', '', 'bfloat16', 'bf16', 'float16', 'fp16');
  if (~isfield (formats, problem.dtype))
    return;                              % float64: the fixed bound
  end
  fmt = formats.(problem.dtype);
  ts = t;
  for name = {'q', 'k', 'v', 'g', 'beta', 'h0', 'intermediate_states_buffer'}
    if (isfield (ts, name{1}))
      ts.(name{1}) = single (ts.(name{1}));
    end
  end
  ts = rmfield (ts, intersect (fieldnames (ts), {'o', 'ht'}));
  if (isfield (t, 'retrieve_parent_token'))   % a tree step reads its parent back as stored:
    held = 'intermediate_states_buffer';      % SGLang from its buffer, vLLM from its pool
    if (strcmp (decode.engine.name, 'vllm'))
      held = 'h0';
    end
    decode.engine.read_format = stored_format (held, fmt, dtypes, t);
  end
  emu = compute (op, ts, opts, problem, decode);
  stochastic = strcmp (decode.engine.rounding, 'stochastic');
  names = fieldnames (ref);
  for i = 1:numel (names)
    r = ref.(names{i});
    e = double (emu.(names{i}));
    if (isfield (t, names{i}) && isequal (size (t.(names{i})), size (r)))
      same = (r == t.(names{i}));        % taken from the dump (undefined there)
      e(same) = r(same);
    end
    to = stored_format (names{i}, fmt, dtypes, t);
    rounded = e;
    if (~isempty (to))
      rounded = verify_round (e, to);
    end
    d = r - rounded;
    emu_err.(names{i}) = d;
    scale = max (norm (r(:)), realmin);
    expected.(names{i}) = norm (d(:)) / scale;
    if (stochastic && ~strcmp (names{i}, 'o') && ~isempty (to))
      q = rounded - e;                   % nearest's share, counted once more
      expected.(names{i}) = sqrt (expected.(names{i}) ^ 2 + (norm (q(:)) / scale) ^ 2);
    end
  end
  if (isempty (fmt))
    expected.unit_roundoff = 2 ^ -21;    % float32, no TF32 dots; 8 ulps: other summation orders
  end
  sr = '';
  if (stochastic)
    sr = '; stochastic rounding of the pool: twice the variance of nearest';
  end
  notes{end + 1} = sprintf (['Bounds from the same call in single%s (verify_decode ''expected''%s), ' ...
                             'not FLA''s fixed thresholds.'], rounding_text (fmt), sr);
end

function to = stored_format (name, fmt, dtypes, t)
  % o in the kernel's format; states in the format they are stored in, or
  % whose values they all are (a bf16 pool handed over as float32)
  to = '';
  if (strcmp (name, 'o'))
    to = fmt;
  elseif (isfield (dtypes, name) && any (strcmp (dtypes.(name), {'bfloat16', 'float16'})))
    to = 'fp16';
    if (strcmp (dtypes.(name), 'bfloat16'))
      to = 'bf16';
    end
  elseif (isfield (t, name) && any (t.(name)(:) ~= 0))
    x = t.(name)(:);
    if (isequal (verify_round (x, 'bf16'), x))
      to = 'bf16';
    elseif (isequal (verify_round (x, 'fp16'), x))
      to = 'fp16';
    end
  end
end

function s = rounding_text (fmt)
  if (isempty (fmt))
    s = '';
  else
    s = sprintf (', o and bf16 / fp16 states rounded to nearest %s', fmt);
  end
end

% ---- where it first goes wrong ------------------------------------------------

function rows = locate (rows, ref, t, dec)
  seqs = sequences (dec);
  for i = 1:numel (rows)
    name = rows(i).name;
    if (~isfield (t, name) || ~isequal (numel (t.(name)), numel (ref.(name))))
      continue;
    end
    x = reshape (double (t.(name)), size (ref.(name)));
    r = ref.(name);
    tol = rows(i).tol;
    if (strcmp (name, 'o') || (strcmp (name, 'ht') && ~isempty (dec.slots) && ~dec.inplace))
      if (~strcmp (rows(i).status, 'pass'))
        rows(i).where = first_token (r, x, tol, seqs, dec, name);
      end
    elseif (strcmp (name, 'ht') && ~isempty (dec.slots) && ~isempty (dec.h0))
      [pass, where] = pool_check (r, x, tol, seqs, dec);
      if (~pass)
        rows(i).pass = false;
        rows(i).status = 'fail';
      end
      if (~pass || ~strcmp (rows(i).status, 'pass'))
        rows(i).where = where;
      end
    end
  end
end

function seqs = sequences (dec)
  if (isfield (dec, 'seqs'))
    seqs = dec.seqs;                     % an engine's: verify_engine made them
    return;
  end
  % per sequence: its tokens (1-based rows of FLA's [B*T] order), the slot
  % it reads and the slot of each step (0-based, FLA's; NaN without slots)
  if (isempty (dec.cu))
    N = dec.B;
    first = (0:N - 1) * dec.T;
    len = dec.T * ones (1, N);
  else
    N = numel (dec.cu) - 1;
    first = dec.cu(1:N);
    len = diff (dec.cu);
  end
  seqs = struct ('tokens', {}, 'read', {}, 'writes', {});
  for n = 1:N
    s.tokens = first(n) + (1:len(n));
    s.read = NaN;
    s.writes = NaN (1, len(n));
    if (~isempty (dec.slots) && len(n) > 0)
      a = 1;
      if (~isempty (dec.accepted))
        a = dec.accepted(n);
      end
      if (dec.per_sequence)              % one slot per sequence
        col = dec.slots(n);
      else                               % Tmax x N: one per step
        col = dec.slots(:, n);
      end
      s.read = col(min (a, numel (col)));
      s.writes = col(min (1:len(n), numel (col)))';
      if (s.read < 0)
        s.writes(:) = -1;   % skipped: writes nothing
      end
    end
    seqs(n) = s;
  end
end

function where = first_token (r, x, tol, seqs, dec, name)
  % o [B, T, HV, V] or per-token states [B*T, HV, K, V]: the first token,
  % sequence by sequence, whose error rms exceeds tol * rms(ref)
  if (strcmp (name, 'o'))
    sz = size (r);
    r = reshape (permute (r, [2 1 3 4]), sz(1) * sz(2), []);   % token rows, FLA order b*T + t
    x = reshape (permute (x, [2 1 3 4]), sz(1) * sz(2), []);
  else
    r = reshape (r, size (r, 1), []);
    x = reshape (x, size (x, 1), []);
  end
  d = abs (r - x);
  d(isnan (d)) = Inf;
  scale = max (norm (r(:)) / sqrt (numel (r)), realmin);
  per_token = sqrt (mean (d .^ 2, 2)) / scale;
  for n = 1:numel (seqs)
    for j = 1:numel (seqs(n).tokens)
      e = per_token(seqs(n).tokens(j));
      if (e > tol)
        where = sprintf ('first wrong: sequence %d, step %d%s (token %d; error %.3g x rms)', ...
                         n - 1, j - 1, slot_text (seqs(n), j, dec), seqs(n).tokens(j) - 1, e);
        return;
      end
    end
  end
  where = sprintf ('no single token above the tolerance; overall ratio above it');
end

function s = slot_text (seq, j, dec)
  s = '';
  if (isnan (seq.read))
    return;
  end
  if (isfield (seq, 'padtext') && ~isempty (seq.padtext))
    s = seq.padtext;
  elseif (seq.read < 0)
    s = ', skipped (it reads padding): its o must be zero';
  elseif (dec.inplace && seq.writes(j) < 0)
    s = sprintf (', reading slot %d, writing no slot (padding %d)', seq.read, seq.writes(j));
  elseif (dec.inplace)
    s = sprintf (', reading slot %d, writing slot %d', seq.read, seq.writes(j));
  else
    s = sprintf (', reading slot %d', seq.read);
  end
end

function [pass, where] = pool_check (r, x, tol, seqs, dec)
  % the pool after the call [P, HV, K, V]: slots no sequence writes keep
  % h0's bits; the written ones within tol, the first wrong named by the
  % sequence and step that write it
  P = size (r, 1);
  h0 = reshape (double (dec.h0), P, []);
  r = reshape (r, P, []);
  x = reshape (x, P, []);
  writer = zeros (P, 2);                 % [sequence step], 1-based; 0: nobody
  for n = 1:numel (seqs)                 % the last step to write a slot
    for j = 1:numel (seqs(n).writes)
      w = seqs(n).writes(j);
      if (w >= 0 && w < P)
        writer(w + 1, :) = [n j];
      end
    end
  end
  untouched = find (writer(:, 1) == 0);
  changed = untouched(any (x(untouched, :) ~= h0(untouched, :), 2));
  pass = true;
  where = '';
  if (~isempty (changed))
    pass = false;
    where = sprintf (['slot %d changed although no sequence writes it (a padding slot or one ' ...
                      'of another sequence)'], changed(1) - 1);
    return;
  end
  scale = max (norm (r(:)) / sqrt (numel (r)), realmin);
  d = abs (r - x);
  d(isnan (d)) = Inf;
  per_slot = sqrt (mean (d .^ 2, 2)) / scale;
  bad = find (per_slot > tol & writer(:, 1) > 0);
  if (isempty (bad))
    return;
  end
  [~, k] = sortrows (writer(bad, :));
  s = bad(k(1));
  pass = false;
  where = sprintf ('first wrong: sequence %d, step %d, writing slot %d (error %.3g x rms)', ...
                   writer(s, 1) - 1, writer(s, 2) - 1, s - 1, per_slot(s));
end

% ---- the error window by window ------------------------------------------------

function rows = local_checks (rows, ref, t, dec, problem)
  % verify_local on each row that does not fail, its windows one step of
  % one head (o, per-token states, the buffer) or one slot and head (the
  % pool in place); a worse level replaces the row's, named in decode terms
  if (~isfield (problem, 'decode_emu'))
    return;
  end
  for i = 1:numel (rows)
    name = rows(i).name;
    if (strcmp (rows(i).status, 'fail') || ~isfield (problem.decode_emu, name) ...
        || ~isfield (t, name) || numel (t.(name)) ~= numel (ref.(name)))
      continue;
    end
    r = ref.(name);
    x = reshape (double (t.(name)), size (r));
    e = problem.decode_emu.(name);
    [as, p, r, x, e, rename] = windowed (name, r, x, e, problem, dec);
    [level, where, rows(i).local] = verify_local (as, r, x, e, rows(i).warn_tol, p);
    if (strcmp (level, 'pass') || (strcmp (level, 'warn') && strcmp (rows(i).status, 'warn')))
      continue;
    end
    rows(i).status = level;
    rows(i).pass = ~strcmp (level, 'fail');
    rows(i).where = regexprep (where, rename{:});
  end
end

function [as, p, r, x, e, rename] = windowed (name, r, x, e, problem, dec)
  % the tensor as verify_local reads it: as o [B, T, HV, C] with one step
  % per chunk (a window per sequence, step and head), or as a state [N, HV,
  % K, V] (a window per slot and head); rename: regexprep's patterns that
  % put verify_local's text in decode terms
  p = problem;
  p.chunk_size = 1;
  as = 'o';
  steps = {{'chunk (\d+), step \d+ of the chunk \(t = \d+ of the sequence\)', 'chunk (\d+), head'}, ...
           {'step $1', 'step $1, head'}};
  rename = steps;
  switch (name)
    case 'ht'
      if (~isempty (dec.slots) && ~dec.inplace)     % per token [B*T, HV, K, V]
        to = @(y) permute (reshape (y, dec.T, dec.B, size (y, 2), []), [2 1 3 4]);
        [r, x, e] = deal (to (r), to (x), to (e));
      else                                          % the pool [P, HV, K, V]
        as = 'ht';
        rename = {'sequence (\d+), head', 'slot $1, head'};
      end
    case 'intermediate_states_buffer'               % [E, steps, HV, K, V]
      to = @(y) reshape (y, size (y, 1), size (y, 2), size (y, 3), []);
      [r, x, e] = deal (to (r), to (x), to (e));
      p.cu_seqlens = [];
      rename = {[steps{1}, {'sequence (\d+)'}], [steps{2}, {'entry $1'}]};
  end
end
