% LA_FLA_OPTIONS  Options of la_from_fla / la_to_fla.
%
%   [op, state_v_first, kdim, batch] = la_fla_options (args)
%
%   args: the Name, Value cell ('Op', 'StateVFirst', 'K', 'Batch');
%   unknown names are a 'la:badName' error.

function [op, state_v_first, kdim, batch] = la_fla_options (args)
  op = 'kda';
  state_v_first = false;
  kdim = [];
  batch = 1;
  if (mod (numel (args), 2) ~= 0)
    error ('la:badName', 'options must come in Name, Value pairs');
  end
  for i = 1:2:numel (args)
    switch (lower (args{i}))
      case 'op'
        op = lower (args{i + 1});
      case 'statevfirst'
        state_v_first = logical (args{i + 1});
      case 'k'
        kdim = args{i + 1};
      case 'batch'
        batch = args{i + 1};
      otherwise
        error ('la:badName', 'unknown option ''%s'' (Op, StateVFirst, K, Batch)', args{i});
    end
  end
  if (~any (strcmp (op, {'kda', 'gdn'})))
    error ('la:badName', '''Op'' must be ''kda'' or ''gdn''');
  end
end
