/*
 * la_gva.tmpl.h -- template: grouped value attention in the backward.  The
 * value heads of one group (HV / H of them) read the same q, k head; each
 * writes its dq, dk into its own slice of a K x T x HV x B buffer (no two
 * threads write the same memory), and la_gva_sum adds the slices of every
 * group into the K x T x H x B gradients.
 */

static void LA_FN(la_gva_sum)(const la_problem *p, const real_t *dq_hv, const real_t *dk_hv,
                              real_t *dq, real_t *dk)
{
  const ptrdiff_t G = p->HV / p->H, KT = p->K * p->T;
  ptrdiff_t bh;
#pragma omp parallel for schedule(static) if (!la_small_call(p))
  for (bh = 0; bh < p->H * p->B; bh++) {
    const ptrdiff_t h = bh % p->H, b = bh / p->H;
    real_t *oq = dq + KT * (h + p->H * b), *ok = dk + KT * (h + p->H * b);
    ptrdiff_t j, i;
    memset(oq, 0, sizeof(real_t) * (size_t)KT);
    memset(ok, 0, sizeof(real_t) * (size_t)KT);
    for (j = 0; j < G; j++) {
      const real_t *sq = dq_hv + KT * (h * G + j + p->HV * b);
      const real_t *sk = dk_hv + KT * (h * G + j + p->HV * b);
      for (i = 0; i < KT; i++) {
        oq[i] += sq[i];
        ok[i] += sk[i];
      }
    }
  }
}
