function [rows, figs] = lab_emulation (mode, figdir)
% LAB_EMULATION  The error a correct bf16 / fp16 kernel has, beside FLA's fixed thresholds.
%
%   [rows, figs] = lab_emulation (mode, figdir)
%
%   The chunked KDA forward and backward with 'Emulate' ('bf16', 'fp16':
%   docs/emulation.md) against the library's own double result, from inputs
%   already in the format (a kernel's inputs are), so that what is measured
%   is the error of the computation: over T (gate strength s = 1) and over
%   gate strength (g = -s rand per step and channel, s up to 30).  One
%   information row per point and tensor group: o; dq, dk, dv (the largest);
%   dg, dbeta (the largest), each beside FLA's test threshold for it (0.005,
%   0.008, 0.02).  Checks: the rounding of the core agrees with ref_round on
%   every input, fp16 is below bf16 at every point, and the emulated
%   backward's error lies, for every gradient, between 0.8 x that of
%   storing the exact gradient once in the format and 4 x that of the
%   emulated plain reference (ref_recurrence_bwd in single with every state
%   and state gradient rounded to the format at every step: a plain kernel
%   that keeps them in 16 bits); where it rounds (lab_emu_placement): the
%   core against the plain chunked reference rounding exactly what
%   docs/emulation.md lists (forward in bf16 and fp16, backward in bf16),
%   and in full mode that reference with each rounding left out or moved
%   must break a bound.  figs: one figure.

  quick = strcmp (mode, 'quick');
  if (quick)
    Ts = [64 256];  gates = [0.1 30];  K = 32;  Tg = 128;
  else
    Ts = [64 256 1024 4096];  gates = [0.05 0.5 2 8 30];  K = 64;  Tg = 1024;
  end
  fmts = {'bf16', 'fp16'};
  groups = {'o', 'dq dk dv', 'dg dbeta'};
  fla = [0.005 0.008 0.02];
  rows = lab_row ();
  sweeps = {'T', Ts; 'gate', gates};
  E = cell (1, 2);    % E{sweep}(point, group, format)
  for w = 1:2
    x = sweeps{w, 2};
    E{w} = nan (numel (x), 3, 2);
    for i = 1:numel (x)
      [T, s] = deal (Tg, 1);
      if (w == 1)
        T = x(i);
      else
        s = x(i);
      end
      for f = 1:2
        [E{w}(i, :, f), rows, br] = run_point (K, T, s, fmts{f}, 10 * w + i, rows);
        rows(end+1) = lab_row ('emulation', sprintf (['%s backward between stored-once and ' ...
                               'the emulated plain reference, T=%d, s=%g'], fmts{f}, T, s), ...
                               br, 1, ['max over dq dk dv dg dbeta of emulated / (4 plain) ' ...
                               'and 0.8 stored / emulated']); %#ok<AGROW>
        for j = 1:3
          rows(end+1) = lab_row ('emulation', sprintf ('%s %s, T=%d, s=%g (FLA threshold %g)', ...
                                 fmts{f}, groups{j}, T, s, fla(j)), E{w}(i, j, f), NaN); %#ok<AGROW>
        end
      end
      rows(end+1) = lab_row ('emulation', sprintf ('fp16 below bf16, T=%d, s=%g', T, s), ...
                             max (E{w}(i, :, 2) ./ E{w}(i, :, 1)), 1); %#ok<AGROW>
    end
  end
  for f = 1:2
    rows(end+1) = check_rounding (fmts{f}); %#ok<AGROW>
  end
  % where it rounds: the core against the emulated plain chunked reference,
  % and every rounding of it left out or moved must break a bound
  fwd_changes = {'no QG', 'no KC', 'no Aqk', 'no w', 'no u', 'no h', 'no vnew', 'no o', ...
                 'state from h', 'round S', 'no in'};
  bwd_changes = {'no dh', 'no dv', 'no dvnew', 'no grads', 'carry rounded dh', 'no in', 'no h', ...
                 'no vnew', 'no w', 'no u', 'no A', 'no Aqk', 'no QG', 'no KG', 'no KC'};
  if (quick)                      % the quick lab: the core against the reference only
    [fwd_changes, bwd_changes] = deal ({});
  end
  for op = {'kda', 'gdn'}
    res = [lab_emu_placement(op{1}, 'bf16', 'fwd', fwd_changes, 100), ...
           lab_emu_placement(op{1}, 'fp16', 'fwd', fwd_changes, 100), ...
           lab_emu_placement(op{1}, 'bf16', 'bwd', bwd_changes, 100)];
    for r = res
      rows(end+1) = lab_row ('emulation', r.check, r.value, r.bound, ...
                             'error / bound (a change: bound / error)'); %#ok<AGROW>
    end
  end
  figs = plot_expected (sweeps, E, fmts, fla, groups, Tg, figdir);
end

