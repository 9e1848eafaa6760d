% VERIFY_SLIPS  Name the slip that makes a failing dump match, in FLA's terms.
%
%   [slips, notes] = verify_slips (op, t, opts, problem, rows, decode)
%
%   Called only for a failing dump (a passing verify costs nothing more).
%   Takes the first failing tensor of o, ht, Akk, Aqk, h and a small slice of
%   the dump (a chunked call: the first sequence, its first 256 steps; all
%   of it for ht; a decode call whole), checks that the slice fails too,
%   then recomputes it once per slip below that applies (at most a dozen),
%   each with the slip made on purpose:
%     scale_default    scale = 1/sqrt(K), FLA's default (the scale given ignored)
%     scale_one        scale = 1 (q not scaled)
%     g_log2           g taken as a log2 gate (the kernel decays by exp2(g))
%     state_vk         the states [V, K] (or [K, V]): state_v_first the other way
%     chunk_size       chunk_size = what the dump's Akk / Aqk (last size) or
%                      h (its number of chunks) tell
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
  targets = {'o', 'ht', 'Akk', 'Aqk', 'h'};
  i = find (ismember ({rows.name}, targets) & strcmp ({rows.status}, 'fail'), 1);
  if (isempty (i))
    return;                                % no forward tensor fails: nothing to name
  end
  name = rows(i).name;
  tol = rows(i).tol;
  base = struct ('t', t, 'opts', {opts}, 'problem', problem);
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

function cases = candidates (op, t, opts, problem, name, decode)
  cases = struct ('name', {}, 'text', {}, 't', {}, 'opts', {}, 'problem', {});
  K = size (t.q, 4);
  add = @(cs, n, text, tt, oo, pp) [cs, struct('name', n, 'text', text, 't', tt, 'opts', {oo}, ...
                                               'problem', pp)];
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
  end
  if ((isfield (t, 'h0') || isfield (t, 'ht')) && K == size (t.v, 4))
    pp = problem;
    pp.state_v_first = ~problem.state_v_first;
    layout = {'[K, V] (meta.json state_v_first: false)', '[V, K] (meta.json state_v_first: true)'};
    cases = add (cases, 'state_vk', ['matches if the state is ' layout{pp.state_v_first + 1}], ...
                 t, opts, pp);
  end
  if (any (strcmp (name, {'Akk', 'Aqk', 'h'})) && isempty (decode))
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
  end
  if (isempty (decode) && isempty (problem.cu_seqlens))
    tt = t;
    for f = {'q', 'k', 'v', 'g', 'beta', 'o'}
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

function C = chunk_of (t, name, problem)
  % the chunk size the dump's own shapes tell: Akk / Aqk [B, T, HV, BT];
  % h [B, NT, HV, K, V] with NT = ceil(T / C) (varlen: the sum over the
  % sequences), the one of 16, 32, 64, 128 that gives it
  C = [];
  if (~strcmp (name, 'h'))
    C = size (t.(name), 4);
    return;
  end
  if (isempty (problem.cu_seqlens))
    lens = size (t.q, 2);
  else
    lens = diff (problem.cu_seqlens);
  end
  for c = [16 32 64 128]
    if (sum (ceil (lens / c)) == size (t.h, 2))
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
    keep = {'q', 'k', 'v', 'g', 'beta', 'h0', 'A_log', 'dt_bias', 'cu_seqlens', ...
            'ssm_state_indices', 'initial_state_indices', 'num_accepted_tokens', ...
            'output_state_indices', 'intermediate_state_indices', 'retrieve_parent_token'};
    x = t.(name);
    t = rmfield (t, setdiff (fieldnames (t), [keep, {name}]));   % what is computed: name
    if (isempty (decode))
      ref = verify_compute (op, t, opts, problem);
    else
      ref = verify_decode ('compute', op, t, opts, problem, decode);
    end
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
  % whole and the first 128 steps of sequence 1 (ht: both whole), or with
  % a merged cu_seqlens the same tokens as one sequence.  A decode call:
  % whole.
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
  if (isempty (cu))
    len = size (t.q, 2);
    if (~strcmp (name, 'ht'))
      len = min (len, 256);
    end
    steps = 1:len;
    rows = 1;
    cu_s = [];
  else
    n = min (2, numel (cu) - 1);
    lens = diff (cu(1:n + 1));
    if (n == 1 && ~strcmp (name, 'ht'))
      lens = min (lens, 256);
    elseif (n == 2 && ~strcmp (name, 'ht'))
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
  for f = {'q', 'k', 'v', 'g', 'beta', 'o', 'Akk', 'Aqk'}
    if (isfield (t, f{1}))
      idx = repmat ({':'}, 1, ndims (t.(f{1})));
      idx{1} = 1;
      idx{2} = steps;
      t.(f{1}) = t.(f{1})(idx{:});
    end
  end
  for f = {'h0', 'ht'}
    if (isfield (t, f{1}))
      t.(f{1}) = t.(f{1})(rows, :, :, :);
    end
  end
  if (isfield (t, 'h'))                 % per chunk: the chunks of the slice's steps
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
    if (max (chunks) <= size (t.h, 2))
      t.h = t.h(1, chunks, :, :, :);
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
