% VERIFY_COMPUTE  Recompute, in double, every tensor of a dump that can be checked.
%
%   [ref, unchecked] = verify_compute (op, t, opts, problem)
%   [ref, unchecked, lib] = verify_compute (op, t, opts, problem)
%
%   t: the dump's tensors in FLA layout (double, or single for a dump read
%   as stored: the inputs are made double here); opts: this library's
%   options (verify_options).  ref: struct of the recomputed tensors in FLA
%   layout, one field per dump tensor that this library computes: o, ht;
%   with do: dq dk dv dg dbeta (or db) dh0 dA_log ddt_bias; intermediates
%   through 'Intermediates' (verify_intermediates), asked for only when
%   the dump holds some (they cost more than the run).  unchecked: struct
%   array (name, reason, severity) of the dump's other tensors that are
%   not inputs: severity 'fail' for a gradient whose backward could not be
%   run (no `do`: the dump meant it to be checked), else 'warn'.  A GDN
%   dump with gk / gv (FLA's fused_recurrent_gated_delta_rule) is
%   recomputed by gdn_recurrent / gdn_recurrent_bwd ('GK', 'GV'; dgk, dgv
%   too).  lib: the inputs q k v g beta (h0 do dht) in this library's
%   layout, in double; given back as problem.lib to a second call on the
%   same t (the emulated run), they are not made again.  With use_graph
%   the trailing zero-length sequences' ht, dh0 rows are taken from the
%   dump (FLA leaves them undefined).

function [ref, unchecked, lib] = verify_compute (op, t, opts, problem)
  conv = {'Op', op, 'StateVFirst', problem.state_v_first};
  if (isfield (problem, 'lib') && ~isempty (problem.lib))
    lib = problem.lib;                 % the inputs made by the call before, on the same t
  else
    lib = struct ();
    for n = reshape (intersect ({'q', 'k', 'v', 'g', 'beta', 'h0', 'do', 'dht'}, fieldnames (t)), 1, [])
      lib.(n{1}) = from_fla (n{1}, t, conv);
    end
  end
  in = {lib.q, lib.k, lib.v, lib.g, lib.beta};
  if (isfield (t, 'h0'))
    opts = [opts, {'InitialState', lib.h0}];
  end
  if (strcmp (op, 'gdn') && any (isfield (t, {'gk', 'gv'})))
    [ref, unchecked] = recurrent_gk_gv (t, in, opts, conv, lib);
    return;
  end
  % the intermediates cost more than the run itself: only when the dump has some
  [fwd_inter, bwd_inter] = intermediate_names ();
  want_bwd = isfield (t, 'do') && any (isfield (t, bwd_inter));
  want_fwd = want_bwd || any (isfield (t, fwd_inter));
  fwd = str2func ([op '_chunk']);
  aux = [];
  if (want_fwd)
    [o, S, aux] = fwd (in{:}, opts{:}, 'Intermediates', true);
  else
    [o, S] = fwd (in{:}, opts{:});
  end
  ref = struct ('o', la_to_fla ('o', o, conv{:}), 'ht', la_to_fla ('ht', S, conv{:}));
  clear o S;
  nb = size (t.q, 1);
  if (want_fwd)
    ref = verify_intermediates (op, t, ref, aux, problem, nb);
  end
  if (isfield (t, 'do'))
    dht = [];
    if (isfield (t, 'dht'))
      dht = lib.dht;
    end
    bwd = str2func ([op '_chunk_bwd']);
    names = {'dq', 'dk', 'dv', 'dg', 'dbeta', 'dh0', 'dA_log', 'ddt_bias'};
    dO = lib.do;
    if (want_bwd)
      grads = cell (1, 9);
      [grads{:}] = bwd (in{:}, dO, dht, opts{:}, 'Intermediates', true);
      ref = verify_bwd_intermediates (op, t, ref, grads{9}, aux, problem, nb);
    else
      grads = cell (1, 8);
      [grads{:}] = bwd (in{:}, dO, dht, opts{:});
    end
    clear in dO aux;
    if (nargout < 3)
      clear lib;
    end
    for i = 1:numel (names)
      ref.(names{i}) = la_to_fla (names{i}, grads{i}, conv{:});
      grads{i} = [];
    end
    ref.db = ref.dbeta;   % FLA's internal name of the beta gradient
  end
  if (~isfield (t, 'h0'))
    ref = rmfield (ref, intersect (fieldnames (ref), {'dh0'}));
  end
  ref = tail_states (ref, t, problem);
  unchecked = unchecked_tensors (t, ref, opts);
end

function x = from_fla (name, t, conv)
  % this library's layout, in double (a dump read slice by slice keeps its
  % tensors single: permuted first, the double copy is the only one)
  x = la_from_fla (name, t.(name), conv{:});
  if (~isa (x, 'double'))
    x = double (x);
  end
end

