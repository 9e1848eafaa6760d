function res = lab_edge_case (kind, seed)
% LAB_EDGE_CASE  One draw at an edge of the core's code paths (validation/lab/README.md).
%
%   res = lab_edge_case (kind, seed)
%   lab_edge_case (kind, seed)      (no output: print the checks)
%
%   The random section's draws at the core's switches and bounds, one kind
%   a call, its sizes and data drawn from seed (the same seed gives the same
%   draw everywhere).  res: struct array of check, value, bound, as
%   lab_random_case gives.  Kinds:
%     'windows'  a varlen batch of many sequences of unequal chunk counts
%                (items = sequences x value heads past the chunked forward's
%                store of 4 MB at K = V = 8, C = 64: several item windows
%                and several chunk windows), or few long sequences of
%                unequal lengths (one item window, several chunk windows of
%                several chunks); chunked forward and backward against the
%                recurrent paths (no scheduler windows there), la_ratio
%                <= 1e-10 double, 1e-4 single
%     'wide'     K or V of 256 (every dimension the small-GEMM engine
%                serves, and a transposed copy of 256 x 128, past its stack
%                buffer of 128 x 128): kda / gdn chunked forward and
%                backward in single against double, <= 1e-3
%     'decode'   B > 1 with T > 1 (no CuSeqlens) in every pool mode:
%                UpdatePool true / false x Slots per sequence / per step x
%                AcceptedTokens or not, beta per channel or not, against
%                ref_decode, <= 1e-12 relative
%     'pairs'    option pairs that change a code path: per-channel beta x
%                BetaSigmoid (forward and backward against the call on
%                sigmoid(beta) and the chain rule), AcceptedTokens x Slots
%                conflicts (a read of another sequence's written slot
%                through AcceptedTokens refused, the same call without the
%                conflict accepted; AcceptedTokens at the rows' edges and
%                one past them), varlen x clipped chunk (the last
%                sequence the longest: Slots with fewer rows than its steps
%                refused; chunked results with ChunkSize past every other
%                sequence against the recurrent ones)
%     'verify'   the verdict's rules: kda_verify passes a dump of the
%                library's own outputs, fails it with one tensor off (o, ht,
%                dq, dbeta: each alone), and never passes a dump whose
%                only tensors are unchecked
%   A value of NaN (a crash inside a call, or a wrong verdict) fails.

  rand ('state', seed);  randn ('state', seed);
  res = struct ('check', {}, 'value', {}, 'bound', {});
  switch (kind)
    case 'windows'
      res = windows (res, seed);
    case 'wide'
      res = wide (res);
    case 'decode'
      res = decode (res);
    case 'pairs'
      res = pairs (res);
    case 'verify'
      res = verdicts (res);
    otherwise
      error ('lab_edge_case: KIND must be windows, wide, decode, pairs or verify, got %s', kind);
  end
  if (nargout == 0)
    for j = 1:numel (res)
      printf ('%-52s %10.3g  (bound %g)\n', res(j).check, res(j).value, res(j).bound);
    end
    clear res;
  end
end

function r = mk (check, value, bound)
  r = struct ('check', check, 'value', value, 'bound', bound);
end

function x = rnd (cls, varargin)
  x = cast (randn (varargin{:}), cls);
end

function [q, k, v, g, beta, h0] = qkv (op, cls, K, V, T, HV, N, B)
  % inputs of one call: keys of norm one, mild gates, beta in (0.1, 0.9)
  q = rnd (cls, K, T, 1, B);
  k = rnd (cls, K, T, 1, B);
  k = k ./ sqrt (sum (k .^ 2, 1));
  v = rnd (cls, V, T, HV, B);
  if (strcmp (op, 'kda'))
    g = cast (-0.05 - 0.5 * rand (K, T, HV, B), cls);
  else
    g = cast (-0.05 - 0.5 * rand (T, HV, B), cls);
  end
  beta = cast (0.1 + 0.8 * rand (T, HV, B), cls);
  h0 = cast (0.5 * randn (K, V, HV, N), cls);
end

function e = grads_ratio (a, b)
  e = 0;
  for j = 1:numel (a)
    if (~isempty (a{j}))
      e = max (e, la_ratio (double (a{j}), double (b{j})));
    end
  end
end

