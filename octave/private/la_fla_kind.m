% LA_FLA_KIND  The layout kind of a tensor by its FLA name.
%
%   [kind, perm] = la_fla_kind (name, op, state_v_first)
%
%   kind: 'qk', 'v', 'gk', 'bt', 'state', 'chunkstate', 'tri', 'alog',
%   'dtbias', 'vector'; perm: the permutation that takes the array indexed
%   like FLA's (as la_load returns it) to this library's layout, e.g. q
%   [B, T, H, K] -> K x T x H x B is perm [4 2 3 1].  op 'gdn' makes g and
%   dg scalar gates ([B, T, HV]); GDN's gk [B, T, HV, K] and gv [B, T, HV,
%   V] (FLA's fused_recurrent_gated_delta_rule) keep their last axis.  state_v_first: FLA states are
%   [N, HV, V, K] (and h [B, NT, HV, V, K]) instead of [.., K, V].  An
%   unknown name is a 'la:badName' error listing the known ones.

function [kind, perm] = la_fla_kind (name, op, state_v_first)
  kinds = {'qk',         {'q', 'k', 'dq', 'dk', 'qg', 'kg'}; ...
           'v',          {'v', 'o', 'do', 'dv', 'u', 'v_new', 'dv_new', 'du', 'gv', 'dgv'}; ...
           'gk',         {'g', 'dg', 'w', 'dw', 'g_cumsum', 'gk', 'dgk'}; ...
           'bt',         {'beta', 'dbeta', 'db'}; ...
           'state',      {'h0', 'ht', 'dht', 'dh0', 'initial_state', 'final_state'}; ...
           'chunkstate', {'h', 'dh'}; ...
           'tri',        {'Akk', 'Aqk', 'dAkk', 'dAqk'}; ...
           'alog',       {'A_log', 'dA_log'}; ...
           'dtbias',     {'dt_bias', 'ddt_bias'}; ...
           'vector',     {'cu_seqlens'}};
  kind = '';
  for i = 1:size (kinds, 1)
    if (any (strcmp (name, kinds{i, 2})))
      kind = kinds{i, 1};
    end
  end
  if (isempty (kind))
    all_names = [kinds{:, 2}];
    error ('la:badName', 'unknown FLA tensor name ''%s'' (known: %s)', name, strjoin (all_names, ' '));
  end
  if (strcmp (op, 'gdn') && any (strcmp (name, {'g', 'dg', 'g_cumsum'})))   % gk: per key
    kind = 'bt';
  end
  switch (kind)
    case {'qk', 'v', 'gk', 'tri'}
      perm = [4 2 3 1];          % [B, T, heads, X] -> X x T x heads x B
    case 'bt'
      perm = [2 3 1];            % [B, T, HV] -> T x HV x B
    case 'state'
      perm = [3 4 2 1];          % [N, HV, K, V] -> K x V x HV x N
    case 'chunkstate'
      perm = [4 5 3 2 1];        % [B, NT, HV, K, V] -> K x V x HV x NT x B
    otherwise
      perm = [1 2];
  end
  if (state_v_first && any (strcmp (kind, {'state', 'chunkstate'})))
    perm([1 2]) = perm([2 1]);   % FLA [.., V, K] -> K x V
  end
end
