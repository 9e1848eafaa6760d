function [rows, figs] = lab_error_bounds (mode, figdir)
% LAB_ERROR_BOUNDS  The error bounds of docs/error_analysis.md against measured errors.
%
%   [rows, figs] = lab_error_bounds (mode, figdir)
%
%   KDA, one sequence and head, T = 256, K = 16, V = 8, inputs exactly
%   representable in single.  Four sweeps from a base point (C = 64, beta
%   uniform in (0, 1), gates g = -0.1 rand, independent unit keys), each
%   moving one knob: the chunk size C, the largest beta, the gate strength
%   lambda (g = -lambda rand) and the key coherence rho (unit keys
%   sqrt(rho) k0 + sqrt(1 - rho) z_t normalised: neighbouring keys have
%   cosines near rho).  At every point the C core runs in single and in
%   double and the lab measures
%
%     A:  max over the chunks of ||A_single - A_double||_1 / ||A_double||_1
%         (aux.A of 'Intermediates'), against the componentwise bound (E3),
%         m_A u || |L^-1| L_abs |A| ||_1 / ||A||_1, and its normwise form
%         m_A u ||L^-1||_1 ||L_abs||_1 (m_A = 5c + 2K + 1, u = 2^-24);
%     o:  rms(o_single - o_double) / rms(o_double), against the first-order
%         running bound (E5), evaluated in double from the chunks'
%         quantities (drv_chunk_fwd) with absolute values throughout;
%     gradients: the largest ratio over dq, dk, dv, dg, dbeta of
%         kda_chunk_bwd single against double, against the first-order
%         normwise bound (E6), m_B u n_c kappa_abs^2 (m_B = 16c + 4K,
%         n_c chunks, kappa_abs the largest ||L^-1||_1 ||L_abs||_1).
%
%   Rows: every measured error against its bound is a check (the bound must
%   hold); the ratio bound / measured is information (how loose it is).
%   figs: one panel per sweep, the three errors and their bounds.

  here = fileparts (mfilename ('fullpath'));
  if (~exist ('drv_chunk_fwd', 'file'))
    addpath (fullfile (here, '..', 'derivation'));
  end
  rows = lab_row ();
  figs = struct ('file', {}, 'caption', {});
  if (~(exist ('kda_chunk') == 3 || exist ('kda_chunk', 'file')))
    rows(end+1) = lab_row ('error bounds', 'kda_chunk not built: section skipped', NaN, NaN, 'skipped');
    return;
  end
  sw = sweeps (mode);
  res = cell (1, numel (sw));
  for s = 1:numel (sw)
    R = nan (numel (sw(s).values), 10);
    for i = 1:numel (sw(s).values)
      P = sw(s).base;
      P.(sw(s).knob) = sw(s).values(i);
      R(i, :) = measure (P, 900 + 10 * s + i);
      rows = [rows, point_rows(sw(s), P, R(i, :))];
    end
    res{s} = R;
  end
  figs = plot_bounds (sw, res, figdir);
end

function sw = sweeps (mode)
  base = struct ('T', 256, 'K', 16, 'V', 8, 'C', 64, 'beta', 1, 'lambda', 0.1, 'rho', 0);
  sw = struct ('knob', {'C', 'beta', 'lambda', 'rho'}, ...
               'label', {'chunk size C', 'largest beta (beta uniform in (0, b))', ...
                         'gate strength lambda (g = -lambda rand)', 'key coherence rho'}, ...
               'values', {[8 16 32 64 128], [0.25 0.5 1 1.5 1.9], [1e-3 1e-2 0.1 1 10], ...
                          [0 0.5 0.8 0.95 0.99]}, ...
               'base', base);
  if (strcmp (mode, 'quick'))
    sw(1).values = [8 32 128];
    sw(2).values = [0.5 1 1.9];
    sw(3).values = [1e-3 0.1 10];
    sw(4).values = [0 0.8 0.99];
  end
end

function P = problem (P, seed)
  rand ('state', seed);  randn ('state', seed);
  rs = @(x) double (single (x));
  T = P.T;  K = P.K;
  z = randn (K, T) / sqrt (K);
  k0 = randn (K, 1);  k0 = k0 / norm (k0);
  k = sqrt (P.rho) * repmat (k0, 1, T) + sqrt (1 - P.rho) * z;
  P.k = rs (k ./ sqrt (sum (k .^ 2, 1)));
  P.q = rs (randn (K, T) / sqrt (K));
  P.v = rs (randn (P.V, T));
  P.g = rs (-P.lambda * rand (K, T));
  P.b = rs (P.beta * rand (T, 1));
  P.dout = rs (randn (P.V, T));
