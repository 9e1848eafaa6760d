/*
 * la_common_impl.h -- template: what every path (recurrent and chunked,
 * forward and backward) shares: the in-kernel input transforms and their
 * backward, the GVA group sum, and state load / store.
 *
 * Forward: from the raw inputs make the quantities the recurrence uses,
 *   q_used = q / ||q||,  k_used = k / ||k||             (qk_l2norm)
 *   g_used = -exp(A_log) softplus(g + dt_bias)          (gate_in_kernel)
 *          = lower_bound * sigmoid(exp(A_log) (g + dt_bias))  (with lower bound)
 *   beta_used = f sigmoid(beta), f = 2 if allow_neg_eigval else 1  (beta_sigmoid)
 * An input that is not transformed is used in place (no copy).
 *
 * Backward: the algorithms write gradients with respect to the *used*
 * quantities; la_bwd_finish turns them into gradients of the raw inputs
 * (and of A_log, dt_bias), after summing dq, dk over the GVA group.
 *
 * Every formula is the overflow-free one: softplus and sigmoid are evaluated
 * on the side of zero where exp() cannot overflow.
 */
/* Included by several templates of one translation unit: once per class. */
#if LA_DOUBLE
#ifdef LA_COMMON_DONE_D
#define LA_COMMON_SKIP
#else
#define LA_COMMON_DONE_D
#endif
#else
#ifdef LA_COMMON_DONE_S
#define LA_COMMON_SKIP
#else
#define LA_COMMON_DONE_S
#endif
#endif
#ifndef LA_COMMON_SKIP
#include "la_tmpl.h"
#include <math.h>

typedef struct {
  const real_t *q, *k, *g, *beta; /* what the algorithm reads            */
  real_t *own_q, *own_k, *own_g, *own_beta; /* buffers owned (or NULL)    */
  real_t *rq, *rk;                /* 1/||q||, 1/||k|| per (t, h, b)        */
} LA_FN(la_prep);

static inline real_t LA_FN(la_sigmoid)(real_t x)
{
  if (x >= 0) return 1 / (1 + LA_EXP(-x));
  real_t e = LA_EXP(x);
  return e / (1 + e);
}

static inline real_t LA_FN(la_softplus)(real_t x)
{
  return (x > 0 ? x : 0) + LA_LOG1P(LA_EXP(-LA_FABS(x)));
}

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

static inline void LA_FN(la_prep_free)(LA_FN(la_prep) *pp)
{
  free(pp->own_q);
  free(pp->own_k);
  free(pp->own_g);
  free(pp->own_beta);
  free(pp->rq);
  free(pp->rk);
  memset(pp, 0, sizeof *pp);
}

static inline int LA_FN(la_prep_fwd)(const la_problem *p, const void *q, const void *k, const void *g,
                              const void *beta, const void *A_log, const void *dt_bias,
                              LA_FN(la_prep) *pp)
{
  const ptrdiff_t nqk = p->K * p->T * p->H * p->B;   /* elements of q  */
  const ptrdiff_t ncol = p->T * p->H * p->B;         /* columns of q   */
  const ptrdiff_t GD = la_gate_dim(p);
  const ptrdiff_t nsteps = p->T * p->HV * p->B;      /* elements of beta */
  memset(pp, 0, sizeof *pp);
  pp->q = (const real_t *)q;
  pp->k = (const real_t *)k;
  pp->g = (const real_t *)g;
  pp->beta = (const real_t *)beta;

  if (p->qk_l2norm) {
    pp->own_q = la_alloc(nqk, sizeof(real_t));
    pp->own_k = la_alloc(nqk, sizeof(real_t));
    pp->rq = la_alloc(ncol, sizeof(real_t));
    pp->rk = la_alloc(ncol, sizeof(real_t));
    if (!pp->own_q || !pp->own_k || !pp->rq || !pp->rk) goto nomem;
    LA_FN(la_l2norm_fwd)(p->K, ncol, (const real_t *)q, pp->own_q, pp->rq);
    LA_FN(la_l2norm_fwd)(p->K, ncol, (const real_t *)k, pp->own_k, pp->rk);
    pp->q = pp->own_q;
    pp->k = pp->own_k;
  }
  if (p->gate_in_kernel) {
    const real_t *gr = (const real_t *)g, *al = (const real_t *)A_log;
    const real_t *db = (const real_t *)dt_bias;
    ptrdiff_t hv;
    pp->own_g = la_alloc(GD * nsteps, sizeof(real_t));
    if (!pp->own_g) goto nomem;
#pragma omp parallel for schedule(static)
    for (hv = 0; hv < p->HV; hv++) {
      const real_t A = LA_EXP(al[hv]);
      ptrdiff_t b, t, i;
      for (b = 0; b < p->B; b++)
        for (t = 0; t < p->T; t++) {
          const ptrdiff_t o = GD * (t + p->T * (hv + p->HV * b));
          for (i = 0; i < GD; i++) {
            const real_t x = gr[o + i] + (db ? db[i + GD * hv] : 0);
            pp->own_g[o + i] = p->has_lower_bound
                                   ? (real_t)p->lower_bound * LA_FN(la_sigmoid)(A * x)
                                   : -A * LA_FN(la_softplus)(x);
          }
        }
    }
    pp->g = pp->own_g;
  }
  if (p->beta_sigmoid) {
    const real_t *br = (const real_t *)beta;
    const real_t f = p->allow_neg_eigval ? 2 : 1;
    ptrdiff_t i;
    pp->own_beta = la_alloc(nsteps, sizeof(real_t));
    if (!pp->own_beta) goto nomem;
    for (i = 0; i < nsteps; i++) pp->own_beta[i] = f * LA_FN(la_sigmoid)(br[i]);
    pp->beta = pp->own_beta;
  }
  return LA_OK;
nomem:
  LA_FN(la_prep_free)(pp);
  return LA_ENOMEM;
}

