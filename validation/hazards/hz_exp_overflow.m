% HZ_EXP_OVERFLOW  Hazard 3: where each gating scheme overflows or loses
% accuracy, in single, bf16 and fp16.
%
%   [rows, R] = hz_exp_overflow (mode, figdir)
%
%   The gated product M of one chunk (ref_gated; unit keys, K = 16) with
%   gates g = -s (0.9 + 0.2 rand), s from 0.1 to 30, for the schemes
%     'plain'  factorisation over the whole length L (L = 16, 64; ref_gated's
%              scheme 'factored'),
%     'safe'   FLA's safe_gate, sub-chunks of L_s = 16 (and 32 in full mode),
%              with lower_bound = -1.1 s (no entry is clamped),
%     'ref'    this library's reference points and running products
%              (ref_gated's scheme 'stable'),
%   in single, bf16 and fp16 (emulated: ref_gated's 'Format'), against the
%   double result.
%   R.err(scheme, fmt, s): ratio (NaN when an entry is Inf or NaN);
%   R.s_over / R.s_loss: the first s at which the result is not finite /
%   its ratio exceeds 10 times the library's at that format.  Plot:
%   figdir/hazards_overflow.png.
%
%   See also: ref_gated, lab_hazards.

function [rows, R] = hz_exp_overflow (mode, figdir)
  quick = strcmp (mode, 'quick');
  R.s = [0.1 0.2 0.5 1 1.2 1.5 2 3 5 8 10 11 12 15 20 30];
  %            scheme, length, sub-chunk
  R.cases = {'plain', 16, 16; 'plain', 64, 64; 'safe', 64, 16; 'ref', 64, 16};
  if (~quick)
    R.s = sort ([R.s 0.3 0.7 1.4 2.5 4 6 7 9 9.5 10.5 11.5 13 25]);
    R.cases = [R.cases; {'plain', 32, 32; 'safe', 64, 32; 'ref', 128, 16}];
  end
  R.fmts = {'single', 'bf16', 'fp16'};
  scheme = struct ('plain', 'factored', 'safe', 'safe', 'ref', 'stable');   % ref_gated's names
  K = 16;
  nc = size (R.cases, 1);  nf = numel (R.fmts);  ns = numel (R.s);
  R.err = nan (nc, nf, ns);
  for is = 1:ns
    for ic = 1:nc
      L = R.cases{ic, 2};
      k = randn (L, K);  k = k ./ sqrt (sum (k .^ 2, 2));
      g = -R.s(is) * (0.9 + 0.2 * rand (L, K));
      Mref = ref_gated (k, k, g, 'Strict', true, 'Scheme', 'stable', 'Format', 'double');
      for f = 1:nf
        M = ref_gated (k, k, g, 'Strict', true, 'Scheme', scheme.(R.cases{ic, 1}), ...
                       'Format', R.fmts{f}, 'LowerBound', -1.1 * R.s(is), 'BlockSize', R.cases{ic, 3});
        R.err(ic, f, is) = la_ratio (Mref, M);
      end
    end
  end
  [R.s_over, R.s_loss] = thresholds (R);
  rows = make_rows (R);
  if (~isempty (figdir))
    plot_overflow (R, fullfile (figdir, 'hazards_overflow.png'));
  end
end

function [s_over, s_loss] = thresholds (R)
  nc = size (R.cases, 1);  nf = numel (R.fmts);
  s_over = inf (nc, nf);  s_loss = inf (nc, nf);
  lib = find (strcmp (R.cases(:, 1), 'ref'), 1);
  for f = 1:nf
    base = median (squeeze (R.err(lib, f, :)));
    for ic = 1:nc
      e = squeeze (R.err(ic, f, :));
      i = find (isnan (e), 1);
      if (~isempty (i)), s_over(ic, f) = R.s(i); end
      i = find (isnan (e) | e > 10 * base, 1);
      if (~isempty (i)), s_loss(ic, f) = R.s(i); end
    end
  end
end

function rows = make_rows (R)
  rows = lab_row ();
  for ic = 1:size (R.cases, 1)
    for f = 1:numel (R.fmts)
      name = sprintf ('overflow %s L=%d sub-chunk %d, %s', R.cases{ic, :}, R.fmts{f});
      rows(end + 1) = lab_row ('hazards', [name ': first s (g per step) not finite'], R.s_over(ic, f), NaN, 'reported');
      rows(end + 1) = lab_row ('hazards', [name ': first s losing accuracy'], R.s_loss(ic, f), NaN, 'reported');
    end
  end
  lib = strcmp (R.cases(:, 1), 'ref');
  rows(end + 1) = lab_row ('hazards', 'overflow: library scheme, single, worst ratio over s = 0.1..30', ...
                           max (max (R.err(lib, 1, :))), 1e-5);
  rows(end + 1) = lab_row ('hazards', 'overflow: library scheme, any format, non-finite results', ...
                           sum (sum (sum (isnan (R.err(lib, :, :))))), 0);
  % analytic thresholds: e^(s L) > realmax, ln realmax = 88.72 (single, bf16), 11.09 (fp16)
  plain64 = strcmp (R.cases(:, 1), 'plain') & [R.cases{:, 2}]' == 64;
  rows(end + 1) = lab_row ('hazards', 'overflow: plain L=64 single not finite from s <= 88.72/(0.9*63) = 1.56', ...
                           R.s_over(plain64, 1), 1.56);
  rows(end + 1) = lab_row ('hazards', 'overflow: plain L=64 fp16 not finite from s <= 11.09/(0.9*63) = 0.2', ...
                           R.s_over(plain64, 3), 0.2);
end

function plot_overflow (R, file)
  h = figure ('visible', 'off', 'position', [0 0 1200 420]);
  mk = {'-o', '-s', '-^', '-d', '--o', '--^', '--d'};
  for f = 1:numel (R.fmts)
    subplot (1, numel (R.fmts), f);
    for ic = 1:size (R.cases, 1)
      e = squeeze (R.err(ic, f, :));
      e(isnan (e)) = 1e3;                % drawn at the top: Inf or NaN
      loglog (R.s, max (e, 1e-12), mk{ic}, 'linewidth', 1.2);
      hold on;
    end
    hold off;  grid on;
    ylim ([1e-9 1e4]);
    xlabel ('gate strength s (g per step)');
    ylabel ('ratio of M (1e3: Inf/NaN)');
    title (R.fmts{f});
    leg = arrayfun (@(i) sprintf ('%s L=%d/%d', R.cases{i, :}), 1:size (R.cases, 1), ...
                    'UniformOutput', false);
    if (f == min (2, numel (R.fmts)))  % bf16: its curves stay above 1e-4,
      legend (leg, 'location', 'southeast');  % the lower right is free
    end
  end
  print (h, '-dpng', '-r80', file);
  close (h);
end
