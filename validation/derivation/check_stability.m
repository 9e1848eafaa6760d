function res = check_stability ()
  % res = check_stability (): reproduce eq. (59)-(64) of docs/stability.md
  % (and the rounding model (69) of docs/emulation.md):
  % where the factorised gated product overflows, that the sub-block
  % reference-point scheme with running products never forms a factor above
  % 1, its rounding and underflow bounds in single precision, and the
  % accuracy metric for strong gates (g down to -30 per step and channel),
  % for a plain-Octave single-precision chunked forward and, when built, for
  % the C core.
  %
  % Returns a struct array with fields eq, name, file, residual, bound, pass.
  drv_lib ();
  F = 'docs/stability.md';
  res = lab_row ();
  es = double (eps ('single'));
  have = drv_have ('kda_chunk') && drv_have ('kda_chunk_bwd') && drv_have ('kda_recurrent_bwd');
  why = 'kda_chunk not built';

  %% section 'overflow': (59) exp(-G_j) overflows once -G_j > log(realmax)
  G = -30 * (1:40);
  ts = find (isinf (exp (single (-G))), 1);
  td = find (isinf (exp (-G)), 1);
  ps = floor (log (double (realmax ('single'))) / 30) + 1;
  pd = floor (log (realmax) / 30) + 1;
  res(end+1) = lab_row ('derivations', sprintf (['g = -30: exp(-G_t) first overflows at step %d in single ' ...
                        '(predicted %d, log(realmax) = %.2f) and %d in double (predicted %d)'], ...
                        ts, ps, log (double (realmax ('single'))), td, pd), abs (ts - ps) + abs (td - pd), 0, ...
                        'eq', 59, 'file', F);

  % a chunk of c = 64 steps, K = 8: half the channels strong (g in [-30, 0]),
  % half mild (g in [-0.05, 0])
  c = 64; K = 8; bs = 16;
  rand ('state', 101); randn ('state', 101);
  g = [-30 * rand(K / 2, c); -0.05 * rand(K / 2, c)]';      % c x K
  x = randn (c, K); y = randn (c, K);
  Gc = cumsum (g, 1);
  Pref = ref_gated (x, y, g);                               % double, differences first

  %% section 'naive': (60) the factorised form exp(G_i) x_i . exp(-G_j) y_j
  Pn = tril ((exp (single (Gc)) .* single (x)) * (exp (single (-Gc)) .* single (y))');
  nbad = sum (~ isfinite (Pn(:)));
  res(end+1) = lab_row ('derivations', sprintf (['naive factorised product in single, g down to -30: %d of %d ' ...
                        'entries Inf/NaN (residual 1 if none)'], nbad, c * (c + 1) / 2), double (nbad == 0), 0, ...
                        'eq', 60, 'file', F);

  %% section 'reference point': (61) off-diagonal sub-blocks through the reference row
  stable = {'Scheme', 'stable', 'BlockSize', bs};
  [Ps, fmax] = ref_gated (single (x), single (y), single (g), stable{:});
  res(end+1) = lab_row ('derivations', 'every decay factor formed by the scheme is <= 1 (residual max(0, fmax - 1))', ...
                        max (0, double (fmax) - 1), 0, 'eq', 61, 'file', F);
  Pd = ref_gated (x, y, g, stable{:});
  res(end+1) = lab_row ('derivations', 'scheme in double vs the difference-first reference (c = 64, blocks of 16)', ...
                        la_ratio (Pref, Pd), 1e-14, 'eq', 61, 'file', F);
  res(end+1) = lab_row ('derivations', 'scheme in single vs double reference: ratio', la_ratio (Pref, Ps), 1e-5, ...
                        'eq', 61, 'file', F);

  %% section 'running products': (62) exp(G_i - G_j) = prod_{t=j+1..i} a_t in single
  as = single (exp (g));
  r = 0;
  for j = 1:c
    f = ones (1, K, 'single');
    for i = j + 1:c
      f = f .* as(i, :);
      tr = exp (Gc(i, :) - Gc(j, :));
      ok = tr > double (realmin ('single'));
      if (any (ok))
        r = max (r, max (abs (double (f(ok)) - tr(ok)) ./ tr(ok)) / ((i - j + 1) * es));
      end
    end
  end
  res(end+1) = lab_row ('derivations', ['running product in single: relative error / ((i - j + 1) eps_single), ' ...
                        'over all pairs with a normal result'], r, 1, 'eq', 62, 'file', F);

  %% section 'underflow': (63) entrywise error bound with rounding and underflow terms
  % on the mixed gates above, and on gates strong in every channel (g in
  % [-30, 0]), where most entries underflow
  m = tril (true (c));
  g2 = -30 * rand (c, K); G2 = cumsum (g2, 1);
  for t = 1:2
    if (t == 1)
      Gt = Gc; P = Ps; Pr = Pref;
    else
      Gt = G2; P = ref_gated (single (x), single (y), single (g2), stable{:});
      Pr = ref_gated (x, y, g2);
    end
    absP = ref_gated (abs (x), abs (y), Gt, 'Cumulative', true);
    tolP = (2 * c + K) * es * absP + K * max (abs (x(:))) * max (abs (y(:))) * double (realmin ('single'));
    r = max (abs (double (P(m)) - Pr(m)) ./ tolP(m));
    nz = sum (P(m) == 0 & Pr(m) ~= 0);
    res(end+1) = lab_row ('derivations', sprintf (['%s gates: |P_single - P| <= (2c + K) eps |x||y|e + K max|x| max|y| ' ...
                          'realmin_single (%d of %d entries flushed to 0)'], pick (t == 1, 'mixed', 'strong'), ...
                          nz, sum (m(:))), r, 1, 'eq', 63, 'file', F);
  end

  %% section 'accuracy': (64) the accuracy metric, strong gates
  T = 200; Kq = 16; V = 8;
  rand ('state', 102); randn ('state', 102);
  q = randn (Kq, T); k = randn (Kq, T); k = k ./ sqrt (sum (k .^ 2, 1)); v = randn (V, T);
  gs = -30 * rand (Kq, T) .* (rand (Kq, T) < 0.3) - 0.1 * rand (Kq, T);   % 30 % strong entries
  beta = rand (1, T); S0 = randn (Kq, V); s = 1 / sqrt (Kq);
  [oref, Sref] = ref_recurrence (q, k, v, gs, beta, S0, s);
  [o1, S1] = ref_chunk_fwd (q, k, v, gs, beta, S0, s, 64, 'Format', 'single', 'Scheme', 'stable');
  ok = all (isfinite ([o1(:); S1(:)]));
  res(end+1) = lab_row ('derivations', sprintf ('plain single chunked forward (scheme of 61-62), T = %d, C = 64: ratio of o and S (finite: %d)', T, ok), ...
                        max (la_ratio (oref, o1), la_ratio (Sref, S1)) + ~ ok, 1e-4, ...
                        'eq', 64, 'file', F);
  [o2, S2] = ref_chunk_fwd (q, k, v, gs, beta, S0, s, 64);
  res(end+1) = lab_row ('derivations', 'plain double chunked forward vs double recurrent, same strong gates', ...
                        max (la_ratio (oref, o2), la_ratio (Sref, S2)), 1e-12, 'eq', 64, 'file', F);
  if (have)
    Tc = 1000;
    rand ('state', 103); randn ('state', 103);
    q = randn (Kq, Tc, 1, 2); k = randn (Kq, Tc, 1, 2); v = randn (V, Tc, 1, 2);
    gs = -30 * rand (Kq, Tc, 1, 2) .* (rand (Kq, Tc, 1, 2) < 0.3) - 0.1 * rand (Kq, Tc, 1, 2);
    beta = rand (Tc, 1, 2); dO = randn (V, Tc, 1, 2);
    opts = {'UseQKL2Norm', true};
    [od, Sd] = kda_recurrent (q, k, v, gs, beta, opts{:});
    [oc, Sc] = kda_chunk (single (q), single (k), single (v), single (gs), single (beta), opts{:});
    [ocd, Scd] = kda_chunk (q, k, v, gs, beta, opts{:});
    fin = all (isfinite ([oc(:); Sc(:)]));
    res(end+1) = lab_row ('derivations', sprintf ('kda_chunk single (C core) vs kda_recurrent double, T = %d, B = 2, g down to -30 (finite: %d)', Tc, fin), ...
                          max (la_ratio (od, oc), la_ratio (Sd, Sc)) + ~ fin, 1e-4, ...
                          'eq', 64, 'file', F);
    res(end+1) = lab_row ('derivations', 'kda_chunk double vs kda_recurrent double, same strong gates', ...
                          max (la_ratio (od, ocd), la_ratio (Sd, Scd)), 1e-10, 'eq', 64, 'file', F);
    gd = cell (1, 6); gsn = gd;
    [gd{:}] = kda_recurrent_bwd (q, k, v, gs, beta, dO, [], opts{:});
    [gsn{:}] = kda_chunk_bwd (single (q), single (k), single (v), single (gs), single (beta), single (dO), [], opts{:});
    r = 0; fin = true;
    for i = 1:6
      r = max (r, la_ratio (gd{i}, gsn{i}));
      fin = fin && all (isfinite (gsn{i}(:)));
    end
    res(end+1) = lab_row ('derivations', sprintf ('kda_chunk_bwd single (C core) vs kda_recurrent_bwd double: all gradients (finite: %d)', fin), ...
                          r + ~ fin, 1e-4, 'eq', 64, 'file', F);
  else
    res(end+1) = drv_skip (64, 'kda_chunk / kda_chunk_bwd single (C core) vs double, strong gates', F, 1e-4, why);
  end
  %% section 'rounding model': (69) rms relative error of one rounding = eps_f / sqrt(8 ln 2)
  rand ('state', 69);
  x = 2 .^ (16 * rand (1, 1e6) - 8);                  % significands log-uniform, 16 binades
  r = 0;
  for f = {'bf16', 'fp16'; 2^-8, 2^-11}
    rel = (double (ref_round (single (x), f{1})) - double (single (x))) ./ double (single (x));
    r = max (r, abs (sqrt (mean (rel .^ 2)) / (f{2} / sqrt (8 * log (2))) - 1));
  end
  res(end+1) = lab_row ('derivations', 'rms relative error of one rounding to bf16, fp16 vs eps_f / sqrt(8 ln 2) (relative difference)', ...
                        r, 0.01, 'eq', 69, 'file', 'docs/emulation.md');

  [~, ix] = sort ([res.eq]);
  res = res(ix);
end
