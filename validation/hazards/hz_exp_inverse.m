% HZ_EXP_INVERSE  Hazard 1: the triangular inverse of the chunk, four ways.
%
%   [rows, R] = hz_exp_inverse (mode, figdir)
%
%   For N = A_raw of random chunks (docs/chunk_forward.md (27)),
%   A = (I + N)^-1 Diag(beta) (29) is formed by forward substitution, the
%   Neumann series of order m = 1..6, the doubling product and FLA's blocked
%   form (hz_inverse), in double, single, bf16 and fp16 (emulated), in four
%   regimes: unit keys with beta in (0, 1); beta in (0, 2) (AllowNegEigval);
%   keys of norm 1.5 (not normalised); unit keys leaning to a common
%   direction (kcorr = 0.8, slow gates); strong gates.  Measured: the ratio
%   of A against the exact double solve, over the chunk size c, and the ratio
%   of o and S of a two-chunk forward (hz_chunk_fwd) against ref_forward.
%   mode 'quick' uses fewer sizes and formats.  R holds the numbers
%   (R.errA: methods x formats x c x regimes; R.errO, R.errS: methods x
%   formats x regimes at c = 64; R.flops); the plot is
%   figdir/hazards_inverse.png (none when figdir is empty).
%
%   See also: hz_inverse, hz_flops, lab_hazards.

