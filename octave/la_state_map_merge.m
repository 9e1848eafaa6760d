% la_state_map_merge  Compose the state maps of consecutive segments of a sequence.
%
%     S = la_state_map_merge (P, R)
%     [S, S_in] = la_state_map_merge (P, R, S0)
%     [S, S_in] = la_state_map_merge (P, R, S0, Layout)
%
%   Segments n = 1, ..., N of one sequence, in order, with the maps
%   S_out = P_n S_in + R_n of kda_state_map / gdn_state_map (e.g. from
%   'CuSeqlens' placed at the cuts, or one call per device), compose to
%       S_N = P_N (... (P_2 (P_1 S_0 + R_1) + R_2) ...) + R_N
%   per value head (docs/state_map.md).  This is the serial form of the
%   merge; the state entering each segment is returned too, so that each
%   segment's output can then be computed on its own (kda_chunk with
%   'InitialState', S_in(:, :, :, n)).
%
%   Arguments:
%     P       K x K x HV x N   the maps' linear parts, segment by segment
%     R       K x V x HV x N   their own contributions (V x K x HV x N with
%                              Layout 'VK')
%     S0      K x V x HV       the state entering segment 1 (V x K x HV with
%                              'VK'); [] or absent = zeros
%     Layout  'KV' (default) or 'VK', as the maps' 'StateLayout'
%
%   Outputs, in the class of P and R (double if either is):
%     S       K x V x HV       the state leaving segment N (V x K x HV with
%                              'VK')
%     S_in    K x V x HV x N   the state entering each segment
%
%   Example:
%     K = 8; V = 4; T = 90; cuts = [0 30 50 90];
%     q = randn (K, T); k = randn (K, T); v = randn (V, T);
%     g = -rand (K, T); beta = rand (T, 1); S0 = randn (K, V);
%     [P, R] = kda_state_map (q, k, v, g, beta, 'CuSeqlens', cuts);
%     [S, S_in] = la_state_map_merge (P, R, S0);
%     [~, S_ref] = kda_recurrent (q, k, v, g, beta, 'InitialState', S0);
%     norm (S(:) - S_ref(:)) / norm (S_ref(:))        % rounding only
%
%   See also: kda_state_map, gdn_state_map, kda_chunk

function [S, S_in] = la_state_map_merge (P, R, S0, layout)
  if (nargin < 2 || nargin > 4)
    error ('la:nargin', 'la_state_map_merge: needs 2 to 4 arguments, got %d', nargin);
  end
  if (nargin < 4)
    layout = 'KV';
  end
  if (~ischar (layout) || ~any (strcmpi (layout, {'KV', 'VK'})))
    error ('la:badOption', 'la_state_map_merge: Layout must be ''KV'' or ''VK''');
  end
  names = {'P', 'R', 'S0'};
  args = {P, R};
  if (nargin > 2)
    args{3} = S0;
  end
  for i = 1:numel (args)
    a = args{i};
    if (~(isa (a, 'double') || isa (a, 'single')) || ~isreal (a) || issparse (a))
      error ('la:badClass', ['la_state_map_merge: %s must be a real full single or double ' ...
                             'array, got a %s%s %s'], names{i}, ...
             ifelse_text (isnumeric (a) && ~isreal (a), 'complex '), ...
             ifelse_text (issparse (a), 'sparse '), class (a));
    end
  end
  if (ndims (R) > 4 || isempty (R))
    error ('la:badShape', ['la_state_map_merge: R must be K x V x HV x N with every size ' ...
                           '>= 1, got %s'], mat2str (size (R)));
  end
  vk = strcmpi (layout, 'VK');
  if (vk)   % work in K x V
    R = permute (R, [2 1 3 4]);
  end
  [K, V, HV, N] = size (R);
  if (ndims (P) > 4 || size (P, 1) ~= K || size (P, 2) ~= K || size (P, 3) ~= HV || size (P, 4) ~= N)
    error ('la:badShape', ['la_state_map_merge: P must be K x K x HV x N = %dx%dx%dx%d ' ...
                           '(from R), got %s'], K, K, HV, N, mat2str (size (P)));
  end
  S = zeros (K, V, HV, 'like', P(1) + R(1));
  if (nargin > 2 && ~isempty (S0))
    if (vk)
      S0 = permute (S0, [2 1 3]);
    end
    sz = [size(S0), 1];
    if (ndims (S0) > 3 || ~isequal (sz(1:3), [K, V, HV]))
      error ('la:badShape', 'la_state_map_merge: S0 must be %s x HV = %s, got %s', ...
             layout, mat2str ([K, V, HV]), mat2str (size (S0)));
    end
    S(:) = S0;
  end
  S_in = zeros (K, V, HV, N, 'like', S);
  for n = 1:N
    S_in(:, :, :, n) = S;
    for h = 1:HV
      S(:, :, h) = P(:, :, h, n) * S(:, :, h) + R(:, :, h, n);
    end
  end
  if (vk)
    S = permute (S, [2 1 3]);
    S_in = permute (S_in, [2 1 3 4]);
  end
