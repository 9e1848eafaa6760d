/*
 * la_stage_wy.tmpl.h -- template: the triangular solve of one chunk (the WY
 * form, docs/chunk_forward.md) and its backward:
 *   A_raw = Diag(beta) M (strictly lower),  A = (I + A_raw)^{-1} Diag(beta)
 *   (forward substitution, exact),  w = A KG,  u = A v
 * (stored K x c and V x c: column i is row i of the math's w, u, i.e.
 * KG A^T and v A^T).
 */

/* A_raw = Diag(beta) M (strictly lower, zero elsewhere) into ws->Araw. */
static inline void LA_FN(chunk_araw)(ptrdiff_t c, const real_t *M, const real_t *beta,
                                     LA_FN(chunk_ws) *ws)
{
  const ptrdiff_t C = ws->C;
  ptrdiff_t i, j;
  for (j = 0; j < c; j++)
    for (i = 0; i < c; i++) ws->Araw[i + C * j] = i > j ? beta[i] * M[i + C * j] : 0;
}

/* A (ws->Am), w and u from ws->Araw, ws->KG and v. */
static inline void LA_FN(chunk_wy)(ptrdiff_t K, ptrdiff_t V, ptrdiff_t c, const real_t *v,
                                   const real_t *beta, LA_FN(chunk_ws) *ws)
{
  const ptrdiff_t C = ws->C;
  ptrdiff_t i, j;
  /* A = L^{-1} Diag(beta) by forward substitution (trsm on a c x c block),
   * then w = A KG and u = A v as GEMMs (stored: KG A^T, v A^T) */
  for (j = 0; j < c; j++)
    for (i = 0; i < c; i++) ws->Am[i + C * j] = i == j ? beta[i] : 0;
  LA_TRSM('L', 'L', 'N', 'U', c, c, 1, ws->Araw, C, ws->Am, C);
  LA_GEMM('N', 'T', K, c, c, 1, ws->KG, K, ws->Am, C, 0, ws->w, K);
  LA_GEMM('N', 'T', V, c, c, 1, v, V, ws->Am, C, 0, ws->u, V);
}

/* Backward: from dw (b->dW) and du (b->dvn, the gradient of v_new = u - w S
 * with respect to u), write dKG (b->dKG), dv and dbeta of the chunk's steps,
 * and dM = Diag(beta) dL (strictly lower) into b->dL.  keep (NULL: not
 * wanted; 'Intermediates'): 2 C x C blocks (ld C) that receive dA and
 * dA_raw (strictly lower, zero elsewhere) of the chunk. */
static void LA_FN(cbwd_wy)(ptrdiff_t K, ptrdiff_t V, ptrdiff_t c, const real_t *vc,
                           const real_t *bc, real_t *dv, real_t *dbeta, const LA_FN(chunk_ws) *ws,
                           LA_FN(cbwd_ws) *b, real_t *keep)
{
  const ptrdiff_t C = ws->C;
  ptrdiff_t i, j;

  /* w = A KG, u = A v:  dA = dw KG^T + du v^T,  dKG = A^T dw,  dv = A^T du */
  LA_GEMM('T', 'N', c, c, K, 1, b->dW, K, ws->KG, K, 0, b->Y, C);
  LA_GEMM('T', 'N', c, c, V, 1, b->dvn, V, vc, V, 1, b->Y, C);
  LA_GEMM('N', 'N', K, c, c, 1, b->dW, K, ws->Am, C, 0, b->dKG, K);
  LA_GEMM('N', 'N', V, c, c, 1, b->dvn, V, ws->Am, C, 0, dv, V);
  if (keep) memcpy(keep, b->Y, sizeof(real_t) * (size_t)(C * c));
  /* A = L^{-1} Diag(beta):  Y = L^{-T} dA,  dbeta_i = Y(i,i),  dL = -Y A^T */
  LA_TRSM('L', 'L', 'T', 'U', c, c, 1, ws->Araw, C, b->Y, C);
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
