% FD_STATE_MAP  Check a state map's backward against central differences.
%
%   [err, names] = fd_state_map (op, q, k, v, g, beta, dP, dR, opts)
%
%   op is 'kda' or 'gdn'; opts a cell of the Name, Value options of the
%   call.  For L = <dP, P> + <dR, R> with [P, R] = OP_state_map (q, k, v,
%   g, beta, opts{:}), the gradients of OP_state_map_bwd along one random
%   direction d of each input (k, v, g, beta, and ALog, DtBias when opts
%   gives them) are compared with (L(x + e d) - L(x - e d)) / (2 e),
%   e = 1e-6.  err(i) = |analytic - difference| / max (1, |difference|)
%   for the input names{i}; the differences' own error is about 1e-9 here.
%
%   See also: kda_state_map_bwd, gdn_state_map_bwd, fd_check.

function [err, names] = fd_state_map (op, q, k, v, g, beta, dP, dR, opts)
  fwd = [op '_state_map'];
  grads = cell (1, 6);
  [grads{:}] = feval ([fwd '_bwd'], q, k, v, g, beta, dP, dR, opts{:});
  names = {'k', 'v', 'g', 'beta', 'ALog', 'DtBias'};
  args = {k, v, g, beta, [], []};
  at = zeros (1, 6);     % where ALog, DtBias sit in opts (0: not given)
  for i = 5:6
    j = find (strcmpi (opts(1:2:end), names{i}));
    if (~isempty (j))
      at(i) = 2 * j(end);
      args{i} = opts{at(i)};
    end
  end
  use = [1:4, find(at(5:6)) + 4];
  err = zeros (1, numel (use));
  e = 1e-6;
  for u = 1:numel (use)
    i = use(u);
    d = randn (size (args{i}));
    L = zeros (1, 2);
    for s = 1:2
      a = args;  a{i} = a{i} + (3 - 2 * s) * e * d;
      o = opts;
      for j = find (at)
        o{at(j)} = a{j};
      end
      [P, R] = feval (fwd, q, a{1:4}, o{:});
      L(s) = dP(:)' * P(:) + dR(:)' * R(:);
    end
    fd = (L(1) - L(2)) / (2 * e);
    err(u) = abs (grads{i}(:)' * d(:) - fd) / max (1, abs (fd));
  end
  names = names(use);
end
