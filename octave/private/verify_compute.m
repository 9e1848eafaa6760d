% VERIFY_COMPUTE  Recompute, in double, every tensor of a dump that can be checked.
%
%   [ref, unchecked] = verify_compute (op, t, opts, problem)
%
%   t: the dump's tensors in FLA layout (double); opts: this library's
%   options (verify_options).  ref: struct of the recomputed tensors in FLA
%   layout, one field per dump tensor that this library computes: o, ht;
%   with do: dq dk dv dg dbeta (or db) dh0 dA_log ddt_bias; intermediates
%   through 'Intermediates' (verify_intermediates).  unchecked: struct
%   array (name, reason, severity) of the dump's other tensors that are
%   not inputs: severity 'fail' for a gradient whose backward could not be
%   run (no `do`: the dump meant it to be checked), else 'warn'.

function [ref, unchecked] = verify_compute (op, t, opts, problem)
  need = {'q', 'k', 'v', 'g', 'beta'};
  conv = {'Op', op, 'StateVFirst', problem.state_v_first};
  in = cell (1, 5);
  for i = 1:5
    in{i} = la_from_fla (need{i}, t.(need{i}), conv{:});
  end
  if (isfield (t, 'h0'))
    opts = [opts, {'InitialState', la_from_fla('h0', t.h0, conv{:})}];
  end
  fwd = str2func ([op '_chunk']);
  [o, S, aux] = fwd (in{:}, opts{:}, 'Intermediates', true);
  ref = struct ('o', la_to_fla ('o', o, conv{:}), 'ht', la_to_fla ('ht', S, conv{:}));
  nb = size (t.q, 1);
  ref = verify_intermediates (op, t, ref, aux, problem, nb);
  if (isfield (t, 'do'))
    dht = [];
    if (isfield (t, 'dht'))
      dht = la_from_fla ('dht', t.dht, conv{:});
    end
    bwd = str2func ([op '_chunk_bwd']);
    grads = cell (1, 9);
    [grads{:}] = bwd (in{:}, la_from_fla ('do', t.do, conv{:}), dht, opts{:}, ...
                      'Intermediates', true);
    ref = verify_bwd_intermediates (op, t, ref, grads{9}, aux, problem, nb);
    names = {'dq', 'dk', 'dv', 'dg', 'dbeta', 'dh0', 'dA_log', 'ddt_bias'};
    for i = 1:numel (names)
      ref.(names{i}) = la_to_fla (names{i}, grads{i}, conv{:});
    end
    ref.db = ref.dbeta;   % FLA's internal name of the beta gradient
  end
  if (~isfield (t, 'h0'))
    ref = rmfield (ref, intersect (fieldnames (ref), {'dh0'}));
  end
  unchecked = unchecked_tensors (t, ref, opts);
end

function unchecked = unchecked_tensors (t, ref, opts)
  inputs = {'q', 'k', 'v', 'g', 'beta', 'h0', 'do', 'dht', 'cu_seqlens'};
  gate = {'A_log', 'dt_bias'};
  backward = {'dht', 'dq', 'dk', 'dv', 'dg', 'dbeta', 'db', 'dh0', 'dA_log', 'ddt_bias', ...
              'dh', 'dAqk', 'dAkk', 'dw', 'du', 'dv_new'};
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
