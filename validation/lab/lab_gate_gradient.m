function [rows, figs] = lab_gate_gradient (mode, figdir)
% LAB_GATE_GRADIENT  The gate gradient at strong gates: (51b) against (51) as written.
%
%   [rows, figs] = lab_gate_gradient (mode, figdir)
%
%   At chunk size 64, T = 200 (last chunk 8 steps) and gate strengths s up
%   to 30 (g = -s rand per step and channel, and g = -30 everywhere), dg of
%   kda_chunk_bwd / gdn_chunk_bwd (the C core's cancellation-free (51b)) is
%   compared with the exact-decay reference ref_recurrence_bwd in double.
%   Rows per op and strength:
%     - the reference's own rounding error, estimated by running the same
%       code in single and scaling its deviation by 2^-53 / 2^-24: it must
%       be below 1e-12, a hundredth of the bound it serves;
%     - C core double (bound 1e-10) and single (bound 1e-4);
%     - (51) as written (drv_chunk_bwd, the plain reverse cumulative sum of
%       docs/chunk_backward.md) in double: information, the curve (51b) avoids.
%   figs: the curves over the strength, in figdir.

  C = 64;  T = 200;  K = 16;  V = 8;
  strengths = [0.1 1 4 10 30];
  if (strcmp (mode, 'quick'))
    strengths = [1 30];
  end
  xs = [strengths, 31];        % 31 on the axis stands for g = -30 everywhere
  rows = lab_row ();
  ops = {'kda', 'gdn'};
  R = nan (numel (xs), 4, 2);  % [reference est., C double, C single, (51) as written]
  have46 = exist ('drv_chunk_bwd', 'file') == 2;
  for io = 1:2
    for i = 1:numel (xs)
      P = gate_problem (ops{io}, K, V, T, xs(i), 500 + 10 * io + i);
      label = sprintf ('%s dg, C=%d, %s', ops{io}, C, strength_label (xs(i)));
      R(i, :, io) = measure (P, C, have46);
      rows(end+1) = lab_row ('gate gradient', [label ': reference rounding (single run x 2^-29)'], R(i, 1, io), 1e-12);
      rows(end+1) = lab_row ('gate gradient', [label ': C core (51b), double'], R(i, 2, io), 1e-10);
      rows(end+1) = lab_row ('gate gradient', [label ': C core (51b), single'], R(i, 3, io), 1e-4);
      rows(end+1) = lab_row ('gate gradient', [label ': (51) as written, double'], R(i, 4, io), NaN, ...
                             'information: the cancellation (51b) avoids');
    end
  end
  figs = lab_plot_gate (xs, R, figdir);
end

function s = strength_label (x)
  if (x > 30)
    s = 'g = -30 everywhere';
  else
    s = sprintf ('g = -%g rand', x);
  end
end

function P = gate_problem (op, K, V, T, strength, seed)
  rand ('state', seed);  randn ('state', seed);
  P.op = op;
  P.q = randn (K, T) / sqrt (K);
  P.k = randn (K, T);
  P.k = P.k ./ repmat (sqrt (sum (P.k .^ 2, 1)), K, 1);
  P.v = randn (V, T);
  rows = K;
  if (strcmp (op, 'gdn'))
    rows = 1;
  end
  if (strength > 30)
    P.g = -30 * ones (rows, T);
  else
    P.g = -strength * rand (rows, T);
  end
  P.beta = rand (1, T);
  P.S0 = randn (K, V) / sqrt (K);
  P.dO = randn (V, T);
  P.dS = randn (K, V);
end

function r = measure (P, C, have46)
  s = 1 / sqrt (size (P.q, 1));
  in = {P.q, P.k, P.v, P.g, P.beta};
  [~, ~, ~, dg_ref] = ref_recurrence_bwd (in{:}, P.S0, s, P.dO, P.dS);
  sg = cellfun (@single, [in, {P.S0, s, P.dO, P.dS}], 'UniformOutput', false);
  [~, ~, ~, dg_single_ref] = ref_recurrence_bwd (sg{:});
  r = nan (1, 4);
  r(1) = la_ratio (dg_ref, dg_single_ref) * 2 ^ (-53 + 24);
  g = P.g;
  beta = P.beta(:);
  if (strcmp (P.op, 'gdn'))
    g = g(:);
  end
  b = cell (1, 6);
  [b{:}] = feval ([P.op '_chunk_bwd'], P.q, P.k, P.v, g, beta, P.dO, P.dS, ...
                  'InitialState', P.S0, 'ChunkSize', C);
  r(2) = la_ratio (dg_ref, b{4});
  sgl = cellfun (@single, {P.q, P.k, P.v, g, beta, P.dO}, 'UniformOutput', false);
  [b{:}] = feval ([P.op '_chunk_bwd'], sgl{:}, P.dS, 'InitialState', P.S0, 'ChunkSize', C);
  r(3) = la_ratio (dg_ref, b{4});
  if (have46)
    [~, ~, ~, dg46] = drv_chunk_bwd (P.q, P.k, P.v, P.g, P.beta, P.S0, s, C, P.dO, P.dS);
    r(4) = la_ratio (dg_ref, dg46);
  end
end
