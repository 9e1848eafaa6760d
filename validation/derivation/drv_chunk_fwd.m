function [o, S, aux] = drv_chunk_fwd (q, k, v, g, beta, S0, s, C)
  % [o, S, aux] = drv_chunk_fwd (q, k, v, g, beta, S0, s, C): the chunked
  % forward of docs/chunk_forward.md, eq. (21)-(31), written from the equations
  % in plain Octave (double), independent of the C core.  Same arguments as
  % ref_recurrence plus the chunk size C; T need not be a multiple of C.
  % aux(n) holds chunk n: t0 (first step), len, S0 (state entering), G, KG, QG,
  % KC, gamma, M, A_raw, L, A, w, u, v_new, Aqk (row-matrix form, c x ...).
  [K, T] = size (q);
  V = size (v, 1);
  o = zeros (V, T);
  S = S0;
  NC = ceil (T / C);
  aux = struct ('t0', {}, 'len', {}, 'S0', {}, 'G', {}, 'KG', {}, 'QG', {}, 'KC', {}, ...
                'gamma', {}, 'M', {}, 'A_raw', {}, 'L', {}, 'A', {}, 'w', {}, 'u', {}, ...
                'v_new', {}, 'Aqk', {});
  for n = 1:NC
    idx = (n - 1) * C + 1:min (n * C, T);
    c = numel (idx);
    Q = q(:, idx)'; Kr = k(:, idx)'; Vr = v(:, idx)';   % c x K, c x K, c x V
    b = beta(idx)';
    G = cumsum (g(:, idx)', 1);                          % (21) c x K (GDN c x 1)
    E = exp (G) .* ones (c, K);
    KG = E .* Kr;  QG = E .* Q;
    KC = exp (G(c, :) - G) .* Kr;                        % exp(G_c - G_i) .* k_i
    gamma = (exp (G(c, :)) .* ones (1, K))';             % K x 1
    M = drv_gated (Kr, Kr, G, tril (true (c), -1));      % strictly lower
    A_raw = b .* M;                                      % (24)
    L = eye (c) + A_raw;
    A = L \ diag (b);                                    % (26)
    w = A * KG;  u = A * Vr;                             % (27)
    v_new = u - w * S;                                   % (28)
    Aqk = s * drv_gated (Q, Kr, G, tril (true (c)));     % (29)
    o(:, idx) = (s * QG * S + Aqk * v_new)';             % (30)
    aux(n) = struct ('t0', idx(1), 'len', c, 'S0', S, 'G', G, 'KG', KG, 'QG', QG, ...
                     'KC', KC, 'gamma', gamma, 'M', M, 'A_raw', A_raw, 'L', L, 'A', A, ...
                     'w', w, 'u', u, 'v_new', v_new, 'Aqk', Aqk);
    S = gamma .* S + KC' * v_new;                        % (31)
  end
end
