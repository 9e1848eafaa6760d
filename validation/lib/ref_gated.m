% REF_GATED  The gated product of a chunk: plainly, or by a kernel's scheme.
%
%   P = ref_gated (x, y, g)
%   P = ref_gated (x, y, g, Name, Value, ...)
%   [P, fmax] = ref_gated (...)
%
%   P(i,j) = sum_k x(i,k) y(j,k) exp(G(i,k) - G(j,k)) for j <= i, zero
%   elsewhere (docs/chunk_forward.md (27) and (34)), with x, y c x K and
%   G = cumsum (g) the cumulative log gate of the chunk's per-step gates g
%   (c x K; GDN c x 1, one gate per step for every channel).
%
%   Options:
%     'Strict'      true: j < i only (M of (27)); default false (A^qk of (34))
%     'Mask'        a c x c logical: P only where it is true, instead of the
%                   triangle
%     'Cumulative'  true: the third argument is G itself, not g
%     'Scheme'      how P is formed:
%        'direct'   (default) exp(G_i - G_j) formed as a difference first,
%                   pair by pair: the plain reference (no factorisation);
%                   P is double, each entry summed in the class of x
%        'stable'   this library's scheme (docs/stability.md (61)-(62)):
%                   row blocks of 'BlockSize' rows; a block against earlier
%                   columns through its first row as reference, pairs inside
%                   a block by a running product per column; every factor a
%                   product of the decays a_t = exp(g_t) <= 1, and no
%                   exponential of a cumulative gate is formed.  fmax: the
%                   largest factor formed (<= 1 when every a_t <= 1);
%        'factored' (e^G .* x)(e^-G .* y)': one product over the chunk
%                   ((60)); e^-G overflows once -G > ln(realmax);
%        'safe'     FLA's safe_gate: row blocks of 'BlockSize' rows; a block
%                   against earlier columns through its first row, inside a
%                   block the factorisation around its middle row m,
%                   e^(G_i - G_m) e^(G_m - G_j), whose factors reach
%                   e^(BlockSize/2 |LowerBound|).
%     'BlockSize'   rows of a block ('stable', 'safe'); default 16
%     'LowerBound'  g clamped to [LowerBound, 0] first (FLA's gate
%                   LowerBound * sigmoid(.) never leaves that range)
%     'Format'      'double', 'single', 'bf16', 'fp16', 'tf32': x and y
%                   rounded to it (ref_round) and the work in single (double
%                   for 'double'), every matrix product with its operands
%                   rounded to it, as a tensor-core dot with an fp32
%                   accumulator; default: none, the work in the class of x
%
%   See also: ref_round, ref_chunk_fwd, ref_recurrence.

