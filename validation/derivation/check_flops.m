function res = check_flops ()
  % res = check_flops (): the flop formulas (55)-(58) of docs/flops.md against
  % tallies.  The tallies walk Octave transcriptions, made by hand, of the
  % loop nests of the C core (mex/core/la_recurrent_impl.h; the chunk
  % structure of the chunked paths, with the nominal cost of every matrix
  % product of the derivation): they check the algebra of the closed forms
  % against those transcriptions, not the C code itself, which no change
  % can make them notice (an instrumented build is what can).
  % Residual: |tally - formula| / formula (bound 0 for integer counts,
  % 1e-14 where c^3/3 terms make them fractional).
  %
  % Returns a struct array with fields eq, name, file, residual, bound, pass.
  F = 'docs/flops.md';
  res = drv_row (0, '', F, 0, 0); res(1) = [];
  cases = [1 1 1 1; 7 3 2 3; 23 7 5 4; 64 64 8 8; 100 16 6 5; 130 64 4 7];   % T C K V
  r1 = 0; r2 = 0; r3 = 0; r4 = 0; r5 = 0; r6 = 0; r7 = 0;
  for n = 1:size (cases, 1)
    T = cases(n, 1); C = cases(n, 2); K = cases(n, 3); V = cases(n, 4);
    [tf, tfn] = tally_rec_fwd (T, K, V);
    [tb, tbn] = tally_rec_bwd (T, C, K, V);
    r1 = max (r1, rel (tf, flops_model ('rec_fwd_exact', T, C, K, V)));
    r2 = max (r2, rel (tfn, flops_model ('rec_fwd', T, C, K, V)));
    r3 = max (r3, rel (tb, flops_model ('rec_bwd_exact', T, C, K, V)));
    r4 = max (r4, rel (tbn, flops_model ('rec_bwd', T, C, K, V)));
    [cf, cfa] = tally_chunk_fwd (T, C, K, V);
    r5 = max (r5, rel (cfa, flops_model ('chunk_fwd', T, C, K, V)));  % the core forms A always
    r6 = max (r6, rel (cfa - cf, sum_cubes (T, C) / 3));
    r7 = max (r7, rel (tally_chunk_bwd (T, C, K, V), flops_model ('chunk_bwd', T, C, K, V)));
  end
  res(end+1) = drv_row (55, 'recurrent forward: tally of the transcribed loops vs T V (7K + 3) + T K', F, r1, 0);
  res(end+1) = drv_row (55, 'recurrent forward: loop tally of the K V terms vs 7 T K V', F, r2, 0);
  res(end+1) = drv_row (56, 'recurrent backward with checkpoints: tally of the transcribed loops vs T V (20K + 10) + 3 T K + R (V (5K + 2) + K)', F, r3, 0);
  res(end+1) = drv_row (56, 'recurrent backward: K V terms vs 20 T K V + 5 K V R, R = 2T - c_last - NC', F, r4, 0);
  res(end+1) = drv_row (57, 'chunked forward: tally over chunks vs 6 T K V + (3K + 2V) sum c^2 + sum c^3 / 3', F, r5, 1e-14);
  res(end+1) = drv_row (57, 'chunked forward: the explicit A costs sum c^3 / 3', F, r6, 1e-14);
  res(end+1) = drv_row (58, 'chunked backward: tally over both sweeps vs the closed form', F, r7, 1e-14);
  % the simplified forms for T a multiple of C
  T = 512; C = 64; K = 128; V = 96;
  r = rel (flops_model ('chunk_fwd', T, C, K, V), T * (6 * K * V + C * (3 * K + 2 * V) + C ^ 2 / 3)) + ...
      rel (flops_model ('chunk_bwd', T, C, K, V), T * (16 * K * V + C * (9 * K + 5 * V) + 5 * C ^ 2 / 3) ...
                                                  - 2 * C * K * V);
  res(end+1) = drv_row (58, 'T multiple of C: simplified forms of (57) and (58)', F, r, 1e-15);
end

function r = rel (a, b)
  r = abs (a - b) / max (abs (b), 1);
end

function [f, fkv] = step_fwd (K, V, with_o)
  % one rec_step (S_t written once from S_{t-1}):
  %   ak = a .* k                              -> K (per step)
  % per column j
  %   pj += s[i]*ak[i]                         -> 2K
  %   u = beta*(v[j] - pj)                     -> 2
  %   s[i] = a[i]*s[i] + k[i]*u                -> 3K
  %   acc += s[i]*q[i]                         -> 2K  (with o)
  %   o[j] = scale*acc                         -> 1   (with o)
  f = K; fkv = 0;
  for j = 1:V
    for i = 1:K
      f = f + 5 + 2 * with_o; fkv = fkv + 5 + 2 * with_o;
    end
    f = f + 2 + with_o;
  end
end

