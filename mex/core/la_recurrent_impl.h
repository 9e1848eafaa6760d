/*
 * la_recurrent_impl.h -- template: the recurrent (step by step) forward and
 * its hand-written backpropagation through time.  docs/recurrence.md derives
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

/* Columns are processed four at a time (LA_X4 repeats a statement for
 * c = 0..3) so the K-vectors a, k, q and the gradient accumulators are loaded
 * once per four columns; internally V is padded to V4 = 4 ceil(V/4) with zero
 * columns (zero state, v, do: they stay zero and contribute nothing). */
#ifndef LA_X4
#define LA_X4(M) M(0) M(1) M(2) M(3)
/* u_j = beta (v_j - p_j) for column j + c of the block */
#define LA_DELTA(c) u##c = beta * (v[j + c] - p##c);
#endif

/* One forward step from Sin to S (K x V4; the same array, or another: the
 * backward's recomputation writes each state next to the last without a
 * copy); v padded to V4; o (V4) may be NULL.
 * Two passes per block of four columns: the first only reads S
 * (p = S'^T k = S^T (a .* k)), the second writes S_t = a .* S + k u^T once:
 * the kernel is bound by stores, so S' is never stored. ak: K work. */
static inline void LA_FN(rec_step)(ptrdiff_t K, ptrdiff_t V4, const real_t *Sin, real_t *S,
                                   const real_t *restrict a, const real_t *restrict k,
                                   const real_t *restrict q, const real_t *restrict v,
                                   real_t beta, real_t scale, real_t *restrict o,
                                   real_t *restrict ak)
{
  ptrdiff_t i, j;
  for (i = 0; i < K; i++) ak[i] = a[i] * k[i];
  for (j = 0; j < V4; j += 4) {
    const real_t *i0 = Sin + K * j, *i1 = i0 + K, *i2 = i1 + K, *i3 = i2 + K;
    real_t *s0 = S + K * j, *s1 = s0 + K, *s2 = s1 + K, *s3 = s2 + K;
    real_t p0 = 0, p1 = 0, p2 = 0, p3 = 0, r0 = 0, r1 = 0, r2 = 0, r3 = 0, u0, u1, u2, u3;
#define LA_P(c) p##c += i##c[i] * ak[i];
#pragma omp simd reduction(+ : p0, p1, p2, p3)
    for (i = 0; i < K; i++) { LA_X4(LA_P) }
#undef LA_P
    LA_X4(LA_DELTA)
    if (o) {
#define LA_UPDATE_OUT(c) s##c[i] = a[i] * i##c[i] + k[i] * u##c; r##c += s##c[i] * q[i];
#pragma omp simd reduction(+ : r0, r1, r2, r3)
      for (i = 0; i < K; i++) { LA_X4(LA_UPDATE_OUT) }
#undef LA_UPDATE_OUT
#define LA_OUT(c) o[j + c] = scale * r##c;
      LA_X4(LA_OUT)
#undef LA_OUT
    } else {
#define LA_UPDATE(c) s##c[i] = a[i] * i##c[i] + k[i] * u##c;
#pragma omp simd
      for (i = 0; i < K; i++) { LA_X4(LA_UPDATE) }
#undef LA_UPDATE
    }
  }
}

/* Per-thread workspace of the recurrent paths: the state (K x V4) and
 * padded per-step vectors.  States are kept padded everywhere. */
typedef struct {
  real_t *S, *a, *ak, *vp, *op, *dvp, *dgv;
} LA_FN(rec_ws);

static real_t *LA_FN(rec_ws_alloc)(ptrdiff_t K, ptrdiff_t V, LA_FN(rec_ws) *w)
{
  const ptrdiff_t V4 = la_pad4(V);
  real_t *buf;
  memset(w, 0, sizeof *w);
  buf = la_alloc(K * V4 + 3 * K + 3 * V4, sizeof(real_t));
  if (!buf) return NULL;
  memset(buf, 0, sizeof(real_t) * (size_t)(K * V4 + 3 * K + 3 * V4));
  w->S = buf;
  w->a = buf + K * V4;
  w->ak = w->a + K;
  w->dgv = w->ak + K;
  w->vp = w->dgv + K;
  w->op = w->vp + V4;
  w->dvp = w->op + V4;
  return buf;
}