% ---- windows: several item windows and chunk windows at once ------------------
function res = windows (res, seed)
  op = {'kda', 'gdn'}{1 + mod (seed, 2)};
  C = 64;
  if (mod (floor (seed / 2), 2) == 0)
    % many items: 53 to 70 sequences of 1 to 4 chunks, two value heads
    N = 53 + randi (17);
    lens = randi ([1, 4 * C], 1, N);
    lens(1:3) = [4 * C, 1, C + 1];          % unequal chunk counts, a 1-step one
    HV = 2;
    what = sprintf ('%d sequences x %d heads', N, HV);
  else
    % few items, many chunks each (windows of several chunks)
    N = 3;
    lens = [40 * C + randi(C), 23 * C - randi(C), 9 * C + 1];
    HV = 1;
    what = sprintf ('%d sequences of %d..%d chunks', N, ceil (min (lens) / C), ...
                    ceil (max (lens) / C));
  end
  cu = [0, cumsum(lens)];
  T = cu(end);
  for cls = {'double', 'single'}
    tol = 1e-10;
    if (strcmp (cls{1}, 'single'))
      tol = 1e-4;
    end
    [q, k, v, g, beta, h0] = qkv (op, cls{1}, 8, 8, T, HV, N, 1);
    opts = {'CuSeqlens', cu, 'InitialState', h0, 'ChunkSize', C};
    chunk = str2func ([op '_chunk']);  rec = str2func ([op '_recurrent']);
    [oc, Sc] = chunk (q, k, v, g, beta, opts{:});
    [orr, Sr] = rec (q, k, v, g, beta, opts{:});
    res(end+1) = mk (sprintf ('windows %s fwd chunk vs rec (%s, %s)', op, cls{1}, what), ...
                     max (la_ratio (double (orr), double (oc)), ...
                          la_ratio (double (Sr), double (Sc))), tol);
    dout = rnd (cls{1}, size (v));  dS = rnd (cls{1}, size (h0));
    a = cell (1, 6);  b = cell (1, 6);
    [a{:}] = feval ([op '_chunk_bwd'], q, k, v, g, beta, dout, dS, opts{:});
    [b{:}] = feval ([op '_recurrent_bwd'], q, k, v, g, beta, dout, dS, opts{:});
    res(end+1) = mk (sprintf ('windows %s bwd chunk vs rec (%s, %s)', op, cls{1}, what), ...
                     grads_ratio (b, a), 10 * tol);
  end
end

% ---- wide heads: K or V of 256 -------------------------------------------------
function res = wide (res)
  shapes = [256 128; 128 256; 256 256; 256 8; 8 256];
  s = shapes(randi (rows (shapes)), :);
  K = s(1);  V = s(2);
  op = {'kda', 'gdn'}{randi (2)};
  T = 64 + randi (80);
  [q, k, v, g, beta, h0] = qkv (op, 'double', K, V, T, 1, 1, 1);
  dout = randn (size (v));  dS = randn (size (h0));
  sg = @single;
  [od, Sd] = feval ([op '_chunk'], q, k, v, g, beta, 'InitialState', h0);
  [os, Ss] = feval ([op '_chunk'], sg (q), sg (k), sg (v), sg (g), sg (beta), ...
                    'InitialState', sg (h0));
  res(end+1) = mk (sprintf ('wide %s fwd chunk single vs double (K = %d, V = %d)', op, K, V), ...
                   max (la_ratio (od, double (os)), la_ratio (Sd, double (Ss))), 1e-3);
  a = cell (1, 6);  b = cell (1, 6);
  [a{:}] = feval ([op '_chunk_bwd'], q, k, v, g, beta, dout, dS, 'InitialState', h0);
  [b{:}] = feval ([op '_chunk_bwd'], sg (q), sg (k), sg (v), sg (g), sg (beta), sg (dout), ...
                  sg (dS), 'InitialState', sg (h0));
  res(end+1) = mk (sprintf ('wide %s bwd chunk single vs double (K = %d, V = %d)', op, K, V), ...
                   grads_ratio (a, b), 1e-3);
end

