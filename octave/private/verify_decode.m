% VERIFY_DECODE  kda_verify / gdn_verify on a dump of a fused recurrent decode call.
%
%   [meta, decode] = verify_decode ('meta', t, meta)
%   [ref, unchecked, dec, notes] = verify_decode ('compute', op, t, opts, problem, decode)
%   rows = verify_decode ('locate', rows, ref, t, dec)
%
%   A dump is a decode call (docs/decode.md) when it holds the tensor
%   ssm_state_indices ([N] or [N, Tmax], from 0, -1 padding), or a
%   per-channel beta ([B, T, HV, V]); num_accepted_tokens ([N]) and the
%   meta.json key inplace_final_state (default true, as FLA's
%   fused_recurrent_kda_fwd) go with it; h0 is the pool before the call,
%   ht after it (or, not in place, the state after every token, [B*T, HV,
%   K, V]).
%   'meta':    decode is [] for other dumps, else a struct with field
%              inplace; inplace_final_state is taken out of meta
%              (verify_options knows FLA's other keys).
%   'compute': the recurrent path with 'Slots' (+ 1), 'AcceptedTokens' and
%              'UpdatePool' recomputes o and ht in FLA layout; dec holds
%              what 'locate' needs.
%   'locate':  for a failing o or ht, the first sequence, step and slot
%              (0-based, as in FLA) that goes wrong replaces the row's
%              'where'; ht in place also fails when a slot that no
%              sequence writes differs from h0 at all (a kernel must not
%              touch it).

function varargout = verify_decode (what, varargin)
  switch (what)
    case 'meta'
      [varargout{1:2}] = split_meta (varargin{:});
    case 'compute'
      [varargout{1:4}] = compute (varargin{:});
    case 'locate'
      varargout{1} = locate (varargin{:});
  end
end

function [meta, decode] = split_meta (t, meta)
  decode = [];
  if (isfield (t, 'ssm_state_indices') || (isfield (t, 'beta') && ndims (t.beta) == 4) ...
      || isfield (meta, 'inplace_final_state'))
    decode.inplace = true;   % FLA's fused_recurrent_kda_fwd's default
    if (isfield (meta, 'inplace_final_state'))
      decode.inplace = logical (meta.inplace_final_state);
      meta = rmfield (meta, 'inplace_final_state');
    end
  end
end

function [ref, unchecked, dec, notes] = compute (op, t, opts, problem, decode)
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
  notes = {};
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
  inputs = {'q', 'k', 'v', 'g', 'beta', 'h0', 'A_log', 'dt_bias', 'cu_seqlens', ...
            'ssm_state_indices', 'num_accepted_tokens'};
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
  if (seq.read < 0)
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
