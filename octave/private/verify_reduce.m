% VERIFY_REDUCE  What the verdict needs of a tensor's error, reduced over its channels.
%
%   R = verify_reduce (name, ref, x, e, problem)
%   R = verify_reduce (name, ref, x, e, problem, R)
%
%   ref: this library's double result, x: the dump's tensor (any class,
%   reshaped to ref's size), e: ref minus the emulated kernel's result
%   ([] for none), all in FLA layout, for all heads or for a slice of
%   them (kda_verify checks a large dump slice by slice).  Given R of
%   the slices before, the new slice's heads are appended to it (slices
%   come in order of head).  R, enough for verify_compare,
%   verify_divergence and verify_local, so that no full-size error is
%   kept:
%     name, layout  'time' ([B, T, heads, ...]; h, dh too: [B, NT, HV,
%                   ...]), 'state' (ht, dh0, dht: [N, HV, ...]) or 'whole'
%                   (dA_log, ddt_bias: kept whole)
%     shape, xshape ref's and x's size (heads summed over the slices)
%     rr, xx, rx, dd  sums of ref .^ 2, x .^ 2, ref .* x, (ref - x) .^ 2
%                   (NaN propagates), n the count, max_abs (NaN ignored)
%     ee            sum of e .^ 2 (NaN when there is no e)
%     C             the channels reduced per entry (prod of the size
%                   beyond the leading 3, or 2 for 'state')
%     s2, e2        per leading entry ([B, T, heads] or [N, HV]) the sum
%                   over channels of (ref - x) .^ 2 (NaN counted as Inf)
%                   and of e .^ 2
%     mx, arg       ('time') per entry the largest |ref - x| over its
%                   channels and its channel (1-based)
%     d             ('whole') |ref - x|
%   A shape that does not match (up to singleton dimensions) leaves
%   R.bad true and nothing else summed.

function R = verify_reduce (name, ref, x, e, problem, R)
  if (nargin < 6)
    R = [];
  end
  lead = 3;
  layout = 'time';
  if (any (strcmp (name, {'ht', 'dh0', 'dht'})))
    [lead, layout] = deal (2, 'state');
  elseif (any (strcmp (name, {'dA_log', 'ddt_bias'})))
    layout = 'whole';
  end
  S = struct ('name', name, 'layout', layout, 'shape', size (ref), 'xshape', size (x), ...
              'bad', false, 'rr', 0, 'xx', 0, 'rx', 0, 'dd', 0, 'n', numel (ref), ...
              'max_abs', 0, 'ee', NaN, 'C', 1, 's2', [], 'e2', [], 'mx', [], 'arg', [], 'd', []);
  if (~isequal (squeeze_shape (size (x)), squeeze_shape (size (ref))))
    S.bad = true;
  else
    x = reshape (double (x), size (ref));
    d = ref - x;
    S.rr = sumsq (ref(:));
    S.xx = sumsq (x(:));
    S.rx = ref(:)' * x(:);
    clear x;
    S.dd = sumsq (d(:));
    d = abs (d);                          % one array from here on
    S.max_abs = max ([0, max(d(:))]);     % NaN ignored, as max does
    if (~isfinite (S.dd))
      d(isnan (d)) = Inf;                 % counted as the largest error there is
    end
    sz = [size(ref), 1, 1, 1];
    if (strcmp (layout, 'whole'))
      S.d = d;
    else
      S.C = prod (sz(lead + 1:end));
      d = reshape (d, [sz(1:lead), S.C]);
      S.s2 = sumsq (d, lead + 1);
      if (strcmp (layout, 'time'))
        [S.mx, S.arg] = max (d, [], lead + 1);
      end
    end
    clear d;
    if (~isempty (e))
      S.ee = sumsq (e(:));
      if (~strcmp (layout, 'whole'))
        S.e2 = sumsq (reshape (e, [sz(1:lead), S.C]), lead + 1);
      end
    end
  end
  if (isempty (R))
    R = S;
  else
    R = append (R, S, lead);
  end
end

function R = append (R, S, lead)
  % the next slice of heads: sums add, per-entry arrays go on along the heads
  R.bad = R.bad || S.bad;
  for f = {'shape', 'xshape'}             % a slice of one head may end in a singleton
    R.(f{1})(end + 1:lead) = 1;
    S.(f{1})(end + 1:lead) = 1;
    R.(f{1})(lead) = R.(f{1})(lead) + S.(f{1})(lead);
  end
  for f = {'rr', 'xx', 'rx', 'dd', 'n', 'ee'}
    R.(f{1}) = R.(f{1}) + S.(f{1});
  end
  R.max_abs = max (R.max_abs, S.max_abs);
  for f = {'s2', 'e2', 'mx', 'arg'}
    R.(f{1}) = cat (lead, R.(f{1}), S.(f{1}));
  end
end

function s = squeeze_shape (s)
  % trailing and leading-batch singleton dimensions do not matter
  s = s(s ~= 1);
end
