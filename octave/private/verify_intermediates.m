% VERIFY_INTERMEDIATES  FLA's forward intermediates from this library's aux.
%
%   ref = verify_intermediates (op, t, ref, aux, problem, nb)
%
%   Adds to ref (FLA layout) those of g_cumsum, Akk, Aqk, w, u, v_new, h
%   that the dump t holds, converting the conventions (docs/conventions.md):
%     g_cumsum = aux.G / log(2)   FLA keeps cumulative gates in log2
%     Akk = (I + A_raw)^-1        aux.A = (I + A_raw)^-1 Diag(beta) carries beta
%     Aqk, w, u, v_new, h         the same quantities (Aqk with the scale),
%                                 rows padded to chunk_size (FLA's BT)
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
