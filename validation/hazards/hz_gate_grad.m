% HZ_GATE_GRAD  Gradient of a chunk's gated products in its per-step gates,
% three ways: (51) as written, (51b), and a compensated double reference.
%
%   [g46, g46b, gref, cond] = hz_gate_grad (q, k, g, Pqk, Pkk, fmt)
%
%   The loss is L = <Pqk, A^qk> + <Pkk, M> with A^qk(i,j) = q_i' Diag(e_ij) k_j
%   (j <= i) and M(i,j) = k_i' Diag(e_ij) k_j (j < i), e_ij = e^(G_i - G_j),
%   G = cumsum (g) (docs/chunk_forward.md (27), (34)); q, k, g are c x K,
%   Pqk and Pkk c x c.  Results are c x K (dL/dg), in fmt's working class:
%     g46   docs/chunk_backward.md (49) then (51): Gbar_i = x_i .* xbar_i -
%           y_i .* ybar_i, then a reverse cumulative sum; its terms of order
%           one (the diagonal of A^qk, the pairs with j < t) cancel;
%     g46b  (51b): every pair term T_ij = P_ij x_i .* y_j .* e_ij added to
%           the steps j < t <= i it depends on only, by prefix sums;
%     gref  the same pair terms in double, e_ij as running products of the
%           decays, summed with error-free transformations (TwoSum);
%   cond = sum |T| / |sum T| per entry (the condition of that sum), so the
%   reference's relative error is below about (c + 4) u cond, u = 2^-53.
%
%   See also: hz_exp_gate_grad.

function [g46, g46b, gref, cond] = hz_gate_grad (q, k, g, Pqk, Pkk, fmt)
  wc = class (ref_round (0, fmt));
  rd = @(x) cast (ref_round (x, fmt), wc);
  [q, k, Pqk, Pkk] = deal (rd (q), rd (k), rd (Pqk), rd (Pkk));
  g = cast (g, wc);
  D = decays (exp (g));                             % c x c x K, e_ij (j <= i)
  Pqk = tril (Pqk);  Pkk = tril (Pkk, -1);
  % (49) then (51)
  Gbar = q .* squeeze (sum (Pqk .* D .* permute (k, [3 1 2]), 2)) ...
         - k .* squeeze (sum (Pqk .* D .* permute (q, [1 3 2]), 1)) ...
         + k .* squeeze (sum (Pkk .* D .* permute (k, [3 1 2]), 2)) ...
         - k .* squeeze (sum (Pkk .* D .* permute (k, [1 3 2]), 1));
  g46 = flipud (cumsum (flipud (Gbar), 1));
  % (51b)
  Tp = pair_terms (q, k, Pqk, Pkk, D);
  g46b = sum_pairs (Tp, @(x) sum (x, 1));
  % reference
  dd = @double;
  Tr = pair_terms (dd (q), dd (k), dd (Pqk), dd (Pkk), decays (exp (dd (g))));
  gref = sum_pairs (Tr, @twosum_sum);
  cond = sum_pairs (abs (Tr), @(x) sum (x, 1)) ./ abs (gref);
end

% D(i, j, :) = prod_{t = j+1..i} a_t for j <= i, else 0: running products
function D = decays (a)
  [c, K] = size (a);
  D = zeros (c, c, K, class (a));
  for j = 1:c
    D(j:c, j, :) = reshape (cumprod ([ones(1, K, class (a)); a(j + 1:c, :)], 1), c - j + 1, 1, K);
  end
end

% T(i, j, :) = x_i .* y_j .* e_ij times the adjoint, for the pairs j < i
function T = pair_terms (q, k, Pqk, Pkk, D)
  T = (tril (Pqk, -1) .* permute (q, [1 3 2]) + Pkk .* permute (k, [1 3 2])) ...
      .* permute (k, [3 1 2]) .* D;
end

% G(t, :) = sum over i >= t, j < t of T(i, j, :), each sum by sumfun
function G = sum_pairs (T, sumfun)
  [c, ~, K] = size (T);
  G = zeros (c, K, class (T));
  for t = 2:c
    G(t, :) = sumfun (reshape (T(t:c, 1:t - 1, :), [], K));
  end
end

% column sums with the rounding error of every addition kept (TwoSum)
function s = twosum_sum (x)
  s = zeros (1, size (x, 2));
  e = s;
  for i = 1:size (x, 1)
    a = s;  b = x(i, :);
    s = a + b;
    bb = s - a;
    e = e + ((a - (s - bb)) + (b - bb));
  end
  s = s + e;
end

%!test
%! addpath (fullfile (fileparts (which ('la_ratio')), '..', 'hazards'));  % run_tests puts lib on the path
%! % the three agree for mild gates, and match finite differences of L
%! c = 12;  K = 3;  q = randn (c, K);  k = randn (c, K);  g = -rand (c, K);
%! Pqk = randn (c);  Pkk = randn (c);
%! [a, b, r] = hz_gate_grad (q, k, g, Pqk, Pkk, 'double');
%! assert (norm (a - r) < 1e-13 * norm (r) && norm (b - r) < 1e-13 * norm (r));
%! st = {'Scheme', 'stable', 'Format', 'double'};
%! L = @(g) sum (sum (tril (Pqk) .* ref_gated (q, k, g, st{:}) ...
%!               + tril (Pkk, -1) .* ref_gated (k, k, g, 'Strict', true, st{:})));
%! d = randn (c, K);  h = 1e-5;
%! assert (abs ((L (g + h * d) - L (g - h * d)) / (2 * h) - sum (r(:) .* d(:))) < 1e-7 * norm (r(:)));
