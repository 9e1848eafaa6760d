function [dx, dy, dG] = drv_gated_bwd (x, y, G, mask, Cot)
  % [dx, dy, dG] = drv_gated_bwd (x, y, G, mask, Cot): gradients of
  % <Cot, ref_gated(x, y, G, 'Cumulative', true, 'Mask', mask)>, eq. (48) and (49) of docs/chunk_backward.md:
  %   dx_i = sum_j C(i,j) (y_j .* exp(G_i - G_j)),  dy_j = sum_i C(i,j) (x_i .* exp(G_i - G_j))
  %   dG_i += x_i .* dx_i,                          dG_j -= y_j .* dy_j
  c = size (x, 1);
  K = size (x, 2);
  gdn = size (G, 2) == 1;
  G = G .* ones (c, K);
  Cm = Cot .* mask;
  dx = zeros (c, K); dy = zeros (c, K);
  for i = 1:c
    for j = 1:c
      if (Cm(i, j) ~= 0)
        e = exp (G(i, :) - G(j, :));
        dx(i, :) = dx(i, :) + Cm(i, j) * (y(j, :) .* e);
        dy(j, :) = dy(j, :) + Cm(i, j) * (x(i, :) .* e);
      end
    end
  end
  dG = x .* dx - y .* dy;
  if (gdn)
    dG = sum (dG, 2);
  end
end
