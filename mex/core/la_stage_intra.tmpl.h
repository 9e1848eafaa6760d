/*
 * la_stage_intra.tmpl.h -- template: everything inside one chunk that does
 * not depend on the state, in stage order: decays and gated q, k
 * (la_stage_decay), the gated products (la_stage_gated), the triangular
 * solve and w, u (la_stage_wy).  The forward and the backward's forward
 * sweep need Aqk (LA_CI_AQK) and M, A (LA_CI_A: the direct form of v_new,
 * whose state step applies A itself, la_stage_state) and with 'Emulate' w, u
 * too (LA_CI_WU: the WY form); the backward's reverse sweep recomputes only
 * the decays, in full (LA_CI_DECAYS), and the gated q, k: no gated products.
 */

static inline void LA_FN(chunk_intra)(const la_problem *p, ptrdiff_t c, const real_t *q,
                                      const real_t *k, const real_t *v, const real_t *g,
                                      const real_t *beta, int what, LA_FN(chunk_ws) *ws)
{
  LA_STAGE(LA_ST_GATING, LA_FN(chunk_gating)(p, c, q, k, g, what & LA_CI_DECAYS, ws));
  LA_FN(chunk_gated_products)(p, c, q, k, what, ws);
  if (!(what & (LA_CI_WU | LA_CI_A))) return;
  LA_STAGE(LA_ST_SOLVE, LA_FN(chunk_araw)(c, ws->M, beta, ws));
  if (what & LA_CI_WU) LA_FN(chunk_wy)(p->K, p->V, c, v, beta, ws);
  else LA_FN(chunk_a)(c, beta, ws);
}