/* load a state and zero its padding columns */
static inline void LA_FN(rec_load)(const la_problem *p, const real_t *src, real_t *S)
{
  LA_FN(la_state_load)(p, src, S);
  memset(S + p->K * p->V, 0, sizeof(real_t) * (size_t)(p->K * (la_pad4(p->V) - p->V)));
}

/* Forward of one (sequence, value head). */
static void LA_FN(rec_fwd_item)(const la_problem *p, const LA_FN(la_prep) *pp, const la_fwd_io *io,
                                ptrdiff_t n, ptrdiff_t hv, LA_FN(rec_ws) *w)
{
  const LA_FN(la_item) it = LA_FN(la_item_fwd)(p, pp, io, n, hv);
  const ptrdiff_t K = p->K, V = p->V, V4 = la_pad4(p->V), GD = la_gate_dim(p);
  const real_t *q = it.q, *k = it.k, *v = it.v, *g = it.g, *beta = it.beta;
  ptrdiff_t t;

  LA_FN(rec_load)(p, it.h0, w->S);
  for (t = 0; t < it.s.len; t++) {
    memcpy(w->vp, v + V * t, sizeof(real_t) * (size_t)V);
    LA_FN(la_decay)(p, g + GD * t, w->a);
    LA_FN(rec_step)(K, V4, w->S, w->S, w->a, k + K * t, q + K * t, w->vp, beta[t],
                    (real_t)p->scale, w->op, w->ak);
    memcpy(it.o + V * t, w->op, sizeof(real_t) * (size_t)V);
  }
  LA_FN(la_state_store)(p, w->S, it.ht);
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
    LA_FN(rec_ws) w;
    real_t *buf = LA_FN(rec_ws_alloc)(p->K, p->V, &w);
    if (!buf) {
#pragma omp atomic write
      fail = 1;
    }
#pragma omp for schedule(dynamic, 1)
    for (it = 0; it < items; it++)
      if (buf) LA_FN(rec_fwd_item)(p, &pp, io, it / p->HV, it % p->HV, &w);
    free(buf);
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
static inline void LA_FN(rec_step_bwd)(ptrdiff_t K, ptrdiff_t V4, const real_t *restrict Sp,
                                       real_t *restrict dS, const real_t *restrict a,
                                       const real_t *restrict k, const real_t *restrict q,
                                       const real_t *restrict v, real_t beta, real_t scale,
                                       const real_t *restrict dout, real_t *restrict dq,
                                       real_t *restrict dk, real_t *restrict dv,
                                       real_t *restrict dgv, real_t *restrict dbeta,
                                       real_t *restrict ak)
{
  ptrdiff_t i, j;
  real_t db = 0, qk = 0;
  for (i = 0; i < K; i++) {
    dq[i] = dk[i] = dgv[i] = 0;
    ak[i] = a[i] * k[i];
    qk += q[i] * k[i];
  }
  for (j = 0; j < V4; j += 4) {
    const real_t *restrict sp0 = Sp + K * j, *restrict sp1 = sp0 + K, *restrict sp2 = sp1 + K;
    const real_t *restrict sp3 = sp2 + K;
    real_t *restrict ds0 = dS + K * j, *restrict ds1 = ds0 + K, *restrict ds2 = ds1 + K;
    real_t *restrict ds3 = ds2 + K;
    const real_t d0 = scale * dout[j], d1 = scale * dout[j + 1], d2 = scale * dout[j + 2],
                 d3 = scale * dout[j + 3];
    real_t p0 = 0, p1 = 0, p2 = 0, p3 = 0, e0 = 0, e1 = 0, e2 = 0, e3 = 0;
    real_t u0, u1, u2, u3;
    /* read-only pass: p = S'^T k and dS^T k (dS before the output term) */
#define LA_P(c) p##c += sp##c[i] * ak[i]; e##c += ds##c[i] * k[i];
#pragma omp simd reduction(+ : p0, p1, p2, p3, e0, e1, e2, e3)
    for (i = 0; i < K; i++) { LA_X4(LA_P) }
#undef LA_P
    LA_X4(LA_DELTA)
    /* du = (dS + d q)^T k;  dbeta, dv;  then e = dp = -beta du */
#define LA_DU(c) e##c += d##c * qk; db += e##c * (v[j + c] - p##c); dv[j + c] = beta * e##c; \
  e##c *= -beta;
    LA_X4(LA_DU)
#undef LA_DU
    /* the one writing pass, per element of column c:
     *   S' = a sp,  S_t = S' + k u,  dS += d q   (o = s S_t^T q)
     *   dq += d S_t,  dk += dS u + S' dp
     *   dS' = dS + k dp,  dg += dS' S',  dS_{t-1} = a dS' */
#define LA_BWD(c) { const real_t spi = a[i] * sp##c[i], dsi = ds##c[i] + d##c * q[i]; \
  const real_t dsp = dsi + k[i] * e##c; \
  qa += d##c * (spi + k[i] * u##c); ka += dsi * u##c + spi * e##c; ga += dsp * spi; \
  ds##c[i] = a[i] * dsp; }
#pragma omp simd
    for (i = 0; i < K; i++) {
      real_t qa = 0, ka = 0, ga = 0;
      LA_X4(LA_BWD)
      dq[i] += qa;
      dk[i] += ka;
      dgv[i] += ga;
    }
#undef LA_BWD
  }
  *dbeta = db;
}

/* Backward of one (sequence, value head).  ckpt: the (padded) state entering
 * every segment of C steps; seg: the C states S_{t-1} of the segment being
 * reversed; w->S holds dS. */
static void LA_FN(rec_bwd_item)(const la_problem *p, const LA_FN(la_bwd_frame) *f,
                                const la_bwd_io *io, ptrdiff_t n, ptrdiff_t hv, real_t *ckpt,
                                real_t *seg, LA_FN(rec_ws) *w)
{
  const LA_FN(la_item) it = LA_FN(la_item_bwd)(p, f, io, n, hv);
  const la_seq s = it.s;
  const ptrdiff_t K = p->K, V = p->V, V4 = la_pad4(p->V), KV = p->K * V4, GD = la_gate_dim(p);
  const ptrdiff_t C = p->chunk;
  const real_t *q = it.q, *k = it.k, *v = it.v, *g = it.g, *beta = it.beta, *dout = it.dout;
  real_t *dq = it.dq, *dk = it.dk, *dv = it.dv, *dg = it.dg, *dbeta = it.dbeta;
  const real_t scale = (real_t)p->scale;
  const ptrdiff_t nseg = (s.len + C - 1) / C;
  real_t *S = seg; /* the segment buffer is free during the forward sweep */
  ptrdiff_t c, t, i;

  /* forward sweep: keep the state entering every segment */
  LA_FN(rec_load)(p, it.h0, S);
  for (c = 0; c + 1 < nseg; c++) {
    memcpy(ckpt + KV * c, S, sizeof(real_t) * (size_t)KV);
    for (t = c * C; t < (c + 1) * C; t++) {
      memcpy(w->vp, v + V * t, sizeof(real_t) * (size_t)V);
      LA_FN(la_decay)(p, g + GD * t, w->a);
      LA_FN(rec_step)(K, V4, S, S, w->a, k + K * t, NULL, w->vp, beta[t], scale, NULL, w->ak);
    }
  }
  if (nseg > 0) memcpy(ckpt + KV * (nseg - 1), S, sizeof(real_t) * (size_t)KV);

  /* reverse sweep; w->S is dS */
  LA_FN(rec_load)(p, it.dht, w->S);
  for (c = nseg - 1; c >= 0; c--) {
    const ptrdiff_t t0 = c * C, t1 = (c + 1) * C < s.len ? (c + 1) * C : s.len;
    memcpy(seg, ckpt + KV * c, sizeof(real_t) * (size_t)KV);
    for (t = t0; t < t1 - 1; t++) { /* seg[t - t0] = S_{t-1} */
      memcpy(w->vp, v + V * t, sizeof(real_t) * (size_t)V);
      LA_FN(la_decay)(p, g + GD * t, w->a);
      LA_FN(rec_step)(K, V4, seg + KV * (t - t0), seg + KV * (t - t0 + 1), w->a, k + K * t, NULL,
                      w->vp, beta[t], scale, NULL, w->ak);
    }
    for (t = t1 - 1; t >= t0; t--) {
      memcpy(w->vp, v + V * t, sizeof(real_t) * (size_t)V);
      memcpy(w->op, dout + V * t, sizeof(real_t) * (size_t)V);
      LA_FN(la_decay)(p, g + GD * t, w->a);
      LA_FN(rec_step_bwd)(K, V4, seg + KV * (t - t0), w->S, w->a, k + K * t, q + K * t, w->vp,
                          beta[t], scale, w->op, dq + K * t, dk + K * t, w->dvp, w->dgv,
                          dbeta + t, w->ak);
      memcpy(dv + V * t, w->dvp, sizeof(real_t) * (size_t)V);
      if (p->kda) {
        memcpy(dg + K * t, w->dgv, sizeof(real_t) * (size_t)K);
      } else {
        real_t sum = 0;
        for (i = 0; i < K; i++) sum += w->dgv[i];
        dg[t] = sum;
      }
    }
  }
  LA_FN(la_state_store)(p, w->S, it.dh0);
}

int LA_FN(la_recurrent_bwd)(const la_problem *p, const la_bwd_io *io)
{
  LA_FN(la_bwd_frame) f;
  const ptrdiff_t items = p->N * p->HV, KV = p->K * la_pad4(p->V), C = p->chunk;
  ptrdiff_t it, maxlen = 0, n;
  int rc, fail = 0, saved;

  for (n = 0; n < p->N; n++) {
    const la_seq s = la_seq_of(p, n);
    if (s.len > maxlen) maxlen = s.len;
  }
  if (!la_workspace_ok(items, (double)sizeof(real_t) * (double)KV *
                                 (double)((maxlen + C - 1) / C + (C < maxlen ? C : maxlen))))
    return LA_ENOMEM;
  rc = LA_FN(la_bwd_start)(p, io, &f);
  if (rc) return rc;
  saved = la_blas_threads_begin();
#pragma omp parallel
  {
    LA_FN(rec_ws) w;
    const ptrdiff_t nck = (maxlen + C - 1) / C;
    const ptrdiff_t segn = C < maxlen ? C : (maxlen > 0 ? maxlen : 1);
    real_t *ckpt = la_alloc(KV * nck, sizeof(real_t));
    real_t *seg = la_alloc(KV * segn, sizeof(real_t));
    real_t *buf = LA_FN(rec_ws_alloc)(p->K, p->V, &w);
    if (!ckpt || !seg || !buf) {
#pragma omp atomic write
      fail = 1;
    }
#pragma omp for schedule(dynamic, 1)
    for (it = 0; it < items; it++)
      if (ckpt && seg && buf) LA_FN(rec_bwd_item)(p, &f, io, it / p->HV, it % p->HV, ckpt, seg, &w);
    free(ckpt);
    free(seg);
    free(buf);
  }
  la_blas_threads_end(saved);
  return LA_FN(la_bwd_end)(p, io, &f, fail);
}

#include "la_tmpl_end.h"
