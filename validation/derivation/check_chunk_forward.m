function res = check_chunk_forward ()
  % res = check_chunk_forward (): reproduce eq. (24)-(39) of
  % docs/chunk_forward.md from random inputs, in double: every quantity of the
  % chunked forward, written in plain Octave from the equations
  % (drv_chunk_fwd), is checked against what the recurrence implies, and,
  % when kda_chunk / gdn_chunk are built, against the C core's intermediates
  % ('Intermediates', true).
  %
  % Returns a struct array with fields eq, name, file, residual, bound, pass.
  drv_lib ();
  F = 'docs/chunk_forward.md';
  res = lab_row ();
  tol = 1e-12; tcore = 1e-10;
  K = 5; V = 4; T = 13; C = 5;                 % three chunks: 5, 5, 3 steps
  have = drv_have ('kda_chunk') && drv_have ('gdn_chunk');
  why = 'kda_chunk not built';

  d = drv_data (K, V, T, false, -2, 31);
  [orec, Srec, st] = ref_recurrence (d.q, d.k, d.v, d.g, d.beta, d.S0, d.s);
  [och, Sch, aux] = drv_chunk_fwd (d.q, d.k, d.v, d.g, d.beta, d.S0, d.s, C);
  cx = {};
  if (have)
    try
      cx{1} = core_aux ('kda_chunk', d, C);
      dg = drv_data (K, V, T, true, -2, 32);
      [~, ~, auxg] = drv_chunk_fwd (dg.q, dg.k, dg.v, dg.g, dg.beta, dg.S0, dg.s, C);
      cx{2} = core_aux ('gdn_chunk', dg, C);
    catch err
      have = false;
      why = ['kda_chunk failed: ', err.message];
    end
  end

  %% section 'cumulative gate': (24) G_i = g_1 + ... + g_i, exp(G_i) = prod_{t<=i} a_t
  r = 0;
  for n = 1:numel (aux)
    a = aux(n); idx = a.t0:a.t0 + a.len - 1;
    P = cumprod (exp (d.g(:, idx)'), 1);
    r = max (r, la_ratio (P, exp (a.G)));
  end
  res(end+1) = lab_row ('derivations', 'exp(G_i) = running product of a_t inside each chunk', r, tol, ...
                        'eq', 24, 'file', F);
  if (have)
    % the decays the kernel applied in w = A (e^G .* K), recovered from its
    % own A and w, against running products of a_t (aux.G, which the kernel
    % only fills in for the caller, is not used)
    r = max (core_decays (cx{1}, d, C), core_decays (cx{2}, dg, C));
    res(end+1) = lab_row ('derivations', ['decays of the C core: aux.A \ aux.w = e^{G_i} .* k_i ' ...
                          'vs running products of a_t (KDA and GDN)'], r, tcore, ...
                          'eq', 24, 'file', F);
  else
    res(end+1) = drv_skip (24, 'decays of the C core: aux.A \ aux.w vs running products of a_t', F, tcore, why);
  end

  %% section 'unrolling': (25) S_i = Diag(e^{G_i}) S_0 + sum_{j<=i} Diag(e^{G_i - G_j}) k_j u_j^T
  r = 0;
  for n = 1:numel (aux)
    a = aux(n);
    for i = 1:a.len
      Si = exp (a.G(i, :))' .* a.S0;
      for j = 1:i
        tj = a.t0 + j - 1;
        Si = Si + (exp (a.G(i, :) - a.G(j, :))' .* d.k(:, tj)) * st.u(:, tj)';
      end
      r = max (r, la_ratio (st.S(:, :, a.t0 + i - 1), Si));
    end
  end
  res(end+1) = lab_row ('derivations', 'unrolled state inside a chunk vs the recurrent S_t (all t)', r, tol, ...
                        'eq', 25, 'file', F);

  %% section 'triangular system': (26)-(28)
  r23 = 0; r24 = 0; r25 = 0;
  for n = 1:numel (aux)
    a = aux(n); c = a.len; idx = a.t0:a.t0 + c - 1;
    U = st.u(:, idx)';                             % the recurrent deltas, c x V
    Kr = d.k(:, idx)'; b = d.beta(idx)';
    for i = 1:c                                    % (26), row by row
      lhs = U(i, :);
      for j = 1:i - 1
        lhs = lhs + b(i) * (Kr(i, :) .* exp (a.G(i, :) - a.G(j, :))) * Kr(j, :)' * U(j, :);
      end
      rhs = b(i) * (d.v(:, idx(i))' - (exp (a.G(i, :)) .* Kr(i, :)) * a.S0);
      r23 = max (r23, la_ratio (rhs, lhs));
    end
    % (27) A_raw via the factorised product (safe here: mild gates, double)
    Af = diag (b) * tril ((exp (a.G) .* Kr) * (exp (-a.G) .* Kr)', -1);
    r24 = max (r24, la_ratio (Af, a.A_raw));
    % (28) matrix form
    r25 = max (r25, la_ratio (diag (b) * (d.v(:, idx)' - a.KG * a.S0), (eye (c) + a.A_raw) * U));
  end
  res(end+1) = lab_row ('derivations', 'row i of the system: u_i + sum_{j<i} A_raw(i,j) u_j = beta_i (v_i - S_0^T (e^{G_i} .* k_i)), recurrent u', r23, tol, ...
                        'eq', 26, 'file', F);
  res(end+1) = lab_row ('derivations', 'A_raw(i,j) = beta_i k_i^T Diag(e^{G_i - G_j}) k_j vs the factorised GEMM form (mild gates)', r24, tol, ...
                        'eq', 27, 'file', F);
  if (have)
    res(end+1) = lab_row ('derivations', 'A_raw: plain vs aux.A_raw (C core, KDA and GDN)', ...
                          max (cmp_core (cx{1}, aux, 'A_raw'), cmp_core (cx{2}, auxg, 'A_raw')), tcore, ...
                          'eq', 27, 'file', F);
  else
    res(end+1) = drv_skip (27, 'A_raw: plain vs aux.A_raw (C core)', F, tcore, why);
  end
  res(end+1) = lab_row ('derivations', '(I + A_raw) U = Diag(beta) (V - KG S_0) with the recurrent U', r25, tol, ...
                        'eq', 28, 'file', F);

  %% section 'solution': (29) A, (30) w, u, (31) v_new in both forms
  r26 = 0; r27 = 0; r28 = 0; r28d = 0;
  for n = 1:numel (aux)
    a = aux(n); c = a.len; idx = a.t0:a.t0 + c - 1; b = d.beta(idx)';
    r26 = max (r26, la_ratio (diag (b), a.L * a.A));
    r26 = max (r26, norm (triu (a.A, 1), 'fro'));          % A is lower triangular
    r27 = max ([r27, la_ratio(b .* a.KG, a.L * a.w), la_ratio(b .* d.v(:, idx)', a.L * a.u)]);
    r28 = max (r28, la_ratio (st.u(:, idx)', a.v_new));
    r28d = max (r28d, la_ratio (a.u - a.w * a.S0, a.A * (d.v(:, idx)' - a.KG * a.S0)));
  end
  res(end+1) = lab_row ('derivations', 'A = (I + A_raw)^{-1} Diag(beta): (I + A_raw) A = Diag(beta), A lower', r26, tol, ...
                        'eq', 29, 'file', F);
  res(end+1) = lab_row ('derivations', 'w = A KG, u = A V: (I + A_raw) w = Diag(beta) KG, (I + A_raw) u = Diag(beta) V', r27, tol, ...
                        'eq', 30, 'file', F);
  res(end+1) = lab_row ('derivations', 'v_new = u - w S_0 equals the recurrent deltas u_t', r28, tol, ...
                        'eq', 31, 'file', F);
  res(end+1) = lab_row ('derivations', 'the direct form A (V - KG S_0) (the C core''s forward) = u - w S_0', r28d, tol, ...
                        'eq', 31, 'file', F);
  if (have)
    res(end+1) = lab_row ('derivations', 'A: plain vs aux.A (C core, KDA and GDN)', ...
                          max (cmp_core (cx{1}, aux, 'A'), cmp_core (cx{2}, auxg, 'A')), tcore, ...
                          'eq', 29, 'file', F);
    res(end+1) = lab_row ('derivations', 'w, u: plain vs aux.w, aux.u (C core, KDA and GDN)', ...
                          max ([cmp_core(cx{1}, aux, 'w'), cmp_core(cx{2}, auxg, 'w'), ...
                                cmp_core(cx{1}, aux, 'u'), cmp_core(cx{2}, auxg, 'u')]), tcore, ...
                          'eq', 30, 'file', F);
    res(end+1) = lab_row ('derivations', 'v_new: plain (u - w S_0) vs aux.v_new (C core, direct form; KDA and GDN)', ...
                          max (cmp_core (cx{1}, aux, 'v_new'), cmp_core (cx{2}, auxg, 'v_new')), tcore, ...
                          'eq', 31, 'file', F);
    [was, via] = core_tuning ('wy_form', 1);  % the C core's WY form ('Emulate' runs it)
    unwind_protect
      wy = {core_aux(via ('kda_chunk'), d, C), core_aux(via ('gdn_chunk'), dg, C)};
    unwind_protect_cleanup
      core_tuning ('wy_form', was);
    end_unwind_protect
    res(end+1) = lab_row ('derivations', 'v_new: plain (u - w S_0) vs aux.v_new (C core, WY form: tuning wy_form; KDA and GDN)', ...
                          max (cmp_core (wy{1}, aux, 'v_new'), cmp_core (wy{2}, auxg, 'v_new')), tcore, ...
                          'eq', 31, 'file', F);
  else
    res(end+1) = drv_skip (29, 'A, w, u, v_new: plain vs aux (C core)', F, tcore, why);
  end

  %% section 'WY/UT identity': (32) Phi_c ... Phi_1 = Diag(gamma) - K_C' w, (33) A^-1, Akk
  r64 = 0; r65 = 0; r64g = 0;
  for n = 1:numel (aux)
    a = aux(n); c = a.len; idx = a.t0:a.t0 + c - 1;
    Phi = eye (K);
    for t = idx
      Phi = (eye (K) - d.beta(t) * d.k(:, t) * d.k(:, t)') * diag (exp (d.g(:, t))) * Phi;
    end
    r64 = max (r64, la_ratio (Phi, diag (a.gamma) - a.KC' * a.w));
    b = d.beta(idx)';
    Tut = diag (1 ./ b) + tril (a.M, -1);                  % the UT transform's T
    Akk = inv (eye (c) + a.A_raw);                          % FLA's Akk, without beta
    r65 = max ([r65, la_ratio(inv (a.A), Tut), la_ratio(a.A, Akk * diag (b))]);
  end
  % GDN (scalar gate), and no gate at all: the compact WY form I + W Y'
  dn = drv_data (K, V, T, true, -2, 41);
  [~, ~, auxn] = drv_chunk_fwd (dn.q, dn.k, dn.v, dn.g, dn.beta, dn.S0, dn.s, C);
  [~, ~, aux0] = drv_chunk_fwd (dn.q, dn.k, dn.v, 0 * dn.g, dn.beta, dn.S0, dn.s, C);
  for n = 1:numel (auxn)
    idx = auxn(n).t0:auxn(n).t0 + auxn(n).len - 1;
    Phi = eye (K);  Hh = eye (K);
    for t = idx
      Phi = (eye (K) - dn.beta(t) * dn.k(:, t) * dn.k(:, t)') * exp (dn.g(t)) * Phi;
      Hh = (eye (K) - dn.beta(t) * dn.k(:, t) * dn.k(:, t)') * Hh;
    end
    W = -aux0(n).KC' * aux0(n).A;  Y = aux0(n).KC';
    r64g = max ([r64g, la_ratio(Phi, diag (auxn(n).gamma) - auxn(n).KC' * auxn(n).w), ...
                 la_ratio(Hh, eye (K) + W * Y')]);
  end
  res(end+1) = lab_row ('derivations', 'product of the transitions of a chunk = Diag(gamma) - K_C^T w (KDA, every chunk)', r64, tol, ...
                        'eq', 32, 'file', F);
  res(end+1) = lab_row ('derivations', 'the same for GDN; without gates the WY form I + W Y^T, W = -K^T A, Y = K^T', r64g, tol, ...
                        'eq', 32, 'file', F);
  res(end+1) = lab_row ('derivations', 'A^-1 = Diag(1/beta) + strict_lower(M) (UT transform); A = Akk Diag(beta)', r65, tol, ...
                        'eq', 33, 'file', F);

  %% section 'output': (34) Aqk, (35) O, (36) carried state
  r29 = 0; r30 = 0; r31 = 0;
  for n = 1:numel (aux)
    a = aux(n); c = a.len; idx = a.t0:a.t0 + c - 1;
    Q = d.q(:, idx)'; Kr = d.k(:, idx)';
    Af = d.s * tril ((exp (a.G) .* Q) * (exp (-a.G) .* Kr)');
    r29 = max (r29, la_ratio (Af, a.Aqk));
    O = d.s * a.QG * a.S0 + a.Aqk * a.v_new;
    r30 = max (r30, la_ratio (orec(:, idx)', O));
    Sn = exp (a.G(c, :))' .* a.S0 + (exp (a.G(c, :) - a.G) .* Kr)' * a.v_new;
    r31 = max (r31, la_ratio (st.S(:, :, idx(end)), Sn));
  end
  res(end+1) = lab_row ('derivations', 'Aqk(i,j) = s q_i^T Diag(e^{G_i - G_j}) k_j (j <= i) vs the factorised form (mild gates)', r29, tol, ...
                        'eq', 34, 'file', F);
  res(end+1) = lab_row ('derivations', 'O = s (e^G .* Q) S_0 + Aqk v_new vs the recurrent outputs', r30, tol, ...
                        'eq', 35, 'file', F);
  res(end+1) = lab_row ('derivations', 'S_next = Diag(e^{G_c}) S_0 + (e^{G_c - G} .* K)^T v_new vs the recurrent state', r31, tol, ...
                        'eq', 36, 'file', F);
  if (have)
    res(end+1) = lab_row ('derivations', 'Aqk: plain vs aux.Aqk (C core, KDA and GDN)', ...
                          max (cmp_core (cx{1}, aux, 'Aqk'), cmp_core (cx{2}, auxg, 'Aqk')), tcore, ...
                          'eq', 34, 'file', F);
    res(end+1) = lab_row ('derivations', 'chunk-entry states: plain vs aux.h (C core, KDA and GDN)', ...
                          max (cmp_core (cx{1}, aux, 'h'), cmp_core (cx{2}, auxg, 'h')), tcore, ...
                          'eq', 36, 'file', F);
  else
    res(end+1) = drv_skip (34, 'Aqk and chunk states: plain vs aux (C core)', F, tcore, why);
  end

  if (have)
    % a chunk longer than the 16-row sub-blocks of the C core (off-diagonal GEMMs)
    e = drv_data (6, 3, 50, false, -1, 34);
    [~, ~, ae] = drv_chunk_fwd (e.q, e.k, e.v, e.g, e.beta, e.S0, e.s, 40);
    xe = core_aux ('kda_chunk', e, 40);
    r = 0;
    for f = {'A_raw', 'A', 'Aqk', 'w', 'u', 'v_new', 'h'}
      r = max (r, cmp_core (xe, ae, f{1}));
    end
    r = max (r, core_decays (xe, e, 40));
    res(end+1) = lab_row ('derivations', ['C = 40 (sub-blocks of 16 in the C core): every aux field the kernel ' ...
                          'uses vs plain, and its decays as in (24)'], r, tcore, ...
                          'eq', 34, 'file', F);
  end

  %% section 'forward substitution': (37) blocked, exact; (38) Neumann series
  c = 40; bs = 16;
  e = drv_data (16, 4, c, false, -0.05, 33);
  e.beta(:) = 1;                                   % strong coupling: unit keys, beta = 1
  [~, ~, ax] = drv_chunk_fwd (e.q, e.k, e.v, e.g, e.beta, e.S0, e.s, c);
  Lm = ax(1).L; Bm = diag (e.beta) * [ax(1).KG, e.v'];
  X = zeros (size (Bm));
  for I0 = 1:bs:c                                  % block rows of bs
    I = I0:min (I0 + bs - 1, c); J = 1:I0 - 1;
    R = Bm(I, :) - Lm(I, J) * X(J, :);             % subtract the solved blocks (GEMM)
    for i = 1:numel (I)                            % forward substitution in the block
      X(I(i), :) = R(i, :) - Lm(I(i), I(1:i - 1)) * X(I(1:i - 1), :);
    end
  end
  res(end+1) = lab_row ('derivations', sprintf (['blocked forward substitution (c = %d, blocks of %d): ' ...
                        '||L X - B|| / ||B||'], c, bs), norm (Lm * X - Bm, 'fro') / norm (Bm, 'fro'), tol, ...
                        'eq', 37, 'file', F);
  N = ax(1).A_raw; Li = inv (Lm);
  Sm = eye (c); P = eye (c); r = 0; errM = zeros (1, c);
  for m = 1:c - 1
    P = -P * N; Sm = Sm + P;                       % sum_{l=0}^{m} (-N)^l
    errM(m) = norm (Sm - Li, 'fro') / norm (Li, 'fro');
    r = max (r, norm ((Li - Sm) - (-P * N) * Li, 'fro') / norm (Li, 'fro'));
  end
  res(end+1) = lab_row ('derivations', 'Neumann remainder: (I+N)^{-1} - sum_{l<=m} (-N)^l = (-N)^{m+1} (I+N)^{-1}, m = 1..c-1', r, tol, ...
                        'eq', 38, 'file', F);
  res(end+1) = lab_row ('derivations', sprintf (['series with all c-1 powers is exact (nilpotent N); truncated after ' ...
                        'm = 2, 4, 8 powers it is off by %.1e, %.1e, %.1e'], errM(2), errM(4), errM(8)), ...
                        errM(c - 1), tol, 'eq', 38, 'file', F);

  %% section 'whole forward': (39) chunked = recurrent for every C and T
  r = 0;
  for gdn = [false true]
    for T2 = [1 7 13 16]
      e = drv_data (4, 3, T2, gdn, -3, 40 + T2 + gdn);
      [o1, S1] = ref_recurrence (e.q, e.k, e.v, e.g, e.beta, e.S0, e.s);
      for C2 = [1 2 3 4 5 8 16 20]
        [o2, S2] = drv_chunk_fwd (e.q, e.k, e.v, e.g, e.beta, e.S0, e.s, C2);
        [o3, S3] = ref_chunk_fwd (e.q, e.k, e.v, e.g, e.beta, e.S0, e.s, C2);
        r = max ([r, la_ratio(o1, o2), la_ratio(S1, S2), la_ratio(o1, o3), la_ratio(S1, S3)]);
      end
    end
  end
  res(end+1) = lab_row ('derivations', 'plain chunked (drv_chunk_fwd, ref_chunk_fwd) vs plain recurrent, KDA and GDN, T = 1, 7, 13, 16, C = 1..20', r, tol, ...
                        'eq', 39, 'file', F);
  if (have)
    r = 0;
    for gdn = [false true]
      e = drv_data (K, V, 37, gdn, -3, 50 + gdn);
      pre = pick (gdn, 'gdn', 'kda');
      [o1, S1] = feval ([pre, '_recurrent'], e.q, e.k, e.v, pick (gdn, e.g(:), e.g), e.beta(:), 'InitialState', e.S0);
      for C2 = [1 3 8 16 37 64]
        [o2, S2] = feval ([pre, '_chunk'], e.q, e.k, e.v, pick (gdn, e.g(:), e.g), e.beta(:), 'InitialState', e.S0, 'ChunkSize', C2);
        r = max ([r, la_ratio(o1, o2), la_ratio(S1, S2)]);
      end
    end
    res(end+1) = lab_row ('derivations', '*_chunk vs *_recurrent (C core), T = 37, C = 1, 3, 8, 16, 37, 64', r, tcore, ...
                          'eq', 39, 'file', F);
  else
    res(end+1) = drv_skip (39, '*_chunk vs *_recurrent (C core)', F, tcore, why);
  end
  [~, ix] = sort ([res.eq]);
  res = res(ix);
end

% ---------------------------------------------------------------- helpers
function x = core_aux (fn, d, C)
  % the C core's intermediates for one sequence and head (B = HV = 1)
  if (size (d.g, 1) == 1)
    g = d.g(:);
  else
    g = d.g;
  end
  [~, ~, x] = feval (fn, d.q, d.k, d.v, g, d.beta(:), 'InitialState', d.S0, ...
                     'ChunkSize', C, 'Intermediates', true);
end

function r = cmp_core (x, aux, f)
  % largest ratio between the plain chunk quantity f and the C core's
  r = 0;
  for n = 1:numel (aux)
    a = aux(n); c = a.len; idx = a.t0:a.t0 + c - 1;
    switch f
      case {'A_raw', 'A', 'Aqk'}
        Mc = x.(f)(1:c, idx).';        % column t holds row i of the chunk matrix
        r = max (r, la_ratio (a.(f), Mc));
        pad = x.(f)(c + 1:end, idx);
        r = max (r, la_ratio (zeros (size (pad)), pad));   % padding is zero
      case {'w', 'u', 'v_new'}
        r = max (r, la_ratio (a.(f), x.(f)(:, idx).'));
      case 'h'
        r = max (r, la_ratio (a.S0, x.h(:, :, 1, n)));
        r = max (r, double (any (x.chunks(n, :) ~= [1, a.t0, c])));
    end
  end
end

function r = core_decays (x, d, C)
  % largest ratio, over the chunks, between e^{G_i} .* k_i as the C
  % core applied it in w (A^{-1} w, with its own A and w) and the running
  % products a_1 ... a_i of a_t = exp (g_t) inside the chunk, times k_i
  r = 0;
  T = size (d.q, 2);
  for t0 = 1:C:T
    idx = t0:min (t0 + C - 1, T);
    c = numel (idx);
    Ac = x.A(1:c, idx).';                % row i of the chunk's A in column t
    KG_core = Ac \ x.w(:, idx).';
    KG_ref = cumprod (exp (d.g(:, idx).'), 1) .* d.k(:, idx).';
    r = max (r, la_ratio (KG_ref, KG_core));
  end
end

