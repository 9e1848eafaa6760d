/*
 * la_recurrent_impl.h -- template: the recurrent (step by step) forward and
 * its hand-written backpropagation through time.  docs/recurrent.md derives
 * every line; validation/tests/test_recurrent_bwd.m checks them.
 *
 * One step, per sequence and value head (a = exp(g_t), s = scale):
 *   S'  = Diag(a) S_{t-1}
 *   p   = S'^T k_t,   u = beta_t (v_t - p)
 *   S_t = S' + k_t u^T
 *   o_t = s S_t^T q_t
 * S is K x V column-major, so each column S(:, j) is contiguous and the whole
 * step is one pass over the columns, each done in two vector loops.
 */
#include "la_common_impl.h"
#include "la_tmpl.h"

/* One forward step on S; o may be NULL (recomputation in the backward). */
static inline void LA_FN(rec_step)(ptrdiff_t K, ptrdiff_t V, real_t *restrict S,
                                   const real_t *restrict a, const real_t *restrict k,
                                   const real_t *restrict q, const real_t *restrict v,
                                   real_t beta, real_t scale, real_t *restrict o)
{
  ptrdiff_t i, j;
  for (j = 0; j < V; j++) {
    real_t *restrict s = S + K * j;
    real_t pj = 0, acc = 0, u;
#pragma omp simd reduction(+ : pj)
    for (i = 0; i < K; i++) {
      s[i] *= a[i];
      pj += s[i] * k[i];
    }
    u = beta * (v[j] - pj);
    if (o) {
#pragma omp simd reduction(+ : acc)
      for (i = 0; i < K; i++) {
        s[i] += k[i] * u;
        acc += s[i] * q[i];
      }
      o[j] = scale * acc;
    } else {
#pragma omp simd
      for (i = 0; i < K; i++) s[i] += k[i] * u;
    }
  }
}

/* Forward of one (sequence, value head). */
static void LA_FN(rec_fwd_item)(const la_problem *p, const LA_FN(la_prep) *pp, const la_fwd_io *io,
                                ptrdiff_t n, ptrdiff_t hv, real_t *S, real_t *a)
{
  const la_seq s = la_seq_of(p, n);
  const ptrdiff_t K = p->K, V = p->V, GD = la_gate_dim(p);
  const real_t *q = pp->q + la_off_qk(p, s, hv), *k = pp->k + la_off_qk(p, s, hv);
  const real_t *v = (const real_t *)io->v + la_off_v(p, s, hv);
  const real_t *g = pp->g + la_off_gate(p, s, hv);
  const real_t *beta = pp->beta + la_off_beta(p, s, hv);
  real_t *o = (real_t *)io->o + la_off_v(p, s, hv);
  const real_t *h0 = io->h0 ? (const real_t *)io->h0 + la_off_state(p, n, hv) : NULL;
  ptrdiff_t t;

  LA_FN(la_state_load)(p, h0, S);
  for (t = 0; t < s.len; t++) {
    LA_FN(la_decay)(p, g + GD * t, a);
    LA_FN(rec_step)(K, V, S, a, k + K * t, q + K * t, v + V * t, beta[t], (real_t)p->scale,
                    o + V * t);
  }
  if (io->ht) LA_FN(la_state_store)(p, S, (real_t *)io->ht + la_off_state(p, n, hv));
}

int LA_FN(la_recurrent_fwd)(const la_problem *p, const la_fwd_io *io)
{
  LA_FN(la_prep) pp;
  const ptrdiff_t items = p->N * p->HV;
  ptrdiff_t it;
  int rc, fail = 0, saved;

  rc = LA_FN(la_prep_fwd)(p, io->q, io->k, io->g, io->beta, io->A_log, io->dt_bias, &pp);
  if (rc) return rc;
  saved = la_blas_threads_begin();
#pragma omp parallel
  {
    real_t *S = la_alloc(p->K * p->V + p->K, sizeof(real_t));
    if (!S) {
#pragma omp atomic write
      fail = 1;
    }
#pragma omp for schedule(dynamic, 1)
    for (it = 0; it < items; it++)
      if (S) LA_FN(rec_fwd_item)(p, &pp, io, it / p->HV, it % p->HV, S, S + p->K * p->V);
    free(S);
  }
  la_blas_threads_end(saved);
  LA_FN(la_prep_free)(&pp);
  return fail ? LA_ENOMEM : LA_OK;
}

