/*
 * la_stage_wy.tmpl.h -- template: the triangular solve of one chunk (the WY
 * form, docs/chunk_forward.md) and its backward:
 *   A_raw = Diag(beta) M (strictly lower),  A = (I + A_raw)^{-1} Diag(beta)
 *   (forward substitution, exact),  w = A KG,  u = A v
 * (stored K x c and V x c: column i is row i of the math's w, u, i.e.
 * KG A^T and v A^T).
 */

/* X = (I + L)^{-1} Diag(d) for the strictly lower L of a c x c block (d:
 * NULL for the identity); ld C.  Forward substitution: row i of X is
 * d_i e_i' - sum_{m<i} L(i,m) X(m,:), each entry's terms subtracted in the
 * order m = j, ..., i-1 of the reference BLAS trsm ('L', 'L', 'N', 'U') and
 * as accurate.  The rows are formed as the columns of X' (transposed in
 * place at the end), by strips of LA_STRIP entries held in registers over
 * the whole sum (a strip starting at j0 has no terms with m < j0), two rows
 * at a time (tri_strip; LA_STRIP: la_chunk_ws.tmpl.h): for blocks this
 * small, faster than a library trsm. */

/* Strip [j0, j0 + nj) of row i of X (stored as column i): its terms
 * m = j0, ..., i-1; with both, of rows i and i+1 together (two independent
 * chains in one pass), then row i+1's term m = i from the finished row i. */
static inline void LA_FN(tri_strip)(ptrdiff_t C, ptrdiff_t i, ptrdiff_t j0, ptrdiff_t nj,
                                    int both, const real_t *restrict L, real_t *restrict X)
{
  real_t *restrict xi = X + C * i + j0, *restrict xn = X + C * (i + 1) + j0;
  ptrdiff_t j, m;
  LA_FLOPS(2 * nj * (i - j0) + (both ? 2 * nj * (i + 1 - j0) : 0));
  if (nj == LA_STRIP && both) {
    real_t a0[LA_STRIP], a1[LA_STRIP], ln = L[i + 1 + C * i];
    for (j = 0; j < LA_STRIP; j++) { a0[j] = xi[j]; a1[j] = xn[j]; }
    for (m = j0; m < i; m++) {
      const real_t *restrict xm = X + C * m + j0;
      const real_t l0 = L[i + C * m], l1 = L[i + 1 + C * m];
#pragma omp simd
      for (j = 0; j < LA_STRIP; j++) { a0[j] -= l0 * xm[j]; a1[j] -= l1 * xm[j]; }
    }
    for (j = 0; j < LA_STRIP; j++) { xi[j] = a0[j]; xn[j] = a1[j] - ln * a0[j]; }
    return;
  }
  for (m = j0; m < i + both; m++) {
    const real_t *restrict xm = X + C * m + j0;
    const real_t l0 = L[i + C * m], l1 = both ? L[i + 1 + C * m] : 0;
    for (j = 0; j < nj; j++) {
      if (m < i) xi[j] -= l0 * xm[j];
      if (both) xn[j] -= l1 * xm[j];
    }
  }
}

static void LA_FN(tri_solve_lower)(ptrdiff_t c, ptrdiff_t C, const real_t *restrict L,
                                   const real_t *d, real_t *restrict X)
{
  ptrdiff_t i, j, j0, r;
  for (i = 0; i < c; i += 2) {
    const int both = i + 1 < c;
    for (r = i; r <= i + both; r++) { /* row r of X, as a column */
      memset(X + C * r, 0, sizeof(real_t) * (size_t)c);
      X[r + C * r] = d ? d[r] : 1;
    }
    /* strips j0 <= i; row i+1's strip j0 = i+1, if any, has no terms */
    for (j0 = 0; j0 <= i; j0 += LA_STRIP)
      LA_FN(tri_strip)(C, i, j0, c - j0 < LA_STRIP ? c - j0 : LA_STRIP, both, L, X);
  }
  for (j = 0; j < c; j++)
    for (i = j + 1; i < c; i++) {
      X[i + C * j] = X[j + C * i];
      X[j + C * i] = 0;
    }
}

/* The same solve reachable from outside the core, for the bench that
 * times it against blocked inverses (validation/bench/c/bench_solve.c);
 * declared in la_internal.h. */
