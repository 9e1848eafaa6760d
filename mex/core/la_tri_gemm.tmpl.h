/*
 * la_tri_gemm.tmpl.h -- template: products with a c x c lower triangular
 * factor L of a chunk (A, Aqk), as two GEMMs that skip its zero block.
 *
 * Split at h = c/2, the zero block of L is rows [0, h) x columns [h, c):
 * a quarter of the multiply-adds of one dense c x c product (docs/flops.md,
 * section 5).  Chunks shorter than LA_TRI_SPLIT_MIN are done whole.  The
 * terms left out are exact zeros (L's upper part is stored as zeros).
 */

#define LA_TRI_SPLIT_MIN 32

static inline ptrdiff_t LA_FN(tri_split)(ptrdiff_t c)
{
  return c >= LA_TRI_SPLIT_MIN ? c / 2 : c;
}

/* Y = beta Y + X L' (X, Y: m x c with ld ldx, ldy; L ld C):
 * column i of Y takes columns j <= i of X. */
static void LA_FN(gemm_xlt)(ptrdiff_t m, ptrdiff_t c, const real_t *X, ptrdiff_t ldx,
                            const real_t *L, ptrdiff_t C, real_t beta, real_t *Y, ptrdiff_t ldy)
{
  const ptrdiff_t h = LA_FN(tri_split)(c);
  LA_GEMM('N', 'T', m, h, h, 1, X, ldx, L, C, beta, Y, ldy);
  if (h < c) LA_GEMM('N', 'T', m, c - h, c, 1, X, ldx, L + h, C, beta, Y + ldy * h, ldy);
}

/* Y = beta Y + X L (X, Y: m x c; L ld C): column j of Y takes columns
 * i >= j of X. */
static void LA_FN(gemm_xl)(ptrdiff_t m, ptrdiff_t c, const real_t *X, ptrdiff_t ldx,
                           const real_t *L, ptrdiff_t C, real_t beta, real_t *Y, ptrdiff_t ldy)
{
  const ptrdiff_t h = LA_FN(tri_split)(c);
  LA_GEMM('N', 'N', m, h, c, 1, X, ldx, L, C, beta, Y, ldy);
  if (h < c)
    LA_GEMM('N', 'N', m, c - h, c - h, 1, X + ldx * h, ldx, L + h + C * h, C, beta, Y + ldy * h,
            ldy);
}
