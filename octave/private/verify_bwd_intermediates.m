% VERIFY_BWD_INTERMEDIATES  FLA's backward intermediates from the backward's aux.
%
%   ref = verify_bwd_intermediates (op, t, ref, baux, aux, problem, nb)
%
%   Adds to ref (FLA layout) those of dh, dAqk, dAkk, dw, du, dv_new that the
%   dump t holds, from the aux of the chunked backward ('Intermediates',
%   docs/chunk_backward.md section 9) and the forward's aux.  With
%   problem.fla (meta.json "intermediates": "fla", the default) they are
%   read as FLA's kernels store them (verify_fla_commit names the commit):
%     dh     the gradient of the state LEAVING chunk n: FLA's
%            chunk_gated_delta_rule_bwd_dhu stores it before the chunk's
%            update, so dh[last chunk of a sequence] = dht (0 without dht)
%            and dh[n] = aux.dh of chunk n + 1 (aux.dh: the state entering)
%     dAkk   the gradient of A_raw (the strictly lower Diag(beta) M whose
%            (I + A_raw)^-1 is Akk): -Akk^T dL/dAkk Akk^T as
%            chunk_kda_bwd_wy_dqkg_fused forms it, aux.dA_raw
%     dAqk   dL/dAqk times scale (chunk_kda_bwd_kernel_dAv), lower with the
%            diagonal: the gradient of the unscaled q.k products
%   With problem.fla false ("intermediates": "kdagdn") this library's own:
%     dh     aux.dh, the gradient of the state entering chunk n
%     dAkk   dA Diag(beta), the gradient of Akk = (I + A_raw)^-1
%     dAqk   aux.dAqk, the gradient of Aqk (which holds the scale)
%   Both: dw, du, dv_new are aux's (FLA keeps none of them in a tensor);
%   dAqk, dAkk rows padded to chunk_size (FLA's BT).  nb: FLA's batch size B.

function ref = verify_bwd_intermediates (op, t, ref, baux, aux, problem, nb)
  conv = {'Op', op, 'StateVFirst', problem.state_v_first, 'Batch', nb};
  bt = problem.chunk_size;
  if (isfield (t, 'dAqk'))
    d = baux.dAqk;
    if (problem.fla)
      d = d * problem.scale;
    end
    ref.dAqk = la_to_fla ('Aqk', verify_pad_rows (d, bt), conv{:});
  end
  if (isfield (t, 'dAkk'))
    if (problem.fla)
      d = baux.dA_raw;
    else
      d = dakk_from_da (baux.dA, aux);
    end
    ref.dAkk = la_to_fla ('Akk', verify_pad_rows (d, bt), conv{:});
  end
  if (isfield (t, 'dh'))
    d = baux.dh;
    if (problem.fla)
      d = leaving (d, baux.chunks, t, problem);
    end
    ref.dh = la_to_fla ('h', d, conv{:});
  end
  same = {'dw', 'w'; 'du', 'u'; 'dv_new', 'v_new'};
  for i = 1:size (same, 1)
    if (isfield (t, same{i, 1}))      % laid out as the forward quantity
      ref.(same{i, 1}) = la_to_fla (same{i, 2}, baux.(same{i, 1}), conv{:});
    end
  end
end

function d = leaving (dh, chunks, t, problem)
  % entering-state gradients (K x V x HV x chunk rows) -> leaving ones:
  % chunk r takes chunk r + 1's of the same sequence, a sequence's last
  % chunk takes that sequence's dht
  d = zeros (size (dh));
  dht = [];
  if (isfield (t, 'dht'))
    dht = la_from_fla ('dht', t.dht, 'StateVFirst', problem.state_v_first);
  end
  R = size (chunks, 1);
  for r = 1:R
    if (r < R && chunks(r + 1, 1) == chunks(r, 1))
      d(:, :, :, r) = dh(:, :, :, r + 1);
    elseif (~isempty (dht))
      d(:, :, :, r) = dht(:, :, :, chunks(r, 1));
    end
  end
end

function dakk = dakk_from_da (da, aux)
  % column j of each chunk matrix times beta_j (row j of the C x T array is
  % column j of the chunk matrix); A(i, i) = beta_i
  times_beta = @(c, cols, j, b) da(1:c, cols, j, b) .* diag (aux.A(1:c, cols, j, b));
  dakk = verify_per_chunk (aux, da, times_beta);
end
