function cls = lab_cover_classes (fname, args)
% LAB_COVER_CLASSES  The coverage classes of one call of a public function.
%
%   cls = lab_cover_classes (fname, args)
%
%   fname: 'kda_chunk', 'gdn_recurrent_bwd', ...; args: the call's
%   arguments.  cls: a cell of class names (lab_cover_matrix lists them):
%     the options the call set (a logical option only when true, StateLayout
%     only as 'VK', Emulate only when not 'none');
%     shape: 'B > 1', 'V > K', 'V < K', 'odd V', 'HV = H', 'HV = 2H',
%     'HV = 4H'; against the chunk size C (ChunkSize, default 64; the
%     checkpoint interval of the recurrent paths): 'T < C', 'T = C',
%     'T > C' (a sequence longer than one chunk), 'short last chunk' (a
%     sequence of more than C steps, not a multiple of C), 'varlen',
%     'length-1 sequence';
%     threads: '1 thread', '2 threads', '3+ threads', 'threads do not divide
%     the heads' (N HV not a multiple of them);
%     precision: 'double', 'single'.
%   The chunked forward's schedule (windows, column blocks) is the core's
%   own business: the lab draws past its bounds (lab_edge_case 'windows')
%   instead of modelling it.
%   verify takes a dump: only its options and precision are read.

  cls = {};
  [pos, opts] = split_args (fname, args);
  names = lower (opts(1:2:end));
  vals = opts(2:2:end);
  known = {'Scale', 'InitialState', 'CuSeqlens', 'ChunkSize', 'UseQKL2Norm', 'L2NormEps', ...
           'GateInKernel', 'ALog', 'DtBias', 'LowerBound', 'SafeGate', 'BetaSigmoid', ...
           'AllowNegEigval', 'StateLayout', 'Intermediates', 'Emulate', 'GK', 'GV'};
  for i = 1:numel (known)
    j = find (strcmp (names, lower (known{i})), 1, 'last');
    if (isempty (j))
      continue;
    end
    v = vals{j};
    if (islogical (v) && isscalar (v) && ~v)
      continue;
    end
    if (strcmp (known{i}, 'StateLayout'))
      if (strcmpi (v, 'VK'))
        cls{end+1} = 'StateLayout VK';
      end
      continue;
    end
    if (strcmp (known{i}, 'Emulate'))
      if (ischar (v) && ~strcmpi (v, 'none'))
        cls{end+1} = 'Emulate';
      end
      continue;
    end
    if (isempty (v) && ~ischar (v))
      continue;
    end
    cls{end+1} = known{i};
  end
  th = nproc ('overridable');
  cls{end+1} = thread_class (th);
  if (numel (pos) < 5 || ~isnumeric (pos{1}))        % verify: a dump
    if (isstruct (pos{1}) && isfield (pos{1}, 'q'))
      cls{end+1} = class (pos{1}.q);
    end
    return;
  end
  q = pos{1};
  v = pos{3};
  cls{end+1} = class (q);
  [K, T, H, B] = size (q);
  [V, ~, HV, ~] = size (v);
  C = opt (names, vals, 'chunksize', 64);
  cu = opt (names, vals, 'cuseqlens', []);
  if (isempty (cu))
    lens = repmat (T, 1, B);
  else
    lens = diff (double (cu(:)'));
    cls{end+1} = 'varlen';
    if (any (lens == 1))
      cls{end+1} = 'length-1 sequence';
    end
  end
  if (B > 1),  cls{end+1} = 'B > 1';  end
  if (V > K),  cls{end+1} = 'V > K';  end
  if (V < K),  cls{end+1} = 'V < K';  end
  if (mod (V, 2)),  cls{end+1} = 'odd V';  end
  r = HV / H;
  if (any (r == [1 2 4]))
    cls{end+1} = sprintf ('HV = %s', strrep (sprintf ('%dH', r), '1H', 'H'));
  end
  if (any (lens < C)),  cls{end+1} = 'T < C';  end
  if (any (lens == C)),  cls{end+1} = 'T = C';  end
  if (any (lens > C)),  cls{end+1} = 'T > C';  end
  if (any (lens > C & mod (lens, C) ~= 0)),  cls{end+1} = 'short last chunk';  end
  if (mod (numel (lens) * HV, th) ~= 0)
    cls{end+1} = 'threads do not divide the heads';
  end
end

function s = thread_class (th)
  if (th == 1)
    s = '1 thread';
  elseif (th == 2)
    s = '2 threads';
  else
    s = '3+ threads';
  end
end

function v = opt (names, vals, name, default)
  j = find (strcmp (names, name), 1, 'last');
  v = default;
  if (~isempty (j))
    v = double (vals{j});
  end
end

% the positional arguments and the Name/Value pairs after them
function [pos, opts] = split_args (fname, args)
  if (~isempty (strfind (fname, 'verify')))
    npos = 1;
  elseif (~isempty (strfind (fname, '_bwd')))
    npos = 7;                       % q k v g beta dout dS (state map: dP dR)
  else
    npos = 5;
  end
  npos = min (npos, numel (args));
  j = npos + 1;
  while (j <= numel (args) && ~ischar (args{j}))  % more positional arguments
    j = j + 1;
  end
  pos = args(1:j - 1);
  opts = args(j:end);
  if (mod (numel (opts), 2))
    opts = opts(1:end - 1);
  end
end
