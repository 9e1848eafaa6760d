% la_from_fla  Convert a tensor from FLA / PyTorch layout to this library's.
%
%   y = la_from_fla (name, x)
%   y = la_from_fla (name, x, Name, Value, ...)
%
%   name: the tensor's name in flash-linear-attention (FLA); x: the array
%   indexed like FLA's tensor (x(b, t, h, k) = x[b-1, t-1, h-1, k-1], as
%   la_load returns it).  y is in the layout the eight functions take
%   (docs/conventions.md has the table):
%     q k dq dk                       [B, T, H, K]     -> K x T x H x B
%     v o do dv u v_new dv_new du     [B, T, HV, V]    -> V x T x HV x B
%     g dg w dw g_cumsum qg kg (KDA)  [B, T, HV, K]    -> K x T x HV x B
%     beta dbeta, g dg (GDN)          [B, T, HV]       -> T x HV x B
%     h0 ht dht dh0                   [N, HV, K, V]    -> K x V x HV x N
%     h dh (per chunk)                [B, NT, HV, K, V] -> K x V x HV x (NT*B),
%                                     chunks of batch 1 first (aux.h's order)
%     Akk Aqk dAkk dAqk               [B, T, HV, BT]   -> BT x T x HV x B
%     A_log                           [HV]             -> HV x 1
%     dt_bias (KDA)                   [HV*K] or [HV, K] -> K x HV
%   Only the layout changes; values are not converted (FLA's log2 gates and
%   its Akk = (I + A_raw)^-1 are handled by kda_verify).
%
%   Options: 'Op', 'kda' (default) or 'gdn' (g, dg are [B, T, HV]);
%   'K', the key dimension (needed for a flat KDA dt_bias);
%   'StateVFirst', true: FLA states are [N, HV, V, K] and h is
%   [B, NT, HV, V, K] (FLA's state_v_first); the result is K x V all the same.
%
%   Example:
%     x = randn (2, 16, 3, 8);              % FLA's q: [B, T, H, K]
%     q = la_from_fla ('q', x);             % K x T x H x B
%     assert (isequal (size (q), [8 16 3 2]))
%     assert (isequal (la_to_fla ('q', q), x))
%
%   See also: la_to_fla, la_load, kda_verify.

function y = la_from_fla (name, x, varargin)
  [op, svf, kdim] = la_fla_options (varargin);
  [kind, perm] = la_fla_kind (name, op, svf);
  switch (kind)
    case 'chunkstate'
      y = permute (x, perm);
      sz = [size(y), 1, 1, 1, 1, 1];
      y = reshape (y, sz(1), sz(2), sz(3), sz(4) * sz(5));
    case {'alog', 'vector'}
      y = x(:);
    case 'dtbias'
      if (strcmp (op, 'gdn'))
        y = x(:);
      elseif (ndims (x) == 2 && min (size (x)) > 1)
        y = x.';                 % given as [HV, K]
      elseif (isempty (kdim))
        error ('la:badName', 'la_from_fla: dt_bias [HV*K] needs the option ''K''');
      else
        y = reshape (x, kdim, []);   % FLA's dt_bias.view (HV, K)
      end
    otherwise
      y = permute (x, perm);
  end
end

%!test
%! % every layout of the table, inverted by la_to_fla
%! B = 2; T = 16; H = 3; HV = 3; K = 8; V = 4; NT = 2; BT = 8;
%! cases = {'q', [B T H K], [K T H B]; 'v', [B T HV V], [V T HV B]; ...
%!          'g', [B T HV K], [K T HV B]; 'beta', [B T HV], [T HV B]; ...
%!          'h0', [B HV K V], [K V HV B]; 'Akk', [B T HV BT], [BT T HV B]};
%! for i = 1:rows (cases)
%!   x = randn (cases{i, 2});
%!   y = la_from_fla (cases{i, 1}, x);
%!   assert (size (y), cases{i, 3});
%!   assert (la_to_fla (cases{i, 1}, y), x);
%! end
%! h = randn (B, NT, HV, K, V);
%! y = la_from_fla ('h', h);
%! assert (size (y), [K V HV NT * B]);
%! assert (la_to_fla ('h', y, 'Batch', B), h);
%! assert (size (la_from_fla ('g', randn (B, T, HV), 'Op', 'gdn')), [T HV B]);

%!test
%! % dt_bias: [HV, K] or flat [HV*K] with 'K'
%! x = randn (3, 8);
%! assert (la_from_fla ('dt_bias', x), x.');
%! assert (la_from_fla ('dt_bias', reshape (x.', [], 1), 'K', 8), x.');

%!error <needs the option 'K'> la_from_fla ('dt_bias', randn (24, 1))