/* ---- backward ---------------------------------------------------------------
 * Given dS = dL/dS_t (everything after step t already folded in) and do_t,
 * one reverse step produces dq_t, dk_t, dv_t, dbeta_t, dg_t and turns dS into
 * dL/dS_{t-1}.  Per column j, with S' = Diag(a) S_{t-1}:
 *   dS(:,j) += s q do_j                 (o_t = s S_t^T q)
 *   dq      += s S_t(:,j) do_j
 *   dk      += dS(:,j) u_j,   du_j = dS(:,j) . k        (S_t = S' + k u^T)
 *   dbeta   += du_j (v_j - p_j),  dv_j = beta du_j,  dp_j = -beta du_j
 *   dS'(:,j) = dS(:,j) + k dp_j,  dk += S'(:,j) dp_j     (p = S'^T k)
 *   dg      += dS'(:,j) .* S'(:,j)                       (S' = exp(g) .* S)
 *   dS(:,j)  = a .* dS'(:,j)
 */
static inline void LA_FN(rec_step_bwd)(ptrdiff_t K, ptrdiff_t V, const real_t *restrict Sp,
                                       real_t *restrict dS, const real_t *restrict a,
                                       const real_t *restrict k, const real_t *restrict q,
                                       const real_t *restrict v, real_t beta, real_t scale,
                                       const real_t *restrict dout, real_t *restrict dq,
                                       real_t *restrict dk, real_t *restrict dv,
                                       real_t *restrict dgv, real_t *restrict dbeta)
{
  ptrdiff_t i, j;
  real_t db = 0;
  for (i = 0; i < K; i++) dq[i] = dk[i] = dgv[i] = 0;
  for (j = 0; j < V; j++) {
    const real_t *restrict sp = Sp + K * j;
    real_t *restrict ds = dS + K * j;
    const real_t dj = scale * dout[j];
    real_t pj = 0, u, du = 0, dp;
#pragma omp simd reduction(+ : pj)
    for (i = 0; i < K; i++) pj += a[i] * sp[i] * k[i];
    u = beta * (v[j] - pj);
#pragma omp simd reduction(+ : du)
    for (i = 0; i < K; i++) {
      const real_t st = a[i] * sp[i] + k[i] * u;
      dq[i] += dj * st;
      ds[i] += dj * q[i];
      dk[i] += ds[i] * u;
      du += ds[i] * k[i];
    }
    db += du * (v[j] - pj);
    dv[j] = beta * du;
    dp = -beta * du;
#pragma omp simd
    for (i = 0; i < K; i++) {
      const real_t spi = a[i] * sp[i];
      const real_t dsp = ds[i] + k[i] * dp;
      dk[i] += spi * dp;
      dgv[i] += dsp * spi;
      ds[i] = a[i] * dsp;
    }
  }
  *dbeta = db;
}

/* Workspace of one backward item: checkpoints every C steps, the C states of
 * the segment being reversed, dS, and small vectors. */
typedef struct {
  real_t *ckpt, *seg, *dS, *a, *dgv;
  ptrdiff_t nckpt;
} LA_FN(rec_bwd_ws);

