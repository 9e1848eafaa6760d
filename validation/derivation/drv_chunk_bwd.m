function [dq, dk, dv, dg, dbeta, dS0, baux] = drv_chunk_bwd (q, k, v, g, beta, S0, s, C, dO, dST)
  % [dq, dk, dv, dg, dbeta, dS0, baux] = drv_chunk_bwd (q, k, v, g, beta, S0,
  % s, C, dO, dST): the chunked backward of docs/chunk_backward.md, eq.
  % (35)-(46), in plain Octave: chunks in reverse order, each from the
  % quantities of drv_chunk_fwd.  dO: V x T; dST: gradient of the final state
  % (K x V or []).  baux(n): chunk n's gradients (59)-(62), row-matrix form:
  % dh (K x V), dv_new, du, dw, dAqk, dA, dA_raw, dG (c x ...).
  [K, T] = size (q);
  V = size (v, 1);
  gdn = size (g, 1) == 1;
  [~, ~, aux] = drv_chunk_fwd (q, k, v, g, beta, S0, s, C);
  dq = zeros (K, T); dk = zeros (K, T); dv = zeros (V, T);
  dg = zeros (size (g)); dbeta = zeros (1, T);
  dS = dST;
  if (isempty (dS))
    dS = zeros (K, V);
  end
  for n = numel (aux):-1:1
    a = aux(n);
    c = a.len;
    idx = a.t0:a.t0 + c - 1;
    Q = q(:, idx)'; Kr = k(:, idx)'; Vr = v(:, idx)'; b = beta(idx)';
    Sc = a.S0;
    E = exp (a.G) .* ones (c, K);
    D = dO(:, idx)';                                     % c x V
    % (35), (36): output and carried state through v_new and Aqk
    dvn = a.Aqk' * D + a.KC * dS;
    dAqk = tril (D * a.v_new');
    % (37): gradient of the state entering the chunk
    dSprev = s * a.QG' * D + a.gamma .* dS - a.w' * dvn;
    % (38): the gated inputs of the state terms
    dQG = s * D * Sc';
    dKC = a.v_new * dS';
    dgam = sum (dS .* Sc, 2);                            % K x 1
    % (39): v_new = u - w S
    du = dvn;
    dw = -dvn * Sc';
    % (40): w = A KG, u = A V
    dA = dw * a.KG' + du * Vr';
    dKG = a.A' * dw;
    dVr = a.A' * du;
    % (41): A = L^{-1} Diag(beta)
    Y = a.L' \ dA;
    db = diag (Y);
    dL = -Y * a.A';
    dAraw = tril (dL, -1);
    % (42): A_raw = Diag(beta) M
    db = db + sum (dAraw .* a.M, 2);
    dM = b .* dAraw;
    % (43), (44): gated products (M: x = y = k; Aqk: x = s q, y = k)
    [dx1, dy1, dG1] = drv_gated_bwd (Kr, Kr, a.G, tril (true (c), -1), dM);
    [dx2, dy2, dG2] = drv_gated_bwd (s * Q, Kr, a.G, tril (true (c)), dAqk);
    dQr = s * dx2;
    dKr = dx1 + dy1 + dy2;
    dG = dG1 + dG2;
    % (45): gated inputs QG, KG, KC and gamma
    Ek = exp (a.G(c, :) - a.G) .* ones (c, K);
    dQr = dQr + E .* dQG;
    dKr = dKr + E .* dKG + Ek .* dKC;
    dGk = a.QG .* dQG + a.KG .* dKG - a.KC .* dKC;
    dGk(c, :) = dGk(c, :) + sum (a.KC .* dKC, 1) + (a.gamma .* dgam)';
    if (gdn)
      dG = dG + sum (dGk, 2);
    else
      dG = dG + dGk;
    end
    % (46): G = cumsum(g)  =>  dg = reverse cumulative sum of dG
    dgc = flipud (cumsum (flipud (dG), 1));
    baux(n) = struct ('dh', dSprev, 'dv_new', dvn, 'du', du, 'dw', dw, 'dAqk', dAqk, ...
                      'dA', dA, 'dA_raw', dAraw, 'dG', dG);
    dq(:, idx) = dQr'; dk(:, idx) = dKr'; dv(:, idx) = dVr';
    dg(:, idx) = dgc'; dbeta(idx) = db';
    dS = dSprev;
  end
  dS0 = dS;
end