/* ---- backward frame ------------------------------------------------------
 * la_bwd_start: prepare the inputs and point dq, dk at where the per-head
 * work writes them (a K x T x HV x B buffer when HV > H, so that value heads
 * of one group never write the same memory).  la_bwd_finish: sum over the
 * group, then chain through the transforms. */
typedef struct {
  LA_FN(la_prep) pp;
  real_t *dq, *dk;               /* per value head gradients (used q, k)  */
  int own_dqk;
} LA_FN(la_bwd_frame);

static inline int LA_FN(la_bwd_start)(const la_problem *p, const la_bwd_io *io, LA_FN(la_bwd_frame) *f)
{
  int rc;
  memset(f, 0, sizeof *f);
  rc = LA_FN(la_prep_fwd)(p, io->q, io->k, io->g, io->beta, io->A_log, io->dt_bias, &f->pp);
  if (rc) return rc;
  if (p->HV != p->H) {
    const ptrdiff_t n = p->K * p->T * p->HV * p->B;
    f->dq = la_alloc(n, sizeof(real_t));
    f->dk = la_alloc(n, sizeof(real_t));
    f->own_dqk = 1;
    if (!f->dq || !f->dk) {
      free(f->dq);
      free(f->dk);
      LA_FN(la_prep_free)(&f->pp);
      return LA_ENOMEM;
    }
    memset(f->dq, 0, sizeof(real_t) * (size_t)n);
    memset(f->dk, 0, sizeof(real_t) * (size_t)n);
  } else {
    f->dq = (real_t *)io->dq;
    f->dk = (real_t *)io->dk;
  }
  return LA_OK;
}

/* ---- one work item ------------------------------------------------------
 * Every path works per (sequence n, value head hv): the pointers to the first
 * step of that item in every array (NULL where an optional array is absent).
 * dq, dk point into the frame's per-value-head buffers (see la_bwd_start). */
typedef struct {
  la_seq s;
  const real_t *q, *k, *v, *g, *beta, *h0, *dout, *dht;
  real_t *o, *ht, *dq, *dk, *dv, *dg, *dbeta, *dh0;
} LA_FN(la_item);

static inline LA_FN(la_item) LA_FN(la_item_of)(const la_problem *p, const LA_FN(la_prep) *pp,
                                               const void *v, const void *h0, ptrdiff_t n,
                                               ptrdiff_t hv)
{
  LA_FN(la_item) it;
  memset(&it, 0, sizeof it);
  it.s = la_seq_of(p, n);
  it.q = pp->q + la_off_qk(p, it.s, hv);
  it.k = pp->k + la_off_qk(p, it.s, hv);
  it.v = (const real_t *)v + la_off_v(p, it.s, hv);
  it.g = pp->g + la_off_gate(p, it.s, hv);
  it.beta = pp->beta + la_off_beta(p, it.s, hv);
  it.h0 = h0 ? (const real_t *)h0 + la_off_state(p, n, hv) : NULL;
  return it;
}

