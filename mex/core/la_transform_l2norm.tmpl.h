/* la_transform_l2norm.tmpl.h -- template: the UseQKL2Norm transform,
 * q_used = q / sqrt(||q||^2 + eps) (norm over K, per step and head; eps =
 * L2NormEps, 0 by default), forward and backward. */

/* 1 / sqrt(mx^2 ss + eps) for eps > 0, where ss = sum (x / mx)^2 and rm =
 * 1 / mx (rm may be Inf for a subnormal mx): eps / mx^2 is formed as
 * (eps rm) rm, and where it overflows mx^2 ss is far below eps. */
static inline real_t LA_FN(la_l2norm_inv_eps)(real_t ss, real_t rm, real_t eps)
{
  const real_t t = eps * rm * rm;
  if (t - t != 0) return 1 / LA_SQRT(eps);
  return rm / LA_SQRT(ss + t);
}

/* x / sqrt(||x||^2 + eps) over the first dimension of a K x M array; r =
 * that factor; par: over the threads (else on the calling thread).  With
 * eps = 0 a zero column maps to zero with r = 0; the norm is formed from
 * x / max|x| so that squaring cannot overflow or underflow. */
static inline void LA_FN(la_l2norm_fwd)(ptrdiff_t K, ptrdiff_t M, double eps_d, const real_t *x,
                                        real_t *y, real_t *r, int par)
{
  const real_t eps = (real_t)eps_d;
  ptrdiff_t m;
#pragma omp parallel for schedule(static) if (par)
  for (m = 0; m < M; m++) {
    const real_t *xm = x + K * m;
    real_t *ym = y + K * m;
    real_t mx = 0, ss = 0, inv;
    int nan = 0;
    ptrdiff_t i;
    /* max |x| (an exact result in any order) and whether a NaN is there */
#pragma omp simd reduction(max : mx) reduction(| : nan)
    for (i = 0; i < K; i++) {
      const real_t a = LA_FABS(xm[i]);
      mx = a > mx ? a : mx;
      nan |= a != a;
    }
    if (nan) mx = (real_t)NAN; /* to the NaN or Inf case below */
    if (mx > 0 && mx == mx && mx - mx == 0) {
      real_t rm = 1 / mx;
#pragma omp simd simdlen(LA_SUM_LANES) reduction(+ : ss)
      for (i = 0; i < K; i++) {
        const real_t a = xm[i] * rm;
        ss += a * a;
      }
      inv = eps > 0 ? LA_FN(la_l2norm_inv_eps)(ss, rm, eps) : rm / LA_SQRT(ss);
    } else if (mx == 0) {
      inv = eps > 0 ? 1 / LA_SQRT(eps) : 0;
    } else { /* NaN or Inf inside: let it propagate */
      for (i = 0; i < K; i++) ss += xm[i] * xm[i];
      inv = 1 / LA_SQRT(ss + eps);
    }
    r[m] = inv;
    for (i = 0; i < K; i++) ym[i] = xm[i] * inv;
  }
}

/* dx = r (dy - y (y . dy)), in place on d; the same with eps > 0, since
 * y = r x gives dy_i/dx_j = r (delta_ij - y_i y_j) for any eps. */
static inline void LA_FN(la_l2norm_bwd)(ptrdiff_t K, ptrdiff_t M, const real_t *y, const real_t *r,
                                        real_t *d, int par)
{
  ptrdiff_t m;
#pragma omp parallel for schedule(static) if (par)
  for (m = 0; m < M; m++) {
    const real_t *ym = y + K * m;
    real_t *dm = d + K * m;
    real_t dot = 0;
    ptrdiff_t i;
#pragma omp simd simdlen(LA_SUM_LANES) reduction(+ : dot)
    for (i = 0; i < K; i++) dot += ym[i] * dm[i];
    for (i = 0; i < K; i++) dm[i] = r[m] * (dm[i] - ym[i] * dot);
  }
}
