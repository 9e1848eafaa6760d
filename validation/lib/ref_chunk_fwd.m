% REF_CHUNK_FWD  The chunked KDA / GDN forward of one sequence and head, plainly.
%
%   [o, S] = ref_chunk_fwd (q, k, v, g, beta, S0, scale, C)
%   [o, S] = ref_chunk_fwd (..., Name, Value, ...)
%
%   Same arguments as ref_recurrence (q, k: K x T; v: V x T; g: K x T, KDA,
%   or 1 x T, GDN; beta: 1 x T; S0: K x V), plus the chunk size C; T need
%   not be a multiple of C.  Per chunk of c steps, in the row-matrix form of
%   docs/chunk_forward.md (Q, Kr: c x K, Vr: c x V; G = cumsum of the
%   chunk's gates, so exp(G) is a running product of the decays):
%
%       M      = the gated product of Kr with itself, j < i       (27)
%       L      = I + A_raw = I + Diag(beta) M                     (27)-(28)
%       w      = L \ Diag(beta) (exp(G) .* Kr),  u = L \ Diag(beta) Vr
%                (A = L^-1 Diag(beta) applied by forward substitution)  (29)-(30)
%       v_new  = u - w S                                          (31)
%       A^qk   = scale x the gated product of Q and Kr, j <= i   (34)
%       o      = scale (exp(G) .* Q) S + A^qk v_new               (35)
%       S      = Diag(exp(G_c)) S + (exp(G_c - G) .* Kr)' v_new  (36)
%
%   the gated products by ref_gated.  This is the plain reference the lab
%   calls for a chunked result; validation/derivation/drv_chunk_fwd.m
%   derives the same equation by equation (with every intermediate and the
%   roundings of 'Emulate'), validation/hazards/hz_chunk_fwd.m models
%   kernel variants (inverses, bugs).
%
%   Options:
%     'Scheme'  the gated products' scheme (ref_gated): 'direct' (default)
%               or 'stable' (this library's, docs/stability.md (61)-(62))
%     'Format'  'double', 'single', 'bf16', 'fp16', 'tf32': the inputs
%               rounded to it (ref_round) and the work in single (double for
%               'double'), the gated products' operands rounded to it;
%               default: none, the work in the class of q
%
%   o is V x T, S the final state, in the working class.
%
%   See also: ref_recurrence, ref_gated, ref_forward.

function [o, S] = ref_chunk_fwd (q, k, v, g, beta, S0, scale, C, varargin)
  [opt, rest] = take_option (varargin, struct ('Scheme', 'direct', 'Format', ''));
  if (~isempty (rest))
    error ('ref_chunk_fwd: unknown option ''%s''', rest{1});
  end
  gated = {'Scheme', opt.Scheme};
  if (isempty (opt.Format))
    rd = @(x) cast (x, class (q));
  else
    wc = class (ref_round (0, opt.Format));
    rd = @(x) cast (ref_round (x, opt.Format), wc);
    gated = [gated, {'Format', opt.Format}];
  end
  q = rd (q);  k = rd (k);  v = rd (v);
  wc = class (q);
  g = cast (g, wc);  beta = cast (beta, wc);  S = cast (S0, wc);  scale = cast (scale, wc);
  [K, T] = size (q);
  o = zeros (size (v, 1), T, wc);
  for t0 = 1:C:T
    idx = t0:min (t0 + C - 1, T);
    c = numel (idx);
    Q = q(:, idx)';  Kr = k(:, idx)';  Vr = v(:, idx)';  b = beta(idx)';  gc = g(:, idx)';
    a = exp (gc) .* ones (c, K, wc);
    eG = cumprod (a, 1);                                          % exp(G_i)
    toEnd = [flipud(cumprod (flipud (a(2:end, :)), 1)); ones(1, K, wc)];   % exp(G_c - G_i)
    M = ref_gated (Kr, Kr, gc, 'Strict', true, gated{:});
    L = eye (c, wc) + b .* M;
    w = L \ (b .* (eG .* Kr));
    u = L \ (b .* Vr);
    v_new = u - w * S;
    Aqk = scale * ref_gated (Q, Kr, gc, gated{:});
    o(:, idx) = (scale * (eG .* Q) * S + Aqk * v_new)';
    S = eG(c, :)' .* S + (toEnd .* Kr)' * v_new;
  end
end

%!test
%! % equals the recurrence for every chunk size (T not a multiple), KDA and GDN
%! K = 8;  V = 6;  T = 45;  s = 1 / sqrt (K);
%! q = randn (K, T);  k = randn (K, T);  k = k ./ sqrt (sum (k .^ 2));
%! v = randn (V, T);  g = -rand (K, T);  beta = rand (1, T);  S0 = randn (K, V);
%! for gg = {g, g(1, :)}
%!   [or, Sr] = ref_recurrence (q, k, v, gg{1}, beta, S0, s);
%!   for C = [1 7 16 64]
%!     for sch = {'direct', 'stable'}
%!       [o, S] = ref_chunk_fwd (q, k, v, gg{1}, beta, S0, s, C, 'Scheme', sch{1});
%!       assert (la_ratio (or, o) < 1e-13 && la_ratio (Sr, S) < 1e-13);
%!     end
%!   end
%! end
%!test
%! % strong gates (-30 per step) in single with the stable scheme: finite, to 1e-5
%! K = 8;  V = 4;  T = 70;  s = 0.3;
%! q = randn (K, T);  k = randn (K, T);  k = k ./ sqrt (sum (k .^ 2));
%! v = randn (V, T);  g = -30 * rand (K, T);  beta = rand (1, T);  S0 = randn (K, V);
%! [or, Sr] = ref_recurrence (q, k, v, g, beta, S0, s);
%! [o, S] = ref_chunk_fwd (q, k, v, g, beta, S0, s, 32, 'Scheme', 'stable', 'Format', 'single');
%! assert (class (o), 'single');
%! assert (la_ratio (or, o) < 1e-5 && la_ratio (Sr, S) < 1e-5);
%!error <unknown option 'Foo'>
%! ref_chunk_fwd (1, 1, 1, 0, 1, 0, 1, 1, 'Foo', 1);
