function res = check_hazards ()
  % res = check_hazards (): reproduce the numbers of (H5) and (H6) of
  % docs/hazards.md that are counts and thresholds rather than measurements:
  % which steps the factors of FLA's safe_gate sub-chunk span (rows above the
  % middle row and columns below it, with the masks of A^qk and of the
  % strictly lower M), the gate strengths at which those factors and the
  % plain form's exp(-G) overflow when formed in fp32 (FLA's safe_gate) or
  % stored in fp16, and the error factor of the Pallas port's exp/exp2
  % midpoint bug against that of (H6).
  %
  % Returns a struct array with fields eq, name, file, residual, bound, pass
  % (eq is the string 'H5' or 'H6').
  F = 'docs/hazards.md';
  res = lab_row ();

  %% section 'spans': (H5) the factors of a 16-row sub-chunk, reference row BC//2
  % Rows and columns counted from 0 as in chunk_intra.py: row i carries
  % exp(G_i - G_m) (above 1 for i < m, spanning m - i steps), column j
  % carries exp(G_m - G_j) (above 1 for j > m, spanning j - m steps).
  bc = 16;  m = floor (bc / 2);
  idx = 0:bc - 1;
  row_span = max (m - idx, 0);                    % steps of a factor > 1, per row
  col_span = max (idx - m, 0);                    % per column
  [I, J] = ndgrid (idx, idx);
  masks = {I >= J, I > J};                        % A^qk (diagonal included), M
  got = zeros (1, 4);
  for t = 1:2
    used_rows = any (masks{t}, 2)';
    used_cols = any (masks{t}, 1);
    got(2 * t - 1) = max (row_span(used_rows));
    got(2 * t) = max (col_span(used_cols));
  end
  want = [8 7 7 6];                               % the spans docs/hazards.md states
  res(end+1) = lab_row ('derivations', sprintf (['safe_gate sub-chunk of 16, m = 8: A^qk rows above span %d, ' ...
                        'columns below %d; M (row 0, column 15 masked) %d and %d (stated 8, 7, 7, 6)'], got), ...
                        max (abs (got - want)), 0, 'eq', 'H5', 'file', F);
  n_qk = max (got(1:2));  n_m = max (got(3:4));

  %% section 'thresholds': (H5) where the factors overflow
  % FLA forms exp2 of the log2 gate differences in fp32 and multiplies them
  % into q and k in fp32 (a bf16 or fp16 operand is promoted): the factor of
  % n steps of gate l overflows when n |l| > log (realmax ('single')), in
  % every input dtype.  Each threshold is confirmed by forming the factor in
  % single just below and just above it; the residual compares it, rounded
  % to the digits the page prints, with the page's number.
  lnR = double (log (realmax ('single')));
  lnR16 = log (65504);                            % fp16's largest finite number
  stated = [11.09 12.67];
  ns = [n_qk n_m];
  for t = 1:2
    thr = lnR / ns(t);
    below = isfinite (exp (single (ns(t) * thr * (1 - 1e-4))));
    above = isinf (exp (single (ns(t) * thr * (1 + 1e-4))));
    % an fp16 operand times the fp32 factor, as FLA's b_q * b_gq: finite below
    q16 = single (ref_round (0.999, 'fp16'));
    prom = isfinite (q16 * exp (single (ns(t) * thr * (1 - 1e-4))));
    res(end+1) = lab_row ('derivations', sprintf (['safe_gate factor of %d steps in fp32: overflows at |l| = %.4f ' ...
                          '(stated %.2f; finite below %d, Inf above %d, fp16 operand times it finite %d)'], ...
                          ns(t), thr, stated(t), below, above, prom), ...
                          abs (round (100 * thr) / 100 - stated(t)) + 1 - (below && above && prom), 1e-12, ...
                          'eq', 'H5', 'file', F);
  end
  % the plain form: exp(-G_c) spans the c = 64 steps g_1 .. g_c
  c = 64;
  lam = [lnR, lnR16] / c;
  stated = [1.386 0.173];
  G = -cumsum (repmat (lam(1) * (1 + 1e-4), c, 1));
  over32 = find (isinf (exp (single (-G))), 1);
  G = -cumsum (repmat (lam(2) * (1 + 1e-4), c, 1));
  over16 = find (exp (single (-G)) > 65504, 1);
  res(end+1) = lab_row ('derivations', sprintf (['plain form, c = 64: exp(-G_c) overflows for lambda > %.4f in single ' ...
                        '(first at step %d) and > %.4f in fp16 (step %d); stated 1.386 and 0.173'], ...
                        lam(1), over32, lam(2), over16), ...
                        max (abs (round (1000 * lam) / 1000 - stated)) + abs (over32 - c) + abs (over16 - c), 1e-12, ...
                        'eq', 'H5', 'file', F);

  %% section 'midpoint': (H6) the Pallas port's exp/exp2 bug on the midpoint factor of h
  % Inter-chunk output split around the midpoint row m:
  % s (e^{G_i - G_m} .* q_i)' (e^{G_m} .* H); the bug takes exp of the log2
  % gate G_m / ln 2 in the factor of H.  Per channel, the ratio of the buggy
  % term to the correct one is then the same on every row of the chunk,
  % e^{G_mk (1/ln2 - 1)}; (H6) puts the wrong exp on q's whole factor, and
  % its ratio e^{G_ik (1/ln2 - 1)} changes from row to row.
  rand ('state', 17);  randn ('state', 17);
  K = 8;  c = 16;  mid = c / 2;
  G = cumsum (-0.5 * rand (c, K), 1);             % c x K cumulative gates
  q = randn (c, K);  h = randn (K, 1);            % one value column suffices
  good = q .* exp (G - G(mid, :)) .* (exp (G(mid, :)) .* h');      % channel terms, c x K
  bug_mid = q .* exp (G - G(mid, :)) .* (exp (G(mid, :) / log (2)) .* h');
  bug_h6 = q .* exp (G / log (2)) .* h';
  r_mid = bug_mid ./ good;  r_h6 = bug_h6 ./ good;
  want = exp (G(mid, :) * (1 / log (2) - 1));
  spread_mid = max (max (abs (r_mid - want), [], 1) ./ want);
  spread_h6 = max ((max (r_h6, [], 1) - min (r_h6, [], 1)) ./ max (r_h6, [], 1));
  res(end+1) = lab_row ('derivations', sprintf (['midpoint bug: per-channel error factor constant over the chunk ' ...
                        '(= e^{G_m(1/ln2 - 1)}); relative spread over the rows']), spread_mid, 1e-12, ...
                        'eq', 'H6', 'file', F);
  res(end+1) = lab_row ('derivations', sprintf (['(H6), exp on the whole factor of q: the factor changes along the ' ...
                        'chunk (relative spread %.2f; residual 1 if below 0.1)'], spread_h6), ...
                        double (spread_h6 < 0.1), 0, 'eq', 'H6', 'file', F);
end
