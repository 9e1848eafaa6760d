% VERIFY_SLIPS  Name the slip that makes a failing dump match, in FLA's terms.
%
%   [slips, notes] = verify_slips (op, t, opts, problem, rows, decode)
%
%   Called only for a failing dump (a passing verify costs nothing more).
%   Takes the first failing tensor of o, ht, Akk, Aqk, h, or when none of
%   them fails (the forward right, or not in the dump) of the gradients dq,
%   dk, dv, dg, dbeta (db), dh0, dh, dAkk, dAqk, and a small slice of the
%   dump (a chunked call: the first sequence, its first 256 steps; all of
%   it for ht and the gradients, which flow back from the sequence's end;
%   a decode call whole), checks that the slice fails too, then recomputes
%   it once per slip below that applies (at most a dozen), each with the
%   slip made on purpose (on a gradient: in the backward too, and the
%   gradient as the slipped kernel returns it to the dumped tensor: dg
%   times ln 2 for a log2 gate, dg and dbeta exchanged when beta and g
%   are, dq and dk summed over the value heads of an interleaved GVA):
%     scale_default    scale = 1/sqrt(K), FLA's default (the scale given ignored)
%     scale_one        scale = 1 (q not scaled)
%     g_log2           g taken as a log2 gate (the kernel decays by exp2(g))
%     state_vk         the states [V, K] (or [K, V]): state_v_first the other way
%     chunk_size       chunk_size = what the dump's Akk / Aqk / dAkk / dAqk
%                      (last size) or h / dh (their number of chunks) tell
%     l2norm           use_qk_l2norm_in_kernel the other way
%     beta_g_swapped   GDN: beta and g swapped (FLA's naive recurrent and
%                      chunked GDN take them in different orders)
%     head_first       q, k, v, g, beta, o stored [B, H, T, ...]
%     gva_interleaved  value head hv reads key head hv mod H (FLA: hv // (HV/H))
%     cu_seqlens       sequences 0 and 1 run as one (cu_seqlens = [0, end of 1])
%   slips: struct array, one per slip tried, fields name, text (FLA's
%   terms, "matches if ..."), ratio_after (rms error of the tensor on the
%   slice with the slip made, relative) and matched (ratio_after within the
%   tensor's bound); notes: one line per matched slip, or why none was
%   tried.  A slip whose recomputation fails (an error, the reference not
%   finite) is not listed.

function [slips, notes] = verify_slips (op, t, opts, problem, rows, decode)
  slips = struct ('name', {}, 'text', {}, 'ratio_after', {}, 'matched', {});
  notes = {};
  failing = strcmp ({rows.status}, 'fail');
  i = find (ismember ({rows.name}, {'o', 'ht', 'Akk', 'Aqk', 'h'}) & failing, 1);
  if (isempty (i) && isempty (decode))   % the forward right or absent: the backward's slips
    [~, k] = ismember (gradients (), {rows.name});
    k = k(k > 0);
    i = k(find (failing(k), 1));
  end
  if (isempty (i))
    return;                                % no tensor a slip would explain fails
  end
  name = rows(i).name;
  tol = rows(i).tol;
  base = struct ('t', t, 'opts', {opts}, 'problem', problem, 'post', @(r) r);
  [ratio, ok] = try_case (op, base, name, decode);
  if (~ok || ratio <= tol)
    notes{end + 1} = sprintf (['Named slips: not tried (a slice of `%s`, the first sequence, ' ...
                               'does not fail).'], name);
    return;
  end
  cases = candidates (op, t, opts, problem, name, decode);
  for c = 1:min (numel (cases), 12)
    [r, ok] = try_case (op, cases(c), name, decode);
    if (~ok)
      continue;
    end
    m = r <= tol;
    slips(end + 1) = struct ('name', cases(c).name, 'text', cases(c).text, 'ratio_after', r, ...
                             'matched', m);  %#ok<AGROW>
    if (m)
      notes{end + 1} = sprintf ('Named slip: `%s` %s (on a slice: ratio %.3g -> %.3g).', ...
                                name, cases(c).text, ratio, r);
    end
  end
  if (~any ([slips.matched]))
    notes{end + 1} = sprintf ('Named slips: none of the %d tried makes `%s` match (%s).', ...
                              numel (slips), name, strjoin ({slips.name}, ', '));
  end
end

% ---- the slips ----------------------------------------------------------------

function names = gradients ()
  % the gradients a slip is tried on, in the order they are taken
  names = {'dq', 'dk', 'dv', 'dg', 'dbeta', 'db', 'dh0', 'dh', 'dAkk', 'dAqk'};
end

function cases = candidates (op, t, opts, problem, name, decode)
  % post: the recomputed tensors as the slipped kernel hands them to the
  % dump (a gradient is the one of the tensor the dump names)
  cases = struct ('name', {}, 'text', {}, 't', {}, 'opts', {}, 'problem', {}, 'post', {});
  K = size (t.q, 4);
  add = @(cs, n, text, tt, oo, pp) [cs, struct('name', n, 'text', text, 't', tt, 'opts', {oo}, ...
                                               'problem', pp, 'post', @(r) r)];
  scale = option (opts, 'Scale', K ^ -0.5);
  if (abs (scale - K ^ -0.5) > 1e-12 * scale)
    cases = add (cases, 'scale_default', sprintf (['matches if scale = 1/sqrt(K) = %.6g, FLA''s ' ...
                 'default: the kernel ignores the scale %.6g given'], K ^ -0.5, scale), t, ...
                 set_option (opts, 'Scale', K ^ -0.5), problem);
  end
  if (scale ~= 1)
    cases = add (cases, 'scale_one', 'matches if scale = 1: the kernel does not scale q', t, ...
                 set_option (opts, 'Scale', 1), problem);
  end
  if (~option (opts, 'GateInKernel', false))
    tt = t;
    tt.g = t.g * log (2);
    cases = add (cases, 'g_log2', ['matches if g is log2: the kernel decays by exp2(g) (FLA''s ' ...
                 'chunk kernels'' internal form) where g is a natural-log gate'], tt, opts, problem);
    cases(end).post = @(r) scaled (r, 'dg', log (2));   % d/dg of exp2(g) = ln 2 x d/d(g ln 2)
  end
  if ((isfield (t, 'h0') || isfield (t, 'ht')) && K == size (t.v, 4))
    pp = problem;
    pp.state_v_first = ~problem.state_v_first;
    layout = {'[K, V] (meta.json state_v_first: false)', '[V, K] (meta.json state_v_first: true)'};
    cases = add (cases, 'state_vk', ['matches if the state is ' layout{pp.state_v_first + 1}], ...
                 t, opts, pp);
  end
  if (any (strcmp (name, {'Akk', 'Aqk', 'h', 'dAkk', 'dAqk', 'dh'})) && isempty (decode))
    C = chunk_of (t, name, problem);
    if (~isempty (C) && C ~= problem.chunk_size)
      pp = problem;
      pp.chunk_size = C;
      cases = add (cases, 'chunk_size', sprintf ('matches if chunk_size = %d (meta.json says %d)', ...
                   C, problem.chunk_size), t, set_option (opts, 'ChunkSize', C), pp);
    end
  end
  l2 = option (opts, 'UseQKL2Norm', false);
  oo = set_option (opts, 'UseQKL2Norm', ~l2);
  if (~l2)
    oo = set_option (oo, 'L2NormEps', 1e-6);
  end
  onoff = {'false', 'true'};
  cases = add (cases, 'l2norm', sprintf ('matches if use_qk_l2norm_in_kernel = %s', onoff{~l2 + 1}), ...
               t, oo, problem);
  if (strcmp (op, 'gdn') && isequal (size (t.g), size (t.beta)))
    tt = t;
    [tt.g, tt.beta] = deal (t.beta, t.g);
    cases = add (cases, 'beta_g_swapped', ['matches if beta and g are swapped (FLA''s naive ' ...
                 'recurrent GDN takes (q, k, v, beta, g), its chunk and fused kernels (q, k, v, ' ...
                 'g, beta))'], tt, opts, problem);
    cases(end).post = @swap_gate_grads;
  end
  if (isempty (decode) && isempty (problem.cu_seqlens))
    tt = t;
    for f = {'q', 'k', 'v', 'g', 'beta', 'o', 'do', 'dq', 'dk', 'dv', 'dg', 'dbeta', 'db'}
      if (isfield (tt, f{1}))
        p = 1:ndims (tt.(f{1}));
        p([2 3]) = [3 2];
        tt.(f{1}) = permute (tt.(f{1}), p);
      end
    end
    if (size (tt.q, 2) == size (tt.v, 2) && size (tt.q, 3) <= size (tt.v, 3))
      cases = add (cases, 'head_first', ['matches if the dump is head-first ([B, H, T, K]): ' ...
                   'store FLA''s [B, T, H, K]'], tt, opts, problem);
    end
  end
  H = size (t.q, 3);
  HV = size (t.v, 3);
  if (HV > H && mod (HV, H) == 0)
    tt = t;
    map = mod (0:HV - 1, H) + 1;
    tt.q = t.q(:, :, map, :);
    tt.k = t.k(:, :, map, :);
    cases = add (cases, 'gva_interleaved', sprintf (['matches if value head hv reads key head ' ...
                 'hv mod %d (interleaved GVA); FLA maps by block, hv // %d'], H, HV / H), ...
                 tt, opts, problem);
    cases(end).post = @(r) fold_heads (r, map, H);
  end
  cu = problem.cu_seqlens;
  if (isempty (decode) && numel (cu) >= 3 && strcmp (name, 'o'))
    pp = problem;
    pp.merged = true;
    tt = t;
    tt.cu_merged_from = cu;
    cases = add (cases, 'cu_seqlens', sprintf (['matches if cu_seqlens = [0, %d, ...]: the kernel ' ...
                 'runs sequences 0 and 1 as one (the state is not reset between them)'], cu(3)), ...
                 tt, opts, pp);
  end
end

function r = scaled (r, name, f)
  if (isfield (r, name))
    r.(name) = r.(name) * f;
  end
end

function r = swap_gate_grads (r)
  % beta and g exchanged in the call: the gradient the kernel returns for
  % its g is the one of the tensor the dump names beta, and back
  if (isfield (r, 'dg') && isfield (r, 'dbeta'))
    [r.dg, r.dbeta] = deal (r.dbeta, r.dg);
    r.db = r.dbeta;
  end
end

function r = fold_heads (r, map, H)
  % interleaved GVA recomputed with q, k repeated per value head: the
  % kernel's dq, dk [B, T, H, K] sum the value heads that read key head h
  for f = {'dq', 'dk'}
    if (isfield (r, f{1}) && size (r.(f{1}), 3) == numel (map))
      x = r.(f{1});
      y = zeros ([size(x, 1), size(x, 2), H, size(x, 4)]);
      for hv = 1:numel (map)
        y(:, :, map(hv), :) += x(:, :, hv, :);
      end
      r.(f{1}) = y;
    end
  end
end

function C = chunk_of (t, name, problem)
  % the chunk size the dump's own shapes tell: Akk / Aqk / dAkk / dAqk
  % [B, T, HV, BT]; h, dh [B, NT, HV, K, V] with NT = ceil(T / C) (varlen:
  % the sum over the sequences), the one of 16, 32, 64, 128 that gives it
  C = [];
  if (~any (strcmp (name, {'h', 'dh'})))
    C = size (t.(name), 4);
    return;
  end
  if (isempty (problem.cu_seqlens))
    lens = size (t.q, 2);
  else
    lens = diff (problem.cu_seqlens);
  end
  for c = [16 32 64 128]
    if (sum (ceil (lens / c)) == size (t.(name), 2))
      C = c;
      return;
    end
  end
end

% ---- one recomputation on a slice ---------------------------------------------

function [ratio, ok] = try_case (op, c, name, decode)
  ratio = Inf;
  ok = false;
  state = warning ('off', 'all');          % a slip may make the recurrence grow: no noise
  restore = onCleanup (@() warning (state));
  try
    [t, opts, problem] = slice (c.t, c.opts, c.problem, name, decode);
    if (~isfield (t, name))
      return;
    end
    keep = {'q', 'k', 'v', 'g', 'beta', 'h0', 'A_log', 'dt_bias', 'cu_seqlens', 'do', 'dht', ...
            'ssm_state_indices', 'initial_state_indices', 'num_accepted_tokens', ...
            'output_state_indices', 'intermediate_state_indices', 'retrieve_parent_token'};
    x = t.(name);
    t = rmfield (t, setdiff (fieldnames (t), [keep, {name}]));   % what is computed: name
    if (isempty (decode))
      ref = verify_compute (op, t, opts, problem);
    else
      [ref, ~, ~, ~, t] = verify_decode ('compute', op, t, opts, problem, decode);
      x = t.(name);                     % what the engine leaves undefined: zero in both
    end
    ref = c.post (ref);
    r = ref.(name);
    if (~all (isfinite (r(:))))
      return;
    end
    ok = true;
    if (~isequal (size (r), size (x)))
      return;                           % fails by its shape: ratio Inf
    end
    d = r - x;
    ratio = norm (d(:)) / max (norm (r(:)), realmin);
    ok = true;
  catch
    ok = false;
  end
end

function [t, opts, problem] = slice (t, opts, problem, name, decode)
  % a chunked call: batch entry 0, its first 256 steps; varlen: sequence 0
  % whole and the first 128 steps of sequence 1 (ht and the gradients:
  % both whole), or with a merged cu_seqlens the same tokens as one
  % sequence.  A decode call: whole.
  if (~isempty (decode))
    return;
  end
  cu = problem.cu_seqlens;
  merged = isfield (problem, 'merged');
  if (merged)
    problem = rmfield (problem, 'merged');
    cu = t.cu_merged_from;
    t = rmfield (t, 'cu_merged_from');
  end
  whole = any (strcmp (name, [{'ht'}, gradients()]));   % a gradient flows from the end
  if (isempty (cu))
    len = size (t.q, 2);
    if (~whole)
      len = min (len, 256);
    end
    steps = 1:len;
    rows = 1;
    cu_s = [];
  else
    n = min (2, numel (cu) - 1);
    lens = diff (cu(1:n + 1));
    if (n == 1 && ~whole)
      lens = min (lens, 256);
    elseif (n == 2 && ~whole)
      lens(2) = min (lens(2), 128);
    end
    steps = cu(1) + (1:lens(1));
    if (n == 2)
      steps = [steps, cu(2) + (1:lens(2))];
    end
    rows = 1:n;
    cu_s = [0, cumsum(lens)];
    if (merged)
      cu_s = [0, sum(lens)];
      rows = 1;
    end
  end
  for f = {'q', 'k', 'v', 'g', 'beta', 'o', 'Akk', 'Aqk', 'do', 'dq', 'dk', 'dv', 'dg', 'dbeta', ...
           'db', 'dAkk', 'dAqk'}
    if (isfield (t, f{1}))
      idx = repmat ({':'}, 1, ndims (t.(f{1})));
      idx{1} = 1;
      idx{2} = steps;
      t.(f{1}) = t.(f{1})(idx{:});
    end
  end
  for f = {'h0', 'ht', 'dht', 'dh0'}
    if (isfield (t, f{1}))
      t.(f{1}) = t.(f{1})(rows, :, :, :);
    end
  end
  for f = intersect ({'h', 'dh'}, fieldnames (t))   % per chunk: the chunks of the slice's steps
    hf = f{1};
    C = problem.chunk_size;
    if (isempty (cu))
      chunks = 1:ceil (numel (steps) / C);
    else
      all_lens = diff (cu);
      before = [0, cumsum(ceil (all_lens / C))];
      chunks = before(1) + (1:ceil (lens(1) / C));
      if (numel (lens) == 2 && ~merged)
        chunks = [chunks, before(2) + (1:ceil (lens(2) / C))];
      end
    end
    if (max (chunks) <= size (t.(hf), 2))
      t.(hf) = t.(hf)(1, chunks, :, :, :);
    end
  end
  t = rmfield (t, intersect (fieldnames (t), {'cu_seqlens'}));
  problem.cu_seqlens = [];
  opts = drop_option (opts, 'CuSeqlens');
  if (numel (cu_s) > 2)
    problem.cu_seqlens = cu_s;
    opts = [opts, {'CuSeqlens', cu_s}];
  end
end

% ---- options ------------------------------------------------------------------

function v = option (opts, name, default)
  i = find (strcmp (opts(1:2:end), name), 1, 'last');
  v = default;
  if (~isempty (i) && ~isempty (opts{2 * i}))
    v = opts{2 * i};
  end
end

function opts = set_option (opts, name, value)
  opts = [drop_option(opts, name), {name, value}];
end

function opts = drop_option (opts, name)
  i = find (strcmp (opts(1:2:end), name));
  keep = true (1, numel (opts));
  keep([2 * i - 1, 2 * i]) = false;
  opts = opts(keep);
end
