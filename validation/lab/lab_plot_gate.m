function figs = lab_plot_gate (xs, R, figdir)
% LAB_PLOT_GATE  Figure of the gate-gradient section: dg error over gate strength.
%
%   figs = lab_plot_gate (xs, R, figdir)
%
%   xs: the strengths (the last, 31, stands for g = -30 everywhere); R:
%   numel (xs) x 4 x 2 ratios [reference estimate, C core double, C core
%   single, (51) as written] for KDA and GDN.  Returns (file, caption).

  floor_ = 1e-18;
  file = 'gate_gradient.png';
  figs = struct ('file', file, 'caption', sprintf ([ ...
    'Error of dg at C = 64 against the exact-decay reference, over the gate strength ' ...
    '(the last tick: g = -30 at every step and channel).  Blue KDA, red GDN; filled ' ...
    'markers the C core (51b) in single (solid) and double (dashed); open triangles ' ...
    '(51) as written in double: near 1e-14 while some steps of each chunk are mild, ' ...
    'but far above the 1e-10 bound when every g = -30; crosses: the estimated rounding ' ...
    'error of the reference ' ...
    'itself.  An exact 0 is drawn at %.0e.'], floor_));
  if (isempty (figdir))
    return;
  end
  st = lab_styles ();
  h = figure ('visible', 'off', 'position', [0 0 1000 450]);
  ax = gca ();
  ops = {'kda_chunk', 'gdn_chunk'};
  names = {'KDA', 'GDN'};
  leg = {};
  for io = 1:2
    sty = st.(ops{io});
    spec = {'x:', [st.double_line sty.marker], [st.single_line sty.marker], [st.double_line '^']};
    what = {'reference (rounding estimate)', '(51b) C core double', '(51b) C core single', ...
            '(51) as written, double'};
    for j = 1:4
      face = sty.color;
      if (j == 4)
        face = 'none';
      end
      semilogy (1:numel (xs), max (R(:, j, io), floor_), spec{j}, 'color', sty.color, ...
                'markerfacecolor', face, 'linewidth', 1.2);
      hold on;
      leg{end+1} = sprintf ('%s %s', names{io}, what{j});
    end
  end
  for b = [1e-4 1e-10]
    semilogy ([1 numel(xs)], [b b], '-', 'color', st.bound_color, 'linewidth', 2);
    text (1, b * 3, sprintf (' bound %.0e', b), 'color', st.bound_color);
  end
  hold off;
  grid on;
  labels = lab_tick_labels (xs);
  labels{end} = 'all -30';
  set (ax, 'xtick', 1:numel (xs), 'xticklabel', labels);
  xlim ([0.8, numel(xs) + 0.2]);
  vals = max (R(:), floor_);
  ylim ([10 ^ floor(log10 (min (vals))), 10 ^ ceil(log10 (max (vals)) + 0.3)]);
  xlabel ('gate strength s: g = -s rand, C = 64, T = 200');
  ylabel ('rms(ref - dg) / rms(ref)');
  legend (leg, 'location', 'eastoutside');
  print (h, '-dpng', '-r80', fullfile (figdir, file));
  close (h);
end
