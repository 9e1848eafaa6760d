function [rows, figs] = lab_reference (mode, figdir)
  % [rows, figs] = lab_reference (mode, figdir): the reference section of the lab.
  %
  % What the other sections leave to chance, checked against references that
  % share no code with the C core:
  %  - every forward (recurrent and chunked, KDA and GDN, double and single)
  %    against ref_forward, the plain-loop double reference of validation/lib,
  %    on two hard problems: K ~= V, T not a multiple of the chunk size
  %    C = 64 (short last chunk, four sub-blocks of 16), gates from 0 down to
  %    -30 per step and channel, an initial state; and every option at once
  %    (GVA with HV = 2H, CuSeqlens, StateLayout VK, UseQKL2Norm,
  %    GateInKernel, BetaSigmoid with AllowNegEigval, Scale); and a third
  %    large enough to run on every thread (above the core's one-thread
  %    size, 2^18 state elements times steps) with heads that divide among
  %    the threads, so that the chunked forward runs its items as chains
  %    shared between the threads and the backward item by item on every
  %    thread (docs/performance.md);
  %  - the chunked backward at C = 64 against the recurrent backward (double)
  %    on both problems, and against central differences on the first;
  %  - the lab's own tools can fail: fd_check rejects a planted gradient
  %    error of 1e-4, la_ratio gives the known ratio of a hand-made pair,
  %    rand_problem draws gates over the whole range asked for.
  % Bounds: 1e-10 in double, 1e-4 in single (the accuracy bounds of
  % docs/stability.md), 1e-6 for finite differences.  mode and figdir are
  % accepted for the uniform section interface (the sizes are small in
  % both modes).
  rows = lab_row ();
  for op = {'kda', 'gdn'}
    for ip = 1:3
      [P, label] = hard_problem (op{1}, ip);
      rows = [rows, forward_rows(P, label)];
      rows = [rows, backward_rows(P, label)];
    end
  end
  figs = struct ('file', {}, 'caption', {});   % a table, no figure
  rows = [rows, fd_row()];
  rows = [rows, tool_rows()];
end

function [P, label] = hard_problem (op, which)
  % which 1: strong gates, K ~= V, T = 150, C = 64; 2: every option;
  % 3: on every thread, H = 4, T = 330 (a short last chunk)
  if (which == 3)
    P = rand_problem (op, 'K', 32, 'V', 32, 'T', 330, 'H', 4, 'InitialState', true, ...
                      'Seed', 78);
    label = sprintf ('%s threads H=4 K=V=32 T=330 C=64', op);
  elseif (which == 1)
    P = rand_problem (op, 'K', 20, 'V', 12, 'T', 150, 'InitialState', true, 'Seed', 71);
    P.g = -30 * rand (size (P.g)) .^ 3;     % from 0 to -30, all strengths
    label = sprintf ('%s strong gates K=20 V=12 T=150 C=64', op);
  else
    P = rand_problem (op, 'K', 12, 'V', 10, 'T', 170, 'H', 2, 'HV', 4, ...
                      'CuSeqlens', [0 37 150 170], 'StateLayout', 'VK', 'InitialState', true, ...
                      'UseQKL2Norm', true, 'GateInKernel', true, 'BetaSigmoid', true, ...
                      'AllowNegEigval', true, 'Scale', 0.6, 'Seed', 72);
    label = sprintf ('%s all options HV=2H varlen VK C=64', op);
  end
  P.opts = [P.opts, {'ChunkSize', 64}];
end

function rows = forward_rows (P, label)
  rows = lab_row ();
  [o_ref, S_ref] = ref_forward (P.op, P.q, P.k, P.v, P.g, P.beta, P.opts{:});
  for path = {'recurrent', 'chunk'}
    f = str2func ([P.op '_' path{1}]);
    for cls = {'double', 'single'}
      c = @(x) cast (x, cls{1});
      opts = cast_opts (P.opts, cls{1});
      [o, S] = f (c (P.q), c (P.k), c (P.v), c (P.g), c (P.beta), opts{:});
      r = max (la_ratio (o_ref, o), la_ratio (S_ref, S));
      bound = 1e-4;
      if (strcmp (cls{1}, 'double'))
        bound = 1e-10;
      end
      rows(end+1) = lab_row ('reference', sprintf ('%s: %s forward %s vs ref_forward', label, path{1}, cls{1}), ...
                             r, bound);
    end
  end
