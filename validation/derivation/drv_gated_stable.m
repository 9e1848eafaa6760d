function [P, fmax] = drv_gated_stable (x, y, a, strict, bs)
  % [P, fmax] = drv_gated_stable (x, y, a, strict, bs): the gated product
  % P(i,j) = sum_k x(i,k) y(j,k) exp(G(i,k) - G(j,k)) (j <= i, or j < i when
  % strict) by the scheme of docs/stability.md, eq. (61)-(62), in the class of
  % the inputs: a = exp(g) are the per-step decays (c x K, GDN c x 1), and no
  % exponential of a cumulative gate is ever formed.
  %  - off-diagonal sub-block (rows I = r..r1, columns j < r): reference row r,
  %      X_I = x_I .* prod_{t=r+1..i} a_t,  Y_j = y_j .* prod_{t=j+1..r} a_t,  P(I, J) = X_I Y_J^T
  %  - diagonal sub-block: exp(G_i - G_j) = prod_{t=j+1..i} a_t, a running product over i.
  % fmax is the largest decay factor formed (<= 1 when every a_t <= 1).
  [c, K] = size (x);
  a = a .* ones (c, K, class (a));
  P = zeros (c, c, class (x));
  fmax = zeros (1, class (x));
  for r = 1:bs:c
    I = r:min (r + bs - 1, c);
    for j = I                                  % diagonal sub-block
      f = ones (1, K, class (x));
      for i = j:I(end)
        if (i > j)
          f = f .* a(i, :);
        end
        fmax = max (fmax, max (f));
        if (i > j || ~ strict)
          P(i, j) = sum (x(i, :) .* y(j, :) .* f);
        end
      end
    end
    if (r > 1)                                 % off-diagonal sub-block
      E = cumprod ([ones(1, K, class (x)); a(r + 1:I(end), :)], 1);   % prod_{t=r+1..i}
      Fj = flipud (cumprod (flipud (a(2:r, :)), 1));                   % row j: prod_{t=j+1..r}
      fmax = max ([fmax, max(E(:)), max(Fj(:))]);
      P(I, 1:r - 1) = (x(I, :) .* E) * (y(1:r - 1, :) .* Fj)';
    end
  end
end
