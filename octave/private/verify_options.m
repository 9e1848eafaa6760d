% VERIFY_OPTIONS  This library's options for a dump's FLA meta data.
%
%   [opts, problem, notes] = verify_options (op, meta, t)
%
%   meta: the struct of meta.json (FLA's option names plus 'dtype'); t: the
%   dump's tensors (A_log, dt_bias and cu_seqlens may be tensors).  opts:
%   Name, Value cell for kda_chunk / kda_chunk_bwd; problem: chunk_size,
%   state_v_first, cu_seqlens, scale (the one used), fla (true: the
%   backward's intermediates are read as FLA stores them), use_graph (the
%   trailing zero-length sequences use_graph pads cu_seqlens with: their
%   states are not checked); notes: lines for the report.  Every keyword
%   FLA's chunk_kda / chunk_gated_delta_rule / fused_recurrent_* accept (at
%   the commit verify_fla_commit names) is known; any other key is an error
%   (OP:badOption): a misspelt option must not be silently dropped.
%     scale -> 'Scale'   chunk_size -> 'ChunkSize'   cu_seqlens -> 'CuSeqlens'
%     use_qk_l2norm_in_kernel -> 'UseQKL2Norm' (+ 'L2NormEps', 1e-6, FLA's eps)
%     use_gate_in_kernel -> 'GateInKernel' with tensors A_log -> 'ALog',
%       dt_bias -> 'DtBias'
%     lower_bound -> 'LowerBound' (KDA; GDN's FLA ops have none: ignored, noted)
%     safe_gate: checked as FLA checks it (KDA with use_gate_in_kernel:
%       lower_bound in [-5, 0); with a precomputed g nothing); GDN: ignored
%     use_beta_sigmoid_in_kernel -> 'BetaSigmoid'
%     allow_neg_eigval -> 'AllowNegEigval' (FLA: needs the sigmoid)
%     state_v_first (or its deprecated alias transpose_state_layout, noted):
%       the dump's states are [.., V, K] (layout only)
%     head_first: false only (FLA removed it; true is an error saying what to do)
%     intermediates: 'fla' (default) or 'kdagdn': the convention of the
%       backward's dh, dAqk, dAkk (verify_bwd_intermediates)
%     use_graph: true: trailing zero-length sequences are FLA's padding
%     output_final_state, disable_recompute, return_intermediate_states,
%       cu_seqlens_cpu, chunk_indices, max_num_seqs, cp_context, engine:
%       do not change the math (listed as such in the notes); dtype:
%       verify_dtype; inplace_final_state: verify_decode

function [opts, problem, notes] = verify_options (op, meta, t)
  math = {'scale', 'chunk_size', 'cu_seqlens', 'use_qk_l2norm_in_kernel', ...
          'use_gate_in_kernel', 'lower_bound', 'safe_gate', 'use_beta_sigmoid_in_kernel', ...
          'allow_neg_eigval', 'state_v_first', 'transpose_state_layout', 'head_first', ...
          'use_graph', 'intermediates', 'dtype'};
  no_math = {'output_final_state', 'disable_recompute', 'return_intermediate_states', ...
             'cu_seqlens_cpu', 'chunk_indices', 'max_num_seqs', 'cp_context', 'engine'};
  known = [math, no_math];
  keys = fieldnames (meta);
  bad = keys(~ismember (keys, known));
  if (~isempty (bad))
    error ([op ':badOption'], 'meta.json: unknown key(s) %s (known: %s)', ...
           strjoin (bad', ', '), strjoin (known, ', '));
  end
  notes = {};
  given = intersect (no_math, keys);
  if (~isempty (given))
    notes{end + 1} = sprintf (['meta.json keys that do not change the math, so nothing ' ...
                               'to check: %s.'], strjoin (given, ', '));
  end
  mv = @(key, default) meta_value (meta, key, default);
  [problem.state_v_first, notes] = state_layout (op, meta, notes);
  if (logical (mv ('head_first', false)))
    error ([op ':badOption'], ['meta.json: head_first = true: FLA removed head_first (inputs ' ...
           'are [B, T, H, ...]); dump x.transpose(1, 2) of every [B, H, T, ...] tensor and drop the key']);
  end
  problem.chunk_size = mv ('chunk_size', 64);
  problem.cu_seqlens = mv ('cu_seqlens', []);
  if (isempty (problem.cu_seqlens) && isfield (t, 'cu_seqlens'))
    problem.cu_seqlens = t.cu_seqlens;
  end
  problem.cu_seqlens = double (problem.cu_seqlens(:)');
  problem.use_graph = logical (mv ('use_graph', false));
  if (problem.use_graph)
    notes{end + 1} = ['use_graph: the zero-length sequences at the end of cu_seqlens are ' ...
                      'FLA''s CUDA-graph padding, whose rows FLA leaves undefined: their ' ...
                      'states (ht, dh0) are not checked.'];
  end
  conv = mv ('intermediates', 'fla');
  if (~ischar (conv) || ~any (strcmp (conv, {'fla', 'kdagdn'})))
    error ([op ':badOption'], 'meta.json: "intermediates" must be "fla" (default) or "kdagdn"');
  end
  problem.fla = strcmp (conv, 'fla');
  problem.scale = mv ('scale', size (t.q, 4) ^ -0.5);
  l2norm = logical (mv ('use_qk_l2norm_in_kernel', false));
  problem.l2norm = l2norm;                  % verify_intermediates: FLA's qg, kg
  sigmoid = logical (mv ('use_beta_sigmoid_in_kernel', false));
  neg = logical (mv ('allow_neg_eigval', false));
  if (neg && ~sigmoid)
    error ([op ':badOption'], ['meta.json: allow_neg_eigval needs use_beta_sigmoid_in_kernel ' ...
           '(FLA raises the same)']);
  end
  gate = logical (mv ('use_gate_in_kernel', false));
  lb = mv ('lower_bound', []);
  [lb, notes] = lower_bound (op, lb, gate, logical (mv ('safe_gate', false)), notes);
  opts = {'ChunkSize', problem.chunk_size, 'UseQKL2Norm', l2norm, 'BetaSigmoid', sigmoid, ...
          'AllowNegEigval', neg, 'LowerBound', lb};
  if (~isempty (problem.cu_seqlens))        % only [] means "not given"
    opts = [opts, {'CuSeqlens', problem.cu_seqlens}];
  end
  if (isfield (meta, 'scale') && ~isempty (meta.scale))
    opts = [opts, {'Scale', meta.scale}];
  end
  if (l2norm)
    [opts, notes] = optional (op, opts, notes, 'L2NormEps', 1e-6, ...
                              'the L2 norm is taken without FLA''s eps = 1e-6');
  end
  if (gate)
    opts = [opts, gate_options(op, t)];
  end
end

function [v_first, notes] = state_layout (op, meta, notes)
  % state_v_first, or FLA's deprecated alias transpose_state_layout (not both)
  v_first = isfield (meta, 'state_v_first') && ~isempty (meta.state_v_first) ...
            && logical (meta.state_v_first);
  if (isfield (meta, 'transpose_state_layout') && ~isempty (meta.transpose_state_layout))
    alias = logical (meta.transpose_state_layout);
    if (v_first && isfield (meta, 'state_v_first'))
      error ([op ':badOption'], ['meta.json: both state_v_first and its deprecated alias ' ...
             'transpose_state_layout are given (FLA raises the same): keep state_v_first']);
    end
    v_first = alias;
    notes{end + 1} = ['transpose_state_layout is FLA''s deprecated name of state_v_first; ' ...
                      'read as state_v_first.'];
  end
end

function [lb, notes] = lower_bound (op, lb, gate, safe, notes)
  % FLA's GDN ops have no lower_bound nor safe_gate (they fall into **kwargs);
  % KDA's chunk_kda checks safe_gate only with use_gate_in_kernel
  if (strcmp (op, 'gdn'))
    if (~isempty (lb))
      notes{end + 1} = ['lower_bound is ignored: FLA''s GDN ops take no lower_bound (it ' ...
                        'falls into **kwargs), so the gate is -exp(A_log) softplus(g + dt_bias).'];
    end
    if (safe)
      notes{end + 1} = 'safe_gate is ignored: FLA''s GDN ops take no safe_gate.';
    end
    lb = [];
    return;
  end
  if (safe && gate && (isempty (lb) || ~(lb >= -5 && lb < 0)))
    error ([op ':badOption'], ['meta.json: safe_gate with use_gate_in_kernel needs lower_bound ' ...
           'in [-5, 0) (FLA raises the same), got %s'], mat2str (lb));
  end
  if (safe && ~gate)
    notes{end + 1} = ['safe_gate with a precomputed g: FLA checks nothing of g then, nor does ' ...
                      'the verifier.'];
  end
end

function v = meta_value (meta, key, default)
  if (isfield (meta, key) && ~isempty (meta.(key)))
    v = meta.(key);
  else
    v = default;
  end
end

function opts = gate_options (op, t)
  opts = {'GateInKernel', true};
  if (isfield (t, 'A_log'))
    opts = [opts, {'ALog', t.A_log(:)}];
  end
  if (isfield (t, 'dt_bias'))
    kdim = size (t.q, 4);
    opts = [opts, {'DtBias', la_from_fla('dt_bias', t.dt_bias, 'Op', op, 'K', kdim)}];
  end
end

function [opts, notes] = optional (op, opts, notes, name, value, missing)
  % pass an option only if this build of the library knows it
  f = str2func ([op '_recurrent']);
  try
    f (ones (2, 1), ones (2, 1), ones (2, 1), -ones (2 - strcmp (op, 'gdn'), 1), 0.5, name, value);
    opts = [opts, {name, value}];
  catch
    notes{end + 1} = sprintf ('This build has no ''%s'': %s.', name, missing);
  end
end
