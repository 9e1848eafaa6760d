% SLIP_PROBLEM  Random inputs of the named slips' tests (tests' helper).
%
%   x = slip_problem (op, T, H, HV, seed)
%
%   x: q, k (normalised) K x T x H; v, do V x T x HV; beta T x HV; g (KDA
%   K x T x HV, GDN T x HV, -0.3 rand); h0 K x V x HV; op.  K = V = 16.

function x = slip_problem (op, T, H, HV, seed)
  randn ('seed', seed);
  rand ('seed', seed);
  K = 16;
  V = 16;
  x.q = randn (K, T, H);
  k = randn (K, T, H);
  x.k = k ./ sqrt (sum (k .^ 2, 1));
  x.v = randn (V, T, HV);
  x.beta = rand (T, HV);
  if (strcmp (op, 'kda'))
    x.g = -0.3 * rand (K, T, HV);
  else
    x.g = -0.3 * rand (T, HV);
  end
  x.h0 = randn (K, V, HV, 1);
  x.do = randn (V, T, HV);
  x.op = op;
end