function ref = tail_states (ref, t, problem)
  % use_graph: FLA leaves the states of the trailing zero-length padding
  % sequences undefined; take the dump's own there (so they are not judged)
  cu = problem.cu_seqlens;
  if (~problem.use_graph || isempty (cu))
    return;
  end
  len = diff (cu);
  n = numel (len);
  while (n > 0 && len(n) == 0)
    n = n - 1;
  end
  pad = n + 1:numel (len);
  for name = {'ht', 'dh0'}
    if (~isempty (pad) && isfield (ref, name{1}) && isfield (t, name{1}) ...
        && isequal (size (ref.(name{1})), size (t.(name{1}))))
      ref.(name{1})(pad, :, :, :) = t.(name{1})(pad, :, :, :);
    end
  end
end

function [ref, unchecked] = recurrent_gk_gv (t, in, opts, conv, lib)
  % FLA's fused_recurrent_gated_delta_rule with gk [B, T, HV, K] and / or
  % gv [B, T, HV, V]: the recurrent path ('GK', 'GV'); no intermediates
  keep = true (size (opts));
  i = find (strcmp (opts(1:2:end), 'ChunkSize'));
  keep([2 * i - 1, 2 * i]) = false;
  opts = opts(keep);
  names = {'gk', 'gv'};
  for j = 1:2
    if (isfield (t, names{j}))
      x = double (permute (t.(names{j}), [4 2 3 1]));   % [B, T, HV, X] -> X x T x HV x B
      opts = [opts, {upper(names{j}), x}];       %#ok<AGROW>
    end
  end
  [o, S] = gdn_recurrent (in{:}, opts{:});
  ref = struct ('o', la_to_fla ('o', o, conv{:}), 'ht', la_to_fla ('ht', S, conv{:}));
  if (isfield (t, 'do'))
    dht = [];
    if (isfield (t, 'dht'))
      dht = lib.dht;
    end
    grads = cell (1, 10);
    [grads{:}] = gdn_recurrent_bwd (in{:}, lib.do, dht, opts{:});
    names = {'dq', 'dk', 'dv', 'dg', 'dbeta', 'dh0', 'dA_log', 'ddt_bias'};
    for j = 1:numel (names)
      ref.(names{j}) = la_to_fla (names{j}, grads{j}, conv{:});
    end
    ref.db = ref.dbeta;
    gates = {'dgk', 'dgv'};
    for j = 1:2
      if (isfield (t, gates{j}) && ~isempty (grads{8 + j}))
        ref.(gates{j}) = permute (grads{8 + j}, [4 2 3 1]);   % X x T x HV x B -> [B, T, HV, X]
      end
    end
  end
  if (~isfield (t, 'h0'))
    ref = rmfield (ref, intersect (fieldnames (ref), {'dh0'}));
  end
  unchecked = unchecked_tensors (t, ref, opts);
  [fwd_inter, bwd_inter] = intermediate_names ();
  for j = find (ismember ({unchecked.name}, [fwd_inter, bwd_inter]))
    unchecked(j).reason = ['gk / gv make it a fused recurrent call (FLA''s chunked GDN ' ...
                           'takes no gk, gv): there are no chunk intermediates'];
    unchecked(j).severity = 'warn';
  end
end

function [fwd, bwd] = intermediate_names ()
  % FLA's intermediates that verify_intermediates / verify_bwd_intermediates read
  fwd = {'g_cumsum', 'Aqk', 'Akk', 'w', 'u', 'v_new', 'h', 'qg', 'kg'};
  bwd = {'dh', 'dAqk', 'dAkk', 'dw', 'du', 'dv_new'};
end

function unchecked = unchecked_tensors (t, ref, opts)
  inputs = {'q', 'k', 'v', 'g', 'beta', 'h0', 'do', 'dht', 'cu_seqlens', 'gk', 'gv'};
  gate = {'A_log', 'dt_bias'};
  [~, bwd_inter] = intermediate_names ();
  backward = [{'dht', 'dq', 'dk', 'dv', 'dg', 'dbeta', 'db', 'dh0', 'dA_log', 'ddt_bias'}, ...
              bwd_inter, {'dgk', 'dgv'}];
  gate_used = any (strcmp (opts(1:2:end), 'GateInKernel'));
  unchecked = struct ('name', {}, 'reason', {}, 'severity', {});
  names = fieldnames (t);
  for i = 1:numel (names)
    n = names{i};
    if (isfield (ref, n) || any (strcmp (n, inputs)) || (gate_used && any (strcmp (n, gate))))
      continue;
    end
    if (any (strcmp (n, backward)) && ~isfield (t, 'do'))
      why = 'the dump has no `do` (the gradient of o), so the backward was not run';
      sev = 'fail';
    elseif (strcmp (n, 'dh0'))
      why = 'dh0 without h0 in the dump';
      sev = 'fail';
    elseif (any (strcmp (n, gate)))
      why = 'meta.json does not set use_gate_in_kernel, so it is not used';
      sev = 'warn';
    else
      why = 'not a tensor this library computes (docs/verify.md lists the names)';
      sev = 'warn';
    end
    unchecked(end + 1) = struct ('name', n, 'reason', why, 'severity', sev);  %#ok<AGROW>
  end
end
