function f = flops_exec (what, T, C, K, V)
  % f = flops_exec (what, T, C, K, V): the flops the C core executes for one
  % (sequence, value head) of length T, chunk size C (what: 'rec_fwd',
  % 'rec_bwd', 'chunk_fwd', 'chunk_fwd_wy', 'chunk_bwd', 'chunk_bwd_wy':
  % 'chunk_fwd', 'chunk_bwd' in the direct form of v_new, the _wy ones in the
  % WY form, which 'Emulate' runs), as counted by its instrumented build
  % (mex/core/la_flops.h; docs/flops.md, section 5): every BLAS call at its
  % full size (2mnk per gemm), the unit triangular solves as the core's own
  % substitution runs them (tri_solve below for A, c^2(c-1) for the
  % transposed solve of the backward), the
  % recurrent steps as in (65)-(66) with V rounded up to a multiple of 4 (the
  % kernels' zero padding), the gated products' diagonal sub-blocks
  % statement by statement.  Elementwise O(T(K+V)) work is not counted.
  V4 = 4 * ceil (V / 4);
  switch what
    case 'rec_fwd'
      f = flops_model ('rec_fwd_exact', T, C, K, V4);
    case 'rec_bwd'
      f = flops_model ('rec_bwd_exact', T, C, K, V4);
    case {'chunk_fwd', 'chunk_fwd_wy', 'chunk_bwd', 'chunk_bwd_wy'}
      f = 0;
      NC = ceil (T / C);
      for n = 1:NC
        c = min (C, T - (n - 1) * C);
        if (strcmp (what, 'chunk_fwd'))
          % A, then per chunk v_new = A (v - KG S): no w = A KG
          f = f + gated (c, K, 2) + tri_solve (c) + 2 * V * tri (c) + 6 * c * K * V + 2 * V * tri (c);
        elseif (strcmp (what, 'chunk_fwd_wy'))
          f = f + gated (c, K, 2) + wy (c, K, V) + 6 * c * K * V + 2 * V * tri (c);
        else
          % forward sweep: M and Aqk (kept), no state after the last chunk
          f = f + gated (c, K, 2) + wy (c, K, V) + 2 * c * K * V + 2 * c * K * V * (n < NC);
          % reverse sweep: no gated products; output, state, WY and gated backward
          f = f + 2 * V * (c ^ 2 + tri (c)) + 12 * c * K * V ...
                + 2 * (K + V) * (c ^ 2 + tri (c)) + c ^ 2 * (c - 1) + 2 * c ^ 3 ...
                + gated_bwd (c, K);
          if (strcmp (what, 'chunk_bwd'))
            % the direct form: no w = A KG in the forward sweep; in reverse
            % dA = dv_new X^T (one GEMM of c x c x V), dKG from the state's
            % GEMM, dX = A^T dv_new (= dv): 2 K (c^2 + t(c)) less
            f = f - 2 * K * tri (c) - 2 * K * (c ^ 2 + tri (c));
          end
        end
      end
    otherwise
      error ('flops_exec: unknown path ''%s''', what);
  end
end

function f = gated (c, K, ngemm)
  % the gated products of one chunk: per sub-block of nb rows starting at r,
  % 2K per diagonal entry and 5K per pair below it, and ngemm GEMMs
  % (Aqk and/or M) of nb x r x K for the pairs left of it
  f = 0;
  for r = 0:16:c - 1
    nb = min (16, c - r);
    f = f + K * nb * (5 * nb - 1) / 2 + ngemm * 2 * nb * r * K;
  end
end

function f = wy (c, K, V)
  % A = L^{-1} Diag(beta) (tri_solve), w, u
  f = tri_solve (c) + 2 * (K + V) * tri (c);
end

function n = tri (c)
  % a product with a c x c lower triangular factor (la_tri_gemm.tmpl.h):
  % two GEMMs that skip the zero block rows [0, h) x columns [h, c),
  % h = floor (c / 2), for c >= 32; one dense product below
  h = c;
  if (c >= 32)
    h = floor (c / 2);
  end
  n = h ^ 2 + (c - h) * c;
end

function f = tri_solve (c)
  % the core's forward substitution (la_stage_wy.tmpl.h): row i of A by
  % strips of 16 entries starting at j0 <= i, i - j0 multiply-adds each
  f = 0;
  for i = 0:c - 1
    for j0 = 0:16:i
      f = f + 2 * min (16, c - j0) * (i - j0);
    end
  end
end

function f = gated_bwd (c, K)
  % 13K per pair of a diagonal sub-block; four GEMMs of nb x r x K left of it
  f = 0;
  for r = 0:16:c - 1
    nb = min (16, c - r);
    f = f + 13 * K * nb * (nb - 1) / 2 + 4 * 2 * nb * r * K;
  end
end
