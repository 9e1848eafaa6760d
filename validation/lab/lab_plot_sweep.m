function fig = lab_plot_sweep (x, R, xlab, figdir, file)
% LAB_PLOT_SWEEP  Figure of one precision sweep: forward and backward panels.
%
%   fig = lab_plot_sweep (x, R, xlab, figdir, file)
%
%   x: the tested values; R: numel (x) x 8 x 2 ratios against the reference
%   ([recurrent fwd, chunk fwd, recurrent bwd, chunk bwd] in single, then in
%   double; third index KDA, GDN).  Left panel forward, right backward;
%   colours and markers of lab_styles (single solid, double dashed), the
%   bounds 1e-4 (single) and 1e-10 (double) as labelled orange lines, an
%   exact 0 drawn at the floor 1e-18.  Returns the struct (file, caption)
%   for the report; writes nothing when figdir is empty.

  floor_ = 1e-18;
  fig = struct ('file', file, 'caption', caption (xlab, floor_));
  if (isempty (figdir))
    return;
  end
  st = lab_styles ();
  paths = {'recurrent', 'chunk'};
  ops = {'kda', 'gdn'};
  h = figure ('visible', 'off', 'position', [0 0 1000 430]);
  ttl = {'forward: o and S', 'backward: every gradient'};
  vals = max (R(:), floor_);
  ylo = 10 ^ floor (log10 (min (vals)));
  yhi = 10 ^ ceil (log10 (max ([vals; 1e-4])) + 0.3);
  for panel = 1:2
    ax = subplot (1, 2, panel);
    leg = {};
    for io = 1:2
      for ip = 1:2
        sty = st.([ops{io} '_' paths{ip}]);
        for ic = 1:2
          col = 4 * (ic - 1) + 2 * (panel - 1) + ip;
          ls = st.single_line;  cls = 'single';
          if (ic == 2)
            ls = st.double_line;  cls = 'double';
          end
          loglog (x, max (R(:, col, io), floor_), [ls sty.marker], 'color', sty.color, ...
                  'markerfacecolor', sty.face, 'linewidth', 1.2);
          hold on;
          leg{end+1} = sprintf ('%s %s', sty.label, cls);
        end
      end
    end
    for b = [1e-4 1e-10]
      loglog ([min(x) max(x)], [b b], '-', 'color', st.bound_color, 'linewidth', 2);
      text (min (x), b * 2.5, sprintf (' bound %.0e', b), 'color', st.bound_color);
    end
    hold off;
    grid on;
    set (ax, 'xtick', x, 'xticklabel', lab_tick_labels (x), 'xminortick', 'off');
    xlim ([min(x) / 1.15, max(x) * 1.15]);
    ylim ([ylo yhi]);
    xlabel (xlab);
    ylabel ('rms(ref - x) / rms(ref)');
    title (ttl{panel});
  end
  legend (leg, 'location', 'eastoutside');
  print (h, '-dpng', '-r80', fullfile (figdir, file));
  close (h);
end

function c = caption (xlab, floor_)
  c = sprintf (['Ratio to the independent double reference over %s.  Blue KDA, red GDN; ' ...
                'open markers recurrent, filled chunked; solid single, dashed double.  ' ...
                'Single curves must stay under the upper orange line (1e-4, checked up to ' ...
                'T = 4096), double ones under the lower (1e-10).  An exact 0 would be drawn ' ...
                'at %.0e.'], xlab, floor_);
end