static void LA_FN(rec_bwd_item)(const la_problem *p, const LA_FN(la_bwd_frame) *f,
                                const la_bwd_io *io, ptrdiff_t n, ptrdiff_t hv,
                                LA_FN(rec_bwd_ws) *w)
{
  const la_seq s = la_seq_of(p, n);
  const ptrdiff_t K = p->K, V = p->V, KV = p->K * p->V, GD = la_gate_dim(p), C = p->chunk;
  const real_t *q = f->pp.q + la_off_qk(p, s, hv), *k = f->pp.k + la_off_qk(p, s, hv);
  const real_t *v = (const real_t *)io->v + la_off_v(p, s, hv);
  const real_t *g = f->pp.g + la_off_gate(p, s, hv);
  const real_t *beta = f->pp.beta + la_off_beta(p, s, hv);
  const real_t *dout = (const real_t *)io->dout + la_off_v(p, s, hv);
  real_t *dq = f->dq + la_off_qk_expanded(p, s, hv), *dk = f->dk + la_off_qk_expanded(p, s, hv);
  real_t *dv = (real_t *)io->dv + la_off_v(p, s, hv);
  real_t *dg = (real_t *)io->dg + la_off_gate(p, s, hv);
  real_t *dbeta = (real_t *)io->dbeta + la_off_beta(p, s, hv);
  const real_t scale = (real_t)p->scale;
  const ptrdiff_t nseg = (s.len + C - 1) / C;
  real_t *S;
  ptrdiff_t c, t, i;

  /* forward sweep: keep the state entering every segment */
  S = w->seg; /* segment buffer is free now: use its first state as S */
  LA_FN(la_state_load)(p, io->h0 ? (const real_t *)io->h0 + la_off_state(p, n, hv) : NULL, S);
  for (c = 0; c < nseg; c++) {
    const ptrdiff_t t1 = (c + 1) * C < s.len ? (c + 1) * C : s.len;
    memcpy(w->ckpt + KV * c, S, sizeof(real_t) * (size_t)KV);
    if (c == nseg - 1) break; /* the last segment is recomputed below */
    for (t = c * C; t < t1; t++) {
      LA_FN(la_decay)(p, g + GD * t, w->a);
      LA_FN(rec_step)(K, V, S, w->a, k + K * t, NULL, v + V * t, beta[t], scale, NULL);
    }
  }

  /* reverse sweep */
  LA_FN(la_state_load)(p, io->dht ? (const real_t *)io->dht + la_off_state(p, n, hv) : NULL,
                       w->dS);
  for (c = nseg - 1; c >= 0; c--) {
    const ptrdiff_t t0 = c * C, t1 = (c + 1) * C < s.len ? (c + 1) * C : s.len;
    memcpy(w->seg, w->ckpt + KV * c, sizeof(real_t) * (size_t)KV);
    for (t = t0; t < t1 - 1; t++) { /* seg[t - t0] = S_{t-1} */
      real_t *nx = w->seg + KV * (t - t0 + 1);
      memcpy(nx, w->seg + KV * (t - t0), sizeof(real_t) * (size_t)KV);
      LA_FN(la_decay)(p, g + GD * t, w->a);
      LA_FN(rec_step)(K, V, nx, w->a, k + K * t, NULL, v + V * t, beta[t], scale, NULL);
    }
    for (t = t1 - 1; t >= t0; t--) {
      LA_FN(la_decay)(p, g + GD * t, w->a);
      LA_FN(rec_step_bwd)(K, V, w->seg + KV * (t - t0), w->dS, w->a, k + K * t, q + K * t,
                          v + V * t, beta[t], scale, dout + V * t, dq + K * t, dk + K * t,
                          dv + V * t, w->dgv, dbeta + t);
      if (p->kda) {
        for (i = 0; i < K; i++) dg[K * t + i] = w->dgv[i];
      } else {
        real_t sum = 0;
        for (i = 0; i < K; i++) sum += w->dgv[i];
        dg[t] = sum;
      }
    }
  }
  if (io->dh0) LA_FN(la_state_store)(p, w->dS, (real_t *)io->dh0 + la_off_state(p, n, hv));
}

int LA_FN(la_recurrent_bwd)(const la_problem *p, const la_bwd_io *io)
{
  LA_FN(la_bwd_frame) f;
  const ptrdiff_t items = p->N * p->HV, KV = p->K * p->V, C = p->chunk;
  ptrdiff_t it, maxlen = 0, n;
  int rc, fail = 0, saved;

  for (n = 0; n < p->N; n++) {
    const la_seq s = la_seq_of(p, n);
    if (s.len > maxlen) maxlen = s.len;
  }
  rc = LA_FN(la_bwd_start)(p, io, &f);
  if (rc) return rc;
  saved = la_blas_threads_begin();
#pragma omp parallel
  {
    LA_FN(rec_bwd_ws) w;
    const ptrdiff_t nck = (maxlen + C - 1) / C;
    const ptrdiff_t segn = C < maxlen ? C : (maxlen > 0 ? maxlen : 1);
    w.ckpt = la_alloc(KV * nck, sizeof(real_t));
    w.seg = la_alloc(KV * segn, sizeof(real_t));
    w.dS = la_alloc(KV + 2 * p->K, sizeof(real_t));
    w.a = w.dS ? w.dS + KV : NULL;
    w.dgv = w.dS ? w.dS + KV + p->K : NULL;
    if (!w.ckpt || !w.seg || !w.dS) {
#pragma omp atomic write
      fail = 1;
    }
#pragma omp for schedule(dynamic, 1)
    for (it = 0; it < items; it++)
      if (w.ckpt && w.seg && w.dS) LA_FN(rec_bwd_item)(p, &f, io, it / p->HV, it % p->HV, &w);
    free(w.ckpt);
    free(w.seg);
    free(w.dS);
  }
  la_blas_threads_end(saved);
  if (fail) {
    if (f.own_dqk) { free(f.dq); free(f.dk); }
    LA_FN(la_prep_free)(&f.pp);
    return LA_ENOMEM;
  }
  LA_FN(la_bwd_finish)(p, io, &f);
  return LA_OK;
}

#include "la_tmpl_end.h"
