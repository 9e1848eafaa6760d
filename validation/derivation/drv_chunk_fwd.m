function [o, S, aux] = drv_chunk_fwd (q, k, v, g, beta, S0, s, C, fmt, change)
  % [o, S, aux] = drv_chunk_fwd (q, k, v, g, beta, S0, s, C): the chunked
  % forward of docs/chunk_forward.md, eq. (24)-(31), (34)-(36), written from the equations
  % in plain Octave (in the class of the inputs), independent of the C core.
  % Same arguments as ref_recurrence plus the chunk size C; T need not be a
  % multiple of C.  aux(n) holds chunk n: t0 (first step), len, S0 (state
  % entering), G, KG, QG, KC, gamma, M, A_raw, L, A, w, u, v_new, Aqk
  % (row-matrix form, c x ...).
  %
  % [...] = drv_chunk_fwd (..., fmt): 'Emulate' (docs/emulation.md, "What
  % is rounded"): give single inputs; q, k, v, g, beta are rounded to fmt
  % ('bf16', 'fp16', 'tf32', ref_round) and what FLA stores between its
  % kernels is rounded where it stores it: QG, KG, KC, Aqk, A, w and u
  % (formed from A and KG before they are rounded), the state a chunk reads
  % (aux.S0 is that snapshot), v_new and o; the carried state, G and gamma
  % stay in single.  change (for showing that a bound is tight): one
  % rounding left out ('no QG', 'no KG', 'no KC', 'no Aqk', 'no A', 'no w',
  % 'no u', 'no h', 'no vnew', 'no o', 'no in'), the carried state built from
  % the rounded snapshot ('state from h') or rounded too ('round S').
  if (nargin < 9)
    fmt = '';
  end
  if (nargin < 10)
    change = '';
  end
  R = @(x, name) drv_emu_round (x, fmt, name, change);
  q = R (q, 'in');  k = R (k, 'in');  v = R (v, 'in');  g = R (g, 'in');  beta = R (beta, 'in');
  [K, T] = size (q);
  V = size (v, 1);
  o = zeros (V, T, class (q));
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
    G = cumsum (g(:, idx)', 1);                          % (24) c x K (GDN c x 1)
    E = exp (G) .* ones (c, K);
    KG = E .* Kr;  QG = R (E .* Q, 'QG');
    KC = R (exp (G(c, :) - G) .* Kr, 'KC');              % exp(G_c - G_i) .* k_i
    gamma = (exp (G(c, :)) .* ones (1, K))';             % K x 1
    M = ref_gated (Kr, Kr, G, 'Cumulative', true, 'Strict', true);   % strictly lower
    A_raw = b .* M;                                      % (27)
    L = eye (c) + A_raw;
    A = L \ diag (b);                                    % (29)
    w = R (A * KG, 'w');  u = R (A * Vr, 'u');           % (30)
    KG = R (KG, 'KG');  A = R (A, 'A');
    Sh = R (S, 'h');                                     % the state the chunk reads
    v_new = R (u - w * Sh, 'vnew');                      % (31)
    Aqk = R (s * ref_gated (Q, Kr, G, 'Cumulative', true), 'Aqk');   % (34)
    o(:, idx) = R ((s * QG * Sh + Aqk * v_new)', 'o');   % (35)
    aux(n) = struct ('t0', idx(1), 'len', c, 'S0', Sh, 'G', G, 'KG', KG, 'QG', QG, ...
                     'KC', KC, 'gamma', gamma, 'M', M, 'A_raw', A_raw, 'L', L, 'A', A, ...
                     'w', w, 'u', u, 'v_new', v_new, 'Aqk', Aqk);
    if (strcmp (change, 'state from h'))
      S = Sh;
    end
    S = gamma .* S + KC' * v_new;                        % (36)
    if (strcmp (change, 'round S'))
      S = ref_round (S, fmt);
    end
  end
end
