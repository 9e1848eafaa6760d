% VERIFY_BWD_INTERMEDIATES  FLA's backward intermediates from the backward's aux.
%
%   ref = verify_bwd_intermediates (op, t, ref, baux, aux, problem, nb)
%
%   Adds to ref (FLA layout) those of dh, dAqk, dAkk, dw, du, dv_new that the
%   dump t holds, from the aux of the chunked backward ('Intermediates',
%   docs/chunk_backward.md section 9) and the forward's aux:
%     dh, dw, du, dv_new, dAqk   the same quantities (dAqk rows padded to
%                                chunk_size, FLA's BT)
%     dAkk = dA Diag(beta)       FLA's Akk = (I + A_raw)^-1 carries no beta,
%                                aux.A = Akk Diag(beta) does; beta is the
%                                diagonal of aux.A (Akk's diagonal is 1)
%   nb: FLA's batch size B.

function ref = verify_bwd_intermediates (op, t, ref, baux, aux, problem, nb)
  conv = {'Op', op, 'StateVFirst', problem.state_v_first, 'Batch', nb};
  bt = problem.chunk_size;
  if (isfield (t, 'dAqk'))
    ref.dAqk = la_to_fla ('Aqk', verify_pad_rows (baux.dAqk, bt), conv{:});
  end
  if (isfield (t, 'dAkk'))
    ref.dAkk = la_to_fla ('Akk', verify_pad_rows (dakk_from_da (baux.dA, aux), bt), conv{:});
  end
  same = {'dh', 'h'; 'dw', 'w'; 'du', 'u'; 'dv_new', 'v_new'};
  for i = 1:size (same, 1)
    if (isfield (t, same{i, 1}))      % laid out as the forward quantity
      ref.(same{i, 1}) = la_to_fla (same{i, 2}, baux.(same{i, 1}), conv{:});
    end
  end
end


function dakk = dakk_from_da (da, aux)
  % column j of each chunk matrix times beta_j (row j of the C x T array is
  % column j of the chunk matrix); A(i, i) = beta_i
  times_beta = @(c, cols, j, b) da(1:c, cols, j, b) .* diag (aux.A(1:c, cols, j, b));
  dakk = verify_per_chunk (aux, da, times_beta);
end
