function [rows, figs] = lab_conditioning (mode, figdir)
% LAB_CONDITIONING  Precision in the non-contractive regimes, and how it tracks cond(I + A_raw).
%
%   [rows, figs] = lab_conditioning (mode, figdir)
%
%   The precision section holds keys of unit norm and beta in (0, 1), where
%   every step contracts the state.  Here the regimes that do not: keys not
%   normalised (norm r > 1), AllowNegEigval (beta up to 2), gates near 0
%   (no decay to damp what the steps amplify), and all three together.  For
%   each regime, KDA and GDN, T = 130 (C = 64: a last chunk of 2 steps),
%   K = 16, V = 8, the output o of the chunked and recurrent paths in single
%   and double is compared with the plain-Octave double reference
%   (ref_forward), and the conditioning of the chunk systems is read from
%   aux.cond (cond_1 (I + A_raw) per chunk, 'Intermediates' of the double
%   chunked forward): its largest value over the chunks and value heads.
%
%   Rows: the contractive baseline is a check (single 1e-4, double 1e-10);
%   the other regimes are information: their error is that of the problem
%   (the reference itself amplifies rounding there), not a defect of a path.
%   figs: errors per regime, and the error of each path over cond.

  T = 130;  C = 64;  K = 16;  V = 8;
  reg = regimes ();
  if (strcmp (mode, 'quick'))
    reg = reg([1 4 5 7 9]);
  end
  ops = {'kda', 'gdn'};
  paths = {'chunk', 'recurrent'};
  E = nan (numel (reg), 4, 2);       % [chunk single, recurrent single, chunk double, recurrent double]
  kappa = nan (numel (reg), 2);
  rows = lab_row ();
  for io = 1:2
    for i = 1:numel (reg)
      P = regime_problem (ops{io}, reg(i), K, V, T, 700 + 10 * io + i);
      [E(i, :, io), kappa(i, io)] = measure (P, C, paths);
      rows = [rows, regime_rows(ops{io}, reg(i), E(i, :, io), kappa(i, io))];
    end
  end
  figs = plot_conditioning (reg, E, kappa, figdir);
end

function reg = regimes ()
  % name, key norm r, beta range [lo hi], gate strength s (g = -s rand)
  % tick: the short name on the figure's axis (k: key norm, b>1: beta in
  % (1, 2), g0: gates near 0)
  reg = struct ('name', {}, 'tick', {}, 'r', {}, 'beta', {}, 's', {}, 'contractive', {});
  reg(end+1) = struct ('name', 'unit keys, beta<1, g=-rand', 'tick', 'base', 'r', 1, 'beta', [0 1], 's', 1, 'contractive', true);
  reg(end+1) = struct ('name', 'key norm 1.2', 'tick', 'k1.2', 'r', 1.2, 'beta', [0 1], 's', 1, 'contractive', false);
  reg(end+1) = struct ('name', 'key norm 1.5', 'tick', 'k1.5', 'r', 1.5, 'beta', [0 1], 's', 1, 'contractive', false);
  reg(end+1) = struct ('name', 'beta in (1,2) (AllowNegEigval)', 'tick', 'b>1', 'r', 1, 'beta', [1 2], 's', 1, 'contractive', false);
  reg(end+1) = struct ('name', 'gates near 0 (g=-1e-3 rand)', 'tick', 'g0', 'r', 1, 'beta', [0 1], 's', 1e-3, 'contractive', false);
  reg(end+1) = struct ('name', 'beta in (1,2), gates near 0', 'tick', 'b>1 g0', 'r', 1, 'beta', [1 2], 's', 1e-3, 'contractive', false);
  reg(end+1) = struct ('name', 'key norm 1.5, beta in (1,2), gates near 0', 'tick', 'k1.5 b>1 g0', 'r', 1.5, 'beta', [1 2], 's', 1e-3, 'contractive', false);
  reg(end+1) = struct ('name', 'key norm 2, gates near 0', 'tick', 'k2 g0', 'r', 2, 'beta', [0 1], 's', 1e-3, 'contractive', false);
  reg(end+1) = struct ('name', 'key norm 3, gates near 0', 'tick', 'k3 g0', 'r', 3, 'beta', [0 1], 's', 1e-3, 'contractive', false);
end

function P = regime_problem (op, reg, K, V, T, seed)
  rand ('state', seed);  randn ('state', seed);
  P.op = op;
  P.q = randn (K, T) / sqrt (K);
  P.k = randn (K, T);
  P.k = reg.r * P.k ./ repmat (sqrt (sum (P.k .^ 2, 1)), K, 1);
  P.v = randn (V, T);
  gate_rows = K;
  if (strcmp (op, 'gdn'))
    gate_rows = 1;
  end
  P.g = -reg.s * rand (gate_rows, T);
  if (strcmp (op, 'gdn'))
    P.g = P.g(:);
  end
  P.beta = reg.beta(1) + diff (reg.beta) * rand (T, 1);
end