end

% [err_A, bound_A, bound_A_norm, err_o, bound_o, err_grad, bound_grad,
%  kappa_abs, largest ||P||_2 of the chunks, largest aux.cond]
function r = measure (P, seed)
  P = problem (P, seed);
  u = 2 ^ -24;
  T = P.T;  K = P.K;  V = P.V;  C = P.C;
  in = {P.q, P.k, P.v, P.g, P.b};
  sg = cellfun (@single, in, 'UniformOutput', false);
  [o_d, ~, aux_d] = kda_chunk (in{:}, 'ChunkSize', C, 'Intermediates', true);
  [o_s, ~, aux_s] = kda_chunk (sg{:}, 'ChunkSize', C, 'Intermediates', true);
  s = 1 / sqrt (K);
  [~, ~, ch] = drv_chunk_fwd (P.q, P.k, P.v, P.g, P.b', zeros (K, V), s, C);
  nc = numel (ch);
  errA = 0;  bA = 0;  bAn = 0;  kap = 0;
  eH = 0;                                % first-order bound of ||state error||_F
  Eo2 = 0;  pn = 0;
  for n = 1:nc
    x = ch(n);  c = x.len;  t0 = x.t0;  idx = t0:t0 + c - 1;
    Ad = double (aux_d.A(1:c, idx, 1)).';
    As = double (aux_s.A(1:c, idx, 1)).';
    errA = max (errA, norm (As - Ad, 1) / norm (Ad, 1));
    X = inv (x.L);                                        % L^-1 (exact for the bound)
    Kr = P.k(:, idx)';
    Nabs = tril (abs (P.b(idx)) .* gated_abs (Kr, x.G), -1);   % beta_i on row i
    Labs = eye (c) + Nabs;
    mA = 5 * c + 2 * K + 1;
    bA = max (bA, mA * u * norm (abs (X) * Labs * abs (x.A), 1) / norm (x.A, 1));
    kn = norm (X, 1) * norm (Labs, 1);
    kap = max (kap, kn);
    bAn = max (bAn, mA * u * kn);
    % (E5): first-order bound of o.  Inside the chunk, absolute values
    % (componentwise); between chunks the state error e is carried by the
    % chunk's state map P = Diag(gamma) - K_C' A K_G (32) in norm:
    % ||e_next|| <= ||P||_2 ||e|| + ||delta||_F.
    m = 8 * c + 3 * K;
    H = x.S0;  aH = abs (H);
    Bab = abs (P.v(:, idx)') + abs (x.KG) * aH;           % |V| + |K_G||H|
    Ainv = abs (X) * Labs * abs (x.A) + abs (x.A);        % majorant of A's error / (m u)
    Ev = m * u * Ainv * Bab;                              % local error of v_new
    om = m * u * (abs (s * x.QG) * aH + abs (x.Aqk) * abs (x.v_new)) + abs (x.Aqk) * Ev;
    On = s * x.QG - x.Aqk * x.A * x.KG;                   % d o / d H of the chunk
    Eo2 = Eo2 + (norm (On) * eH + norm (om, 'fro')) ^ 2;
    del = m * u * (abs (x.gamma) .* aH + abs (x.KC)' * abs (x.v_new)) + abs (x.KC)' * Ev;
    Pn = diag (x.gamma) - x.KC' * x.A * x.KG;             % (32)
    pn = max (pn, norm (Pn));
    eH = norm (Pn) * eH + norm (del, 'fro');
  end
  erro = la_ratio (o_d, o_s);
  bo = sqrt (Eo2) / norm (o_d(:));
  % the backward, single against double
  gd = cell (1, 5);  gs = cell (1, 5);
  [gd{:}] = kda_chunk_bwd (in{:}, P.dout, [], 'ChunkSize', C);
  [gs{:}] = kda_chunk_bwd (sg{:}, single (P.dout), [], 'ChunkSize', C);
  errg = 0;
  for j = 1:5
    errg = max (errg, la_ratio (gd{j}, gs{j}));
  end
  bg = (16 * C + 4 * K) * u * nc * kap ^ 2;
  r = [errA, bA, bAn, erro, bo, errg, bg, kap, pn, max(aux_d.cond(:))];
end

% sum_k |x_ik| |x_jk| e^{G_ik - G_jk} for j < i (the gated product of |K|),
% formed with decays <= 1 as the core forms it
function Mab = gated_abs (Kr, G)
  c = size (Kr, 1);
  Mab = zeros (c);
  aK = abs (Kr);
  for j = 1:c
    for i = j + 1:c
      Mab(i, j) = sum (aK(i, :) .* aK(j, :) .* exp (G(i, :) - G(j, :)));
    end
  end
end

function r = point_rows (sw, P, R)
  sec = 'error bounds';
  at = sprintf ('%s = %g', sw.knob, P.(sw.knob));
  names = {'A (explicit inverse, E3)', 'o (forward, E5)', 'gradients (backward, E6)'};
  col = [1 2; 4 5; 6 7];
  r = lab_row ();
  for t = 1:3
    e = R(col(t, 1));  b = R(col(t, 2));
    r(end+1) = lab_row (sec, sprintf ('%s, %s: single vs double <= first-order bound', names{t}, at), ...
                        e, b, 'error_analysis.md');
    r(end+1) = lab_row (sec, sprintf ('%s, %s: bound / measured', names{t}, at), ...
                        b / max (e, realmin), NaN, 'information: how loose the bound is');
  end
  r(end+1) = lab_row (sec, sprintf ('A, %s: normwise bound (E3) m_A u kappa_abs', at), R(3), NaN, ...
                      'information');
  r(end+1) = lab_row (sec, sprintf ('%s: largest kappa_abs = ||L^-1||_1 ||L_abs||_1 of the chunks', at), ...
                      R(8), NaN, 'information');
  r(end+1) = lab_row (sec, sprintf ('%s: largest cond_1(I + A_raw) of the chunks (aux.cond)', at), ...
                      R(10), NaN, 'information');
  r(end+1) = lab_row (sec, sprintf (['%s: largest ||P||_2 of the chunks'' state maps (32) ' ...
                      '(unit keys, beta < 2, g <= 0: at most 1)'], at), R(9), 1 + 1e-9, ...
                      'the contraction (E5) relies on');
end

function figs = plot_bounds (sw, res, figdir)
  file = 'error_bounds.png';
  figs = struct ('file', file, 'caption', [ ...
    'Measured errors of the single-precision chunked path against the double one (markers) ' ...
    'and the first-order bounds of docs/error_analysis.md (lines), KDA, T = 256, K = 16, V = 8; ' ...
    'each panel moves one knob from the base point C = 64, beta in (0, 1), lambda = 0.1, rho = 0. ' ...
    'Blue: the explicit inverse A (E3; dashed: its normwise form); red: the output o (E5); ' ...
    'green: the largest gradient ratio (E6).']);
  if (isempty (figdir))
    return;
  end
  h = figure ('visible', 'off', 'position', [0 0 1100 800]);
  col = {[0.00 0.35 0.75], [0.80 0.10 0.10], [0.10 0.55 0.20]};
  for s = 1:numel (sw)
    subplot (2, 2, s);
    x = sw(s).values;
    R = max (res{s}, 1e-18);
    if (strcmp (sw(s).knob, 'rho'))
      x = 1 - x;                                   % distance from parallel keys
    end
    loglog (x, R(:, 1), 'o', 'color', col{1}, 'markerfacecolor', col{1});  hold on;
    loglog (x, R(:, 2), '-', 'color', col{1}, 'linewidth', 1.5);
    loglog (x, R(:, 3), '--', 'color', col{1});
    loglog (x, R(:, 4), 's', 'color', col{2}, 'markerfacecolor', col{2});
    loglog (x, R(:, 5), '-', 'color', col{2}, 'linewidth', 1.5);
    loglog (x, R(:, 6), 'd', 'color', col{3}, 'markerfacecolor', col{3});
    loglog (x, R(:, 7), '-', 'color', col{3}, 'linewidth', 1.5);
    grid on;  hold off;
    if (strcmp (sw(s).knob, 'rho'))
      xlabel ('1 - rho (key coherence rho: left independent keys, right nearly parallel)');
      set (gca, 'xdir', 'reverse');
    else
      xlabel (sw(s).label);
    end
    ylabel ('relative error');
    ylim ([1e-9 1e3]);
    if (s == 1)
      legend ({'A measured', 'A bound (E3)', 'A normwise', 'o measured', 'o bound (E5)', ...
               'grad measured', 'grad bound (E6)'}, 'location', 'northwest', 'fontsize', 7);
    end
  end
  print (h, '-dpng', '-r80', fullfile (figdir, file));
  close (h);
end