static inline LA_FN(la_item) LA_FN(la_item_fwd)(const la_problem *p, const LA_FN(la_prep) *pp,
                                                const la_fwd_io *io, ptrdiff_t n, ptrdiff_t hv)
{
  LA_FN(la_item) it = LA_FN(la_item_of)(p, pp, io->v, io->h0, n, hv);
  it.o = (real_t *)io->o + la_off_v(p, it.s, hv);
  it.ht = io->ht ? (real_t *)io->ht + la_off_state(p, n, hv) : NULL;
  return it;
}

static inline LA_FN(la_item) LA_FN(la_item_bwd)(const la_problem *p, const LA_FN(la_bwd_frame) *f,
                                                const la_bwd_io *io, ptrdiff_t n, ptrdiff_t hv)
{
  LA_FN(la_item) it = LA_FN(la_item_of)(p, &f->pp, io->v, io->h0, n, hv);
  it.dout = (const real_t *)io->dout + la_off_v(p, it.s, hv);
  it.dht = io->dht ? (const real_t *)io->dht + la_off_state(p, n, hv) : NULL;
  it.dq = f->dq + la_off_qk_expanded(p, it.s, hv);
  it.dk = f->dk + la_off_qk_expanded(p, it.s, hv);
  it.dv = (real_t *)io->dv + la_off_v(p, it.s, hv);
  it.dg = (real_t *)io->dg + la_off_gate(p, it.s, hv);
  it.dbeta = (real_t *)io->dbeta + la_off_beta(p, it.s, hv);
  it.dh0 = io->dh0 ? (real_t *)io->dh0 + la_off_state(p, n, hv) : NULL;
  return it;
}

/* Blocked sum for the long reductions of dA_log / dt_bias: keeps the error
 * of a T*B-term sum in single precision near sqrt(terms) eps. */
#define LA_RED_BLOCK 256

