function [dq, dk, dv, dg, dbeta, dS0, baux] = drv_chunk_bwd (q, k, v, g, beta, S0, s, C, dO, dST, fmt, change)
  % [dq, dk, dv, dg, dbeta, dS0, baux] = drv_chunk_bwd (q, k, v, g, beta, S0,
  % s, C, dO, dST): the chunked backward of docs/chunk_backward.md, eq.
  % (40)-(51), in plain Octave: chunks in reverse order, each from the
  % quantities of drv_chunk_fwd.  dO: V x T; dST: gradient of the final state
  % (K x V or []).  baux(n): chunk n's gradients (55)-(58), row-matrix form:
  % dh (K x V), dv_new, du, dw, dAqk, dA, dA_raw, dG (c x ...).
  %
  % [...] = drv_chunk_bwd (..., fmt): 'Emulate' (docs/emulation.md, the
  % backward's table): the forward recomputed as drv_chunk_fwd (..., fmt)
  % does, dO rounded on entry, the intra-chunk dv (Aqk' dO) and the whole
  % dv_new rounded where FLA stores them (the gradients through w and the
  % state are formed before v_new's is rounded), the chunk's stages read
  % the state gradient dh rounded while the carried term gamma .* dh keeps
  % it in single, and the returned dq, dk, dv, dg, dbeta rounded last.
  % change (for showing that a bound is tight): one of these roundings
  % left out ('no in', 'no dv', 'no dvnew', 'no dh', 'no grads'), or the
  % carried term built from the rounded dh ('carry rounded dh').
  if (nargin < 11)
    fmt = '';
  end
  if (nargin < 12)
    change = '';
  end
  R = @(x, name) drv_emu_round (x, fmt, name, change);
  [K, T] = size (q);
  V = size (v, 1);
  gdn = size (g, 1) == 1;
  [~, ~, aux] = drv_chunk_fwd (q, k, v, g, beta, S0, s, C, fmt, change);
  q = R (q, 'in');  k = R (k, 'in');  v = R (v, 'in');  beta = R (beta, 'in');  dO = R (dO, 'in');
  dq = zeros (K, T, class (q)); dk = zeros (K, T, class (q)); dv = zeros (V, T, class (q));
  dg = zeros (size (g), class (q)); dbeta = zeros (1, T, class (q));
  dS = dST;
  if (isempty (dS))
    dS = zeros (K, V, class (q));
  end
  for n = numel (aux):-1:1
    a = aux(n);
    c = a.len;
    idx = a.t0:a.t0 + c - 1;
    Q = q(:, idx)'; Kr = k(:, idx)'; Vr = v(:, idx)'; b = beta(idx)';
    Sc = a.S0;
    E = exp (a.G) .* ones (c, K);
    D = dO(:, idx)';                                     % c x V
    % (40), (41): output and carried state through v_new and Aqk
    dSr = R (dS, 'dh');                                  % the dh the stages read
    dvn = R (a.Aqk' * D, 'dv') + a.KC * dSr;
    dAqk = tril (D * a.v_new');
    % (42): gradient of the state entering the chunk
    if (strcmp (change, 'carry rounded dh'))
      dS = dSr;
    end
    dSprev = s * a.QG' * D + a.gamma .* dS - a.w' * dvn;
    % (43): the gated inputs of the state terms
    dQG = s * D * Sc';
    dKC = a.v_new * dSr';
    dgam = sum (dSr .* Sc, 2);                           % K x 1
    % (44): v_new = u - w S
    du = R (dvn, 'dvnew');
    dw = -dvn * Sc';
    % (45): w = A KG, u = A V
    dA = dw * a.KG' + du * Vr';
    dKG = a.A' * dw;
    dVr = a.A' * du;
    % (46): A = L^{-1} Diag(beta)
    Y = a.L' \ dA;
    db = diag (Y);
    dL = -Y * a.A';
    dAraw = tril (dL, -1);
    % (47): A_raw = Diag(beta) M
    db = db + sum (dAraw .* a.M, 2);
    dM = b .* dAraw;
    % (48), (49): gated products (M: x = y = k; Aqk: x = s q, y = k)
    [dx1, dy1, dG1] = drv_gated_bwd (Kr, Kr, a.G, tril (true (c), -1), dM);
    [dx2, dy2, dG2] = drv_gated_bwd (s * Q, Kr, a.G, tril (true (c)), dAqk);
    dQr = s * dx2;
    dKr = dx1 + dy1 + dy2;
    dG = dG1 + dG2;
    % (50): gated inputs QG, KG, KC and gamma
    Ek = exp (a.G(c, :) - a.G) .* ones (c, K);
    dQr = dQr + E .* dQG;
    dKr = dKr + E .* dKG + Ek .* dKC;
    % (the gated inputs as formed, before 'Emulate' rounds their stored copies)
    QG = E .* Q;  KG = E .* Kr;  KC = Ek .* Kr;
    dGk = QG .* dQG + KG .* dKG - KC .* dKC;
    dGk(c, :) = dGk(c, :) + sum (KC .* dKC, 1) + (a.gamma .* dgam)';
    if (gdn)
      dG = dG + sum (dGk, 2);
    else
      dG = dG + dGk;
    end
    % (51): G = cumsum(g)  =>  dg = reverse cumulative sum of dG
    dgc = flipud (cumsum (flipud (dG), 1));
    baux(n) = struct ('dh', dSprev, 'dv_new', dvn, 'du', du, 'dw', dw, 'dAqk', dAqk, ...
                      'dA', dA, 'dA_raw', dAraw, 'dG', dG);
    dq(:, idx) = dQr'; dk(:, idx) = dKr'; dv(:, idx) = dVr';
    dg(:, idx) = dgc'; dbeta(idx) = db';
    dS = dSprev;
  end
  dS0 = dS;
  dq = R (dq, 'grads');  dk = R (dk, 'grads');  dv = R (dv, 'grads');  dg = R (dg, 'grads');
  dbeta = R (dbeta, 'grads');
end
