% la_to_fla  Convert a tensor from this library's layout to FLA / PyTorch's.
%
%   x = la_to_fla (name, y)
%   x = la_to_fla (name, y, Name, Value, ...)
%
%   The inverse of la_from_fla (see its help for the table of names and
%   layouts): y in this library's layout, x indexed like FLA's tensor, ready
%   for la_save (e.g. o: V x T x HV x B -> [B, T, HV, V]).  Per-chunk states
%   h, dh (K x V x HV x NC) become [B, NT, HV, K, V] with NT = NC / B: give
%   'Batch', B when B > 1.  dt_bias (K x HV) becomes [HV*K], A_log [HV].
%   Options as la_from_fla ('Op', 'StateVFirst', 'Batch').
%
%   Example:
%     o = randn (8, 16, 2);                % V x T x HV (x B)
%     x = la_to_fla ('o', o);              % [B, T, HV, V] = [1, 16, 2, 8]
%     assert (isequal (size (x), [1 16 2 8]))
%
%   See also: la_from_fla, la_save.

function x = la_to_fla (name, y, varargin)
  [op, svf, ~, batch] = la_fla_options (varargin);
  [kind, perm] = la_fla_kind (name, op, svf);
  switch (kind)
    case 'chunkstate'
      sz = [size(y), 1, 1, 1];
      y = reshape (y, sz(1), sz(2), sz(3), sz(4) / batch, batch);
      x = ipermute (y, perm);
    case {'alog', 'vector', 'dtbias'}
      x = y(:);
    otherwise
      x = ipermute (y, perm);
  end
end

%!test
%! % the inverse of la_from_fla
%! o = randn (8, 16, 2, 3);               % V x T x HV x B
%! x = la_to_fla ('o', o);
%! assert (size (x), [3 16 2 8]);
%! assert (la_from_fla ('o', x), o);
%! assert (size (la_to_fla ('A_log', randn (4, 1))), [4 1]);

%!test
%! % per-chunk states with 'Batch'
%! h = randn (4, 5, 2, 6);                % K x V x HV x (NT*B), B = 2
%! x = la_to_fla ('h', h, 'Batch', 2);
%! assert (size (x), [2 3 2 4 5]);
%! assert (la_from_fla ('h', x), h);
