% VERIFY_OPTIONS  This library's options for a dump's FLA meta data.
%
%   [opts, problem, notes] = verify_options (op, meta, t)
%
%   meta: the struct of meta.json (FLA's option names plus 'dtype'); t: the
%   dump's tensors (A_log, dt_bias and cu_seqlens may be tensors).  opts:
%   Name, Value cell for kda_chunk / kda_chunk_bwd; problem: chunk_size,
%   state_v_first, cu_seqlens (the dtype: verify_dtype); notes: lines for the
%   report.  A key not in the table below is an error (OP:badOption): a
%   misspelt option must not be silently dropped.
%     scale -> 'Scale'   chunk_size -> 'ChunkSize'   cu_seqlens -> 'CuSeqlens'
%     use_qk_l2norm_in_kernel -> 'UseQKL2Norm' (+ 'L2NormEps', 1e-6, FLA's eps)
%     use_gate_in_kernel -> 'GateInKernel' with tensors A_log -> 'ALog',
%       dt_bias -> 'DtBias'   lower_bound -> 'LowerBound'   safe_gate -> 'SafeGate'
%     use_beta_sigmoid_in_kernel -> 'BetaSigmoid'
%     allow_neg_eigval -> 'AllowNegEigval'
%     state_v_first: the dump's states are [.., V, K] (layout only)
%     output_final_state: informational;  dtype: verify_dtype

function [opts, problem, notes] = verify_options (op, meta, t)
  known = {'scale', 'chunk_size', 'cu_seqlens', 'use_qk_l2norm_in_kernel', ...
           'use_gate_in_kernel', 'lower_bound', 'safe_gate', 'use_beta_sigmoid_in_kernel', ...
           'allow_neg_eigval', 'state_v_first', 'output_final_state', 'dtype'};
  keys = fieldnames (meta);
  bad = keys(~ismember (keys, known));
  if (~isempty (bad))
    error ([op ':badOption'], 'meta.json: unknown key(s) %s (known: %s)', ...
           strjoin (bad', ', '), strjoin (known, ', '));
  end
  mv = @(key, default) meta_value (meta, key, default);
  problem.chunk_size = mv ('chunk_size', 64);
  problem.state_v_first = logical (mv ('state_v_first', false));
  problem.cu_seqlens = mv ('cu_seqlens', []);
  if (isempty (problem.cu_seqlens) && isfield (t, 'cu_seqlens'))
    problem.cu_seqlens = t.cu_seqlens;
  end
  problem.cu_seqlens = problem.cu_seqlens(:)';
  notes = {};
  l2norm = logical (mv ('use_qk_l2norm_in_kernel', false));
  opts = {'ChunkSize', problem.chunk_size, 'UseQKL2Norm', l2norm, ...
          'BetaSigmoid', logical(mv ('use_beta_sigmoid_in_kernel', false)), ...
          'AllowNegEigval', logical(mv ('allow_neg_eigval', false)), ...
          'LowerBound', mv('lower_bound', [])};
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
  if (logical (mv ('safe_gate', false)))
    [opts, notes] = optional (op, opts, notes, 'SafeGate', true, ...
                              'safe_gate is not applied (the gate is not clamped)');
  end
  if (logical (mv ('use_gate_in_kernel', false)))
    opts = [opts, gate_options(op, t)];
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
    f (ones (2, 1), ones (2, 1), ones (2, 1), -ones (2 - strcmp (op, 'gdn'), 1), 0.5, name, value, ...
       'LowerBound', -1, 'GateInKernel', strcmp (name, 'SafeGate'), 'ALog', 0);
    opts = [opts, {name, value}];
  catch
    notes{end + 1} = sprintf ('This build has no ''%s'': %s.', name, missing);
  end
end