void LA_FN(la_tri_solve_lower)(ptrdiff_t c, ptrdiff_t C, const real_t *L, const real_t *d,
                               real_t *X)
{
  LA_FN(tri_solve_lower)(c, C, L, d, X);
}

/* Y := (I + L)^{-T} Y for the strictly lower L and a full c x c Y (ld C):
 * backward substitution on U = L^T, which it first writes into the scratch
 * U (c x c, ld C) so that every update runs down a column.  Entry i of a
 * column subtracts U(i,m) y_m for m = c-1, ..., i+1 in that order (as the
 * plain column algorithm does); by strips of LA_STRIP rows, bottom strip
 * first: column by column the terms of the rows below the strip accumulate
 * in registers; then the strip is solved within itself for all columns at
 * once, on its transpose in the scratch S (LA_STRIP x c: row i of the strip
 * contiguous), so that each update runs along c columns (the short column
 * updates inside a strip were most of the solve's time).  Same operations
 * in the same order per entry as column by column: the same bits. */
static void LA_FN(tri_solve_lower_t)(ptrdiff_t c, ptrdiff_t C, const real_t *restrict L,
                                     real_t *restrict U, real_t *restrict Y, real_t *restrict S)
{
  ptrdiff_t i, j, m, i0;
  LA_FLOPS(c * c * (c - 1));
  for (m = 0; m < c; m++)
    for (i = 0; i < m; i++) U[i + C * m] = L[m + C * i];
  for (i0 = (c - 1) / LA_STRIP * LA_STRIP; i0 >= 0; i0 -= LA_STRIP) {
    const ptrdiff_t i1 = c - i0 < LA_STRIP ? c : i0 + LA_STRIP, nb = i1 - i0;
    for (j = 0; j < c; j++) { /* the rows below the strip (none for the bottom one) */
      const real_t *restrict yj = Y + C * j;
      if (nb == LA_STRIP) { /* fixed length: acc stays in registers */
        real_t acc[LA_STRIP];
        for (i = 0; i < LA_STRIP; i++) acc[i] = yj[i0 + i];
        for (m = c - 1; m >= i1; m--) {
          const real_t *restrict um = U + C * m + i0;
          const real_t ym = yj[m];
#pragma omp simd
          for (i = 0; i < LA_STRIP; i++) acc[i] -= um[i] * ym;
        }
        for (i = 0; i < LA_STRIP; i++) S[j + c * i] = acc[i];
      } else { /* a short bottom strip: nothing below */
        for (i = 0; i < nb; i++) S[j + c * i] = yj[i0 + i];
      }
    }
    for (m = nb - 1; m > 0; m--) { /* within the strip, all columns at once */
      const real_t *restrict sm = S + c * m;
      for (i = 0; i < m; i++) {
        real_t *restrict si = S + c * i;
        const real_t u = U[i0 + i + C * (i0 + m)];
#pragma omp simd
        for (j = 0; j < c; j++) si[j] -= u * sm[j];
      }
    }
    for (j = 0; j < c; j++)
      for (i = 0; i < nb; i++) Y[i0 + i + C * j] = S[j + c * i];
  }
}

/* A_raw = Diag(beta) M (strictly lower, zero elsewhere) into ws->Araw. */
static inline void LA_FN(chunk_araw)(ptrdiff_t c, const real_t *M, const real_t *beta,
                                     LA_FN(chunk_ws) *ws)
{
  const ptrdiff_t C = ws->C;
  ptrdiff_t i, j;
  for (j = 0; j < c; j++)
    for (i = 0; i < c; i++) ws->Araw[i + C * j] = i > j ? beta[i] * M[i + C * j] : 0;
}

/* w = A KG and u = A v as GEMMs (stored: KG A^T, v A^T) from ws->Am,
 * ws->KG and v. */
static inline void LA_FN(chunk_wu)(ptrdiff_t K, ptrdiff_t V, ptrdiff_t c, const real_t *v,
                                   LA_FN(chunk_ws) *ws)
{
  LA_STAGE(LA_ST_WU, LA_FN(gemm_xlt)(K, c, ws->KG, K, ws->Am, ws->C, 0, ws->w, K);
           LA_FN(gemm_xlt)(V, c, v, V, ws->Am, ws->C, 0, ws->u, V));
}

/* A = L^{-1} Diag(beta) (ws->Am) from ws->Araw by forward substitution
 * (tri_solve_lower). */
