% HZ_CHUNK_FWD  The chunked forward of docs/chunk_forward.md in plain Octave,
% one head, with a choice of triangular inverse, format and kernel bug.
%
%   [o, S] = hz_chunk_fwd (q, k, v, g, beta, S0, C, opts)
%
%   q, k: K x T; v: V x T; g: K x T (KDA) or 1 x T (GDN); beta: 1 x T;
%   S0: K x V; C: chunk size.  opts fields (all optional):
%     fmt    'double' (default), 'single', 'bf16', 'fp16': inputs rounded
%            to it, arithmetic in double or single, products via hz_mm;
%     inv    'subst' (default), 'neumann', 'doubling', 'blocked' (hz_inverse);
%     order  the Neumann order m;
%     scale  default 1 / sqrt (K);
%     bug    'none' (default), or one of the two classic kernel bugs:
%            'log2_exp'   cumulative gates kept in log2 (G / ln 2) but the
%                         inter-chunk output factor exponentiated with exp;
%            'ln_exp2'    natural-log gates exponentiated with exp2 there;
%            'regate_vnew' v_new multiplied by e^(G_c - G) before the state
%                         update, although K_C already carries that decay
%                         (GDN: one factor per row; KDA: elementwise, K = V).
%   The gated products use this library's scheme (ref_gated 'stable').
%   o is V x T, S is K x V, in double or single.
%
%   A model of kernel variants; the plain chunked reference is ref_chunk_fwd
%   (validation/lib), which the default options reproduce.
%
%   See also: hz_inverse, ref_gated, ref_chunk_fwd, ref_forward.

function [o, S] = hz_chunk_fwd (q, k, v, g, beta, S0, C, opts)
  opts = defaults (opts, size (q, 1));
  fmt = opts.fmt;
  wc = class (ref_round (0, fmt));
  rd = @(x) cast (ref_round (x, fmt), wc);
  [K, T] = size (q);
  o = zeros (size (v, 1), T, wc);
  S = rd (S0);
  for t0 = 1:C:T
    idx = t0:min (t0 + C - 1, T);
    c = numel (idx);
    Q = rd (q(:, idx).');  Kr = rd (k(:, idx).');  Vr = rd (v(:, idx).');
    b = cast (beta(idx).', wc);
    gc = cast (g(:, idx).', wc);                           % c x K (GDN c x 1)
    a = exp (gc);
    Gam = cumprod (a, 1);                                  % e^G_i, running product
    toEnd = flipud (cumprod ([ones(1, size (a, 2), wc); flipud(a(2:c, :))], 1));  % e^(G_c - G_i)
    M = ref_gated (Kr, Kr, gc, 'Strict', true, 'Scheme', 'stable', 'Format', fmt);
    X = hz_inverse (b .* M, opts.inv, fmt, opts.order);    % (I + A_raw)^-1
    A = X .* b.';                                          % (29)
    w = hz_mm (A, Gam .* Kr, fmt);  u = hz_mm (A, Vr, fmt);
    v_new = u - hz_mm (w, S, fmt);                         % (31)
    Aqk = opts.scale * ref_gated (Q, Kr, gc, 'Scheme', 'stable', 'Format', fmt);
    o(:, idx) = (opts.scale * hz_mm (inter_factor (gc, opts.bug) .* Q, S, fmt) ...
                 + hz_mm (Aqk, v_new, fmt)).';             % (35)
    if (strcmp (opts.bug, 'regate_vnew'))
      v_new = v_new .* toEnd;                              % the bug: decayed twice
    end
    S = Gam(c, :).' .* S + hz_mm ((toEnd .* Kr).', v_new, fmt);   % (36)
  end
end

% e^G of the inter-chunk output term, right or as the two log2/exp bugs have it
function F = inter_factor (gc, bug)
  G = cumsum (gc, 1);
  switch bug
    case 'log2_exp'
      F = exp (G / log (2));
    case 'ln_exp2'
      F = 2 .^ G;
    otherwise
      F = cumprod (exp (gc), 1);
  end
end

function opts = defaults (opts, K)
  def = struct ('fmt', 'double', 'inv', 'subst', 'order', 0, 'scale', 1 / sqrt (K), ...
                'bug', 'none');
  f = fieldnames (def);
  for i = 1:numel (f)
    if (~isfield (opts, f{i}))
      opts.(f{i}) = def.(f{i});
    end
  end
end

%!test
%! addpath (fullfile (fileparts (which ('la_ratio')), '..', 'hazards'));  % run_tests puts lib on the path
%! K = 8; V = 6; T = 45;
%! q = randn (K, T); k = randn (K, T); k = k ./ sqrt (sum (k .^ 2));
%! v = randn (V, T); g = -rand (K, T); beta = rand (1, T); S0 = randn (K, V);
%! [or, Sr] = ref_forward ('kda', q, k, v, g, beta, 'InitialState', S0);
%! for inv = {'subst', 'doubling', 'blocked'}
%!   [o, S] = hz_chunk_fwd (q, k, v, g, beta, S0, 20, struct ('inv', inv{1}));
%!   assert (la_ratio (or, o) < 1e-13 && la_ratio (Sr, S) < 1e-13);
%! end
%! [o, S] = hz_chunk_fwd (q, k, v, g, beta, S0, 16, struct ('fmt', 'single'));
%! assert (la_ratio (or, o) < 1e-5 && la_ratio (Sr, S) < 1e-5);
%! [oc, Sc] = ref_chunk_fwd (q, k, v, g, beta, S0, 1 / sqrt (K), 20);
%! [o, S] = hz_chunk_fwd (q, k, v, g, beta, S0, 20, struct ());
%! assert (la_ratio (oc, o) < 1e-13 && la_ratio (Sc, S) < 1e-13);
%! [o, S] = hz_chunk_fwd (q, k, v, g(1, :), beta, S0, 16, struct ());
%! [or, Sr] = ref_forward ('gdn', q, k, v, g(1, :), beta, 'InitialState', S0);
%! assert (la_ratio (or, o) < 1e-13 && la_ratio (Sr, S) < 1e-13);
