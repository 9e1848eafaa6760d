% VERIFY_LAYOUT  Check a dump's shapes in FLA's terms before anything is computed.
%
%   verify_layout (fn, op, t, problem)
%
%   t: the dump's tensors (FLA layout); problem: verify_options' (cu_seqlens,
%   state_v_first).  Expected: q, k [B, T, H, K]; v [B, T, HV, V] (HV a
%   multiple of H); g [B, T, HV, K] (KDA) or [B, T, HV] (GDN); beta
%   [B, T, HV]; h0, ht [N, HV, K, V] with N = B, or N = numel (cu_seqlens)
%   - 1 and B = 1.  Recognised mistakes, each an error OP:badShape that
%   says what was found and what to do: head-first order [B, H, T, K], a
%   flattened head axis [B, T, H*K], states for N > 1 sequences without
%   cu_seqlens; any other mismatch names the tensors and both shapes.

function verify_layout (fn, op, t, problem)
  id = [op ':badShape'];
  last = struct ('q', 'K', 'k', 'K', 'v', 'V');
  for name = {'q', 'k', 'v'}
    x = t.(name{1});
    c = last.(name{1});
    if (ndims (x) == 3)
      error (id, ['%s: %s is %s, 3-D; FLA''s layout is [B, T, H, %s]: a flattened head axis ' ...
             '[B, T, H*%s] must be split (x.view(B, T, H, -1)), a single head given its axis ' ...
             '(x.unsqueeze(2))'], fn, name{1}, shape_of (x), c, c);
    elseif (ndims (x) > 4)
      error (id, '%s: %s is %s; FLA''s layout is [B, T, H, %s]', fn, name{1}, shape_of (x), c);
    end
  end
  [B, T, H, K] = size (t.q);
  [~, ~, HV, V] = size (t.v);
  head_first (fn, id, t, problem, B, T, HV);
  expect (fn, id, 'k', t.k, [B, T, H, K], '[B, T, H, K], as q');
  expect (fn, id, 'v', t.v, [B, T, HV, V], '[B, T, HV, V], B and T as q');
  if (mod (HV, H) ~= 0)
    error (id, '%s: v has HV = %d heads, q has H = %d: HV must be a multiple of H (GVA)', fn, HV, H);
  end
  if (strcmp (op, 'kda'))
    expect (fn, id, 'g', t.g, [B, T, HV, K], '[B, T, HV, K] (one gate per key channel)');
  else
    expect (fn, id, 'g', t.g, [B, T, HV], '[B, T, HV] (one gate per step and head)');
  end
  if (ndims (t.beta) == 4)
    expect (fn, id, 'beta', t.beta, [B, T, HV, V], '[B, T, HV] or [B, T, HV, V]');
  else
    expect (fn, id, 'beta', t.beta, [B, T, HV], '[B, T, HV]');
  end
  states (fn, id, t, problem, B, T, HV, K, V);
end

function head_first (fn, id, t, problem, B, T, HV)
  % [B, H, T, K] read as [B, T, H, K]: the states' HV, cu_seqlens' T, or
  % thousands of heads over a few steps give it away
  why = '';
  for name = intersect ({'h0', 'ht'}, fieldnames (t))
    s = t.(name{1});
    if (size (s, 2) ~= HV && size (s, 2) == size (t.v, 2))
      why = sprintf ('%s has %d heads, which is the second axis of v', name{1}, size (s, 2));
    end
  end
  cu = problem.cu_seqlens;
  if (isempty (why) && ~isempty (cu) && cu(end) ~= T && cu(end) == HV)
    why = sprintf ('cu_seqlens ends at %d, which is the third axis of v', cu(end));
  end
  if (isempty (why) && HV > 256 && T < HV)
    why = sprintf ('it would mean %d heads over %d steps', HV, T);
  end
  if (~isempty (why))
    error (id, ['%s: v is %s and %s: the dump looks head-first ([B, H, T, V]); FLA''s layout ' ...
           'is [B, T, H, V]: dump x.transpose(1, 2) of every [B, H, T, ...] tensor'], ...
           fn, shape_of (t.v), why);
  end
end

function states (fn, id, t, problem, B, T, HV, K, V)
  cu = problem.cu_seqlens;
  if (~isempty (cu) && (cu(1) ~= 0 || cu(end) ~= T || any (diff (cu) < 0)))
    error (id, '%s: cu_seqlens [%s] must rise from 0 to T = %d', fn, num2str (cu), T);
  end
  if (~isempty (cu) && B ~= 1)
    error (id, '%s: with cu_seqlens the batch size B must be 1, q has B = %d', fn, B);
  end
  kv = [K, V];
  if (problem.state_v_first)
    kv = [V, K];
  end
  for name = intersect ({'h0', 'ht', 'dht', 'dh0'}, fieldnames (t), 'stable')
    s = t.(name{1});
    N = size (s, 1);
    if (isempty (cu) && N ~= B && B == 1)
      error (id, ['%s: %s holds states of N = %d sequences but q is one batch entry (B = 1) ' ...
             'without cu_seqlens: give cu_seqlens (N + 1 offsets, in meta.json or as a ' ...
             'tensor cu_seqlens), as FLA''s varlen call takes them'], fn, name{1}, N);
    end
    n = B;
    if (~isempty (cu))
      n = numel (cu) - 1;
    end
    what = sprintf ('[N, HV, K, V] with N = %d sequences', n);
    if (problem.state_v_first)
      what = sprintf ('[N, HV, V, K] with N = %d sequences (state_v_first)', n);
    end
    expect (fn, id, name{1}, s, [n, HV, kv], what);
  end
end

function expect (fn, id, name, x, want, what)
  sz = size (x);
  n = max (numel (want), numel (sz));
  sz(end + 1:n) = 1;
  want(end + 1:n) = 1;
  if (~isequal (sz, want))
    error (id, '%s: %s is %s, expected %s = %s', fn, name, shape_of (x), what, ...
           ['[' strjoin(arrayfun (@num2str, want, 'UniformOutput', false), ', ') ']']);
  end
end

function s = shape_of (x)
  s = ['[' strjoin(arrayfun (@num2str, size (x), 'UniformOutput', false), ', ') ']'];
end
