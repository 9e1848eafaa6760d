% REF_EMULATE_FWD  The chunked forward of 'Emulate', rounding where FLA stores in low precision.
%
%   [o, S, h] = ref_emulate_fwd (q, k, v, g, beta, h0, fmt, C, scale)
%   [o, S, h] = ref_emulate_fwd (..., change)
%
%   A plain Octave reference of kda_chunk / gdn_chunk with 'Emulate', fmt
%   ('bf16', 'fp16' or 'tf32'), written from docs/emulation.md ("What is
%   rounded, stage by stage") and the WY form of docs/chunk_forward.md
%   (21)-(31), not from the core: the inputs are rounded to fmt
%   (ref_round), everything is computed in single, and per chunk of C
%   steps (the last one shorter)
%       G    = cumsum (g) within the chunk                 single
%       QG   = q .* exp (G),  KG = k .* exp (G),
%       KC   = k .* exp (G_c - G)                          rounded
%       Aqk  = scale q_i' Diag (exp (G_i - G_j)) k_j, i >= j  rounded
%       A    = (I + Diag (beta) M)^-1 Diag (beta), M_ij = k_i' Diag (exp (G_i - G_j)) k_j, i > j
%                                                          rounded
%       w    = A KG', u = A v'  (from A before it is rounded)  rounded
%       h    = the state entering the chunk                rounded copy
%       vnew = u - w h                                     rounded
%       o    = scale QG' h + Aqk vnew                      rounded
%       S    = Diag (exp (G_c)) S + KC vnew                the carried
%                                                          state: single
%   q, k K x T x H; v V x T x HV; g K x T x HV (KDA) or T x HV (GDN);
%   beta T x HV; h0 K x V x HV (or []); one sequence, raw gates, no
%   transforms.  o V x T x HV (single), S K x V x HV (single), h the
%   rounded snapshots K x V x HV x nchunks.
%
%   change (optional, for showing that a bound is tight): one rounding
%   moved or left out: 'no QG', 'no KG', 'no KC', 'no Aqk',
%   'no w', 'no u', 'no h', 'no vnew', 'no o' (that one not rounded),
%   'state from h' (the carried state built from the rounded snapshot),
%   'round S' (the carried state rounded too).
%
%   See also: ref_round, ref_forward, kda_chunk.

function [o, S, hs] = ref_emulate_fwd (q, k, v, g, beta, h0, fmt, C, scale, change)
  if (nargin < 10)
    change = '';
  end
  R = @(x, name) rnd (x, fmt, name, change);
  [K, T, H] = size (q);
  [V, ~, HV] = size (v);
  kda = numel (g) == K * T * HV;
  q = R (q, 'in');  k = R (k, 'in');  v = R (v, 'in');  g = R (g, 'in');  beta = R (beta, 'in');
  if (isempty (h0))
    h0 = zeros (K, V, HV, 'single');
  end
  S = single (h0);
  o = zeros (V, T, HV, 'single');
  nc = ceil (T / C);
  hs = zeros (K, V, HV, nc, 'single');
  G = HV / H;
  for hv = 1:HV
    hq = floor ((hv - 1) / G) + 1;
    St = S(:, :, hv);
    for ci = 1:nc
      t = (ci - 1) * C + 1:min (ci * C, T);
      c = numel (t);
      Q = q(:, t, hq);  Kc = k(:, t, hq);  Vc = v(:, t, hv);  b = beta(t, hv);
      if (kda)
        gc = g(:, t, hv);
      else
        gc = repmat (g(t, hv)', K, 1);
      end
      Gc = cumsum (gc, 2);
      QG = R (Q .* exp (Gc), 'QG');
      KG = R (Kc .* exp (Gc), 'KG');
      KC = R (Kc .* exp (Gc(:, c) - Gc), 'KC');
      M = zeros (c, c, 'single');
      Aqk = zeros (c, c, 'single');
      for i = 1:c
        for j = 1:i
          d = exp (Gc(:, i) - Gc(:, j));
          Aqk(i, j) = scale * sum (Q(:, i) .* d .* Kc(:, j));
          if (j < i)
            M(i, j) = sum (Kc(:, i) .* d .* Kc(:, j));
          end
        end
      end
      A = (eye (c, 'single') + diag (b) * M) \ diag (b);
      w = R (A * (Kc .* exp (Gc))', 'w');
      u = R (A * Vc', 'u');
      Aqk = R (Aqk, 'Aqk');
      A = R (A, 'A');                       %#ok<NASGU> (as FLA stores Akk)
      h = R (St, 'h');
      hs(:, :, hv, ci) = h;
      vnew = R (u - w * h, 'vnew');
      o(:, t, hv) = R ((scale * QG' * h + Aqk * vnew)', 'o');
      from = St;
      if (strcmp (change, 'state from h'))
        from = h;
      end
      St = exp (Gc(:, c)) .* from + KC * vnew;
      if (strcmp (change, 'round S'))
        St = ref_round (St, fmt);
      end
    end
    S(:, :, hv) = St;
  end
end

function y = rnd (x, fmt, name, change)
  % x rounded to fmt (in single), unless change names it
  if (strcmp (change, ['no ' name]))
    y = single (x);
  else
    y = ref_round (single (x), fmt);
  end
end
