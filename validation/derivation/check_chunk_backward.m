function res = check_chunk_backward ()
  % res = check_chunk_backward (): reproduce eq. (40)-(53) of
  % docs/chunk_backward.md in double.  Each local gradient formula is checked
  % against central finite differences of the plain-Octave local function it
  % differentiates; the whole chunked backward (drv_chunk_bwd) against finite
  % differences of the plain chunked forward (drv_chunk_fwd) and against the
  % recurrent backward; and, when built, the C core's kda_chunk_bwd /
  % gdn_chunk_bwd against the plain one and against *_recurrent_bwd.
  %
  % Returns a struct array with fields eq, name, file, residual, bound, pass.
  drv_lib ();
  F = 'docs/chunk_backward.md';
  res = lab_row ();
  tol = 1e-12; tfd = 1e-7; tcore = 1e-10;
  have = drv_have ('kda_chunk_bwd') && drv_have ('gdn_chunk_bwd') && drv_have ('kda_recurrent_bwd');
  why = 'kda_chunk_bwd not built';

  % one chunk (c = 7) with its forward quantities and random cotangents
  K = 4; V = 3; c = 7;
  d = drv_data (K, V, c, false, -1, 61);
  [~, ~, aux] = drv_chunk_fwd (d.q, d.k, d.v, d.g, d.beta, d.S0, d.s, c);
  a = aux(1); s = d.s; S0 = a.S0;
  Q = d.q'; Kr = d.k'; Vr = d.v'; b = d.beta';
  rand ('state', 62); randn ('state', 62);
  D = randn (c, V); dS = randn (K, V);
  ip = @(x, y) sum (x(:) .* y(:));

  %% section 'output gradients': (40) dv_new, (41) dAqk
  dvn = a.Aqk' * D + a.KC * dS;
  fo = @(vn, Aq) ip (D, s * a.QG * S0 + Aq * vn) + ip (dS, a.gamma .* S0 + a.KC' * vn);
  res(end+1) = lab_row ('derivations', 'dv_new = Aqk^T dO + KC dS vs finite differences', ...
                        la_ratio (fd_gradient (@(z) fo (z, a.Aqk), a.v_new), dvn), tfd, ...
                        'eq', 40, 'file', F);
  dAqk = tril (D * a.v_new');
  res(end+1) = lab_row ('derivations', 'dAqk = tril(dO v_new^T) vs finite differences (lower part)', ...
                        la_ratio (tril (fd_gradient (@(z) fo (a.v_new, z), a.Aqk)), dAqk), tfd, ...
                        'eq', 41, 'file', F);

  %% section 'state gradient': (42) dS_prev = s QG^T dO + Diag(gamma) dS - w^T dv_new
  dSp = s * a.QG' * D + a.gamma .* dS - a.w' * dvn;
  fs = @(Z) ip (D, s * a.QG * Z + a.Aqk * (a.u - a.w * Z)) + ip (dS, a.gamma .* Z + a.KC' * (a.u - a.w * Z));
  res(end+1) = lab_row ('derivations', 'state gradient dS_prev = s QG^T dO + Diag(gamma) dS - w^T dv_new vs finite differences', ...
                        la_ratio (fd_gradient (fs, S0), dSp), tfd, 'eq', 42, 'file', F);

  %% section 'gated inputs of the state terms': (43)
  dQG = s * D * S0'; dKC = a.v_new * dS'; dgam = sum (dS .* S0, 2);
  f1 = @(Z) ip (D, s * Z * S0);
  f2 = @(Z) ip (dS, Z' * a.v_new);
  f3 = @(Z) ip (dS, Z .* S0);
  r = max ([la_ratio(fd_gradient (f1, a.QG), dQG), la_ratio(fd_gradient (f2, a.KC), dKC), ...
            la_ratio(fd_gradient (f3, a.gamma), dgam)]);
  res(end+1) = lab_row ('derivations', 'dQG = s dO S^T, dKC = v_new dS^T, dgamma = rowsum(dS .* S) vs finite differences', r, tfd, ...
                        'eq', 43, 'file', F);

  %% section 'delta': (44) du = dv_new, dw = -dv_new S^T
  du = dvn; dw = -dvn * S0';
  fd39 = @(uu, ww) ip (dvn, uu - ww * S0);
  r = max (la_ratio (fd_gradient (@(z) fd39 (z, a.w), a.u), du), la_ratio (fd_gradient (@(z) fd39 (a.u, z), a.w), dw));
  res(end+1) = lab_row ('derivations', 'du = dv_new, dw = -dv_new S^T vs finite differences', r, tfd, ...
                        'eq', 44, 'file', F);

  %% section 'w and u': (45) dA = dw KG^T + du V^T, dKG = A^T dw, dV = A^T du
  dA = dw * a.KG' + du * Vr';
  f40 = @(AA, KG, VV) ip (dw, AA * KG) + ip (du, AA * VV);
  r = max ([la_ratio(fd_gradient (@(z) f40 (z, a.KG, Vr), a.A), dA), ...
            la_ratio(fd_gradient (@(z) f40 (a.A, z, Vr), a.KG), a.A' * dw), ...
            la_ratio(fd_gradient (@(z) f40 (a.A, a.KG, z), Vr), a.A' * du)]);
  res(end+1) = lab_row ('derivations', 'dA = dw KG^T + du V^T, dKG = A^T dw, dV = A^T du vs finite differences', r, tfd, ...
                        'eq', 45, 'file', F);

  %% section 'direct form': (45b) v_new = A X, X = V - KG S:
  %% dX = A^T dv_new = dV, dA = dv_new X^T, dKG = -dX S^T, dS gets -KG^T dX
  X = Vr - a.KG * S0;  dX = a.A' * dvn;
  f40b = @(AA, KG, VV, SS) ip (dvn, AA * (VV - KG * SS));
  r = max ([la_ratio(fd_gradient (@(z) f40b (z, a.KG, Vr, S0), a.A), dvn * X'), ...
            la_ratio(fd_gradient (@(z) f40b (a.A, z, Vr, S0), a.KG), -dX * S0'), ...
            la_ratio(fd_gradient (@(z) f40b (a.A, a.KG, z, S0), Vr), dX), ...
            la_ratio(fd_gradient (@(z) f40b (a.A, a.KG, Vr, z), S0), -a.KG' * dX)]);
  res(end+1) = lab_row ('derivations', ['(45b) direct form: dV = dX = A^T dv_new, dA = dv_new X^T, dKG = -dX S^T, ' ...
                        'dS part -KG^T dX vs finite differences'], r, tfd, 'eq', 45, 'file', F);
  r = max ([la_ratio(dA, dvn * X'), la_ratio(a.A' * dw, -dX * S0'), la_ratio(a.w' * dvn, a.KG' * dX)]);
  res(end+1) = lab_row ('derivations', '(45b) = (44), (45): the same dA, dKG and dS part as the WY form', r, tol, ...
                        'eq', 45, 'file', F);

  %% section 'triangular inverse': (46)
  Y = a.L' \ dA;
  db41 = diag (Y);
  dAraw = tril (-Y * a.A', -1);
  f41 = @(Ar, bb) ip (dA, (eye (c) + tril (Ar, -1)) \ diag (bb));
  r = max (la_ratio (tril (fd_gradient (@(z) f41 (z, b), a.A_raw), -1), dAraw), ...
           la_ratio (fd_gradient (@(z) f41 (a.A_raw, z), b), db41));
  res(end+1) = lab_row ('derivations', ['through A = (I + A_raw)^{-1} Diag(beta): Y = L^{-T} dA, dbeta_i = Y(i,i), ' ...
                        'dA_raw = strict_lower(-Y A^T) vs finite differences'], r, tfd, ...
                        'eq', 46, 'file', F);

  %% section 'A_raw': (47) A_raw = Diag(beta) M
  db42 = sum (dAraw .* a.M, 2);
  dM = b .* dAraw;
  f42 = @(MM, bb) ip (dAraw, bb .* tril (MM, -1));
  r = max (la_ratio (tril (fd_gradient (@(z) f42 (z, b), a.M), -1), dM), ...
           la_ratio (fd_gradient (@(z) f42 (a.M, z), b), db42));
  res(end+1) = lab_row ('derivations', 'A_raw = Diag(beta) M: dbeta_i += sum_j dA_raw(i,j) M(i,j), dM = Diag(beta) dA_raw vs finite differences', r, tfd, ...
                        'eq', 47, 'file', F);

  %% section 'gated product': (48) dx, dy and (49) dG, for both masks, KDA and GDN gates
  r43 = 0; r44 = 0;
  x = randn (c, K); y = randn (c, K); Cot = randn (c);
  for gdn = [false true]
    if (gdn), G = cumsum (-rand (c, 1)); else, G = cumsum (-rand (c, K)); end
    for strict = [true false]
      mask = tril (true (c), -strict);
      [dx, dy, dG] = drv_gated_bwd (x, y, G, mask, Cot);
      fp = @(xx, yy, GG) ip (Cot, ref_gated (xx, yy, GG, 'Cumulative', true, 'Mask', mask));
      r43 = max ([r43, la_ratio(fd_gradient (@(z) fp (z, y, G), x), dx), la_ratio(fd_gradient (@(z) fp (x, z, G), y), dy)]);
      r44 = max (r44, la_ratio (fd_gradient (@(z) fp (x, y, z), G), dG));
    end
  end
  res(end+1) = lab_row ('derivations', 'gated product P(i,j) = sum_k x_i y_j e^{G_i - G_j}: dx, dy vs finite differences', r43, tfd, ...
                        'eq', 48, 'file', F);
  res(end+1) = lab_row ('derivations', 'gate gradient of a gated product dG_i += x_i .* dx_i, dG_j -= y_j .* dy_j vs finite differences (KDA, GDN)', r44, tfd, ...
                        'eq', 49, 'file', F);

  %% section 'gated inputs': (50) QG, KG, KC, gamma
  dKG = randn (c, K);
  E = exp (a.G); Ec = exp (a.G(c, :) - a.G);
  f45 = @(QQ, KK, GG) ip (dQG, exp (GG) .* QQ) + ip (dKG, exp (GG) .* KK) + ...
                      ip (dKC, exp (GG(c, :) - GG) .* KK) + ip (dgam, exp (GG(c, :))');
  dQ45 = E .* dQG; dK45 = E .* dKG + Ec .* dKC;
  dG45 = a.QG .* dQG + a.KG .* dKG - a.KC .* dKC;
  dG45(c, :) = dG45(c, :) + sum (a.KC .* dKC, 1) + (a.gamma .* dgam)';
  r = max ([la_ratio(fd_gradient (@(z) f45 (z, Kr, a.G), Q), dQ45), la_ratio(fd_gradient (@(z) f45 (Q, z, a.G), Kr), dK45), ...
            la_ratio(fd_gradient (@(z) f45 (Q, Kr, z), a.G), dG45)]);
  res(end+1) = lab_row ('derivations', 'gated inputs QG, KG, KC, gamma: dQ, dK and dG (incl. the last row G_c) vs finite differences', r, tfd, ...
                        'eq', 50, 'file', F);

  %% section 'cumulative gate': (51) dg_t = sum_{i >= t} dG_i
  dGr = randn (c, K); gg = randn (c, K);
  dg46 = flipud (cumsum (flipud (dGr), 1));
  res(end+1) = lab_row ('derivations', 'G = cumsum(g): dg = reverse cumulative sum of dG vs finite differences', ...
                        la_ratio (fd_gradient (@(z) ip (dGr, cumsum (z, 1)), gg), dg46), tfd, ...
                        'eq', 51, 'file', F);

  %% section 'cancellation-free gate gradient': (51b) with every gate at -30 the
  %% true dg is of order exp(-30); the C core's chunked dg must still match BPTT
  if (have)
    r = 0;
    for gdn = [false true]
      rand ('state', 66 + gdn); randn ('state', 66 + gdn);
      Kc = 6; Vc = 5; Tc = 40;
      qc = randn (Kc, Tc); kc = randn (Kc, Tc) / sqrt (Kc); vc = randn (Vc, Tc);
      gc = -30 * ones (pick (gdn, [Tc 1], [Kc Tc])); bc = rand (Tc, 1);
      dOc = randn (Vc, Tc); dSc = randn (Kc, Vc); S0c = randn (Kc, Vc);
      pre = pick (gdn, 'gdn', 'kda');
      g1 = cell (1, 6); g2 = g1;
      [g1{:}] = feval ([pre, '_recurrent_bwd'], qc, kc, vc, gc, bc, dOc, dSc, 'InitialState', S0c);
      for C = [1 7 16]
        [g2{:}] = feval ([pre, '_chunk_bwd'], qc, kc, vc, gc, bc, dOc, dSc, 'InitialState', S0c, ...
                         'ChunkSize', C);
        r = max (r, la_ratio (g1{4}, g2{4}));
      end
    end
    res(end+1) = lab_row ('derivations', '(51b) strong gates (g = -30): chunked dg vs recurrent dg, KDA and GDN, C = 1, 7, 16', ...
                          r, tcore, 'eq', 51, 'file', F);
  else
    res(end+1) = drv_skip (51, '(51b) strong gates: chunked dg vs recurrent dg', F, tcore, why);
  end

  %% section 'whole backward': (52) plain chunked backward vs finite differences of the plain chunked forward
  for gdn = [false true]
    e = drv_data (4, 3, 11, gdn, -2, 70 + gdn);
    dO = randn (3, 11); dST = randn (4, 3);
    gr = cell (1, 6);
    [gr{:}] = drv_chunk_bwd (e.q, e.k, e.v, e.g, e.beta, e.S0, e.s, 4, dO, dST);
    args = {e.q, e.k, e.v, e.g, e.beta, e.S0};
    r = 0;
    for i = 1:6
      f = @(z) chunk_loss (setarg (args, i, z), e.s, 4, dO, dST);
      r = max (r, la_ratio (fd_gradient (f, args{i}), gr{i}));
    end
    res(end+1) = lab_row ('derivations', sprintf ('chunked backward (%s, T = 11, C = 4): dq dk dv dg dbeta dS0 vs finite differences', ...
                          pick (gdn, 'GDN', 'KDA')), r, tfd, 'eq', 52, 'file', F);
  end

  %% section 'agreement': (53) chunked backward = recurrent backward
  r = 0;
  for gdn = [false true]
    for T = [1 9 16]
      e = drv_data (4, 3, T, gdn, -3, 80 + T + gdn);
      dO = randn (3, T); dST = randn (4, 3);
      g1 = cell (1, 6); g2 = g1;
      [g1{:}] = ref_recurrence_bwd (e.q, e.k, e.v, e.g, e.beta, e.S0, e.s, dO, dST, T);
      for C = [1 2 3 5 8 16]
        [g2{:}] = drv_chunk_bwd (e.q, e.k, e.v, e.g, e.beta, e.S0, e.s, C, dO, dST);
        for i = 1:6
          r = max (r, la_ratio (g1{i}, g2{i}));
        end
      end
    end
  end
  res(end+1) = lab_row ('derivations', 'plain chunked backward vs plain BPTT, KDA and GDN, T = 1, 9, 16, C = 1..16', r, tol, ...
                        'eq', 53, 'file', F);
  if (have)
    [r1, r2] = core_vs_bptt ([1 4 16 20 41 64]);
    res(end+1) = lab_row ('derivations', '*_chunk_bwd (C core) vs plain BPTT, T = 41, C = 1, 4, 16, 20, 41, 64', r1, tcore, ...
                          'eq', 53, 'file', F);
    res(end+1) = lab_row ('derivations', '*_chunk_bwd vs *_recurrent_bwd (both C core), same inputs', r2, tcore, ...
                          'eq', 53, 'file', F);
    % the C core's other form of v_new: the WY form ('Emulate' runs it; the
    % tuning's wy_form forces it), against plain BPTT too (the direct form is
    % the default above)
    [was, via] = core_tuning ('wy_form', 1);
    unwind_protect
      r3 = core_vs_bptt ([4 16 64], via);
    unwind_protect_cleanup
      core_tuning ('wy_form', was);
    end_unwind_protect
    res(end+1) = lab_row ('derivations', '*_chunk_bwd (C core) in the WY form of v_new (tuning wy_form) vs plain BPTT, T = 41, C = 4, 16, 64', ...
                          r3, tcore, 'eq', 53, 'file', F);
    % with every option on, H = 1 and HV = 2 (GVA), two sequences by CuSeqlens
    rand ('state', 95); randn ('state', 95);
    K = 4; V = 3; T = 23; HV = 2;
    q = randn (K, T); k = randn (K, T); v = randn (V, T, HV); g = randn (K, T, HV);
    beta = randn (T, HV); dO = randn (V, T, HV); dST = randn (K, V, HV, 2);
    opts = {'UseQKL2Norm', true, 'GateInKernel', true, 'ALog', [0.1, -0.2], 'DtBias', randn(K, HV), ...
            'BetaSigmoid', true, 'AllowNegEigval', true, 'CuSeqlens', [0 9 23], ...
            'InitialState', randn(K, V, HV, 2), 'ChunkSize', 5};
    c1 = cell (1, 8); c2 = c1;
    [c1{:}] = kda_chunk_bwd (q, k, v, g, beta, dO, dST, opts{:});
    [c2{:}] = kda_recurrent_bwd (q, k, v, g, beta, dO, dST, opts{:});
    r = 0;
    for i = 1:8
      r = max (r, la_ratio (c2{i}, c1{i}));
    end
    res(end+1) = lab_row ('derivations', 'kda_chunk_bwd vs kda_recurrent_bwd with all transforms, GVA, CuSeqlens (all 8 outputs)', r, tcore, ...
                          'eq', 53, 'file', F);
  else
    res(end+1) = drv_skip (53, '*_chunk_bwd (C core) vs plain and vs *_recurrent_bwd', F, tcore, why);
  end

  %% section 'memory': the store of section 8, measured in the C core (drv_peak_rows)
  res = [res, drv_peak_rows(54)];
  [~, ix] = sort ([res.eq]);
  res = res(ix);
end

% ---------------------------------------------------------------- helpers
function [r1, r2] = core_vs_bptt (Cs, via)
  % the C core's *_chunk_bwd at the chunk sizes Cs against plain BPTT (r1)
  % and against its *_recurrent_bwd (r2), T = 41, KDA and GDN; via (name):
  % the chunked backward to call (default: the public function)
  if (nargin < 2)
    via = @(f) f;
  end
  r1 = 0; r2 = 0;
  g1 = cell (1, 6); g2 = g1; g3 = g1;
  for gdn = [false true]
    e = drv_data (5, 4, 41, gdn, -3, 90 + gdn);
    dO = randn (4, 41); dST = randn (5, 4);
    pre = pick (gdn, 'gdn', 'kda');
    [g1{:}] = ref_recurrence_bwd (e.q, e.k, e.v, e.g, e.beta, e.S0, e.s, dO, dST, 41);
    [g3{:}] = feval ([pre, '_recurrent_bwd'], e.q, e.k, e.v, pick (gdn, e.g(:), e.g), e.beta(:), dO, dST, 'InitialState', e.S0);
    for C = Cs
      [g2{:}] = feval (via ([pre, '_chunk_bwd']), e.q, e.k, e.v, pick (gdn, e.g(:), e.g), e.beta(:), dO, dST, ...
                       'InitialState', e.S0, 'ChunkSize', C);
      for i = 1:6
        r1 = max (r1, la_ratio (g1{i}, reshape (g2{i}, size (g1{i}))));
        r2 = max (r2, la_ratio (g3{i}, g2{i}));
      end
    end
  end
end

function L = chunk_loss (a, s, C, dO, dST)
  [o, S] = ref_chunk_fwd (a{:}, s, C);
  L = sum (dO(:) .* o(:)) + sum (dST(:) .* S(:));
end

function c = setarg (c, i, z)
  c{i} = z;
end

