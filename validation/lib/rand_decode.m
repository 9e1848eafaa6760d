% RAND_DECODE  Inputs of a decode test: one batch entry, H = 1, HV = 2, K = 8.
%
%   [q, k, v, g, beta, pool] = rand_decode (op, cls, T, V, P, per_channel)
%
%   q, k: 8 x T (keys of norm one); v: V x T x 2; g: -0.6 rand, 8 x T x 2
%   (op 'kda') or T x 2 ('gdn'); beta in (0, 1): T x 2, or V x T x 2 with
%   per_channel; pool: 8 x V x 2 x P, normal.  All of class cls.  Seed the
%   generators first for repeatable values.
%
%   See also: ref_decode, rand_problem.

function [q, k, v, g, beta, pool] = rand_decode (op, cls, T, V, P, per_channel)
  K = 8;  HV = 2;
  q = randn (K, T, 1);  k = randn (K, T, 1);  k = k ./ sqrt (sum (k .^ 2, 1));
  v = randn (V, T, HV);
  if (strcmp (op, 'kda'))
    g = -0.6 * rand (K, T, HV);
  else
    g = -0.6 * rand (T, HV);
  end
  if (per_channel)
    beta = rand (V, T, HV);
  else
    beta = rand (T, HV);
  end
  pool = randn (K, V, HV, P);
  [q, k, v, g, beta, pool] = deal (cast (q, cls), cast (k, cls), cast (v, cls), ...
                                   cast (g, cls), cast (beta, cls), cast (pool, cls));
end

%!test
%! [q, k, v, g, beta, pool] = rand_decode ('gdn', 'single', 3, 4, 5, true);
%! assert (size (g), [3 2]);  assert (size (beta), [4 3 2]);  assert (size (pool), [8 4 2 5]);
%! assert (class (pool), 'single');  assert (sum (k .^ 2), ones (1, 3, 'single'), 1e-6);