function [rows, R] = hz_exp_inverse (mode, figdir)
  quick = strcmp (mode, 'quick');
  R.methods = [{'subst'}, arrayfun(@(m) sprintf ('neumann%d', m), 1:6, 'UniformOutput', false), ...
               {'doubling', 'blocked'}];
  R.regimes = {'unit keys, beta<1', 'beta<2 (neg. eigval)', 'keys of norm 1.5', ...
               'correlated keys', 'strong gate'};
  %           gate strength, beta_max, key norm, key correlation
  regime_par = [0.1 1 1 0; 0.1 2 1 0; 0.1 1 1.5 0; 0.01 1 1 0.8; 3 1 1 0];
  if (quick)
    R.fmts = {'double', 'single', 'bf16'};  R.cs = [16 64];  K = 32;
  else
    R.fmts = {'double', 'single', 'bf16', 'fp16'};  R.cs = [16 32 64 128];  K = 64;
  end
  nm = numel (R.methods);  nf = numel (R.fmts);  nr = size (regime_par, 1);
  R.errA = nan (nm, nf, numel (R.cs), nr);
  R.errO = nan (nm, nf, nr);  R.errS = R.errO;
  R.flops = zeros (nm, numel (R.cs));
  for ir = 1:nr
    p = regime_par(ir, :);
    for ic = 1:numel (R.cs)
      c = R.cs(ic);
      P = hz_problem (K, K, c, p(1), p(2), p(3), p(4));
      N = P.beta(:) .* ref_gated (P.k.', P.k.', P.g.', 'Strict', true, 'Scheme', 'stable', 'Format', 'double');
      Aex = (eye (c) + N) \ diag (P.beta);
      for im = 1:nm
        [meth, m] = parse_method (R.methods{im});
        R.flops(im, ic) = hz_flops (meth, c, m);
        for f = 1:nf
          X = hz_inverse (N, meth, R.fmts{f}, m);
          R.errA(im, f, ic, ir) = la_ratio (Aex, double (X) .* P.beta);
        end
      end
    end
    [R.errO(:, :, ir), R.errS(:, :, ir)] = propagate (R, K, p, 64);
  end
  rows = make_rows (R);
  if (~isempty (figdir))
    plot_inverse (R, fullfile (figdir, 'hazards_inverse.png'));
  end
end

% ratio of o and S of a two-chunk forward with each inverse and format
function [eo, es] = propagate (R, K, p, c)
  P = hz_problem (K, K, 2 * c, p(1), p(2), p(3), p(4));
  [oref, Sref] = ref_forward ('kda', P.q, P.k, P.v, P.g, P.beta, 'InitialState', P.S0);
  eo = nan (numel (R.methods), numel (R.fmts));  es = eo;
  for im = 1:numel (R.methods)
    [meth, m] = parse_method (R.methods{im});
    for f = 1:numel (R.fmts)
      opts = struct ('fmt', R.fmts{f}, 'inv', meth, 'order', m);
      [o, S] = hz_chunk_fwd (P.q, P.k, P.v, P.g, P.beta, P.S0, c, opts);
      eo(im, f) = la_ratio (oref, o);
      es(im, f) = la_ratio (Sref, S);
    end
  end
end

function [meth, m] = parse_method (name)
  m = 0;
  meth = name;
  if (strncmp (name, 'neumann', 7))
    meth = 'neumann';
    m = str2double (name(8:end));
  end
end

function rows = make_rows (R)
  rows = lab_row ();
  ic = find (R.cs == 64);
  bound = struct ('double', 1e-10, 'single', 1e-4);
  for ir = 1:numel (R.regimes)
    for f = 1:numel (R.fmts)
      fmt = R.fmts{f};
      for im = [1 numel(R.methods) - 1 numel(R.methods)]   % the exact methods
        name = sprintf ('inverse %s, %s, c=64, %s: ratio of o', R.methods{im}, fmt, R.regimes{ir});
        b = NaN;                         % doubling: reported (unstable, see below)
        if (isfield (bound, fmt) && ~strcmp (R.methods{im}, 'doubling'))
          b = bound.(fmt);
        end
        rows(end + 1) = lab_row ('hazards', name, R.errO(im, f, ir), b, pick (isnan (b), 'reported', ''));
      end
    end
  end
  % the truncated series: an error of the data, not of the format
  for m = [2 4 6]
    rows(end + 1) = lab_row ('hazards', sprintf ('inverse neumann m=%d, double, c=64, unit keys: ratio of A', m), ...
                             R.errA(1 + m, 1, ic, 1), NaN, 'reported');
    rows(end + 1) = lab_row ('hazards', sprintf ('inverse neumann m=%d, double, c=64, beta<2: ratio of A', m), ...
                             R.errA(1 + m, 1, ic, 2), 1e-5, 'kind', 'atleast');
  end
  % the doubling product: exact in exact arithmetic, unstable in single once
  % the powers of N grow (correlated keys)
  f = find (strcmp (R.fmts, 'single'));
  rows(end + 1) = lab_row ('hazards', 'inverse doubling, single, c=64, correlated keys: ratio of A', ...
                           R.errA(end - 1, f, ic, 4), 1e-4, 'kind', 'atleast');
  for im = 1:numel (R.methods)
    rows(end + 1) = lab_row ('hazards', sprintf ('inverse %s: flops at c=64', R.methods{im}), R.flops(im, ic), NaN, 'reported');
  end
end

function plot_inverse (R, file)
  h = figure ('visible', 'off', 'position', [0 0 1000 420]);
  ic = find (R.cs == 64);
  subplot (1, 2, 1);
  mk = {'-o', '-s', '-^', '-d', '-v'};
  for f = 1:numel (R.fmts)
    semilogy (1:numel (R.methods), max (R.errA(:, f, ic, 1), 1e-17), mk{f}, 'linewidth', 1.2);
    hold on;
  end
  hold off;  grid on;
  set (gca, 'xtick', 1:numel (R.methods), 'xticklabel', strrep (R.methods, 'neumann', 'N'));
  xlabel ('method (N m: Neumann series to power m)');
  ylabel ('ratio of A');
  title ('c = 64, unit keys, beta < 1, g in [-0.1, 0]');
  legend (R.fmts, 'location', 'south');
  subplot (1, 2, 2);
  f = find (strcmp (R.fmts, 'single'));
  sel = [1 3 7 8 9];                                 % subst, N2, N6, doubling, blocked
  for ir = 1:numel (R.regimes)
    semilogy (1:numel (sel), max (R.errO(sel, f, ir), 1e-17), mk{ir}, 'linewidth', 1.2);
    hold on;
  end
  hold off;  grid on;
  set (gca, 'xtick', 1:numel (sel), 'xticklabel', R.methods(sel));
  ylabel ('ratio of o (two chunks of 64)');
  title ('single, propagated to the output');
  legend (R.regimes, 'location', 'northwest');
  print (h, '-dpng', '-r80', file);
  close (h);
end
