function P = drv_gated (x, y, G, mask)
  % P = drv_gated (x, y, G, mask): the gated product of docs/chunk_forward.md,
  % P(i,j) = mask(i,j) sum_k x(i,k) y(j,k) exp(G(i,k) - G(j,k)), with x, y, G
  % c x K row matrices (GDN: G is c x 1).  The exponent is formed as a
  % difference first (plain double reference; no factorisation).
  c = size (x, 1);
  K = size (x, 2);
  G = G .* ones (c, K);
  P = zeros (c, c);
  for i = 1:c
    for j = 1:c
      if (mask(i, j))
        P(i, j) = sum (x(i, :) .* y(j, :) .* exp (G(i, :) - G(j, :)));
      end
    end
  end
end