static inline void LA_FN(chunk_a)(ptrdiff_t c, const real_t *beta, LA_FN(chunk_ws) *ws)
{
  LA_STAGE(LA_ST_SOLVE, LA_FN(tri_solve_lower)(c, ws->C, ws->Araw, beta, ws->Am));
}

/* A (ws->Am), w and u from ws->Araw, ws->KG and v. */
static inline void LA_FN(chunk_wy)(ptrdiff_t K, ptrdiff_t V, ptrdiff_t c, const real_t *v,
                                   const real_t *beta, LA_FN(chunk_ws) *ws)
{
  LA_FN(chunk_a)(c, beta, ws);
  LA_FN(chunk_wu)(K, V, c, v, ws);
}

/* Backward: from dw (b->dW) and du (b->dvn, the gradient of v_new = u - w S
 * with respect to u), write dKG (b->dKG), dv and dbeta of the chunk's steps,
 * and dM = Diag(beta) dL (strictly lower) into b->dL.  In the direct form
 * (v_new = A X, X = v - KG S; b->X the chunk's X, not NULL) b->dW is already
 * dKG = -dX S^T and b->Z's second half -dX (cbwd_state_chain,
 * cbwd_state_local); b->dKG then points at b->dW (within the call the form
 * does not change, and the ring is carved again for every item).  keep (NULL: not wanted; 'Intermediates'): 2 C x C blocks (ld C)
 * that receive dA and dA_raw (strictly lower, zero elsewhere) of the chunk. */
static void LA_FN(cbwd_wy)(ptrdiff_t K, ptrdiff_t V, ptrdiff_t c, const real_t *vc,
                           const real_t *bc, real_t *dv, real_t *dbeta, const LA_FN(chunk_ws) *ws,
                           LA_FN(cbwd_ws) *b, real_t *keep)
{
  const ptrdiff_t C = ws->C;
  ptrdiff_t i, j;

  if (b->X) { /* the direct form, v_new = A X:  dA = dv_new X^T,  dv = dX,  dKG = -dX S^T */
    LA_GEMM('T', 'N', c, c, V, 1, b->dvn, V, b->X, V, 0, b->Y, C);
    for (i = 0; i < V * c; i++) dv[i] = -b->Z[V * c + i];
    b->dKG = b->dW; /* the state's GEMM formed it (cbwd_state_local): no copy */
  } else { /* w = A KG, u = A v:  dA = dw KG^T + du v^T,  dKG = A^T dw,  dv = A^T du */
    LA_GEMM('T', 'N', c, c, K, 1, b->dW, K, ws->KG, K, 0, b->Y, C);
    LA_GEMM('T', 'N', c, c, V, 1, b->dvn, V, vc, V, 1, b->Y, C);
    LA_FN(gemm_xl)(K, c, b->dW, K, ws->Am, C, 0, b->dKG, K);
    LA_FN(gemm_xl)(V, c, b->dvn, V, ws->Am, C, 0, dv, V);
  }
  if (keep) memcpy(keep, b->Y, sizeof(real_t) * (size_t)(C * c));
  /* A = L^{-1} Diag(beta):  Y = L^{-T} dA,  dbeta_i = Y(i,i),  dL = -Y A^T */
  LA_FN(tri_solve_lower_t)(c, C, ws->Araw, b->dL, b->Y, b->Ys); /* dL: free until below */
  LA_GEMM('N', 'T', c, c, c, -1, b->Y, C, ws->Am, C, 0, b->dL, C);
  if (keep)
    for (j = 0; j < c; j++)
      for (i = 0; i < c; i++) keep[C * C + i + C * j] = i > j ? b->dL[i + C * j] : 0;
  /* A_raw = Diag(beta) M (strictly lower): dbeta_i += sum_j dL(i,j) M(i,j),
   * dM = Diag(beta) dL; the upper part of dL is dropped */
  for (i = 0; i < c; i++) {
    real_t db = b->Y[i + C * i];
    for (j = 0; j < i; j++) {
      db += b->dL[i + C * j] * ws->M[i + C * j];
      b->dL[i + C * j] *= bc[i];
    }
    dbeta[i] = db;
  }
  for (j = 0; j < c; j++)
    for (i = 0; i <= j; i++) b->dL[i + C * j] = 0;
}