function [P, fmax] = ref_gated (x, y, g, varargin)
  [o, rest] = take_option (varargin, struct ('Strict', false, 'Mask', [], 'Cumulative', false, ...
                                             'Scheme', 'direct', 'BlockSize', 16, ...
                                             'LowerBound', [], 'Format', ''));
  if (~isempty (rest))
    error ('ref_gated: unknown option ''%s''', rest{1});
  end
  [c, K] = size (x);
  if (isempty (o.Format))
    mm = @(A, B) A * B;
    wc = class (x);
  else
    mm = @(A, B) ref_round (A, o.Format) * ref_round (B, o.Format);
    wc = class (ref_round (0, o.Format));
    x = cast (ref_round (x, o.Format), wc);
    y = cast (ref_round (y, o.Format), wc);
  end
  if (o.Cumulative)
    G = cast (g, wc) .* ones (c, K, wc);
    g = diff ([zeros(1, K, wc); G], 1, 1);
  else
    g = cast (g, wc) .* ones (c, K, wc);
  end
  if (~isempty (o.LowerBound))
    g = max (g, o.LowerBound);
  end
  if (~o.Cumulative || ~isempty (o.LowerBound))
    G = cumsum (g, 1);
  end
  mask = o.Mask;
  if (isempty (mask))
    mask = tril (true (c), -double (o.Strict));
  end
  fmax = zeros (1, wc);
  switch (o.Scheme)
    case 'direct'
      P = direct (x, y, G, mask);
    case 'stable'
      [P, fmax] = stable (x, y, exp (g), o.BlockSize, mm);
    case 'factored'
      P = mm (x .* exp (G), (y .* exp (-G)).');
    case 'safe'
      P = safe (x, y, G, o.BlockSize, mm);
    otherwise
      error ('ref_gated: unknown scheme ''%s''', o.Scheme);
  end
  P(~mask) = 0;                          % as the kernels' masks do
end

% P in double, its entries summed in the class of the inputs
function P = direct (x, y, G, mask)
  c = size (x, 1);
  P = zeros (c, c);
  for i = 1:c
    for j = 1:c
      if (mask(i, j))
        P(i, j) = sum (x(i, :) .* y(j, :) .* exp (G(i, :) - G(j, :)));
      end
    end
  end
end

function [P, fmax] = stable (x, y, a, bs, mm)
  [c, K] = size (x);
  P = zeros (c, class (x));
  fmax = ones (1, class (x));
  for r = 1:bs:c
    I = r:min (r + bs - 1, c);
    F = ones (numel (I), K, class (x));  % row jj: prod_{t = I(jj)+1 .. i} a_t
    for ii = 1:numel (I)
      i = I(ii);
      F(1:ii - 1, :) = F(1:ii - 1, :) .* a(i, :);
      fmax = max (fmax, max (max (F(1:ii, :))));
      P(i, I(1:ii)) = (F(1:ii, :) .* y(I(1:ii), :)) * x(i, :).';
    end
    if (r > 1)
      E = cumprod ([ones(1, K, class (x)); a(r + 1:I(end), :)], 1);  % prod_{r+1..i}
      Fj = flipud (cumprod (flipud (a(2:r, :)), 1));                  % prod_{j+1..r}
      fmax = max ([fmax, max(E(:)), max(Fj(:))]);
      P(I, 1:r - 1) = mm (x(I, :) .* E, (y(1:r - 1, :) .* Fj).');
    end
  end
end

function P = safe (x, y, G, bs, mm)
  c = size (x, 1);
  P = zeros (c, class (x));
  for r = 1:bs:c
    I = r:min (r + bs - 1, c);
    mid = r + min (bs / 2, numel (I) - 1);
    P(I, I) = mm (x(I, :) .* exp (G(I, :) - G(mid, :)), (y(I, :) .* exp (G(mid, :) - G(I, :))).');
    if (r > 1)
      J = 1:r - 1;
      P(I, J) = mm (x(I, :) .* exp (G(I, :) - G(r, :)), (y(J, :) .* exp (G(r, :) - G(J, :))).');
    end
  end
end

%!test
%! % every scheme gives the direct product; the masks; GDN's scalar gates
%! c = 40;  K = 6;  x = randn (c, K);  y = randn (c, K);  g = -rand (c, K);
%! G = cumsum (g);  ref = zeros (c);
%! for i = 1:c
%!   for j = 1:i
%!     ref(i, j) = sum (x(i, :) .* y(j, :) .* exp (G(i, :) - G(j, :)));
%!   end
%! end
%! assert (norm (ref_gated (x, y, g) - ref) < 1e-14 * norm (ref));
%! assert (norm (ref_gated (x, y, G, 'Cumulative', true) - ref) < 1e-14 * norm (ref));
%! for s = {'factored', 'safe', 'stable'}
%!   assert (norm (ref_gated (x, y, g, 'Scheme', s{1}) - ref) < 1e-12 * norm (ref));
%! end
%! assert (norm (ref_gated (x, y, g, 'Strict', true, 'Scheme', 'stable') - tril (ref, -1)) < 1e-12 * norm (ref));
%! m = rand (c) < 0.5;
%! assert (isequal (ref_gated (x, y, g, 'Mask', m) == 0 | m, true (c)));
%! gs = -rand (c, 1);  Gs = cumsum (gs);
%! assert (norm (ref_gated (x, y, gs) - tril (exp (Gs - Gs') .* (x * y'))) < 1e-13 * norm (ref_gated (x, y, gs)));
%!test
%! % the stable scheme forms no factor above 1, in the class of its inputs
%! c = 64;  x = single (randn (c, 8));  g = single (-30 * rand (c, 8));
%! [P, fmax] = ref_gated (x, x, g, 'Scheme', 'stable');
%! assert (class (P), 'single');  assert (fmax <= 1);  assert (all (isfinite (P(:))));
%!test
%! % g = -30: the factored form overflows in single after 3 steps, the
%! % library's scheme and FLA's safe_gate (with its lower bound) stay finite
%! c = 32;  x = randn (c, 4);  g = -30 * ones (c, 4);
%! assert (any (~isfinite (ref_gated (x, x, g, 'Strict', true, 'Scheme', 'factored', 'Format', 'single')(:))));
%! assert (all (isfinite (ref_gated (x, x, g, 'Strict', true, 'Scheme', 'stable', 'Format', 'single')(:))));
%! assert (all (isfinite (ref_gated (x, x, g, 'Strict', true, 'Scheme', 'safe', 'Format', 'single', 'LowerBound', -5)(:))));
%!error <unknown scheme 'fast'>
%! ref_gated (1, 1, 0, 'Scheme', 'fast');
%!error <unknown option 'Foo'>
%! ref_gated (1, 1, 0, 'Foo', 1);
