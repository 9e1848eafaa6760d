/*
 * la_transform_beta.tmpl.h -- template: the BetaSigmoid transform, forward
 * and backward: beta_used = f sigmoid(beta), f = 2 with allow_neg_eigval
 * (eigenvalues of the update down to -1), else 1.  n: elements of beta.
 */

static void LA_FN(la_beta_fwd)(const la_problem *p, ptrdiff_t n, const real_t *br, real_t *bu)
{
  const real_t f = p->allow_neg_eigval ? 2 : 1;
  ptrdiff_t i;
#pragma omp simd
  for (i = 0; i < n; i++) bu[i] = f * LA_FN(la_sigmoid)(br[i]);
}

/* dbeta: dL/dbeta_used on entry, dL/dbeta (raw) on return. */
static void LA_FN(la_beta_bwd)(const la_problem *p, ptrdiff_t n, const real_t *br, real_t *dbeta)
{
  const real_t fs = p->allow_neg_eigval ? 2 : 1;
  ptrdiff_t i;
#pragma omp simd
  for (i = 0; i < n; i++) dbeta[i] *= fs * LA_FN(la_sigmoid)(br[i]) * LA_FN(la_sigmoid)(-br[i]);
}

/* Public (la_core.h): beta as a step uses it, the transform above when
 * beta_sigmoid (for callers that bound or check with it). */
void LA_FN(la_beta_used)(const la_problem *p, ptrdiff_t n, const real_t *beta, real_t *out)
{
  if (p->beta_sigmoid)
    LA_FN(la_beta_fwd)(p, n, beta, out);
  else if (out != beta)
    memcpy(out, beta, sizeof(real_t) * (size_t)n);
}
