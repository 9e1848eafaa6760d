function res = check_specialisations ()
  % res = check_specialisations (): reproduce (G1)-(G2) and (P1)-(P3) of
  % docs/gdn.md in double from random inputs: GDN's chunk quantities with
  % the scalar decay factored out of the key products, its scalar gate
  % gradient as one c x c product, and the per-channel beta: the step, its
  % gradient (against central differences and, when built, the C core's
  % kda_recurrent_bwd) and the chunk solved column by column.
  %
  % Returns a struct array with fields eq, name, file, residual, bound, pass
  % (eq the strings 'G1', 'G2', 'P1', 'P2', 'P3').
  drv_lib ();
  F = 'docs/gdn.md';
  res = lab_row ();
  rand ('state', 31);  randn ('state', 31);
  c = 24;  K = 8;  V = 5;
  k = randn (c, K);  k = k ./ sqrt (sum (k .^ 2, 2));
  q = randn (c, K);
  g = -0.3 * rand (c, 1);                       % GDN: one gate per step
  G = cumsum (g);
  s = 1 / sqrt (K);

  %% section 'gdn products': (G1) the decay factors out of the key products
  Gam = exp (G - G');                           % e^{G_i - G_j}, used for j <= i
  M1 = tril (Gam .* (k * k'), -1);
  Aqk1 = s * tril (Gam .* (q * k'));
  M0 = ref_gated (k, k, g, 'Strict', true);
  Aqk0 = s * ref_gated (q, k, g);
  res(end+1) = lab_row ('derivations', 'GDN: M and A^qk as Gamma .* (K K'') and Gamma .* (Q K'') vs the per-channel gated product', ...
                        max (norm (M1 - M0, 1) / norm (M0, 1), norm (Aqk1 - Aqk0, 1) / norm (Aqk0, 1)), 1e-13, ...
                        'eq', 'G1', 'file', F);

  %% section 'gdn gate gradient': (G2) one c x c product and a two-sided prefix sum
  % For a loss sum_ij Pbar_ij Pi_ij(g) over a gated product Pi (strictly
  % lower here, as M), the scalar gate's gradient is
  % gbar_t = sum_{j < t <= i} Pbar_ij Pi_ij.
  Pbar = tril (randn (c), -1);
  Pi = @(gg) tril (exp (cumsum (gg) - cumsum (gg)') .* (k * k'), -1);
  f = @(gg) sum (sum (Pbar .* Pi (gg)));
  W = Pbar .* Pi (g);
  gb = zeros (c, 1);
  for t = 1:c
    gb(t) = sum (sum (W(t:c, 1:t - 1)));        % rows i >= t, columns j < t
  end
  fd = fd_gradient (f, g);
  res(end+1) = lab_row ('derivations', 'GDN gate gradient sum_{j<t<=i} Pbar_ij Pi_ij vs central differences', ...
                        norm (gb - fd) / norm (fd), 1e-7, 'eq', 'G2', 'file', F);

  %% section 'per-channel step': (P1) each value column with its own transition
  T = 9;
  qq = randn (K, T);  kk = randn (K, T);  kk = kk ./ sqrt (sum (kk .^ 2, 1));
  vv = randn (V, T);  gg = -0.4 * rand (K, T);  bb = rand (V, T);  S0 = randn (K, V);
  [o_ref, S_ref, st] = ref_recurrence (qq, kk, vv, gg, bb, S0, s);
  S = S0;  o1 = zeros (V, T);
  for t = 1:T
    for j = 1:V                                 % column j: (I - b_tj k k') Diag(a) S(:, j) + b_tj k v_tj
      S(:, j) = (eye (K) - bb(j, t) * kk(:, t) * kk(:, t)') * (exp (gg(:, t)) .* S(:, j)) ...
                + bb(j, t) * kk(:, t) * vv(j, t);
    end
    o1(:, t) = s * S' * qq(:, t);
  end
  res(end+1) = lab_row ('derivations', 'per-channel beta: column j with its own transition (I - beta_tj k k'') Diag(a) vs the step', ...
                        max (la_ratio (o_ref, o1), la_ratio (S_ref, S)), 1e-13, ...
                        'eq', 'P1', 'file', F);

  %% section 'per-channel gradient': (P2) dbeta_tj = du_tj (v_tj - p_tj)
  dO = randn (V, T);  dST = randn (K, V);
  db = pc_bptt (qq, kk, vv, gg, bb, S0, s, dO, dST, st);
  L = @(b) sum (sum (dO .* pc_out (qq, kk, vv, gg, b, S0, s))) + sum (sum (dST .* pc_state (qq, kk, vv, gg, b, S0, s)));
  fdb = fd_gradient (L, bb);
  res(end+1) = lab_row ('derivations', 'per-channel beta: dbeta = du .* (v - p) (BPTT) vs central differences', ...
                        norm (db(:) - fdb(:)) / norm (fdb(:)), 1e-7, 'eq', 'P2', 'file', F);
  if (drv_have ('kda_recurrent_bwd'))
    [~, ~, ~, ~, dbc] = kda_recurrent_bwd (qq, kk, vv, gg, bb, dO, dST, 'InitialState', S0, 'Scale', s);
    res(end+1) = lab_row ('derivations', 'per-channel beta: C core kda_recurrent_bwd dbeta (V x T) vs (P2)', ...
                          la_ratio (db, dbc), 1e-12, 'eq', 'P2', 'file', F);
  else
    res(end+1) = lab_row ('derivations', 'per-channel beta: C core [skipped (kda_recurrent_bwd not built)]', NaN, 1e-12, ...
                          'eq', 'P2', 'file', F);
  end

  %% section 'per-channel chunk': (P3) one triangular system per value column
  H = S0;  o3 = zeros (V, T);
  Gc = cumsum (gg', 1);                         % T x K: one chunk of all T steps
  KG = exp (Gc) .* kk';  QG = exp (Gc) .* qq';  KC = exp (Gc(T, :) - Gc) .* kk';
  Mk = ref_gated (kk', kk', Gc, 'Cumulative', true, 'Strict', true);
  Aq = s * ref_gated (qq', kk', Gc, 'Cumulative', true);
  U = zeros (T, V);
  for j = 1:V
    Lj = eye (T) + bb(j, :)' .* Mk;             % L_j = I + Diag(beta_:j) M
    U(:, j) = Lj \ (bb(j, :)' .* (vv(j, :)' - KG * H(:, j)));
  end
  o3 = (s * QG * H + Aq * U)';
  S3 = exp (Gc(T, :))' .* H + KC' * U;
  res(end+1) = lab_row ('derivations', 'per-channel beta, one chunk: V systems L_j u_j = Diag(beta_:j)(v_j - K_G H_j) vs the recurrence', ...
                        max (la_ratio (o_ref, o3), la_ratio (S_ref, S3)), 1e-12, ...
                        'eq', 'P3', 'file', F);
end

function o = pc_out (q, k, v, g, b, S0, s)
  o = ref_recurrence (q, k, v, g, b, S0, s);
end

function S = pc_state (q, k, v, g, b, S0, s)
  [~, S] = ref_recurrence (q, k, v, g, b, S0, s);
end

% backpropagation through time with a per-channel beta, from (P2) and the
% step's other adjoints; st: the per-step Sp, S, p, u of ref_recurrence
function db = pc_bptt (q, k, v, g, b, S0, s, dO, dST, st)
  T = size (q, 2);
  db = zeros (size (b));
  dS = dST;
  for t = T:-1:1
    dS = dS + s * q(:, t) * dO(:, t)';          % o_t = s S_t' q_t
    du = dS' * k(:, t);                         % S_t = S'_t + k_t u_t'
    db(:, t) = du .* (v(:, t) - st.p(:, t));    % u_t = beta_t .* (v_t - p_t)
    dp = -b(:, t) .* du;
    dSp = dS + k(:, t) * dp';                   % p_t = S'_t' k_t
    dS = exp (g(:, t)) .* dSp;                  % S'_t = Diag(a_t) S_{t-1}
  end
end