end

function t = ifelse_text (cond, text)
  t = '';
  if (cond)
    t = text;
  end
end

%!test
%! % three segments of one KDA sequence merge to the whole, with GVA
%! K = 5; V = 3; T = 40; H = 1; HV = 2; cuts = [0 7 25 40];
%! q = randn (K, T, H); k = randn (K, T, H); v = randn (V, T, HV);
%! g = -rand (K, T, HV); beta = rand (T, HV); S0 = randn (K, V, HV);
%! [P, R] = kda_state_map (q, k, v, g, beta, 'CuSeqlens', cuts, 'ChunkSize', 8);
%! [S, S_in] = la_state_map_merge (P, R, S0);
%! [~, S_ref] = kda_recurrent (q, k, v, g, beta, 'InitialState', S0);
%! assert (S, S_ref, 1e-12 * max (abs (S_ref(:))));
%! assert (S_in(:, :, :, 1), S0);

%!test
%! % 'VK' gives the transposes
%! P = randn (4, 4, 1, 2); R = randn (4, 3, 1, 2); S0 = randn (4, 3);
%! [S, S_in] = la_state_map_merge (P, R, S0);
%! [S2, S_in2] = la_state_map_merge (P, permute (R, [2 1 3 4]), S0.', 'VK');
%! assert (S2, S.', 1e-14);
%! assert (S_in2, permute (S_in, [2 1 3 4]), 1e-14);

%!error id=la:badShape la_state_map_merge (randn (3, 3), randn (4, 2))
%!error id=la:badClass la_state_map_merge ({1}, randn (3, 2))
%!error id=la:badClass la_state_map_merge (randn (3, 3), {randn(3, 2)})
%!error id=la:badClass la_state_map_merge (int8 (ones (3, 3)), randn (3, 2))
%!error id=la:badClass la_state_map_merge (randn (3, 3), int8 (ones (3, 2)))
%!error id=la:badClass la_state_map_merge (randn (3, 3), randn (3, 2), {1})
%!error id=la:badClass la_state_map_merge (randn (3, 3), randn (3, 2) + 1i)
%!error id=la:badClass la_state_map_merge (sparse (eye (3)), randn (3, 2))
%!error id=la:badShape la_state_map_merge (zeros (0, 0, 1, 2), zeros (0, 3, 1, 2))
%!error id=la:badShape la_state_map_merge (zeros (3, 3, 0, 2), zeros (3, 2, 0, 2))
%!error id=la:badShape la_state_map_merge (zeros (3, 3, 1, 0), zeros (3, 2, 1, 0))
%!error id=la:badShape la_state_map_merge (randn (3, 3, 1, 1, 2), randn (3, 2, 1, 1, 2))
%!error id=la:badOption la_state_map_merge (randn (3, 3), randn (3, 2), [], 'XY')
%!error <S0 must be> la_state_map_merge (randn (3, 3), randn (3, 2), randn (2, 3))

%!demo
%! % two workers each take half of a KDA sequence: their maps, merged,
%! % give each half its initial state and the final state
%! K = 16; V = 8; T = 400;
%! q = randn (K, T); k = randn (K, T); v = randn (V, T);
%! k = k ./ sqrt (sum (k .^ 2, 1));
%! g = -rand (K, T) / 4; beta = rand (T, 1); S0 = randn (K, V);
%! [P, R] = kda_state_map (q, k, v, g, beta, 'CuSeqlens', [0 200 400]);
%! [S, S_in] = la_state_map_merge (P, R, S0);
%! [~, S_mid] = kda_recurrent (q(:, 1:200), k(:, 1:200), v(:, 1:200), g(:, 1:200), ...
%!                             beta(1:200), 'InitialState', S0);
%! [~, S_ref] = kda_recurrent (q, k, v, g, beta, 'InitialState', S0);
%! fprintf ('second half''s initial state: rel. difference %.1e\n', ...
%!          norm (vec (S_in(:, :, 1, 2) - S_mid)) / norm (S_mid(:)));
%! fprintf ('final state:                  rel. difference %.1e\n', ...
%!          norm (S(:) - S_ref(:)) / norm (S_ref(:)));