static inline void LA_FN(la_bwd_finish)(const la_problem *p, const la_bwd_io *io, LA_FN(la_bwd_frame) *f)
{
  real_t *dq = (real_t *)io->dq, *dk = (real_t *)io->dk;
  real_t *dg = (real_t *)io->dg, *dbeta = (real_t *)io->dbeta;
  const ptrdiff_t GD = la_gate_dim(p);
  const ptrdiff_t nsteps = p->T * p->HV * p->B;

  if (f->own_dqk) { /* sum the value heads of each group */
    const ptrdiff_t G = p->HV / p->H, KT = p->K * p->T;
    ptrdiff_t bh;
#pragma omp parallel for schedule(static)
    for (bh = 0; bh < p->H * p->B; bh++) {
      const ptrdiff_t h = bh % p->H, b = bh / p->H;
      real_t *oq = dq + KT * (h + p->H * b), *ok = dk + KT * (h + p->H * b);
      ptrdiff_t j, i;
      memset(oq, 0, sizeof(real_t) * (size_t)KT);
      memset(ok, 0, sizeof(real_t) * (size_t)KT);
      for (j = 0; j < G; j++) {
        const real_t *sq = f->dq + KT * (h * G + j + p->HV * b);
        const real_t *sk = f->dk + KT * (h * G + j + p->HV * b);
        for (i = 0; i < KT; i++) {
          oq[i] += sq[i];
          ok[i] += sk[i];
        }
      }
    }
    free(f->dq);
    free(f->dk);
  }
  if (p->qk_l2norm) {
    const ptrdiff_t ncol = p->T * p->H * p->B;
    LA_FN(la_l2norm_bwd)(p->K, ncol, f->pp.q, f->pp.rq, dq);
    LA_FN(la_l2norm_bwd)(p->K, ncol, f->pp.k, f->pp.rk, dk);
  }
  if (p->gate_in_kernel) {
    const real_t *gr = (const real_t *)io->g, *al = (const real_t *)io->A_log;
    const real_t *db = (const real_t *)io->dt_bias;
    real_t *dal = (real_t *)io->dA_log, *ddb = (real_t *)io->ddt_bias;
    const real_t lb = (real_t)p->lower_bound;
    ptrdiff_t hv;
#pragma omp parallel for schedule(static)
    for (hv = 0; hv < p->HV; hv++) {
      const real_t A = LA_EXP(al[hv]);
      real_t sA = 0, bA = 0;          /* total and block partial of dA_log */
      real_t *sb = ddb + GD * hv;     /* totals of ddt_bias                */
      ptrdiff_t b, t, i, cnt = 0;
      real_t *blk = calloc((size_t)GD, sizeof(real_t));
      for (i = 0; i < GD; i++) sb[i] = 0;
      for (b = 0; b < p->B; b++)
        for (t = 0; t < p->T; t++) {
          const ptrdiff_t o = GD * (t + p->T * (hv + p->HV * b));
          for (i = 0; i < GD; i++) {
            const real_t x = gr[o + i] + (db ? db[i + GD * hv] : 0);
            const real_t gu = f->pp.g[o + i];
            const real_t d = dg[o + i];
            real_t dx, da;
            if (p->has_lower_bound) { /* sigmoid' = s(z) s(-z): no 1 - s cancellation */
              const real_t ds = lb * LA_FN(la_sigmoid)(A * x) * LA_FN(la_sigmoid)(-A * x);
              dx = d * ds * A;
              da = d * ds * A * x;
            } else {
              dx = d * (-A * LA_FN(la_sigmoid)(x));
              da = d * gu;
            }
            dg[o + i] = dx;
            if (blk) blk[i] += dx; else sb[i] += dx;
            bA += da;
          }
          if (++cnt == LA_RED_BLOCK) {
            for (i = 0; blk && i < GD; i++) { sb[i] += blk[i]; blk[i] = 0; }
            sA += bA; bA = 0; cnt = 0;
          }
        }
      for (i = 0; blk && i < GD; i++) sb[i] += blk[i];
      sA += bA;
      dal[hv] = sA;
      free(blk);
    }
  }
  if (p->beta_sigmoid) {
    const real_t *br = (const real_t *)io->beta;
    const real_t fs = p->allow_neg_eigval ? 2 : 1;
    ptrdiff_t i;
    for (i = 0; i < nsteps; i++)
      dbeta[i] *= fs * LA_FN(la_sigmoid)(br[i]) * LA_FN(la_sigmoid)(-br[i]);
  }
  LA_FN(la_prep_free)(&f->pp);
}

/* End of a backward: on success chain through the transforms (la_bwd_finish),
 * on failure free the frame; returns the status. */
static inline int LA_FN(la_bwd_end)(const la_problem *p, const la_bwd_io *io,
                                    LA_FN(la_bwd_frame) *f, int fail)
{
  if (fail) {
    if (f->own_dqk) {
      free(f->dq);
      free(f->dk);
    }
    LA_FN(la_prep_free)(&f->pp);
    return LA_ENOMEM;
  }
  LA_FN(la_bwd_finish)(p, io, f);
  return LA_OK;
}

/* ---- states ---------------------------------------------------------------
 * Internally a state is K x V column-major (S[k + K v]); outside it is that
 * or, with state_vk, V x K.  src/dst NULL means zeros / not wanted. */
static inline void LA_FN(la_state_load)(const la_problem *p, const real_t *src, real_t *S)
{
  const ptrdiff_t K = p->K, V = p->V;
  ptrdiff_t i, j;
  if (!src) {
    memset(S, 0, sizeof(real_t) * (size_t)(K * V));
  } else if (!p->state_vk) {
    memcpy(S, src, sizeof(real_t) * (size_t)(K * V));
  } else {
    for (j = 0; j < V; j++)
      for (i = 0; i < K; i++) S[i + K * j] = src[j + V * i];
  }
}

static inline void LA_FN(la_state_store)(const la_problem *p, const real_t *S, real_t *dst)
{
  const ptrdiff_t K = p->K, V = p->V;
  ptrdiff_t i, j;
  if (!dst) return;
  if (!p->state_vk) {
    memcpy(dst, S, sizeof(real_t) * (size_t)(K * V));
  } else {
    for (j = 0; j < V; j++)
      for (i = 0; i < K; i++) dst[j + V * i] = S[i + K * j];
  }
}

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

#include "la_tmpl_end.h"
#endif /* LA_COMMON_SKIP */
#undef LA_COMMON_SKIP