end

function rows = backward_rows (P, label)
  % the chunked backward against the recurrent one, double, every gradient
  rows = lab_row ();
  Gr = cell (1, 8);  Gc = Gr;
  [Gr{:}] = feval ([P.op '_recurrent_bwd'], P.q, P.k, P.v, P.g, P.beta, P.dout, P.dS, P.opts{:});
  [Gc{:}] = feval ([P.op '_chunk_bwd'], P.q, P.k, P.v, P.g, P.beta, P.dout, P.dS, P.opts{:});
  names = {'dq', 'dk', 'dv', 'dg', 'dbeta', 'dS0', 'dALog', 'dDtBias'};
  for i = 1:8
    if (isempty (Gr{i}) && isempty (Gc{i}))
      continue;     % no gate transform: nothing to compare
    end
    rows(end+1) = lab_row ('reference', sprintf ('%s: chunk vs recurrent backward %s', label, names{i}), ...
                           la_ratio (Gr{i}, Gc{i}), 1e-10);
  end
end

function rows = fd_row ()
  % the chunked backward at C = 64 (4 sub-blocks, block sums of the gate
  % gradient) and strong gates against central differences
  P = rand_problem ('kda', 'K', 5, 'V', 4, 'T', 100, 'InitialState', true, 'Seed', 73);
  P.g = -30 * rand (size (P.g)) .^ 3;
  res = fd_check ('kda_chunk', 'kda_chunk_bwd', P, [P.opts, {'ChunkSize', 64}], 'Seed', 74);
  rows = lab_row ();
  for r = res(:)'
    if (r.scale == 0 && r.maxerr == 0)
      continue;     % an empty output (dALog, dDtBias without GateInKernel)
    end
    rows(end+1) = lab_row ('reference', sprintf ('kda_chunk_bwd C=64 T=100 strong gates: %s vs finite differences', ...
                                    r.name), r.maxerr, r.tol);
  end
end

function rows = tool_rows ()
  % checks of the checkers: each must be able to fail
  rows = lab_row ();
  P = rand_problem ('kda', 'K', 4, 'V', 3, 'T', 9, 'Seed', 75);
  res = fd_check ('kda_recurrent', @planted_bwd, P, P.opts, 'Seed', 76, 'Only', {'dq'});
  rows(end+1) = lab_row ('reference', 'fd_check finds a planted relative error 1e-4 of dq', ...
                         double (res(1).pass), 0, 'fd_check must report the planted error');
  rows(end+1) = lab_row ('reference', 'la_ratio of [1 1 1 1] and [1 1 1 2] is 1/2', ...
                         abs (la_ratio ([1 1 1 1], [1 1 1 2]) - 0.5), 1e-15);
  P = rand_problem ('gdn', 'T', 4000, 'GateStrength', 2, 'Seed', 77);
  rows(end+1) = lab_row ('reference', 'rand_problem gates span (-2, 0): |min g + 2| + |max g|', ...
                         abs (min (P.g(:)) + 2) + abs (max (P.g(:))), 0.01);
end

function varargout = planted_bwd (varargin)
  % kda_recurrent_bwd with dq off by a relative 1e-4 (a planted bug)
  varargout = cell (1, max (nargout, 1));
  [varargout{:}] = kda_recurrent_bwd (varargin{:});
  varargout{1} = varargout{1} * (1 + 1e-4);
end

function opts = cast_opts (opts, cls)
  % the numeric options that must have the class of the inputs
  for i = 1:2:numel (opts)
    if (any (strcmp (opts{i}, {'InitialState', 'ALog', 'DtBias'})))
      opts{i + 1} = cast (opts{i + 1}, cls);
    end
  end
end
