% HZ_EXP_GATE_GRAD  Hazard 2: the gate gradient as (51) against (51b).
%
%   [rows, R] = hz_exp_gate_grad (mode, figdir)
%
%   For one chunk (c = 32, K = 8 quick; c = 64, K = 32 full) with gates
%   g = -s (0.75 + 0.5 rand) per step and channel, s from 1 to 30, and
%   random adjoints of A^qk and M, the gradient in g is formed by
%   hz_gate_grad as written in docs/chunk_backward.md (49)+(51) and as (51b),
%   in double and single, and compared (ratio) with the compensated
%   double reference, whose own error bound is reported.  R.s, R.err
%   (strengths x [46 double, 46b double, 46 single, 46b single]),
%   R.refbound; plot figdir/hazards_gate_gradient.png.
%
%   See also: hz_gate_grad, lab_hazards.

function [rows, R] = hz_exp_gate_grad (mode, figdir)
  if (strcmp (mode, 'quick'))
    R.s = [1 3 10 30];  c = 32;  K = 8;
  else
    R.s = [1 2 3 5 8 12 16 20 25 30];  c = 64;  K = 32;
  end
  R.labels = {'(51) double', '(51b) double', '(51) single', '(51b) single'};
  R.err = nan (numel (R.s), 4);
  R.refbound = nan (numel (R.s), 1);
  for is = 1:numel (R.s)
    q = randn (c, K) / sqrt (K);  k = randn (c, K) / sqrt (K);
    g = -R.s(is) * (0.75 + 0.5 * rand (c, K));
    Pqk = randn (c);  Pkk = randn (c);
    for f = 1:2
      fmt = pick (f == 1, 'double', 'single');
      [g46, g46b, gref, cnd] = hz_gate_grad (q, k, g, Pqk, Pkk, fmt);
      R.err(is, 2 * f - 1) = la_ratio (gref, g46);
      R.err(is, 2 * f) = la_ratio (gref, g46b);
    end
    R.refbound(is) = (c + 4) * eps / 2 * norm (cnd(2:end, :) .* abs (gref(2:end, :)), 'fro') ...
                     / norm (gref, 'fro');
  end
  rows = lab_row ();
  rows(end + 1) = lab_row ('hazards', 'gate gradient: error bound of the reference, worst s', max (R.refbound), 1e-12);
  rows(end + 1) = lab_row ('hazards', 'gate gradient (51b) double, worst over s = 1..30', max (R.err(:, 2)), 1e-10);
  rows(end + 1) = lab_row ('hazards', 'gate gradient (51b) single, worst over s = 1..30', max (R.err(:, 4)), 1e-4);
  for is = 1:numel (R.s)
    for j = [1 3]
      rows(end + 1) = lab_row ('hazards', sprintf ('gate gradient %s, g ~ -%g per step', R.labels{j}, R.s(is)), ...
                               R.err(is, j), NaN, 'reported');
    end
  end
  rows(end + 1) = lab_row ('hazards', 'gate gradient (51) single at g ~ -30: relative error (all lost)', ...
                           R.err(end, 3), 1, 'kind', 'atleast');
  rows(end + 1) = lab_row ('hazards', 'gate gradient (51) double at g ~ -30: above the double bound', ...
                           R.err(end, 1), 1e-10, 'kind', 'atleast');
  if (~isempty (figdir))
    plot_gate_grad (R, fullfile (figdir, 'hazards_gate_gradient.png'));
  end
end


function plot_gate_grad (R, file)
  h = figure ('visible', 'off', 'position', [0 0 760 440]);
  mk = {'-o', '-s', '--o', '--s'};
  for j = 1:4
    semilogy (R.s, max (R.err(:, j), 1e-18), mk{j}, 'linewidth', 1.4);
    hold on;
  end
  semilogy (R.s, R.refbound, 'k:', 'linewidth', 1.2);
  semilogy (R.s([1 end]), [1e-4 1e-4], 'r:', R.s([1 end]), [1e-10 1e-10], 'b:');
  hold off;  grid on;
  xlabel ('gate strength s (g = -s (0.75 + 0.5 rand) per step and channel)');
  ylabel ('ratio of dL/dg against the reference');
  title ('gate gradient: (51) difference then reverse sum, against (51b)');
  legend ([R.labels, {'bound of the reference', 'single bound', 'double bound'}], ...
          'location', 'northwest');
  print (h, '-dpng', '-r80', file);
  close (h);
end
