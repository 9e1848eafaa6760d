function d = drv_data (K, V, T, gdn, gmin, seed)
  % d = drv_data (K, V, T, gdn, gmin, seed): random inputs of one (sequence,
  % head) in double: q, k (K x T, unit columns), v (V x T), g (K x T, or 1 x T
  % when gdn) uniform in [gmin, 0], beta (1 x T) in [0.2, 1], S0 (K x V),
  % scale s = 1/sqrt(K).
  if (nargin < 6)
    seed = 1;
  end
  rand ('state', seed); randn ('state', seed);
  d.q = randn (K, T); d.q = d.q ./ sqrt (sum (d.q .^ 2, 1));
  d.k = randn (K, T); d.k = d.k ./ sqrt (sum (d.k .^ 2, 1));
  d.v = randn (V, T);
  if (gdn)
    d.g = gmin * rand (1, T);
  else
    d.g = gmin * rand (K, T);
  end
  d.beta = 0.2 + 0.8 * rand (1, T);
  d.S0 = randn (K, V);
  d.s = 1 / sqrt (K);
end
