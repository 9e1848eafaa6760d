/* la_transform_l2norm.tmpl.h -- template: the UseQKL2Norm transform,
 * q_used = q / ||q||, k_used = k / ||k|| (norm over K, per step and head),
 * forward and backward. */

/* x / ||x|| over the first dimension of a K x M array; r = 1/||x|| (0 for a
 * zero column, which then maps to zero).  The norm is formed from x / max|x|
 * so that squaring cannot overflow or underflow. */
static inline void LA_FN(la_l2norm_fwd)(ptrdiff_t K, ptrdiff_t M, const real_t *x, real_t *y, real_t *r)
{
  ptrdiff_t m;
#pragma omp parallel for schedule(static)
  for (m = 0; m < M; m++) {
    const real_t *xm = x + K * m;
    real_t *ym = y + K * m;
    real_t mx = 0, ss = 0, inv;
    ptrdiff_t i;
    for (i = 0; i < K; i++) {
      real_t a = LA_FABS(xm[i]);
      if (a > mx || a != a) mx = a;
    }
    if (mx > 0 && mx == mx && mx - mx == 0) {
      real_t rm = 1 / mx;
      for (i = 0; i < K; i++) {
        real_t a = xm[i] * rm;
        ss += a * a;
      }
      inv = rm / LA_SQRT(ss);
    } else if (mx == 0) {
      inv = 0;
    } else { /* NaN or Inf inside: let it propagate */
      for (i = 0; i < K; i++) ss += xm[i] * xm[i];
      inv = 1 / LA_SQRT(ss);
    }
    r[m] = inv;
    for (i = 0; i < K; i++) ym[i] = xm[i] * inv;
  }
}

/* dx = r (dy - y (y . dy)), in place on d. */
static inline void LA_FN(la_l2norm_bwd)(ptrdiff_t K, ptrdiff_t M, const real_t *y, const real_t *r, real_t *d)
{
  ptrdiff_t m;
#pragma omp parallel for schedule(static)
  for (m = 0; m < M; m++) {
    const real_t *ym = y + K * m;
    real_t *dm = d + K * m;
    real_t dot = 0;
    ptrdiff_t i;
    for (i = 0; i < K; i++) dot += ym[i] * dm[i];
    for (i = 0; i < K; i++) dm[i] = r[m] * (dm[i] - ym[i] * dot);
  }
}
