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

/* The decays of one chunk: a, eG, eGc (see top). g: gate of the chunk's
 * first step (K per step for KDA, 1 for GDN). */
static inline void LA_FN(chunk_decays)(const la_problem *p, ptrdiff_t c, const real_t *g,
                                       LA_FN(chunk_ws) *ws)
{
  const ptrdiff_t K = p->K, GD = la_gate_dim(p);
  ptrdiff_t i, x;
  for (i = 0; i < c; i++) LA_FN(la_decay)(p, g + GD * i, ws->a + K * i);
  for (x = 0; x < K; x++) ws->eG[x] = ws->a[x];
  for (i = 1; i < c; i++)
    for (x = 0; x < K; x++) ws->eG[x + K * i] = ws->eG[x + K * (i - 1)] * ws->a[x + K * i];
  for (x = 0; x < K; x++) ws->eGc[x + K * (c - 1)] = 1;
  for (i = c - 2; i >= 0; i--)
    for (x = 0; x < K; x++)
      ws->eGc[x + K * i] = ws->eGc[x + K * (i + 1)] * ws->a[x + K * (i + 1)];
}

/* The gated q and k of the chunk: QG, KG, KC (see top). */
static inline void LA_FN(chunk_gate_qk)(ptrdiff_t K, ptrdiff_t c, const real_t *q, const real_t *k,
                                        LA_FN(chunk_ws) *ws)
{
  ptrdiff_t i, x;
  for (i = 0; i < c; i++)
    for (x = 0; x < K; x++) {
      ws->QG[x + K * i] = ws->eG[x + K * i] * q[x + K * i];
      ws->KG[x + K * i] = ws->eG[x + K * i] * k[x + K * i];
      ws->KC[x + K * i] = ws->eGc[x + K * i] * k[x + K * i];
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
   * part dGp, final per step (see cbwd_gated_products) */
  for (x = 0; x < K; x++) b->e[x] = 0;
  for (i = 0; i < c; i++)
    for (x = 0; x < K; x++) {
      const real_t term = ws->eGc[x + K * i] * kc[x + K * i] * b->dKC[x + K * i];
      b->dG[x + K * i] += b->e[x] + b->dGp[x + K * i];
      b->e[x] += term;
    }
  if (p->kda) {
    memcpy(dg, b->dG, sizeof(real_t) * (size_t)(K * c));
  } else {
    for (i = 0; i < c; i++) {
      real_t sum = 0;
      for (x = 0; x < K; x++) sum += b->dG[x + K * i];
      dg[i] = sum;
    }
  }
}
