% HZ_GATED  Gated product P(i,j) = sum_k x(i,k) y(j,k) exp(G(i,k) - G(j,k)),
% j <= i, by one of three schemes.
%
%   P = hz_gated (x, y, g, strict, scheme, fmt)
%   P = hz_gated (x, y, g, strict, 'safe', fmt, lower_bound)
%   P = hz_gated (..., lower_bound, bs)   sub-chunks of bs rows (default 16)
%
%   x, y: c x K; g: the per-step log gates of the chunk, c x K (KDA) or c x 1
%   (GDN); G = cumsum (g).  strict: j < i only (M of (27)) instead of j <= i
%   (A^qk of (34)).  The inputs are first rounded to fmt, then everything is
%   computed in double ('double') or single (other formats), every matrix
%   product through hz_mm (operands rounded to fmt).  scheme:
%     'plain'  (e^G .* x)(e^-G .* y)': one product over the whole chunk
%              (docs/stability.md (60)); e^-G overflows once -G > ln(realmax);
%     'safe'   FLA's safe_gate: sub-chunks of 16 rows; a row block against
%              earlier columns with the block's first row as reference
%              (factors <= 1); inside a diagonal block the factorisation
%              around the block's middle row m, e^(G_i - G_m) e^(G_m - G_j),
%              whose factors reach e^(8 |lower_bound|).  With lower_bound,
%              g is clamped to [lower_bound, 0] first (FLA's gate
%              lower_bound * sigmoid(.) never leaves that range);
%     'ref'    this library (docs/stability.md (61)-(62)): the same row
%              blocks with reference rows, every factor a running product of
%              the decays a_t = e^g_t <= 1, pairs inside a diagonal block by
%              a running product per column.
%
%   See also: hz_chunk_fwd, hz_mm.

function P = hz_gated (x, y, g, strict, scheme, fmt, lower_bound, bs)
  [c, K] = size (x);
  wc = class (ref_round (0, fmt));
  x = cast (ref_round (x, fmt), wc);
  y = cast (ref_round (y, fmt), wc);
  g = cast (g, wc) .* ones (c, K, wc);
  if (nargin > 6 && ~isempty (lower_bound))
    g = max (g, lower_bound);
  end
  mask = tril (true (c), -double (strict));
  if (nargin < 8)
    bs = 16;
  end
  switch scheme
    case 'plain'
      G = cumsum (g, 1);
      P = hz_mm (x .* exp (G), (y .* exp (-G)).', fmt);
    case 'safe'
      P = safe_gate (x, y, cumsum (g, 1), bs, fmt);
    case 'ref'
      P = reference_point (x, y, exp (g), bs, fmt);
    otherwise
      error ('hz_gated: unknown scheme ''%s''', scheme);
  end
  P(~mask) = 0;                          % as the kernels' masks do
end

function P = safe_gate (x, y, G, bs, fmt)
  c = size (x, 1);
  P = zeros (c, class (x));
  for r = 1:bs:c
    I = r:min (r + bs - 1, c);
    mid = r + min (bs / 2, numel (I) - 1);
    P(I, I) = hz_mm (x(I, :) .* exp (G(I, :) - G(mid, :)), ...
                     (y(I, :) .* exp (G(mid, :) - G(I, :))).', fmt);
    if (r > 1)
      J = 1:r - 1;
      P(I, J) = hz_mm (x(I, :) .* exp (G(I, :) - G(r, :)), ...
                       (y(J, :) .* exp (G(r, :) - G(J, :))).', fmt);
    end
  end
end

function P = reference_point (x, y, a, bs, fmt)
  [c, K] = size (x);
  P = zeros (c, class (x));
  for r = 1:bs:c
    I = r:min (r + bs - 1, c);
    F = ones (numel (I), K, class (x));  % row jj: prod_{t = I(jj)+1 .. i} a_t
    for ii = 1:numel (I)
      i = I(ii);
      F(1:ii - 1, :) = F(1:ii - 1, :) .* a(i, :);
      P(i, I(1:ii)) = (F(1:ii, :) .* y(I(1:ii), :)) * x(i, :).';
    end
    if (r > 1)
      E = cumprod ([ones(1, K, class (x)); a(r + 1:I(end), :)], 1);  % prod_{r+1..i}
      Fj = flipud (cumprod (flipud (a(2:r, :)), 1));                  % prod_{j+1..r}
      P(I, 1:r - 1) = hz_mm (x(I, :) .* E, (y(1:r - 1, :) .* Fj).', fmt);
    end
  end
end

%!test
%! addpath (fullfile (fileparts (which ('la_ratio')), '..', 'hazards'));  % run_tests puts lib on the path
%! c = 40;  K = 6;  x = randn (c, K);  y = randn (c, K);  g = -rand (c, K);
%! G = cumsum (g);  ref = zeros (c);
%! for i = 1:c
%!   for j = 1:i
%!     ref(i, j) = sum (x(i, :) .* y(j, :) .* exp (G(i, :) - G(j, :)));
%!   end
%! end
%! for s = {'plain', 'safe', 'ref'}
%!   assert (norm (hz_gated (x, y, g, false, s{1}, 'double') - ref) < 1e-12 * norm (ref));
%! end
%! assert (norm (hz_gated (x, y, g, true, 'ref', 'double') - tril (ref, -1)) < 1e-12 * norm (ref));
%!test
%! addpath (fullfile (fileparts (which ('la_ratio')), '..', 'hazards'));  % run_tests puts lib on the path
%! % g = -30: plain overflows in single after 3 steps, the library stays finite
%! c = 32;  x = randn (c, 4);  g = -30 * ones (c, 4);
%! assert (any (~isfinite (hz_gated (x, x, g, true, 'plain', 'single')(:))));
%! assert (all (isfinite (hz_gated (x, x, g, true, 'ref', 'single')(:))));
%! assert (all (isfinite (hz_gated (x, x, g, true, 'safe', 'single', -5)(:))));
