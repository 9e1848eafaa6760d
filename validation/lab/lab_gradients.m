function [rows, figs] = lab_gradients (mode, figdir)
% LAB_GRADIENTS  Gradient section of the lab: every backward vs finite differences.
%
%   [rows, figs] = lab_gradients (mode, figdir)
%
%   Every backward function (recurrent and chunked, KDA and GDN) against
%   central differences of its forward in double (fd_check), one row per
%   (function, case, gradient) with bound 1e-6 (fd_check's error measure:
%   relative to the scale of that gradient).  The cases (lab_grad_cases) are
%   every option on its own and all together, and the holes a small chunk
%   size cannot reach: C = 32 and 64, T not a multiple of C, gates down to
%   -30 per step, K ~= V, grouped value heads, variable length.  The empty
%   dALog / dDtBias of calls without GateInKernel are not rows (a non-empty
%   one is a failing row).  mode 'quick' runs fewer cases.  figs: one
%   figure of the worst error per case and function, in figdir.

  tol = 1e-6;
  cases = lab_grad_cases (strcmp (mode, 'quick'));
  rows = lab_row ();
  fns = {'kda_recurrent', 'kda_chunk', 'gdn_recurrent', 'gdn_chunk'};
  worst = nan (numel (cases), numel (fns));
  for f = 1:numel (fns)
    fwd = fns{f};  bwd = [fwd '_bwd'];  op = fwd(1:3);
    for c = 1:numel (cases)
      cs = cases(c);
      P = rand_problem (op, cs.args{:}, 'Seed', 1000 + c);
      opts = P.opts;
      if (~isempty (strfind (fwd, 'chunk')))
        opts(end+1:end+2) = {'ChunkSize', cs.C};
      end
      res = fd_check (fwd, bwd, P, opts, 'Seed', 2000 + c, 'Tol', tol);
      for r = res(:)'
        if (is_empty_output (r))
          continue;      % dALog / dDtBias without GateInKernel: [] as required
        end
        detail = '';
        if (~r.size_ok)
          detail = 'wrong output size';
        end
        rows(end+1) = lab_row ('gradients', sprintf ('%s [%s] %s', bwd, cs.label, r.name), ...
                               r.maxerr, tol, detail);
        worst(c, f) = max ([worst(c, f), r.maxerr]);
      end
    end
    fprintf ('  %s: %d cases\n', bwd, numel (cases));
  end
  figs = plot_worst (worst, {cases.label}, fns, tol, figdir);
end

function e = is_empty_output (r)
  % fd_check marks the outputs that must be [] with noise 0 and norm 0
  e = any (strcmp (r.name, {'dALog', 'dDtBias'})) && r.size_ok && r.noise == 0 ...
      && r.scale == 0;
end

function figs = plot_worst (worst, labels, fns, tol, figdir)
  floor_ = 1e-17;
  figs = struct ('file', {}, 'caption', {});
  if (isempty (figdir))
    return;
  end
  n = numel (labels);
  fig_size = [900, 120 + 22 * n];
  h = figure ('visible', 'off', 'position', [0 0 fig_size]);
  ax = axes ('position', [0.36 0.12 0.42 0.79]);
  style = lab_styles ();
  leg = {};
  for f = 1:numel (fns)
    st = style.(fns{f});
    y = (1:n) + (f - 2.5) * 0.15;
    semilogx (max (worst(:, f), floor_), y, st.marker, 'color', st.color, ...
              'markerfacecolor', st.face, 'markersize', 6, 'linestyle', 'none');
    hold on;
    leg{end+1} = st.label;
  end
  plot ([tol tol], [0.4 n + 0.6], '-', 'color', style.bound_color, 'linewidth', 2);
  leg{end+1} = sprintf ('bound %.0e', tol);
  hold off;
  grid on;
  set (ax, 'ytick', 1:n, 'yticklabel', labels, 'ydir', 'reverse');
  lo = 10 ^ floor (log10 (min (max (worst(:), floor_))));
  xlim ([lo, 10 * tol]);
  ylim ([0.4, n + 0.6]);
  xlabel (sprintf ('largest relative error vs central differences (exact 0 drawn at %.0e)', floor_));
  legend (leg, 'location', 'eastoutside');
  file = 'gradients_fd.png';
  print (h, '-dpng', '-r80', fullfile (figdir, file));
  close (h);
  figs(1).file = file;
  figs(1).caption = ['Worst error over all gradient outputs of each case (rows) and ' ...
                     'function (colour: KDA blue, GDN red; open markers recurrent, filled ' ...
                     'chunked).  Every marker must lie left of the bound line; the spread ' ...
                     'between 1e-11 and 1e-8 is the truncation and rounding error of the ' ...
                     'differences themselves.'];
end