% ---- decode: B > 1, T > 1, every pool mode -------------------------------------
function res = decode (res)
  B = 2 + randi (2);  T = 2 + randi (3);  K = 8;  V = 4 + randi (8);  HV = 2;
  op = {'kda', 'gdn'}{randi (2)};
  pc = rand < 0.5;
  [q, k, v, g, beta] = qkv (op, 'double', K, V, T, HV, B, B);
  if (pc)
    beta = 0.1 + 0.8 * rand (V, T, HV, B);
  end
  P = 2 * B * T + 3;
  pool = 0.5 * randn (K, V, HV, P);
  perm = randperm (P);
  fwd = str2func ([op '_recurrent']);
  worst = 0;
  for per_step = [false true]
    if (per_step)
      slots = reshape (perm(1:T * B), T, B);
      slots(2, 1) = 0;                       % one write skipped (padding)
    else
      slots = perm(1:B);
      slots(B) = 0;                          % the last sequence skipped (padding)
    end
    for acc = [false true]
      accepted = [];
      if (acc && per_step)
        accepted = randi (T, 1, B);
        accepted(accepted == 2) = 1;         % not the padded row of sequence 1
      elseif (acc)
        accepted = ones (1, B);
      end
      for inplace = [true false]
        args = {'InitialState', pool, 'Slots', slots, 'UpdatePool', inplace};
        if (~isempty (accepted))
          args = [args, {'AcceptedTokens', accepted}];
        end
        [o, S] = fwd (q, k, v, g, beta, args{:});
        [ro, rS] = ref_decode (q, k, v, g, beta, pool, slots, accepted, inplace, [], 1 / sqrt (K));
        e = max (la_ratio (ro, o), la_ratio (rS, S));
        if (~isequal (size (S), size (rS)))
          e = NaN;
        end
        worst = max (worst, e);
        if (isnan (e))
          worst = NaN;
        end
      end
    end
  end
  res(end+1) = mk (sprintf ('decode %s B = %d, T = %d, every pool mode%s', op, B, T, ...
                            {'', ', beta per channel'}{1 + pc}), worst, 1e-12);
end

% ---- option pairs --------------------------------------------------------------
function res = pairs (res)
  % per-channel beta x BetaSigmoid, forward and backward
  op = {'kda', 'gdn'}{randi (2)};
  K = 8;  V = 3 + randi (9);  T = 5 + randi (20);  HV = 2;  B = 1 + randi (2);
  [q, k, v, g, ~, h0] = qkv (op, 'double', K, V, T, HV, B, B);
  x = 1.5 * randn (V, T, HV, B);
  s = 1 ./ (1 + exp (-x));
  fwd = str2func ([op '_recurrent']);  bwd = [op '_recurrent_bwd'];
  [o1, S1] = fwd (q, k, v, g, x, 'InitialState', h0, 'BetaSigmoid', true);
  [o2, S2] = fwd (q, k, v, g, s, 'InitialState', h0);
  dout = randn (size (v));  dS = randn (size (h0));
  a = cell (1, 6);  b = cell (1, 6);
  [a{:}] = feval (bwd, q, k, v, g, x, dout, dS, 'InitialState', h0, 'BetaSigmoid', true);
  [b{:}] = feval (bwd, q, k, v, g, s, dout, dS, 'InitialState', h0);
  b{5} = b{5} .* s .* (1 - s);
  res(end+1) = mk (sprintf ('pairs %s per-channel beta x BetaSigmoid (V = %d, B = %d)', op, V, B), ...
                   max ([la_ratio(o2, o1), la_ratio(S2, S1), grads_ratio(b, a)]), 1e-12);

  % AcceptedTokens x Slots: the slot a sequence reads is row AcceptedTokens
  T = 3;  B = 2;
  [q, k, v, g, beta] = qkv (op, 'double', K, V, T, HV, B, B);
  pool = randn (K, V, HV, 8);
  slots = [1 2 3; 4 5 6]';                   % rows: steps; columns: sequences
  ok = 1;
  % sequence 2 reads Slots(2, 2) = 5, its own: accepted
  ok = ok && ~refused (fwd, q, k, v, g, beta, pool, slots, [3 2]);
  % sequence 1 reads row 1 (slot 1), sequence 2 row 3 (its own slot 6);
  % then with slots(3, 2) = 2 sequence 2 reads what sequence 1 writes
  slots2 = slots;  slots2(3, 2) = 2;
  ok = ok && refused (fwd, q, k, v, g, beta, pool, slots2, [1 3]);
  % the same Slots read from row 1 (no AcceptedTokens): no conflict
  slots3 = slots;  slots3(3, 2) = 7;
  ok = ok && ~refused (fwd, q, k, v, g, beta, pool, slots3, [1 1]);
  % row 2 of sequence 1 (slot 2) read by sequence 2 through AcceptedTokens
  slots4 = slots;  slots4(1, 2) = 2;  slots4(1, 1) = 8;
  ok = ok && refused (fwd, q, k, v, g, beta, pool, slots4, [1 1]);
  % AcceptedTokens in [1, rows of Slots]: the edges taken, one past refused
  % (not in place: no conflict to refuse it first)
  ok = ok && ~refused (fwd, q, k, v, g, beta, pool, slots, [3 1], false);
  ok = ok && refused (fwd, q, k, v, g, beta, pool, slots, [4 1], false);
  ok = ok && refused (fwd, q, k, v, g, beta, pool, slots, [1 4], false);
  ok = ok && refused (fwd, q, k, v, g, beta, pool, slots, [1 0], false);
  res(end+1) = mk ('pairs AcceptedTokens x Slots conflicts', double (~ok), 0);

  % varlen x clipped chunk: the last sequence is the longest
  lens = [randi(5), randi(7), 40 + randi(30)];
  cu = [0, cumsum(lens)];  T = cu(end);
  [q, k, v, g, beta, h0] = qkv (op, 'double', K, V, T, 1, 3, 1);
  slots = reshape (1:3 * 10, 10, 3);          % 10 rows: fewer than the last one's steps
  err = '';
  try
    fwd (q, k, v, g, beta, 'CuSeqlens', cu, 'InitialState', randn (K, V, 1, 40), 'Slots', slots);
  catch e
    err = e.identifier;
  end
  res(end+1) = mk ('pairs varlen x Slots rows (last sequence longest)', ...
                   double (~strcmp (err, [op ':badSlot'])), 0);
  opts = {'CuSeqlens', cu, 'InitialState', h0, 'ChunkSize', 32};
  [oc, Sc] = feval ([op '_chunk'], q, k, v, g, beta, opts{:});
  [orr, Sr] = fwd (q, k, v, g, beta, opts{:});
  dout = randn (size (v));  dS = randn (size (h0));
  a = cell (1, 6);  b = cell (1, 6);
  [a{:}] = feval ([op '_chunk_bwd'], q, k, v, g, beta, dout, dS, opts{:});
  [b{:}] = feval (bwd, q, k, v, g, beta, dout, dS, opts{:});
  res(end+1) = mk (sprintf ('pairs varlen x clipped chunk, lengths %s', mat2str (lens)), ...
                   max ([la_ratio(orr, oc), la_ratio(Sr, Sc), grads_ratio(b, a)]), 1e-10);
