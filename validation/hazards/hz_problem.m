% HZ_PROBLEM  Random one-head KDA problem for the hazard experiments.
%
%   P = hz_problem (K, V, T, strength, beta_max, knorm)
%   P = hz_problem (K, V, T, strength, beta_max, knorm, kcorr)
%
%   Fields q, k (K x T; the keys have 2-norm knorm, 1 for normalised keys),
%   v (V x T), g = -strength * rand (K x T) (the log gate of each step and
%   channel); with kcorr, every key leans towards one common random
%   direction (kcorr times it plus a random part, then scaled to knorm),
%   so that neighbouring keys have cosines near kcorr^2: |A_raw| and its
%   powers grow; beta = beta_max * rand (1 x T) (beta_max = 2: AllowNegEigval's
%   range), S0 = randn (K, V) / sqrt (K); all double.
%
%   See also: hz_chunk_fwd, ref_forward.

function P = hz_problem (K, V, T, strength, beta_max, knorm, kcorr)
  if (nargin < 7)
    kcorr = 0;
  end
  P.q = randn (K, T);
  P.q = P.q ./ sqrt (sum (P.q .^ 2, 1));
  P.k = randn (K, T);
  P.k = sqrt (1 - kcorr^2) * P.k ./ sqrt (sum (P.k .^ 2, 1));
  common = randn (K, 1);
  P.k = P.k + kcorr * common / norm (common);
  P.k = knorm * P.k ./ sqrt (sum (P.k .^ 2, 1));
  P.v = randn (V, T);
  P.g = -strength * rand (K, T);
  P.beta = beta_max * rand (1, T);
  P.S0 = randn (K, V) / sqrt (K);
end
