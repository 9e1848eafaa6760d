/*
 * la_stage_decay.tmpl.h -- template: the decays, per step and cumulative
 * over a chunk, the gated q and k, and the backward of the cumulative gate.
 *
 * For one chunk of c <= C steps with per-step decays a_i = exp(g_i):
 *   eG(:,i)  = exp(G_i)           = a_0 .* ... .* a_i        (G_i = g_0+...+g_i)
 *   eGc(:,i) = exp(G_{c-1} - G_i) = a_{i+1} .* ... .* a_{c-1}
 *   QG = eG .* q,  KG = eG .* k,  KC = eGc .* k
 * Every factor is a running product of per-step decays, <= 1 when g <= 0:
 * nothing overflows however strong the gates (docs/stability.md).
 */

/* The per-step decay a = exp(g_used) as a K-vector (GDN: one exp, copied). */
static inline void LA_FN(la_decay)(const la_problem *p, const real_t *g, real_t *a)
{
  ptrdiff_t i;
  if (p->kda) {
#pragma omp simd
    for (i = 0; i < p->K; i++) a[i] = LA_EXP(g[i]);
  } else {
    const real_t e = LA_EXP(g[0]);
    for (i = 0; i < p->K; i++) a[i] = e;
  }
}

/* The decays and gated q, k of one chunk in two fused passes (see top):
 * forward over the steps a, eG, QG, KG; backward eGc, KC.  g: gate of the
 * chunk's first step (K per step for KDA, 1 for GDN).  eG and eGc are kept
 * in full only with all (the backward's reverse sweep reads them); else
 * only gamma = eG(:, c-1) is (the state update's), and eGc(:, 0). Each
 * element is one product of a running product: the values do not depend
 * on how the loops are vectorised. */
static inline void LA_FN(chunk_gating)(const la_problem *p, ptrdiff_t c, const real_t *restrict q,
                                       const real_t *restrict k, const real_t *g, int all,
                                       LA_FN(chunk_ws) *ws)
{
  const ptrdiff_t K = p->K, GD = la_gate_dim(p);
  real_t *restrict a = ws->a, *restrict eG = ws->eG, *restrict eGc = ws->eGc;
  real_t *restrict QG = ws->QG, *restrict KG = ws->KG, *restrict KC = ws->KC;
  ptrdiff_t i, x;
  for (i = 0; i < c; i++) {
    const ptrdiff_t o = K * i, op = all && i > 0 ? K * (i - 1) : 0, oe = all ? o : 0;
    LA_FN(la_decay)(p, g + GD * i, a + o);
#pragma omp simd
    for (x = 0; x < K; x++) {
      const real_t e = i > 0 ? eG[op + x] * a[o + x] : a[o + x];
      eG[oe + x] = e;
      QG[o + x] = e * q[o + x];
      KG[o + x] = e * k[o + x];
    }
  }
  if (!all && c > 1) memcpy(eG + K * (c - 1), eG, sizeof(real_t) * (size_t)K);
  for (i = c - 1; i >= 0; i--) {
    const ptrdiff_t o = K * i, on = K * (i + 1), oe = all ? o : 0, oen = all ? on : 0;
#pragma omp simd
    for (x = 0; x < K; x++) {
      const real_t e = i + 1 < c ? eGc[oen + x] * a[on + x] : 1;
      eGc[oe + x] = e;
      KC[o + x] = e * k[o + x];
    }
  }
}

/* Backward of the decays and gated q, k of one chunk, and collection: from
 * the chunk's gradients of QG, KG, KC (b->dQG, dKG, dKC), of the gated
 * products (b->dQr, dKr, dKc, dGp: la_stage_gated) and of gamma = exp(G_last)
 * (b->dgam), write dq, dk (K x c) and dg (gate layout) of the chunk's steps;
 * qc, kc, dq, dk, dg point at its first step. */
static void LA_FN(chunk_decays_bwd)(const la_problem *p, ptrdiff_t c, const real_t *qc,
                                    const real_t *kc, real_t *dq, real_t *dk, real_t *dg,
                                    const LA_FN(chunk_ws) *ws, LA_FN(cbwd_ws) *b)
{
  const ptrdiff_t K = p->K, C = ws->C;
  const real_t scale = (real_t)p->scale;
  const real_t *gam = ws->eG + K * (c - 1);
  ptrdiff_t i, x;

  /* collect dq, dk and the cumulative-gate gradient dG per step */
  for (i = 0; i < c; i++) {
    const real_t *eg = ws->eG + K * i, *egc = ws->eGc + K * i;
    const real_t *qi = qc + K * i, *ki = kc + K * i;
    real_t *dqi = dq + K * i, *dki = dk + K * i, *dGi = b->dG + K * i;
    const real_t *dQG = b->dQG + K * i, *dKG = b->dKG + K * i, *dKC = b->dKC + K * i;
    const real_t *dQr = b->dQr + K * i, *dKr = b->dKr + K * i, *dKc = b->dKc + K * i;
    const real_t cd = scale * b->dAqk[i + C * i]; /* the diagonal pair of Aqk */
#pragma omp simd
    for (x = 0; x < K; x++) {
      dqi[x] = eg[x] * dQG[x] + dQr[x] + cd * ki[x];
      dki[x] = eg[x] * dKG[x] + egc[x] * dKC[x] + dKr[x] + dKc[x] + cd * qi[x];
      dGi[x] = eg[x] * (qi[x] * dQG[x] + ki[x] * dKG[x]);   /* + dGp below */
    }
  }
  /* gamma = exp(G_last) depends on every step of the chunk */
  for (x = 0; x < K; x++) b->dG[x + K * (c - 1)] += gam[x] * b->dgam[x];
  /* G_i = g_0 + ... + g_i  =>  dg_t = sum_{i >= t} dG_i */
  for (i = c - 2; i >= 0; i--)
    for (x = 0; x < K; x++) b->dG[x + K * i] += b->dG[x + K * (i + 1)];
  /* KC_i = exp(G_last - G_i) k_i depends on the steps after i: add
   * sum_{i < t} KC_i .* dKC_i to dg_t directly (as an exclusive prefix sum,
   * not as +/- terms of dG that would cancel); and the gated products'
   * part dGp, final per step (see cbwd_gated_products); KDA's dg is dG,
   * written straight into it */
  for (x = 0; x < K; x++) b->e[x] = 0;
  for (i = 0; i < c; i++) {
    const real_t *restrict egc = ws->eGc + K * i, *restrict ki = kc + K * i;
    const real_t *restrict dKC = b->dKC + K * i, *restrict dGp = b->dGp + K * i;
    const real_t *dGi = b->dG + K * i; /* GDN: dGo is dGi */
    real_t *dGo = (p->kda ? dg : b->dG) + K * i, *restrict e = b->e;
#pragma omp simd
    for (x = 0; x < K; x++) {
      const real_t term = egc[x] * ki[x] * dKC[x];
      dGo[x] = dGi[x] + (e[x] + dGp[x]);
      e[x] += term;
    }
  }
  if (!p->kda) {
    for (i = 0; i < c; i++) {
      real_t sum = 0;
      for (x = 0; x < K; x++) sum += b->dG[x + K * i];
      dg[i] = sum;
    }
  }
}
