function [rows, figs] = lab_precision (mode, figdir)
% LAB_PRECISION  Precision section of the lab: every path against an independent reference.
%
%   [rows, figs] = lab_precision (mode, figdir)
%
%   For every sweep point the same random inputs (drawn in double) run
%   through the four C paths (recurrent and chunked, forward and backward)
%   in single and in double.  Each result is compared, with the project's
%   metric rms(ref - x) / rms(ref) (la_ratio), with an independent
%   plain-Octave double reference: ref_forward for o and S, ref_recurrence_bwd
%   for every gradient.  Bounds: 1e-4 for single results up to T = 4096
%   (longer sequences are information), 1e-10 for double results; also the
%   chunked path against the recurrent one in the same class.
%   Sweeps over T, gate strength (g = -s * rand per step and channel, s up
%   to 30), chunk size C and head size K = V; every T is chosen so that the
%   last chunk is short.  mode 'quick' uses small sizes.  figs: one figure
%   per sweep in figdir.

  quick = strcmp (mode, 'quick');
  if (quick)
    Ts = [77 1000];  gates = [0.1 1 30];  Cs = [16 64];  Ks = [16 64];
    H = 1;  Kdef = 32;  Tg = 250;
  else
    Ts = [77 1000 4001 16001];  gates = [0.05 0.5 2 8 30];
    Cs = [16 32 64 128];  Ks = [32 64 128 256];  H = 1;  Kdef = 128;  Tg = 1003;
  end
  rows = lab_row ();
  figs = struct ('file', {}, 'caption', {});
  sweeps = {'T', Ts, 'T (steps), ChunkSize 64', 'precision_T.png';
            'gate', gates, sprintf('gate strength s: g = -s rand (T = %d)', Tg), 'precision_gate.png';
            'C', Cs, sprintf('chunk size C (T = %d)', Tg), 'precision_chunk.png';
            'K', Ks, sprintf('head size K = V (T = %d)', Tg), 'precision_head.png'};
  ops = {'kda', 'gdn'};
  for w = 1:size (sweeps, 1)
    x = sweeps{w, 2};
    fprintf ('  precision over %s ...\n', sweeps{w, 1});
    R = nan (numel (x), 8, 2);   % point x (rec/chunk fwd/bwd single, then double) x op
    for io = 1:2
      for i = 1:numel (x)
        [K, T, C, s] = deal (Kdef, Tg, 64, 1);
        switch (sweeps{w, 1})
          case 'T',    T = x(i);
          case 'gate', s = x(i);
          case 'C',    C = x(i);
          case 'K',    K = x(i);
        end
        P = make_problem (ops{io}, K, K, T, H, s, 100 * w + 10 * io + i);
        label = sprintf ('%s %s=%g (T=%d, C=%d, K=V=%d)', ops{io}, sweeps{w, 1}, x(i), T, C, K);
        [R(i, :, io), rows] = run_point (P, C, rows, label, T <= 4096);
      end
    end
    figs(end+1) = lab_plot_sweep (x, R, sweeps{w, 3}, figdir, sweeps{w, 4});
  end
end


function P = make_problem (op, K, V, T, H, strength, seed)
  % random problem in double; unit-norm q, k keep the recurrence bounded
  rand ('state', seed);  randn ('state', seed);
  P.op = op;
  P.q = unit_columns (randn (K, T, H));
  P.k = unit_columns (randn (K, T, H));
  P.v = randn (V, T, H);
  if (strcmp (op, 'kda'))
    P.g = -strength * rand (K, T, H);
  else
    P.g = -strength * rand (T, H);
  end
  P.beta = rand (T, H);
  P.h0 = randn (K, V, H) / sqrt (K);
  P.dout = randn (V, T, H);
  P.dS = randn (K, V, H);
end

function x = unit_columns (x)
  x = x ./ repmat (sqrt (sum (x .^ 2, 1)), size (x, 1), 1);
end

function [r, rows] = run_point (P, C, rows, label, single_checked)
  % r: the worst ratio against the reference of [recurrent fwd, chunk fwd,
  % recurrent bwd, chunk bwd] in single, then the same in double
  [o_ref, S_ref] = ref_forward (P.op, P.q, P.k, P.v, P.g, P.beta, 'InitialState', P.h0);
  G_ref = reference_grads (P);
  args = {P.q, P.k, P.v, P.g, P.beta};
  opt = {'InitialState', P.h0};
  r = zeros (1, 8);
  out = cell (2, 2);        % {class, path}: {o, S, dq, ..., dS0}
  for ic = 1:2
    a = args;  dout = P.dout;
    if (ic == 1)
      a = cellfun (@single, args, 'UniformOutput', false);
      dout = single (dout);
    end
    for ip = 1:2
      extra = {};
      fn = [P.op '_recurrent'];
      if (ip == 2)
        extra = {'ChunkSize', C};
        fn = [P.op '_chunk'];
      end
      f = cell (1, 2);  b = cell (1, 6);
      [f{:}] = feval (fn, a{:}, opt{:}, extra{:});
      [b{:}] = feval ([fn '_bwd'], a{:}, dout, P.dS, opt{:}, extra{:});
      out{ic, ip} = [f, b];
      base = 4 * (ic - 1) + ip;
      r(base) = worst ({o_ref, S_ref}, f);
      r(base + 2) = worst (G_ref, b);
    end
  end
  names = {'recurrent fwd', 'chunk fwd', 'recurrent bwd', 'chunk bwd'};
  single_bound = NaN;
  if (single_checked)
    single_bound = 1e-4;
  end
  for i = 1:4
    rows(end+1) = lab_row ('precision', sprintf ('%s %s single vs reference', label, names{i}), ...
                           r(i), single_bound);
    rows(end+1) = lab_row ('precision', sprintf ('%s %s double vs reference', label, names{i}), ...
                           r(4 + i), 1e-10);
  end
  rows(end+1) = lab_row ('precision', [label ' chunk vs recurrent, double'], ...
                         worst (out{2, 1}, out{2, 2}), 1e-10);
  rows(end+1) = lab_row ('precision', [label ' chunk vs recurrent, single'], ...
                         worst (out{1, 1}, out{1, 2}), single_bound);
end

function G = reference_grads (P)
  % ref_recurrence_bwd per head (default scale 1 / sqrt (K))
  [K, T, H] = size (P.q);
  s = 1 / sqrt (K);
  G = {zeros(size(P.q)), zeros(size(P.k)), zeros(size(P.v)), zeros(size(P.g)), ...
       zeros(size(P.beta)), zeros(size(P.h0))};
  for h = 1:H
    if (strcmp (P.op, 'kda'))
      gh = P.g(:, :, h);
    else
      gh = P.g(:, h);
    end
    [dq, dk, dv, dg, db, dS0] = ref_recurrence_bwd (P.q(:, :, h), P.k(:, :, h), ...
        P.v(:, :, h), gh, P.beta(:, h), P.h0(:, :, h), s, P.dout(:, :, h), P.dS(:, :, h));
    G{1}(:, :, h) = dq;  G{2}(:, :, h) = dk;  G{3}(:, :, h) = dv;
    if (strcmp (P.op, 'kda'))
      G{4}(:, :, h) = dg;
    else
      G{4}(:, h) = dg(:);
    end
    G{5}(:, h) = db(:);  G{6}(:, :, h) = dS0;
  end
end

function w = worst (A, B)
  w = 0;
  for i = 1:numel (A)
    r = la_ratio (A{i}, B{i});
    w = max (w, r);
    if (isnan (r))
      w = NaN;      % a non-finite result fails the row
      return;
    end
  end
end