end

function tf = refused (fwd, q, k, v, g, beta, pool, slots, accepted, inplace)
  if (nargin < 10)
    inplace = true;
  end
  tf = false;
  try
    fwd (q, k, v, g, beta, 'InitialState', pool, 'Slots', slots, 'AcceptedTokens', accepted, ...
         'UpdatePool', inplace);
  catch e
    tf = ~isempty (strfind (e.identifier, 'badSlot'));
  end
end

% ---- the verdict's rules ---------------------------------------------------------
function res = verdicts (res)
  % pass: everything checked and in bounds; fail: a tensor out of bounds or
  % a gradient without its do; warn: a tensor the library does not compute
  op = {'kda', 'gdn'}{randi (2)};
  K = 8;  V = 4 + randi (8);  T = 20 + randi (40);
  [q, k, v, g, beta, h0] = qkv (op, 'double', K, V, T, 1, 1, 1);
  [o, S] = feval ([op '_chunk'], q, k, v, g, beta, 'InitialState', h0);
  dout = randn (size (v));
  d = cell (1, 6);
  [d{:}] = feval ([op '_chunk_bwd'], q, k, v, g, beta, dout, [], 'InitialState', h0);
  f = @(name, x) la_to_fla (name, x, 'Op', op);
  dump = struct ('q', f ('q', q), 'k', f ('k', k), 'v', f ('v', v), 'g', f ('g', g), ...
                 'beta', f ('beta', beta), 'h0', f ('h0', h0), 'o', f ('o', o), ...
                 'ht', f ('ht', S), 'do', f ('do', dout), 'dq', f ('dq', d{1}), ...
                 'dbeta', f ('dbeta', d{5}));
  dump.meta = struct ('dtype', 'float64', 'output_final_state', true);
  wrong = ~strcmp (verdict (op, dump), 'pass');
  for t = {'o', 'ht', 'dq', 'dbeta'}
    bad = dump;
    x = bad.(t{1});
    i = randi (numel (x));
    x(i) = x(i) + 0.1 * sqrt (sum (x(:) .^ 2));
    bad.(t{1}) = x;
    wrong += ~strcmp (verdict (op, bad), 'fail');
  end
  nodo = rmfield (dump, 'do');                 % dq and dbeta cannot be checked
  wrong += ~strcmp (verdict (op, nodo), 'fail');
  extra = dump;  extra.scores = dump.o;        % a tensor the library does not compute
  wrong += ~strcmp (verdict (op, extra), 'warn');
  res(end+1) = mk (sprintf ('verify %s wrong verdicts of 7 (clean, 4 off, no do, unknown)', op), ...
                   wrong, 0);
end

function v = verdict (op, dump)
  % the verify function's verdict ('error' when it raises one)
  v = 'error';
  try
    [~, r] = feval ([op '_verify'], dump);
    v = r.verdict;
  catch
  end
end
