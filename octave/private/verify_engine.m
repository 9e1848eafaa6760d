% VERIFY_ENGINE  A serving engine's decode conventions (docs/decode.md, section 6).
%
%   [meta, eng, notes] = verify_engine ('meta', t, meta)
%   [ref, dec, notes] = verify_engine ('compute', op, t, opts, problem, eng, in, conv)
%
%   'meta':    takes the keys of this file out of meta.json's struct and
%              checks them: engine ('fla' default, 'vllm', 'sglang',
%              'flashinfer'; anything else is la:badFile naming the allowed
%              ones), pad_slot_id (the index that marks padding, default -1),
%              disable_state_update, cache_steps, state_rounding ('nearest'
%              default, or 'stochastic': the bound of the state pool's
%              rounding, verify_decode 'expected').  eng: the rules of the
%              engine, as the table of docs/decode.md section 6 gives them:
%                pad        what a padding read index does: 'skip' (FLA's
%                           rule, this library's: o = 0, nothing written),
%                           'zero' (a zero starting state, o computed,
%                           nothing written: SGLang, vLLM's update kernels),
%                           'null0' (FlashInfer's bf16 pool: -1 reads and
%                           writes slot 0, a null buffer; its o undefined)
%                state_v_first  the pool's layout when meta.json says none
%                           (FlashInfer: [slots, HV, V, K])
%                buffer_by  'slot' (SGLang: intermediate_states_buffer's
%                           first index is the sequence's cache index) or
%                           'row' (FlashInfer: the batch row)
%   'compute': the engine's call recomputed sequence by sequence with the
%              recurrent path ('Slots' of one slot, 'UpdatePool' false:
%              every step's state): o, the pool after the call (ht; or the
%              per-token states), intermediate_states_buffer; what the engine
%              leaves undefined (o of a null-buffer or vLLM padding row, the
%              null slot, a buffer entry no sequence writes) is named in a
%              note and masked (dec.undef), never compared.  in: q, k, v, g, beta in
%              this library's layout; conv: la_from_fla's options.  dec: what
%              verify_decode 'locate' needs (dec.seqs: per sequence its
%              tokens, read slot, written slots; dec.undef: per tensor the
%              FLA-layout mask of what the engine leaves undefined, which
%              verify_decode sets to zero in the reference and the dump).  With both
%              initial_state_indices [N] and ssm_state_indices [N, T]
%              (FlashInfer's gated_delta_rule_mtp) a sequence reads the
%              first and writes the state after step t to the second's
%              entry t.

function varargout = verify_engine (what, varargin)
  switch (what)
    case 'meta'
      [varargout{1:3}] = split_meta (varargin{:});
    case 'compute'
      [varargout{1:3}] = compute (varargin{:});
  end
end

function [meta, eng, notes] = split_meta (t, meta)
  allowed = {'fla', 'vllm', 'sglang', 'flashinfer'};
  notes = {};
  eng = struct ('name', 'fla', 'pad', 'skip', 'state_v_first', false, 'buffer_by', 'slot', ...
                'pad_slot_id', -1, 'disable_state_update', false, 'cache_steps', [], ...
                'rounding', 'nearest', 'read_format', '');
  if (isfield (meta, 'engine'))
    e = meta.engine;
    if (~ischar (e) || ~any (strcmp (e, allowed)))
      if (~ischar (e))
        e = mat2str (e);
      end
      error ('la:badFile', 'meta.json: engine ''%s'' is not known (allowed: %s)', e, ...
             strjoin (allowed, ', '));
    end
    eng.name = e;
    meta = rmfield (meta, 'engine');
  end
  switch (eng.name)
    case 'sglang'
      eng.pad = 'zero';
      eng.state_v_first = true;   % its pool is [slots, HV, V, K] from 10faf337
    case 'vllm'
      eng.pad = 'zero';
    case 'flashinfer'
      eng.state_v_first = true;
      eng.buffer_by = 'row';
      eng.pad = 'skip';
      if (pool_is_bf16 (t))
        eng.pad = 'null0';
      end
  end
  if (isfield (meta, 'pad_slot_id'))
    eng.pad_slot_id = take_integer (meta.pad_slot_id, 'pad_slot_id');
    meta = rmfield (meta, 'pad_slot_id');
  end
  if (isfield (meta, 'disable_state_update'))
    eng.disable_state_update = logical (meta.disable_state_update);
    meta = rmfield (meta, 'disable_state_update');
  end
  if (isfield (meta, 'cache_steps'))
    eng.cache_steps = take_integer (meta.cache_steps, 'cache_steps');
    meta = rmfield (meta, 'cache_steps');
  end
  if (isfield (meta, 'state_rounding'))
    r = meta.state_rounding;
    if (~ischar (r) || ~any (strcmp (r, {'nearest', 'stochastic'})))
      error ('la:badFile', 'meta.json: state_rounding must be ''nearest'' or ''stochastic''');
    end
    eng.rounding = r;
    meta = rmfield (meta, 'state_rounding');
  end
  if (eng.state_v_first && ~isfield (meta, 'state_v_first'))
    meta.state_v_first = true;   % the engine's pool layout
    notes{end + 1} = sprintf (['States read as [slots, HV, V, K] (K last), %s''s layout; ' ...
                               'meta.json "state_v_first": false reads [slots, HV, K, V].'], eng.name);
  end
  if (~strcmp (eng.name, 'fla'))
    notes{end + 1} = sprintf ('Engine: %s (%s); its decode rules: docs/decode.md section 6.', ...
                              eng.name, rule_text (eng));
  end
end

function yes = pool_is_bf16 (t)
  % FlashInfer chooses its bf16 kernel by the pool's dtype: a pool whose
  % values are all bfloat16 values
  yes = false;
  if (isfield (t, 'h0') && ~isempty (t.h0))
    x = t.h0(:);
    yes = isequal (verify_round (x, 'bf16'), x) && any (x ~= 0);
  end
end

function s = rule_text (eng)
  switch (eng.pad)
    case 'zero'
      s = 'a padding index starts from a zero state, computes o and writes nothing';
      if (strcmp (eng.name, 'vllm'))
        s = [s '; with one slot per step ([N, Tmax], its fused_recurrent) the row''s program ' ...
             'returns: o undefined, nothing written; an EAGLE tree reads a parent''s state ' ...
             'from the parent''s pool slot'];
      end
    case 'null0'
      s = 'a padding index -1 reads and writes slot 0, a null buffer: its o and slot 0 are undefined';
    otherwise
      s = 'a padding index is skipped: o = 0, nothing written';
  end
end

function v = take_integer (x, name)
  if (~isnumeric (x) || ~isscalar (x) || x ~= round (x))
    error ('la:badFile', 'meta.json: %s must be an integer', name);
  end
  v = double (x);
end

% ---- the call, sequence by sequence ------------------------------------------

function [ref, dec, notes] = compute (op, t, opts, problem, eng, in, conv)
  notes = {};
  opts = drop_option (opts, 'CuSeqlens');
  [B, T] = deal (size (t.q, 1), size (t.q, 2));
  [first, len, b_of] = spans (problem.cu_seqlens, B, T);
  N = numel (len);
  pool = la_from_fla ('h0', t.h0, conv{:});       % K x V x HV x P
  sz = [size(pool), 1, 1];
  P = sz(4);
  idx = pad_map (index_tensor (t), eng);
  two_d = size (idx, 2) > 1;                      % [N, Tmax]: one slot per step
  if (size (idx, 1) ~= N)
    error ('la:badFile', 'ssm_state_indices has %d rows, the call %d sequences', size (idx, 1), N);
  end
  accepted = ones (N, 1);
  if (isfield (t, 'num_accepted_tokens'))
    accepted = t.num_accepted_tokens(:);
  end
  first_read = [];
  if (two_d && isfield (t, 'initial_state_indices') && isfield (t, 'ssm_state_indices'))
    first_read = pad_map (t.initial_state_indices(:), eng);
  end
  out_idx = [];
  if (isfield (t, 'output_state_indices'))
    out_idx = pad_map (t.output_state_indices(:), eng);
  end
  parents = [];
  if (isfield (t, 'retrieve_parent_token'))
    parents = t.retrieve_parent_token;
    if (size (parents, 1) ~= N)
      error ('la:badFile', 'retrieve_parent_token has %d rows, the call %d sequences', ...
             size (parents, 1), N);
    end
  end
  inplace = eng.inplace;
  o = zeros (size (in{3}));                       % V x T x HV x B
  o_undef = false (1, B * T);                     % tokens whose o is undefined
  S_tok = zeros ([sz(1:3), B * T]);               % the state after each token
  tok_undef = false (1, B * T);
  after = pool;                                   % the pool after the call
  slot_undef = false (1, P);
  seqs = struct ('tokens', {}, 'read', {}, 'writes', {}, 'padtext', {});
  buf = [];
  if (isfield (t, 'intermediate_states_buffer'))
    [buf, buf_written, cache_idx] = buffer_start (t, eng, conv, N, idx);
  end
  for n = 1:N
    rows = first(n) + (1:len(n));                 % FLA token rows b*T + t, 1-based
    cols = rows - (b_of(n) - 1) * T;              % time steps within batch entry b
    s = struct ('tokens', rows, 'read', NaN, 'writes', -ones (1, len(n)), 'padtext', '');
    if (len(n) == 0)
      seqs(n) = s;
      continue;                                    % reads and writes nothing
    end
    a = accepted(n);
    if (two_d)
      col = idx(n, :);
      r = col(min (a, numel (col)));
      if (~isempty (first_read))
        r = first_read(n);                        % FlashInfer: read here, write per step
      end
      w = col(min (1:len(n), numel (col)));       % one slot per step
    else
      r = idx(n);
      w = [-ones(1, len(n) - 1), r];              % the final state to the slot read
      if (~isempty (out_idx))
        w(end) = out_idx(n);                      % FlashInfer's output_state_indices
      end
    end
    s.read = r;
    S0 = [];
    pad = eng.pad;
    if (strcmp (eng.name, 'vllm') && two_d)
      pad = 'undef';                              % vLLM's fused_recurrent (spec decoding)
    end
    if (r >= 0)
      check_slot (r, P, 'a read index');
      S0 = pool(:, :, :, r + 1);
    else
      switch (pad)
        case 'zero'
          S0 = zeros (sz(1:3));
          w(:) = -1;
          s.padtext = ', padding: starts from a zero state, writes nothing';
        case 'null0'
          S0 = pool(:, :, :, 1);
          w = [-ones(1, len(n) - 1), 0];
          o_undef(rows) = true;
          slot_undef(1) = true;
          s.read = 0;
          s.padtext = ', padding: reads and writes the null slot 0, its o undefined';
        case 'undef'                                % the program returns: o not written
          o_undef(rows) = true;
          w(:) = -1;
          s.padtext = ', padding: vLLM''s kernel returns, its o undefined, nothing written';
          tok_undef(rows) = ~inplace;
          seqs(n) = s;
          continue;
        otherwise                                   % 'skip': o = 0, nothing written
          w(:) = -1;
          s.padtext = ', skipped (it reads padding): its o must be zero';
          tok_undef(rows) = ~inplace;
          seqs(n) = s;
          continue;
      end
      tok_undef(rows) = ~inplace;                   % no per-token write for padding
    end
    tree = parents;
    if (r < 0)
      tree = [];                                    % SGLang: no tree without a cache index
    end
    from = [];                                     % SGLang: the parent's state as computed
    if (~isempty (tree) && strcmp (eng.name, 'vllm'))
      if (~two_d)
        error ('la:badFile', ['engine vllm reads an EAGLE tree''s parent states from the pool ' ...
               'slots of ssm_state_indices [N, Tmax], but the dump''s indices are [N]']);
      end
      from = w;                                    % vLLM: from the pool slot it was written to
    end
    [o_n, S_n] = run_sequence (op, in, opts, S0, cols, b_of(n), tree, n, t, eng.read_format, from);
    o(:, cols, :, b_of(n)) = o_n;
    S_tok(:, :, :, rows) = S_n;
    if (~isempty (buf) && cache_idx(n) >= 0 && r >= 0)
      steps = min (len(n), size (buf, 4));
      buf(:, :, :, 1:steps, cache_idx(n) + 1) = S_n(:, :, :, 1:steps);
      buf_written(1:steps, cache_idx(n) + 1) = true;
    end
    if (inplace && ~eng.disable_state_update)
      for j = find (w >= 0)
        check_slot (w(j), P, 'a write index');
        after(:, :, :, w(j) + 1) = S_n(:, :, :, j);
      end
    else
      w(:) = -1;
    end
    s.writes = w;
    seqs(n) = s;
  end
  conflicts (seqs, slot_undef);
  undef = struct ();                              % FLA-layout masks of what is undefined
  ref.o = la_to_fla ('o', o, conv{:});
  if (any (o_undef))
    undef.o = take_undefined (false (size (ref.o)), o_undef, B, T);
    notes{end + 1} = sprintf (['o of %d padding token(s) not checked: %s leaves it undefined ' ...
                               '(a padding row)'], nnz (o_undef), eng.name);
  end
  if (inplace)
    ref.ht = la_to_fla ('ht', after, conv{:});
    if (any (slot_undef))
      undef.ht = false (size (ref.ht));
      undef.ht(1, :, :, :) = true;
      notes{end + 1} = 'Slot 0 not checked: FlashInfer''s bf16 pool uses it as the null buffer of padding rows.';
    end
  else
    ref.ht = la_to_fla ('ht', S_tok, conv{:});     % [B*T, HV, K, V]
    if (any (tok_undef))
      undef.ht = false (size (ref.ht));
      undef.ht(tok_undef, :, :, :) = true;
      notes{end + 1} = sprintf ('Per-token states of %d padding token(s) not checked: %s writes none.', ...
                                nnz (tok_undef), eng.name);
    end
  end
  if (~isempty (buf))
    [ref.intermediate_states_buffer, m] = buffer_to_fla (buf, buf_written, t, problem);
    if (any (m(:)))
      undef.intermediate_states_buffer = m;
    end
    if (~all (buf_written(:)))
      notes{end + 1} = sprintf (['intermediate_states_buffer: %d of %d (entry, step) states are ' ...
                                 'written by no sequence of the call and are not checked'], ...
                                nnz (~buf_written), numel (buf_written));
    end
  end
  dec = struct ('slots', idx, 'per_sequence', ~two_d, 'accepted', accepted, 'inplace', inplace, ...
                'cu', problem.cu_seqlens, 'T', T, 'B', B, 'h0', t.h0, 'seqs', seqs, 'undef', undef);
  if (eng.disable_state_update)
    notes{end + 1} = 'disable_state_update: the pool must come back unchanged.';
  end
end

function conflicts (seqs, slot_undef)
  % a slot two sequences write, or one writes and another reads: the pool
  % after the call depends on the order the kernel's programs run in
  writer = containers.Map ('KeyType', 'double', 'ValueType', 'double');
  for n = 1:numel (seqs)
    for w = unique (seqs(n).writes(seqs(n).writes >= 0))
      if (w + 1 <= numel (slot_undef) && slot_undef(w + 1))
        continue;                        % the null slot: undefined anyway
      end
      if (isKey (writer, w))
        error ('la:badFile', ['slot %d is written by sequences %d and %d: the pool after the ' ...
               'call would depend on the order the kernel runs them in'], w, writer(w) - 1, n - 1);
      end
      writer(w) = n;
    end
  end
  for n = 1:numel (seqs)
    r = seqs(n).read;
    if (~isnan (r) && r >= 0 && isKey (writer, r) && writer(r) ~= n)
      error ('la:badFile', ['slot %d is read by sequence %d and written by sequence %d: the ' ...
             'result would depend on the order the kernel runs them in'], r, n - 1, writer(r) - 1);
    end
  end
end

function [o, S] = run_sequence (op, in, opts, S0, cols, b, parents, n, t, read_format, from)
  % one sequence from S0: its outputs V x Tn x HV and its states after
  % every step K x V x HV x Tn; with an EAGLE tree (retrieve_parent_token)
  % step j > 1 starts from the state after its parent token, read back from
  % intermediate_states_buffer (SGLang) or, with from (the pool slot each
  % step writes; vLLM), from the pool slot the parent wrote: what that
  % slot holds when step j reads it (the last step before j to write it);
  % rounded to read_format ('bf16', 'fp16') when the buffer or pool is
  % stored so (verify_decode 'expected' sets it; the reference keeps it
  % exact)
  fwd = str2func ([op '_recurrent']);
  x = cell (1, 5);
  for i = 1:5
    x{i} = slice (in{i}, i, op, t, cols, b);
  end
  one = [opts, {'Slots', 1, 'UpdatePool', false}];
  if (isempty (parents))
    [o, S] = fwd (x{:}, 'InitialState', S0, one{:});
    S = reshape (S, size (S, 1), size (S, 2), size (S, 3), []);
    return;
  end
  Tn = numel (cols);
  o = [];
  S = [];
  for j = 1:Tn
    start = S0;
    if (j > 1)
      p = parents(n, j);
      if (p < 0 || p > j - 2 || p ~= round (p))
        error ('la:badFile', ['retrieve_parent_token(%d, %d) = %d: a token''s parent must be an ' ...
               'earlier token of its sequence'], n - 1, j - 1, p);
      end
      src = p + 1;
      if (~isempty (from))
        if (from(p + 1) < 0)
          error ('la:badFile', ['retrieve_parent_token(%d, %d) = %d: vLLM reads the parent''s ' ...
                 'state from its slot, but that step''s slot is padding'], n - 1, j - 1, p);
        end
        src = find (from(1:j - 1) == from(p + 1), 1, 'last');
      end
      start = S(:, :, :, src);
      if (~isempty (read_format))
        start = cast (verify_round (start, read_format), class (start));
      end
    end
    y = cell (1, 5);
    for i = 1:5
      y{i} = slice (x{i}, i, op, t, j, 1);
    end
    [oj, Sj] = fwd (y{:}, 'InitialState', start, one{:});
    o = cat (2, o, oj);
    S = cat (4, S, reshape (Sj, size (Sj, 1), size (Sj, 2), size (Sj, 3)));
  end
end

function y = slice (x, i, op, t, cols, b)
  % q k v (and KDA's g, a per-channel beta) have time in dimension 2; GDN's
  % g and a scalar beta are T x HV x B
  time_first = (i == 4 && strcmp (op, 'gdn')) || (i == 5 && ndims (t.beta) ~= 4);
  if (time_first)
    y = x(cols, :, b);
  else
    y = x(:, cols, :, b);
  end
end

function [buf, written, cache_idx] = buffer_start (t, eng, conv, N, idx)
  % intermediate_states_buffer [E, cache_steps, HV, K, V] (V, K with
  % state_v_first), E entries: SGLang's indexed by the sequence's cache
  % index (intermediate_state_indices, else its read index), FlashInfer's
  % by the batch row
  x = t.intermediate_states_buffer;
  if (ndims (x) ~= 5)
    error ('la:badShape', 'intermediate_states_buffer must be [entries, cache_steps, HV, K, V], got %s', ...
           mat2str (size (x)));
  end
  sz = size (x);
  if (~isempty (eng.cache_steps) && eng.cache_steps ~= sz(2))
    error ('la:badFile', 'meta.json: cache_steps = %d but intermediate_states_buffer has %d steps', ...
           eng.cache_steps, sz(2));
  end
  E = sz(1);
  flat = reshape (x, E * sz(2), sz(3), sz(4), sz(5));    % [E*steps, HV, K, V]
  buf = la_from_fla ('h0', flat, conv{:});               % K x V x HV x (E*steps), entry fastest
  buf = reshape (buf, size (buf, 1), size (buf, 2), size (buf, 3), E, sz(2));
  buf = permute (buf, [1 2 3 5 4]);                      % K x V x HV x steps x E
  buf(:) = 0;
  written = false (sz(2), E);
  if (strcmp (eng.buffer_by, 'row'))
    cache_idx = (0:N - 1)';
  elseif (isfield (t, 'intermediate_state_indices'))
    cache_idx = t.intermediate_state_indices(:);
  else
    cache_idx = idx(:, 1);
  end
  if (numel (cache_idx) ~= N)
    error ('la:badFile', 'intermediate_state_indices has %d entries, the call %d sequences', ...
           numel (cache_idx), N);
  end
  if (any (cache_idx >= E))
    error ('la:badFile', 'intermediate_states_buffer has %d entries, an index asks for entry %d', ...
           E, max (cache_idx));
  end
end

function [y, undef] = buffer_to_fla (buf, written, t, problem)
  % back to [E, steps, HV, K, V]; undef: the unwritten entries
  sz = size (t.intermediate_states_buffer);
  b = permute (buf, [1 2 3 5 4]);                        % K x V x HV x E x steps
  b = reshape (b, size (b, 1), size (b, 2), size (b, 3), []);
  y = la_to_fla ('h0', b, 'StateVFirst', problem.state_v_first);   % [E*steps, HV, K, V]
  y = reshape (y, sz(1), sz(2), sz(3), sz(4), sz(5));
  undef = false (size (y));
  [st, e] = find (~written);
  for i = 1:numel (st)
    undef(e(i), st(i), :, :, :) = true;
  end
end

function mask = take_undefined (mask, undef, B, T)
  % token rows b*T + t (1-based) -> the [B, T, HV, V] mask of o
  for row = find (undef)
    b = floor ((row - 1) / T) + 1;
    tt = row - (b - 1) * T;
    mask(b, tt, :, :) = true;
  end
end

function idx = index_tensor (t)
  if (isfield (t, 'ssm_state_indices'))
    idx = t.ssm_state_indices;
  else
    idx = t.initial_state_indices;   % SGLang's and FlashInfer's name
  end
  % [N] is read as N x 1 (one slot per sequence); [N, Tmax] one per step,
  % N = 1 included
end

function idx = pad_map (idx, eng)
  if (eng.pad_slot_id ~= -1)
    idx(idx == eng.pad_slot_id) = -1;
  end
  idx(idx < 0) = -1;
end

function check_slot (s, P, what)
  if (s >= P)
    error ('la:badFile', '%s is %d, but the pool h0 has %d slots (0..%d)', what, s, P, P - 1);
  end
end

function [first, len, b_of] = spans (cu, B, T)
  if (isempty (cu))
    first = (0:B - 1) * T;
    len = T * ones (1, B);
    b_of = 1:B;
  else
    N = numel (cu) - 1;
    first = cu(1:N);
    len = diff (cu);
    b_of = ones (1, N);
  end
end

function opts = drop_option (opts, name)
  i = find (strcmp (opts(1:2:end), name));
  if (~isempty (i))
    opts(2 * i - 1:2 * i) = [];
  end
end