function [e, rows, br] = run_point (K, T, s, fmt, seed, rows)
  % e: [o, max(dq, dk, dv), max(dg, dbeta)] of the emulated run; br: the
  % bracket of the emulated backward (<= 1: inside)
  rand ('state', seed);  randn ('state', seed);
  H = 2;
  r = @(x) double (ref_round (single (x), fmt));
  q = randn (K, T, H);  k = randn (K, T, H);
  k = r (k ./ repmat (sqrt (sum (k .^ 2, 1)), K, 1));
  [q, v, g, beta, dout] = deal (r (q), r (randn (K, T, H)), r (-s * rand (K, T, H)), ...
                                r (rand (T, H)), r (randn (K, T, H)));
  o = kda_chunk (q, k, v, g, beta);
  oe = kda_chunk (q, k, v, g, beta, 'Emulate', fmt);
  d = cell (1, 5);  de = cell (1, 5);
  [d{:}] = kda_chunk_bwd (q, k, v, g, beta, dout, []);
  [de{:}] = kda_chunk_bwd (q, k, v, g, beta, dout, [], 'Emulate', fmt);
  ed = cellfun (@la_ratio, d, de);
  e = [la_ratio(o, oe), max(ed(1:3)), max(ed(4:5))];
  % the emulated plain reference, head by head, and the exact result stored once
  rs = @(x) double (ref_round (single (x), fmt));
  pl = cell (1, 5);
  for h = 1:H
    c = cell (1, 6);
    [c{:}] = ref_recurrence_bwd (single (q(:, :, h)), single (k(:, :, h)), ...
        single (v(:, :, h)), single (g(:, :, h)), single (beta(:, h)), zeros (K, K, 'single'), ...
        single (1 / sqrt (K)), single (dout(:, :, h)), [], [], rs);
    for j = 1:5
      pl{j} = cat (3 - (j == 5), pl{j}, rs (c{j}));
    end
  end
  pl{5} = reshape (pl{5}, size (d{5}));
  ep = cellfun (@la_ratio, d, pl);
  es = cellfun (@(x) la_ratio (x, r (x)), d);
  br = max ([ed ./ (4 * ep), 0.8 * es ./ ed]);
end

function row = check_rounding (fmt)
  % the core's rounding (mex/core/la_round.h) against ref_round on 1e5
  % values over 12 decades: with k = 0 and beta = 1, v_new = v as rounded
  n = 1e5;
  x = randn (1, n) .* 10 .^ (12 * rand (1, n) - 8);
  [~, ~, aux] = kda_chunk (zeros (1, n), zeros (1, n), x, zeros (1, n), ones (n, 1), ...
                           'ChunkSize', 1, 'Emulate', fmt, 'Intermediates', true);
  bad = sum (aux.v_new(:) ~= double (ref_round (single (x(:)), fmt)));
  row = lab_row ('emulation', sprintf ('%s rounding: core vs ref_round, %d values', fmt, n), ...
                 bad, 0, sprintf ('%d mismatches', bad));
end

function figs = plot_expected (sweeps, E, fmts, fla, groups, Tg, figdir)
  % two panels (over T, over gate strength): a colour per tensor group,
  % solid bf16, dashed fp16, FLA's threshold of the group dotted
  file = 'emulation_expected.png';
  figs = struct ('file', file, 'caption', sprintf (['The error of an emulated correct kernel ' ...
    '(rms(ref - x) / rms(ref), inputs in the format) over T (gate strength 1) and over gate ' ...
    'strength s (g = -s rand, T = %d).  Blue o, green dq dk dv (largest), red dg dbeta ' ...
    '(largest); solid bf16, dashed fp16; dotted: FLA''s fixed test thresholds 0.005, ' ...
    '0.008, 0.02 in the same colours.  kda_verify''s tolerance is 4x the emulated error.'], Tg));
  if (isempty (figdir))
    return;
  end
  colors = [0.00 0.35 0.75; 0.10 0.60 0.20; 0.80 0.10 0.10];
  styles = {'-o', '--s'};
  labels = {'T (steps), s = 1', sprintf('gate strength s: g = -s rand (T = %d)', Tg)};
  h = figure ('visible', 'off', 'position', [0 0 1000 430]);
  for w = 1:2
    x = sweeps{w, 2};
    ax = subplot (1, 2, w);
    leg = {};
    for f = 1:2
      for j = 1:3
        loglog (x, E{w}(:, j, f), styles{f}, 'color', colors(j, :), 'linewidth', 1.2);
        hold on;
        leg{end+1} = sprintf ('%s %s', fmts{f}, groups{j}); %#ok<AGROW>
      end
    end
    for j = 1:3
      loglog ([min(x) max(x)], [fla(j) fla(j)], ':', 'color', colors(j, :), 'linewidth', 2);
      text (min (x), fla(j) * 1.2, sprintf (' FLA %s: %g', groups{j}, fla(j)), ...
            'color', colors(j, :));
    end
    hold off;
    grid on;
    set (ax, 'xtick', x, 'xticklabel', lab_tick_labels (x), 'xminortick', 'off');
    xlim ([min(x) / 1.15, max(x) * 1.15]);
    ylim ([1e-5 0.1]);
    xlabel (labels{w});
    ylabel ('rms(ref - x) / rms(ref)');
    title ('expected error of a correct kernel');
  end
  legend (leg, 'location', 'eastoutside');
  print (h, '-dpng', '-r80', fullfile (figdir, file));
  close (h);
end