function [f, fkv] = tally_rec_fwd (T, K, V)
  f = 0; fkv = 0;
  for t = 1:T
    [a, b] = step_fwd (K, V, 1);
    f = f + a; fkv = fkv + b;
  end
end

function [f, fkv] = tally_rec_bwd (T, C, K, V)
  % rec_bwd_item: forward sweep to the checkpoints (all segments but the
  % last), then per segment: recompute its first len - 1 steps, reverse it
  nseg = ceil (T / C);
  f = 0; fkv = 0;
  for c = 0:nseg - 2
    for t = c * C:min ((c + 1) * C, T) - 1
      [a, b] = step_fwd (K, V, 0); f = f + a; fkv = fkv + b;
    end
  end
  for c = nseg - 1:-1:0
    t0 = c * C; t1 = min ((c + 1) * C, T);
    for t = t0:t1 - 2
      [a, b] = step_fwd (K, V, 0); f = f + a; fkv = fkv + b;
    end
    for t = t1 - 1:-1:t0
      % rec_step_bwd: per step ak = a .* k (K) and qk = q . k (2K); per column j
      %   read pass: pj += sp*ak; ej += ds*k                     2K + 2K
      %   u = beta*(v - pj) (2); d = scale*dout (1); du = ej + d*qk (2);
      %   db += du*(v - pj) (3); dv = beta*du (1); dp = -beta*du (1)      10
      %   write pass: spi = a*sp (K); dsi = ds + d*q (2K); dsp = dsi + k*dp (2K);
      %   dq += d*(spi + k*u) (4K); dk += dsi*u + spi*dp (4K);
      %   dg += dsp*spi (2K); ds = a*dsp (K)                            16K
      f = f + 3 * K;
      for j = 1:V
        f = f + 4 * K + 10 + 16 * K;
        fkv = fkv + 20 * K;
      end
    end
  end
end

function [f, faux] = tally_chunk_fwd (T, C, K, V)
  f = 0; faux = 0;
  for t0 = 0:C:T - 1
    c = min (C, T - t0);
    g = K * c ^ 2 ...            % Aqk, lower triangle incl. diagonal: ~ c^2/2 dots of 2K
        + K * c ^ 2 ...          % A_raw, strictly lower
        + (K + V) * c ^ 2 ...    % w, u: forward substitution, c^2/2 multiply-adds per column
        + 2 * c * K * V ...      % v_new = u - w S
        + 2 * c * K * V ...      % inter-chunk output s QG S
        + V * c ^ 2 ...          % intra-chunk output Aqk v_new (triangular)
        + 2 * c * K * V;         % state update KC^T v_new
    f = f + g;
    faux = faux + g + c ^ 3 / 3; % explicit A = L^{-1} Diag(beta)
  end
end

function f = tally_chunk_bwd (T, C, K, V)
  % chunk_bwd_item (mex/core/la_chunk_bwd_impl.h): a forward sweep over all
  % chunks (chunk_intra with LA_CI_WU, v_new, the state update; M, A, w,
  % v_new are kept), then a reverse sweep (chunk_intra with LA_CI_AQK only,
  % A_raw from the kept M elementwise, the gradient steps)
  NC = ceil (T / C);
  f = 0;
  for n = 1:NC                    % forward sweep
    c = min (C, T - (n - 1) * C);
    f = f + K * c ^ 2;                       % M, strictly lower
    f = f + c ^ 3 / 3;                       % explicit A: L A = Diag(beta)
    f = f + (K + V) * c ^ 2;                 % w = A KG, u = A V (triangular)
    f = f + 2 * c * K * V;                   % v_new = u - w S (in place)
    if (n < NC)                              % no state after the last chunk
      f = f + 2 * c * K * V;                 % state update KC^T v_new
    end
  end
  for n = NC:-1:1                 % reverse sweep
    c = min (C, T - (n - 1) * C);
    f = f + K * c ^ 2;                       % recompute Aqk, lower triangle incl. diagonal
    f = f + V * c ^ 2 + 2 * c * K * V;       % dv_new = Aqk^T dO + KC dS
    f = f + V * c ^ 2;                       % dAqk = tril(dO v_new^T)
    f = f + 3 * 2 * c * K * V;               % dQG, dKC, dw
    f = f + 2 * 2 * c * K * V;               % dS_prev: QG^T dO, w^T dv_new
    f = f + K * c ^ 2 + V * c ^ 2;           % dA = dw KG^T + du V^T (lower part)
    f = f + K * c ^ 2 + V * c ^ 2;           % dKG = A^T dw, dV = A^T du (triangular)
    f = f + c ^ 3;                           % Y = L^{-T} dA
    f = f + c ^ 3 / 3;                       % dL = -Y A^T, strictly lower part
    f = f + 4 * K * c ^ 2;                   % gated products: dx, dy of Aqk and of M
  end
end

function s = sum_cubes (T, C)
  NC = ceil (T / C);
  s = (NC - 1) * C ^ 3 + (T - (NC - 1) * C) ^ 3;
end
