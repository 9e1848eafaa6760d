function res = check_recurrence ()
  % res = check_recurrence (): reproduce eq. (1)-(20) of docs/recurrence.md
  % and (21)-(23) of docs/background.md
  % from random inputs, in double.  Every row compares the two sides of one
  % equation (or a gradient formula against central finite differences of the
  % plain-Octave function it differentiates) and reports the residual with
  % its bound.  Rows marked "C core" compare with the compiled functions and
  % are skipped when they are not built.
  %
  % Returns a struct array with fields eq, name, file, residual, bound, pass.
  drv_lib ();
  F = 'docs/recurrence.md';
  res = lab_row ();
  tol = 1e-12;     % identities evaluated in double
  tfd = 1e-7;      % gradient formula vs central differences
  tcore = 1e-10;   % bound, double
  K = 5; V = 4; T = 9;
  have_rec = drv_have ('kda_recurrent') && drv_have ('gdn_recurrent');
  have_bwd = drv_have ('kda_recurrent_bwd') && drv_have ('gdn_recurrent_bwd');
  why = 'kda_recurrent not built';

  %% section 'definition': (1) the KDA step
  d = drv_data (K, V, T, false, -3, 11);
  [o, S, st] = ref_recurrence (d.q, d.k, d.v, d.g, d.beta, d.S0, d.s);
  [o2, S2] = loops_fwd (d.q, d.k, d.v, d.g, d.beta, d.S0, d.s);
  res(end+1) = lab_row ('derivations', 'KDA step: matrix form vs entry-wise loops (o, S_T)', ...
                        max (la_ratio (o2, o), la_ratio (S2, S)), tol, 'eq', 1, 'file', F);
  if (have_rec)
    H = 2; B = 2;
    dd = arrayfun (@(i) drv_data (K, V, T, false, -3, 20 + i), 1:H * B);
    [q, k, v, g, beta, S0] = pack (dd, H, B);
    [oc, Sc] = kda_recurrent (q, k, v, g, beta, 'InitialState', S0);
    r = 0;
    for i = 1:H * B
      [op, Sp] = ref_recurrence (dd(i).q, dd(i).k, dd(i).v, dd(i).g, dd(i).beta, dd(i).S0, dd(i).s);
      r = max ([r, la_ratio(op, oc(:, :, i)), la_ratio(Sp, Sc(:, :, i))]);
    end
    res(end+1) = lab_row ('derivations', 'KDA step: plain recurrence vs kda_recurrent (C core), H = B = 2', r, tcore, ...
                          'eq', 1, 'file', F);
  else
    res(end+1) = drv_skip (1, 'KDA step: plain recurrence vs kda_recurrent (C core)', F, tcore, why);
  end

  %% section 'GDN': (2) scalar gate = KDA with the gate repeated over K
  % the GDN step written on its own, with the scalar decay outside:
  % S_t = a_t (I - beta_t k_t k_t^T) S_{t-1} + beta_t k_t v_t^T
  dg1 = drv_data (K, V, T, true, -3, 12);
  [og, Sg] = gdn_scalar_form (dg1.q, dg1.k, dg1.v, dg1.g, dg1.beta, dg1.S0, dg1.s);
  [ok_, Sk] = ref_recurrence (dg1.q, dg1.k, dg1.v, repmat (dg1.g, K, 1), dg1.beta, dg1.S0, dg1.s);
  res(end+1) = lab_row ('derivations', ['GDN in scalar form a_t (I - beta_t k_t k_t^T) S_{t-1} + beta_t k_t v_t^T ' ...
                        'vs the KDA reference with g_t repeated over K'], ...
                        max (la_ratio (ok_, og), la_ratio (Sk, Sg)), tol, 'eq', 2, 'file', F);
  if (have_rec)
    [oc, Sc] = gdn_recurrent (dg1.q, dg1.k, dg1.v, dg1.g(:), dg1.beta(:), 'InitialState', dg1.S0);
    res(end+1) = lab_row ('derivations', 'GDN: plain recurrence vs gdn_recurrent (C core)', ...
                          max (la_ratio (og, oc), la_ratio (Sg, Sc)), tcore, 'eq', 2, 'file', F);
  else
    res(end+1) = drv_skip (2, 'GDN: plain recurrence vs gdn_recurrent (C core)', F, tcore, why);
  end

  %% section 'transition form': (3) S_t = (I - beta k k^T) Diag(a) S_{t-1} + beta k v^T
  S = d.S0; r = 0;
  S3 = zeros (K, V, T);                   % the states of this form, for (12)
  for t = 1:T
    kt = d.k(:, t);
    S = (eye (K) - d.beta(t) * (kt * kt')) * diag (exp (d.g(:, t))) * S + d.beta(t) * kt * d.v(:, t)';
    S3(:, :, t) = S;
    r = max (r, la_ratio (st.S(:, :, t), S));
  end
  res(end+1) = lab_row ('derivations', 'transition-matrix form vs the step (1), all S_t', r, tol, ...
                        'eq', 3, 'file', F);

  %% section 'GVA': (4) value head j reads qk head floor((j-1)/(HV/H))+1
  if (have_rec && have_bwd)
    H = 2; HV = 6;
    rand ('state', 4); randn ('state', 4);
    q = randn (K, T, H); k = randn (K, T, H); v = randn (V, T, HV);
    g = -rand (K, T, HV); beta = rand (T, HV); dO = randn (V, T, HV);
    o = kda_recurrent (q, k, v, g, beta);
    [dq, dk] = kda_recurrent_bwd (q, k, v, g, beta, dO, []);
    r1 = 0; dqp = zeros (K, T, H); dkp = zeros (K, T, H);
    map = ref_head_map (H, HV);
    for j = 1:HV
      h = map(j);
      op = ref_recurrence (q(:, :, h), k(:, :, h), v(:, :, j), g(:, :, j), beta(:, j)', zeros (K, V), 1 / sqrt (K));
      r1 = max (r1, la_ratio (op, o(:, :, j)));
      [a1, a2] = ref_recurrence_bwd (q(:, :, h), k(:, :, h), v(:, :, j), g(:, :, j), beta(:, j)', ...
                              zeros (K, V), 1 / sqrt (K), dO(:, :, j), []);
      dqp(:, :, h) = dqp(:, :, h) + a1; dkp(:, :, h) = dkp(:, :, h) + a2;
    end
    res(end+1) = lab_row ('derivations', 'GVA head map: kda_recurrent (H = 2, HV = 6) vs plain per value head', r1, tcore, ...
                          'eq', 4, 'file', F);
    res(end+1) = lab_row ('derivations', 'GVA: dq, dk of kda_recurrent_bwd = sum over the group of plain per-head gradients', ...
                          max (la_ratio (dqp, dq), la_ratio (dkp, dk)), tcore, 'eq', 4, 'file', F);
  else
    res(end+1) = drv_skip (4, 'GVA head map and group sum of dq, dk (C core)', F, tcore, why);
  end

  %% section 'varlen': (5) CuSeqlens = independent sequences
  if (have_rec)
    cu = [0 3 4 11 14]; Tt = cu(end); N = numel (cu) - 1;
    rand ('state', 5); randn ('state', 5);
    q = randn (K, Tt); k = randn (K, Tt); v = randn (V, Tt); g = -rand (K, Tt);
    beta = rand (Tt, 1); S0 = randn (K, V, 1, N);
    [oc, Sc] = kda_recurrent (q, k, v, g, beta, 'CuSeqlens', cu, 'InitialState', S0);
    r = 0;
    for n = 1:N
      ix = cu(n) + 1:cu(n + 1);
      [op, Sp] = ref_recurrence (q(:, ix), k(:, ix), v(:, ix), g(:, ix), beta(ix)', S0(:, :, 1, n), 1 / sqrt (K));
      r = max ([r, la_ratio(op, oc(:, ix)), la_ratio(Sp, Sc(:, :, 1, n))]);
    end
    res(end+1) = lab_row ('derivations', 'CuSeqlens [0 3 4 11 14] vs four separate plain sequences', r, tcore, ...
                          'eq', 5, 'file', F);
  else
    res(end+1) = drv_skip (5, 'CuSeqlens vs separate sequences (C core)', F, tcore, why);
  end

  %% section 'transforms': (6) L2 norm, (7) softplus, (8) sigmoid, (9)-(10) gate, (11) beta
  rand ('state', 6); randn ('state', 6);
  x = randn (K, 3); dy = randn (K, 3);
  [~, back] = ref_l2norm (x);
  dx = back (dy);
  dfd = fd_gradient (@(z) sum (sum (dy .* ref_l2norm (z))), x);
  res(end+1) = lab_row ('derivations', 'L2 norm backward dx = (dy - y (y.dy)) / ||x|| vs finite differences', ...
                        la_ratio (dfd, dx), tfd, 'eq', 6, 'file', F);
  % L2NormEps: y = r x with r = (sum x^2 + eps2)^(-1/2), the same backward
  xe = 0.1 * randn (K, 3);  e2 = 1e-2;        % eps2 of the order of sum x.^2
  [ye, back] = ref_l2norm (xe, e2);
  dfd = fd_gradient (@(z) sum (sum (dy .* ref_l2norm (z, e2))), xe);
  r = max (la_ratio (xe ./ sqrt (sum (xe .^ 2) + e2), ye), la_ratio (dfd, back (dy)));
  res(end+1) = lab_row ('derivations', 'L2 norm with eps2 = 1e-2, |x|^2 about 0.05: y = r x, dx = r (dy - y (y.dy)) vs finite differences', ...
                        r, tfd, 'eq', 6, 'file', F);
  if (have_bwd)
    % decided semantics: an all-zero column stays zero and gets zero gradient
    rand ('state', 9); randn ('state', 9);
    q = randn (K, 4); q(:, 2) = 0; k = randn (K, 4); v = randn (V, 4);
    oc = kda_recurrent (q, k, v, -rand (K, 4), rand (4, 1), 'UseQKL2Norm', true);
    dqc = kda_recurrent_bwd (q, k, v, -rand (K, 4), rand (4, 1), randn (V, 4), [], 'UseQKL2Norm', true);
    res(end+1) = lab_row ('derivations', 'L2 norm (C core): zero q column gives o_t = 0 and dq_t = 0 (max abs)', ...
                          max (abs ([oc(:, 2); dqc(:, 2)])), 0, 'eq', 6, 'file', F);
  else
    res(end+1) = drv_skip (6, 'L2 norm (C core): zero column semantics', F, 0, why);
  end

  xs = linspace (-30, 30, 601);
  r = max (abs (ref_softplus (xs) - log1p (exp (xs))) ./ log1p (exp (xs)));
  big = ref_softplus ([-1e4 1e4 -800 800]);
  r = max ([r, abs(big(2) - 1e4) / 1e4, abs(big(4) - 800) / 800, double(big(1) ~= 0), ...
            double(~ all (isfinite (big)))]);
  res(end+1) = lab_row ('derivations', 'softplus = max(x,0) + log1p(exp(-|x|)): vs log1p(exp(x)), finite at +-1e4', r, 4 * eps, ...
                        'eq', 7, 'file', F);
  ref = 1 ./ (1 + exp (-xs));
  sg = ref_sigmoid ([xs, -1e4, 1e4, -800, 800]);
  r = max ([abs(sg(1:numel (xs)) - ref) ./ ref, double(~ all (isfinite (sg))), abs(sg(end-2) - 1), ...
            abs(sg(end) - 1), sg(end-3)]);
  res(end+1) = lab_row ('derivations', 'overflow-free sigmoid: vs 1/(1+exp(-x)), finite at +-1e4', r, 4 * eps, ...
                        'eq', 8, 'file', F);

  graw = randn (K, 4); alog = 0.3; dtb = randn (K, 1); dgu = randn (K, 4);
  for lb = {[], -5}
    [~, back] = ref_gate ('kda', graw, alog, dtb, lb{1});
    [dgr, dal, ddt] = back (dgu);
    f1 = @(z) sum (sum (dgu .* ref_gate ('kda', z, alog, dtb, lb{1})));
    f2 = @(z) sum (sum (dgu .* ref_gate ('kda', graw, z, dtb, lb{1})));
    f3 = @(z) sum (sum (dgu .* ref_gate ('kda', graw, alog, z, lb{1})));
    r = max ([la_ratio(fd_gradient (f1, graw), dgr), la_ratio(fd_gradient (f2, alog), dal), ...
              la_ratio(fd_gradient (f3, dtb), ddt)]);
    if (isempty (lb{1}))
      res(end+1) = lab_row ('derivations', 'gate -exp(ALog) softplus(g + DtBias): dg, dALog, dDtBias vs finite differences', r, tfd, ...
                            'eq', 9, 'file', F);
    else
      res(end+1) = lab_row ('derivations', 'gate lb sigmoid(exp(ALog)(g + DtBias)), lb = -5: dg, dALog, dDtBias vs finite differences', r, tfd, ...
                            'eq', 10, 'file', F);
    end
  end
  braw = randn (1, 6); dbu = randn (1, 6); r = 0;
  for neg = [false true]
    [~, back] = ref_beta (braw, neg);
    r = max (r, la_ratio (fd_gradient (@(z) sum (dbu .* ref_beta (z, neg)), braw), back (dbu)));
  end
  res(end+1) = lab_row ('derivations', 'beta = f sigmoid(b), f = 1, 2: db = dbeta f s (1 - s) vs finite differences', r, tfd, ...
                        'eq', 11, 'file', F);

  % the C core through all transforms (forward, and backward against
  % finite differences of the plain forward with the transforms)
  if (have_rec && have_bwd)
    rand ('state', 7); randn ('state', 7);
    T2 = 6; HV = 2;
    q = randn (K, T2); k = randn (K, T2); v = randn (V, T2, HV); graw = randn (K, T2, HV);
    braw = randn (T2, HV); alog = [0.2; -0.4]; dtb = randn (K, HV); S0 = randn (K, V, HV);
    dO = randn (V, T2, HV); dST = randn (K, V, HV);
    for lb = [0, -4]
      opts = {'UseQKL2Norm', true, 'GateInKernel', true, 'ALog', alog, 'DtBias', dtb, ...
              'BetaSigmoid', true, 'AllowNegEigval', lb ~= 0, 'InitialState', S0};
      if (lb ~= 0)
        opts = [opts, {'LowerBound', lb}];
      end
      fe = lb ~= 0;
      [oc, Sc] = kda_recurrent (q, k, v, graw, braw, opts{:});
      [op, Sp] = ref_forward ('kda', q, k, v, graw, braw, opts{:});
      res(end+1) = lab_row ('derivations', sprintf (['kda_recurrent with UseQKL2Norm, GateInKernel%s, BetaSigmoid%s ' ...
                            '(C core) vs plain transforms + recurrence'], ...
                            pick (fe, ' + LowerBound', ''), pick (fe, ' + AllowNegEigval', '')), ...
                            max (la_ratio (op, oc), la_ratio (Sp, Sc)), tcore, ...
                            'eq', 9 + fe, 'file', F);
      out = cell (1, 8);
      [out{:}] = kda_recurrent_bwd (q, k, v, graw, braw, dO, dST, opts{:});
      args = {q, k, v, graw, braw, alog, dtb, S0};
      r = 0;
      for a = 1:8
        ia = [1 2 3 4 5 8 6 7];            % output order dq dk dv dg dbeta dS0 dALog dDtBias
        f = @(z) tf_loss (setarg (args, ia(a), z), opts, dO, dST);
        r = max (r, la_ratio (fd_gradient (f, args{ia(a)}), out{a}));
      end
      res(end+1) = lab_row ('derivations', ['kda_recurrent_bwd (C core) through all transforms: ' ...
                            'all 8 gradients vs finite differences'], r, 1e-6, ...
                            'eq', 9 + fe, 'file', F);
    end
  else
    res(end+1) = drv_skip (9, 'C core through the transforms, forward and backward', F, tcore, why);
  end

  %% section 'residual form': (12) S_t - S'_t = k_t u_t^T, u_t = beta_t (v_t - S'_t^T k_t)
  % the states of the transition form (3) against the deltas u_t of the
  % reference recurrence: two independent computations
  r = 0; S = d.S0;
  for t = 1:T
    Sp = diag (exp (d.g(:, t))) * S;
    r = max (r, la_ratio (S3(:, :, t) - Sp, d.k(:, t) * st.u(:, t)'));
    S = S3(:, :, t);
  end
  res(end+1) = lab_row ('derivations', ['delta form: S_t - S''_t of the transition form (3) = k_t u_t^T ' ...
                        'with the deltas u_t = beta_t (v_t - p_t) of the reference'], r, tol, ...
                        'eq', 12, 'file', F);

  %% section 'BPTT step': (13)-(18), one reverse step against finite differences
  for gdn = [false true]
    e = drv_data (K, V, 1, gdn, -1, 13 + gdn);
    Sprev = randn (K, V); dOt = randn (V, 1); dSt = randn (K, V);
    a = exp (e.g) .* ones (K, 1);
    Sp = a .* Sprev; p = Sp' * e.k; u = e.beta * (e.v - p); St = Sp + e.k * u';
    dS = dSt + e.s * e.q * dOt';                            % (13)
    dq = e.s * St * dOt;                                    % (13)
    du = dS' * e.k;                                         % (14)
    dbeta = du' * (e.v - p); dv = e.beta * du; dp = -e.beta * du;  % (15)
    dk = dS * u + Sp * dp;                                  % (14)
    dSp = dS + e.k * dp';                                   % (16)
    dgk = sum (dSp .* Sp, 2);                               % (17)
    if (gdn), dgk = sum (dgk); end
    dSprev = a .* dSp;                                      % (18)
    Lf = @(qq, kk, vv, gg, bb, SS) step_loss (qq, kk, vv, gg, bb, SS, e.s, dOt, dSt);
    tag = pick (gdn, 'GDN', 'KDA');
    if (~ gdn)
      res(end+1) = lab_row ('derivations', 'BPTT step: dq = s S_t do (with dS += s q do^T) vs finite differences', ...
                            la_ratio (fd_gradient (@(z) Lf (z, e.k, e.v, e.g, e.beta, Sprev), e.q), dq), tfd, ...
                            'eq', 13, 'file', F);
      res(end+1) = lab_row ('derivations', 'BPTT step: dk = dS u + S'' dp, du = dS^T k vs finite differences', ...
                            la_ratio (fd_gradient (@(z) Lf (e.q, z, e.v, e.g, e.beta, Sprev), e.k), dk), tfd, ...
                            'eq', 14, 'file', F);
      r = max (la_ratio (fd_gradient (@(z) Lf (e.q, e.k, z, e.g, e.beta, Sprev), e.v), dv), ...
               la_ratio (fd_gradient (@(z) Lf (e.q, e.k, e.v, e.g, z, Sprev), e.beta), dbeta));
      res(end+1) = lab_row ('derivations', 'BPTT step: dbeta = du.(v - p), dv = beta du vs finite differences', r, tfd, ...
                            'eq', 15, 'file', F);
      fsp = @(z) sp_loss (z, e.q, e.k, e.v, e.beta, e.s, dOt, dSt);
      res(end+1) = lab_row ('derivations', 'BPTT step: dS'' = dS + k dp^T vs finite differences in S''', ...
                            la_ratio (fd_gradient (fsp, Sp), dSp), tfd, 'eq', 16, 'file', F);
      res(end+1) = lab_row ('derivations', 'BPTT step: dS_{t-1} = Diag(a) dS'' vs finite differences', ...
                            la_ratio (fd_gradient (@(z) Lf (e.q, e.k, e.v, e.g, e.beta, z), Sprev), dSprev), tfd, ...
                            'eq', 18, 'file', F);
    end
    res(end+1) = lab_row ('derivations', sprintf ('BPTT step (%s): dg = sum_j dS''(:,j) .* S''(:,j)%s vs finite differences', ...
                          tag, pick (gdn, ' summed over k', '')), ...
                          la_ratio (fd_gradient (@(z) Lf (e.q, e.k, e.v, z, e.beta, Sprev), e.g), dgk), tfd, ...
                          'eq', 17, 'file', F);
  end

  %% section 'BPTT': (19) the whole backward vs finite differences, and vs the C core
  for gdn = [false true]
    e = drv_data (4, 3, 8, gdn, -2, 15 + gdn);
    dO = randn (3, 8); dST = randn (4, 3);
    g = cell (1, 6);
    [g{:}] = ref_recurrence_bwd (e.q, e.k, e.v, e.g, e.beta, e.S0, e.s, dO, dST, 3);
    args = {e.q, e.k, e.v, e.g, e.beta, e.S0};
    r = 0;
    for a = 1:6
      f = @(z) full_loss (setarg (args, a, z), e.s, dO, dST);
      r = max (r, la_ratio (fd_gradient (f, args{a}), g{a}));
    end
    res(end+1) = lab_row ('derivations', sprintf ('BPTT (%s, T = 8): dq dk dv dg dbeta dS0 vs finite differences', ...
                          pick (gdn, 'GDN', 'KDA')), r, tfd, 'eq', 19, 'file', F);
    if (have_bwd)
      c = cell (1, 6);
      if (gdn)
        [c{:}] = gdn_recurrent_bwd (e.q, e.k, e.v, e.g(:), e.beta(:), dO, dST, 'InitialState', e.S0);
        c{4} = c{4}'; c{5} = c{5}';
      else
        [c{:}] = kda_recurrent_bwd (e.q, e.k, e.v, e.g, e.beta(:), dO, dST, 'InitialState', e.S0);
        c{5} = c{5}';
      end
      r = 0;
      for a = 1:6
        r = max (r, la_ratio (g{a}, c{a}));
      end
      res(end+1) = lab_row ('derivations', sprintf ('BPTT (%s): plain vs %s_recurrent_bwd (C core)', ...
                            pick (gdn, 'GDN', 'KDA'), pick (gdn, 'gdn', 'kda')), r, tcore, ...
                            'eq', 19, 'file', F);
    else
      res(end+1) = drv_skip (19, 'BPTT: plain vs *_recurrent_bwd (C core)', F, tcore, why);
    end
  end

  %% section 'checkpoints': (20) recomputation changes nothing; memory ceil(T/C) + min(C, T) states
  % (the memory measured in the C core by drv_peak_rows)
  e = drv_data (4, 3, 23, false, -1, 17);
  dO = randn (3, 23); dST = randn (4, 3);
  ref = cell (1, 6);
  [ref{:}] = ref_recurrence_bwd (e.q, e.k, e.v, e.g, e.beta, e.S0, e.s, dO, dST, 23);
  r = 0;
  for C = [1 2 5 7 23 40]
    g = cell (1, 6);
    [g{:}] = ref_recurrence_bwd (e.q, e.k, e.v, e.g, e.beta, e.S0, e.s, dO, dST, C);
    for a = 1:6
      r = max (r, la_ratio (ref{a}, g{a}));
    end
  end
  res(end+1) = lab_row ('derivations', 'checkpointed BPTT, C = 1, 2, 5, 7, 23, 40 vs keeping every state (T = 23)', r, tol, ...
                        'eq', 20, 'file', F);
  res = [res, drv_peak_rows(20)];
  if (have_bwd)
    rand ('state', 8); randn ('state', 8);
    q = randn (K, 30); k = randn (K, 30); v = randn (V, 30); g = -rand (K, 30); beta = rand (30, 1);
    dO = randn (V, 30);
    c1 = cell (1, 6); c2 = c1;
    [c1{:}] = kda_recurrent_bwd (q, k, v, g, beta, dO, [], 'ChunkSize', 30);
    r = 0;
    for C = [1 4 7 64]
      [c2{:}] = kda_recurrent_bwd (q, k, v, g, beta, dO, [], 'ChunkSize', C);
      for a = 1:6
        r = max (r, la_ratio (c1{a}, c2{a}));
      end
    end
    res(end+1) = lab_row ('derivations', 'kda_recurrent_bwd (C core): ChunkSize 1, 4, 7, 64 vs 30 (T = 30)', r, tcore, ...
                          'eq', 20, 'file', F);
  else
    res(end+1) = drv_skip (20, 'kda_recurrent_bwd (C core): checkpoint interval invariance', F, tcore, why);
  end
  %% section 'regression': (21) one gradient step on 1/2 |S'k - v|^2; (22)-(23) DPLR transition
  FB = 'docs/background.md';
  d = drv_data (K, V, 1, false, -1, 12);
  k1 = d.k; v1 = d.v; b1 = d.beta; a1 = exp (d.g);
  Sd = a1 .* d.S0;                                           % S'_t = Diag(a_t) S_{t-1}
  loss = @(S) 0.5 * sum ((S' * k1 - v1) .^ 2);
  grad = k1 * (Sd' * k1 - v1)';
  res(end+1) = lab_row ('derivations', 'gradient of 1/2 |S''k - v|^2 = k (S''k - v)'' vs finite differences', ...
                        la_ratio (fd_gradient (loss, Sd), grad), tfd, 'eq', 21, 'file', FB);
  [~, ~, st1] = ref_recurrence (d.q, k1, v1, d.g, b1, d.S0, d.s);
  res(end+1) = lab_row ('derivations', 'step (1) = S'' - beta grad(S'') (one SGD step with rate beta)', ...
                        la_ratio (st1.S(:, :, 1), Sd - b1 * grad), tol, 'eq', 21, 'file', FB);
  r = 0;
  for gdn = [false true]
    d = drv_data (K, V, T, gdn, -1, 13 + gdn);
    [~, ~, st] = ref_recurrence (d.q, d.k, d.v, d.g, d.beta, d.S0, d.s);
    S = d.S0;
    for t = 1:T
      at = exp (d.g(:, t)) .* ones (K, 1);
      Phi = diag (at) - d.beta(t) * d.k(:, t) * (at .* d.k(:, t))';   % (23)
      S = Phi * S + d.beta(t) * d.k(:, t) * d.v(:, t)';             % (22)
      r = max (r, la_ratio (st.S(:, :, t), S));
    end
  end
  res(end+1) = lab_row ('derivations', 'S_t = Phi_t S_{t-1} + beta k v'', Phi_t = Diag(a) - beta k (a.*k)'' (DPLR), KDA and GDN', r, tol, ...
                        'eq', 23, 'file', FB);

  [~, ix] = sort ([res.eq]);
  res = res(ix);
end

% ---------------------------------------------------------------- helpers
function [o, S] = loops_fwd (q, k, v, g, beta, S0, s)
  % eq. (1) entry by entry
  [K, T] = size (q); V = size (v, 1);
  S = S0; o = zeros (V, T);
  for t = 1:T
    for j = 1:V
      p = 0;
      for i = 1:K
        S(i, j) = exp (g(i, t)) * S(i, j);
        p = p + S(i, j) * k(i, t);
      end
      acc = 0;
      for i = 1:K
        S(i, j) = S(i, j) + beta(t) * k(i, t) * (v(j, t) - p);
        acc = acc + S(i, j) * q(i, t);
      end
      o(j, t) = s * acc;
    end
  end
end

function [q, k, v, g, beta, S0] = pack (dd, H, B)
  [K, T] = size (dd(1).q); V = size (dd(1).v, 1);
  q = zeros (K, T, H, B); k = q; g = q; v = zeros (V, T, H, B); beta = zeros (T, H, B);
  S0 = zeros (K, V, H, B);
  for i = 1:H * B
    [h, b] = ind2sub ([H, B], i);
    q(:, :, h, b) = dd(i).q; k(:, :, h, b) = dd(i).k; v(:, :, h, b) = dd(i).v;
    g(:, :, h, b) = dd(i).g; beta(:, h, b) = dd(i).beta'; S0(:, :, h, b) = dd(i).S0;
  end
end

function c = setarg (c, i, z)
  c{i} = z;
end


function L = step_loss (q, k, v, g, beta, Sprev, s, dOt, dSt)
  K = numel (k);
  Sp = (exp (g) .* ones (K, 1)) .* Sprev;
  L = sp_loss (Sp, q, k, v, beta, s, dOt, dSt);
end

function L = sp_loss (Sp, q, k, v, beta, s, dOt, dSt)
  St = Sp + k * (beta * (v - Sp' * k))';
  L = sum (dOt .* (s * St' * q)) + sum (sum (dSt .* St));
end

function L = full_loss (a, s, dO, dST)
  [o, S] = ref_recurrence (a{:}, s);
  L = sum (sum (dO .* o)) + sum (sum (dST .* S));
end

function [o, S] = gdn_scalar_form (q, k, v, g, beta, S0, s)
  % eq. (2) as GDN is usually written: the scalar decay outside the
  % transition matrix
  [K, T] = size (q); V = size (v, 1);
  S = S0; o = zeros (V, T);
  for t = 1:T
    S = exp (g(t)) * ((eye (K) - beta(t) * (k(:, t) * k(:, t)')) * S) + beta(t) * k(:, t) * v(:, t)';
    o(:, t) = s * (S' * q(:, t));
  end
end

function L = tf_loss (a, opts, dO, dST)
  % loss of the reference through all transforms; a = {q, k, v, graw,
  % braw, ALog, DtBias, InitialState} replace those of opts
  [~, opts] = take_option (opts, 'ALog');
  [~, opts] = take_option (opts, 'DtBias');
  [~, opts] = take_option (opts, 'InitialState');
  [o, S] = ref_forward ('kda', a{1:5}, opts{:}, 'ALog', a{6}, 'DtBias', a{7}, 'InitialState', a{8});
  L = sum (dO(:) .* o(:)) + sum (dST(:) .* S(:));
end