function [e, kappa] = measure (P, C, paths)
  in = {P.q, P.k, P.v, P.g, P.beta};
  o_ref = ref_forward (P.op, in{:});
  sgl = cellfun (@single, in, 'UniformOutput', false);
  e = nan (1, 4);
  for j = 1:2
    f = [P.op '_' paths{j}];
    e(j) = la_ratio (o_ref, feval (f, sgl{:}, 'ChunkSize', C));
    e(j + 2) = la_ratio (o_ref, feval (f, in{:}, 'ChunkSize', C));
  end
  [~, ~, aux] = feval ([P.op '_chunk'], in{:}, 'ChunkSize', C, 'Intermediates', true);
  kappa = max (aux.cond(:));
end

function r = regime_rows (op, reg, e, kappa)
  sec = 'conditioning';
  base = sprintf ('%s o, %s', op, reg.name);
  r = lab_row (sec, [base ': max cond_1(I + A_raw) over the chunks'], kappa, NaN, 'information');
  what = {'chunked single', 'recurrent single', 'chunked double', 'recurrent double'};
  bound = [1e-4 1e-4 1e-10 1e-10];
  for j = 1:4
    if (reg.contractive)
      r(end+1) = lab_row (sec, [base ': ' what{j}], e(j), bound(j));
    else
      r(end+1) = lab_row (sec, [base ': ' what{j}], e(j), NaN, ...
                          'information: a non-contractive regime');
    end
  end
end

function figs = plot_conditioning (reg, E, kappa, figdir)
  floor_ = 1e-18;
  file = 'conditioning.png';
  figs = struct ('file', file, 'caption', sprintf ([ ...
    'Error of o against the double reference (rms ratio) in the non-contractive regimes. ' ...
    'Left: per regime (base: the contractive baseline; the ticks are short for the ' ...
    'rows of the table: k key norm, b>1 beta in (1, 2), g0 gates near 0); blue KDA, red GDN; filled markers chunked, open recurrent; solid single, ' ...
    'dashed double.  Right: the same errors over the largest cond_1(I + A_raw) of the ' ...
    'chunks (aux.cond); the grey lines are eps times cond in single and double.  A value ' ...
    'that is not finite (overflow) is drawn at 1; an exact 0 at %.0e.'], floor_));
  if (isempty (figdir))
    return;
  end
  st = lab_styles ();
  E(~isfinite (E)) = 1;
  E = max (E, floor_);
  h = figure ('visible', 'off', 'position', [0 0 1100 450]);
  ops = {'kda', 'gdn'};
  paths = {'chunk', 'recurrent', 'chunk', 'recurrent'};
  lines = {st.single_line, st.single_line, st.double_line, st.double_line};
  precision = {'single', 'single', 'double', 'double'};
  handles = [];
  labels = {};
  for panel = 1:2
    subplot (1, 2, panel);
    for io = 1:2
      for j = 1:4
        sty = st.([ops{io} '_' paths{j}]);
        if (panel == 1)
          x = 1:numel (reg);
          spec = [lines{j} sty.marker];
        else
          x = kappa(:, io);
          spec = sty.marker;
        end
        hl = loglog_or_semilogy (panel, x, E(:, j, io), spec, sty);
        if (panel == 1)
          handles(end+1) = hl;
          labels{end+1} = [sty.label ', ' precision{j}];
        end
        hold on;
      end
    end
    finish_panel (panel, reg, kappa, st);
    if (panel == 1)
      legend (handles, labels, 'location', 'west', 'fontsize', 8);
    end
    hold off;
  end
  print (h, '-dpng', '-r80', fullfile (figdir, file));
  close (h);
end

function hl = loglog_or_semilogy (panel, x, y, spec, sty)
  args = {spec, 'color', sty.color, 'markerfacecolor', sty.face, 'linewidth', 1.2};
  if (panel == 1)
    hl = semilogy (x, y, args{:});
  else
    hl = loglog (x, y, args{:});
  end
end

function finish_panel (panel, reg, kappa, st)
  grid on;
  ylabel ('rms(ref - o) / rms(ref)');
  if (panel == 1)
    set (gca, 'xtick', 1:numel (reg), 'xticklabel', {reg.tick}, ...
         'ticklabelinterpreter', 'none', 'fontsize', 8);
    xlim ([0.5, numel(reg) + 0.5]);
    xlabel ('regime: k1.5 key norm 1.5, b>1 beta in (1, 2), g0 gates near 0', ...
            'fontsize', 10);
    title ('error per regime (baseline: contractive)');
    ylim ([1e-17 1e-3]);
    for b = [1e-4 1e-10]
      semilogy ([0.5 numel(reg) + 0.5], [b b], '-', 'color', st.bound_color, 'linewidth', 2);
      text (numel (reg) + 0.45, 2.5 * b, sprintf ('baseline bound %.0e', b), ...
            'color', st.bound_color, 'horizontalalignment', 'right', 'fontsize', 8);
    end
  else
    k = [1, 10 ^ ceil(log10 (max (kappa(:))))];
    loglog (k, eps ('single') * k, '-', 'color', [0.6 0.6 0.6]);
    loglog (k, eps * k, '-', 'color', [0.6 0.6 0.6]);
    text (1e5, 30 * eps ('single') * 1e5, 'eps(single) x cond', 'color', [0.5 0.5 0.5], 'fontsize', 8);
    text (1e5, 30 * eps * 1e5, 'eps(double) x cond', 'color', [0.5 0.5 0.5], 'fontsize', 8);
    xlabel ('max cond_1(I + A_{raw}) over the chunks');
    title ('error over the conditioning');
  end
end
