% VERIFY_COMPUTE  Recompute, in double, every tensor of a dump that can be checked.
%
%   [ref, notes] = verify_compute (op, t, opts, problem)
%
%   t: the dump's tensors in FLA layout (double); opts: this library's
%   options (verify_options).  ref: struct of the recomputed tensors in FLA
%   layout, one field per dump tensor that this library computes: o, ht;
%   with do: dq dk dv dg dbeta (or db) dh0 dA_log ddt_bias; intermediates
%   through 'Intermediates' (verify_intermediates).  notes: a line for each
%   dump tensor that is not checked, and why.

function [ref, notes] = verify_compute (op, t, opts, problem)
  need = {'q', 'k', 'v', 'g', 'beta'};
  missing = need(~isfield (t, need));
  if (~isempty (missing))
    error ('la:badFile', 'the dump lacks the input(s) %s', strjoin (missing, ', '));
  end
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
  [ref, notes] = verify_intermediates (op, t, ref, aux, problem, nb);
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
  inputs = {'q', 'k', 'v', 'g', 'beta', 'h0', 'do', 'dht', 'A_log', 'dt_bias', 'cu_seqlens'};
  names = fieldnames (t);
  for i = 1:numel (names)
    if (~isfield (ref, names{i}) && ~any (strcmp (names{i}, inputs)) ...
        && ~any (strncmp (notes, ['`' names{i} '`'], numel (names{i}) + 2)))
      notes{end + 1} = sprintf ('`%s`: not checked (not a tensor this library computes%s).', ...
                                names{i}, forward_only (names{i}, t));
    end
  end
end

function why = forward_only (name, t)
  why = '';
  if (name(1) == 'd' && ~isfield (t, 'do'))
    why = '; a gradient needs `do` in the dump';
  end
end
