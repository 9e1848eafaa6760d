% VERIFY_INTERMEDIATES  FLA's forward intermediates from this library's aux.
%
%   ref = verify_intermediates (op, t, ref, aux, problem, nb)
%
%   Adds to ref (FLA layout) those of g_cumsum, Akk, Aqk, w, u, v_new, h,
%   qg, kg that the dump t holds, converting the conventions
%   (docs/conventions.md):
%     g_cumsum = aux.G / log(2)   FLA keeps cumulative gates in log2
%     Akk = (I + A_raw)^-1        aux.A = (I + A_raw)^-1 Diag(beta) carries beta
%     Aqk, w, u, v_new, h         the same quantities (Aqk with the scale),
%                                 rows padded to chunk_size (FLA's BT)
%     qg = q exp(G)               KDA (FLA's recompute_w_u_fwd, kept with
%     kg = k exp(G_last - G)      disable_recompute): per value head
%                                 [B, T, HV, K], q unscaled, q and k after
%                                 the in-kernel L2 norm (problem.l2norm),
%                                 G the in-chunk cumulative gate (aux.G),
%                                 G_last its value at the chunk's last step
%   nb: FLA's batch size B.  The backward's intermediates (dh, dAqk, dAkk,
%   dw, du, dv_new): verify_bwd_intermediates.

function ref = verify_intermediates (op, t, ref, aux, problem, nb)
  conv = {'Op', op, 'StateVFirst', problem.state_v_first, 'Batch', nb};
  bt = problem.chunk_size;
  if (isfield (t, 'g_cumsum'))
    ref.g_cumsum = la_to_fla ('g_cumsum', aux.G / log (2), conv{:});
  end
  if (isfield (t, 'Aqk'))
    ref.Aqk = la_to_fla ('Aqk', verify_pad_rows (aux.Aqk, bt), conv{:});
  end
  if (isfield (t, 'Akk'))
    ref.Akk = la_to_fla ('Akk', verify_pad_rows (akk_from_araw (aux), bt), conv{:});
  end
  if (strcmp (op, 'kda') && any (isfield (t, {'qg', 'kg'})))
    ref = gated_qk (t, ref, aux, problem, conv);
  end
  same = {'w', 'u', 'v_new', 'h'};
  for i = 1:numel (same)
    if (isfield (t, same{i}))
      ref.(same{i}) = la_to_fla (same{i}, aux.(same{i}), conv{:});
    end
  end
end


function akk = akk_from_araw (aux)
  % FLA's Akk = (I + A_raw)^-1 per chunk, in aux's C x T x HV x B rows
  inv_rows = @(c, cols, j, b) ((eye (c) + aux.A_raw(1:c, cols, j, b).') \ eye (c)).';
  akk = verify_per_chunk (aux, zeros (size (aux.A_raw)), inv_rows);
end

function ref = gated_qk (t, ref, aux, problem, conv)
  % FLA's qg = q exp2(gk) and kg = k exp2(gn - gk) (gk the log2 cumulative
  % gate, gn its value at the chunk's last row), per value head
  x = {la_from_fla('q', t.q, 'Op', 'kda'), la_from_fla('k', t.k, 'Op', 'kda')};   % K x T x H x B
  HV = size (aux.G, 3);
  H = size (x{1}, 3);
  map = floor ((0:HV - 1) / (HV / H)) + 1;      % FLA's GVA: hv // (HV / H)
  for i = 1:2
    if (problem.l2norm)                          % FLA's l2norm_fwd, eps 1e-6
      x{i} = x{i} ./ sqrt (sum (x{i} .^ 2, 1) + 1e-6);
    end
    x{i} = x{i}(:, :, map, :);
  end
  G = aux.G;
  if (isfield (t, 'qg'))
    ref.qg = la_to_fla ('qg', x{1} .* exp (G), conv{:});
  end
  if (isfield (t, 'kg'))
    kg = zeros (size (x{2}));
    for n = 1:size (aux.chunks, 1)
      b = 1;
      if (size (G, 4) > 1)
        b = aux.chunks(n, 1);
      end
      cols = aux.chunks(n, 2) + (0:aux.chunks(n, 3) - 1);
      last = G(:, cols(end), :, b);
      kg(:, cols, :, b) = x{2}(:, cols, :, b) .* exp (last - G(:, cols, :, b));
    end
    ref.kg = la_to_fla ('kg', kg, conv{:});
  end
end
