/*
 * la_cond.tmpl.h -- template: the conditioning of a chunk's unit lower
 * triangular system L = I + A_raw, for the 'Intermediates' of the chunked
 * forward (docs/stability.md, "Conditioning of the chunk system"):
 *   cond_1(L) = ||L||_1 ||L^{-1}||_1
 * exactly (not an estimate): L^{-1} is formed explicitly by the same
 * forward substitution as A (a c x c trsm), which costs c^3/3 flops per
 * chunk, only when aux->cond is asked for.
 */

/* Largest column sum of |X| over the c x c block X (ld C). */
static real_t LA_FN(la_norm1)(ptrdiff_t c, ptrdiff_t C, const real_t *X)
{
  real_t best = 0;
  ptrdiff_t i, j;
  for (j = 0; j < c; j++) {
    real_t col = 0;
    for (i = 0; i < c; i++) col += LA_FABS(X[i + C * j]);
    if (col > best) best = col;
  }
  return best;
}

/* cond_1(I + Araw) of the c x c strictly lower Araw (ld C); X: c x c
 * scratch (ld C), overwritten with (I + Araw)^{-1}.  Inf when the inverse
 * overflows. */
static real_t LA_FN(la_chunk_cond1)(ptrdiff_t c, ptrdiff_t C, const real_t *Araw, real_t *X)
{
  real_t lnorm = 0;
  ptrdiff_t i, j;
  for (j = 0; j < c; j++) {
    real_t col = 1; /* the unit diagonal */
    for (i = j + 1; i < c; i++) col += LA_FABS(Araw[i + C * j]);
    if (col > lnorm) lnorm = col;
  }
  LA_FN(tri_solve_lower)(c, C, Araw, NULL, X);
  return lnorm * LA_FN(la_norm1)(c, C, X);
}
