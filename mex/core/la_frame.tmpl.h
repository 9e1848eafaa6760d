/*
 * la_frame.tmpl.h -- template: what every path (recurrent and chunked,
 * forward and backward) does around its per-item work.
 *
 * Forward: la_prep_fwd makes the quantities the recurrence uses from the raw
 * inputs through the transforms (la_transform_*.tmpl.h); an input that is
 * not transformed is used in place (no copy).
 *
 * Backward: the algorithms write gradients with respect to the *used*
 * quantities; la_bwd_end sums dq, dk over the GVA group (la_gva.tmpl.h) and
 * chains them through the transforms' backward into gradients of the raw
 * inputs (and of A_log, dt_bias).
 *
 * Work items: every path works per (sequence n, value head hv); la_item_*
 * give the pointers to the first step of an item in every array.
 */

/* What a call owns besides its inputs, carved from one block of the pool's
 * frame buffer (la_pool.c: kept across calls, so a call with transforms no
 * longer faults in fresh pages for them -- 8 MB of normalised q and k at
 * T = 2048, H = 4, K = 128).  Extents 0 where p does not ask for it; extra:
 * the backward's per-value-head dq, dk (la_bwd_start). */
#define LA_PREP_WS(W_)                                                              \
  W_(own_q, l2, nqk, 1) W_(own_k, l2, nqk, 1) W_(rq, l2, ncol, 1) W_(rk, l2, ncol, 1) \
  W_(own_g, gik, ngate, 1) W_(own_beta, bsig, nsteps, 1) W_(extra, 1, nextra, 1)

typedef struct {
  const real_t *q, *k, *g, *beta; /* what the algorithm reads            */
  /* own_q, own_k, own_g, own_beta: the transformed inputs (NULL: used in
   * place); rq, rk: 1/||q||, 1/||k|| per (t, h, b); extra: see above */
  LA_PREP_WS(LA_WS_FIELD)
  void *own;                      /* the block they are carved from       */
  int pooled;                     /* own is the pool's (la_pool_enter)    */
} LA_FN(la_prep);

static void LA_FN(la_prep_free)(LA_FN(la_prep) *pp)
{
  la_pool_put(pp->pooled, LA_POOL_FRAME, pp->own);
  la_pool_leave(pp->pooled);
  memset(pp, 0, sizeof *pp);
}

/* Apply the transforms p asks for, with nextra more elements for the
 * caller in pp->extra; with per_chunk, not UseQKL2Norm and GateInKernel:
 * the caller applies them chunk by chunk (the chunked forward,
 * la_chunk_fwd.tmpl.h) and q, k, g stay the raw inputs.  With T = 0 there
 * is nothing to transform (and nothing is allocated).  LA_OK, LA_ENOMEM,
 * or LA_EARG for a GateInKernel call without A_log and without a lower
 * bound. */
static int LA_FN(la_prep_fwd)(const la_problem *p, const void *q, const void *k, const void *g,
                              const void *beta, const void *A_log, const void *dt_bias,
                              ptrdiff_t nextra, int per_chunk, LA_FN(la_prep) *pp)
{
  const ptrdiff_t nqk = p->K * p->T * p->H * p->B;   /* elements of q (checked) */
  const ptrdiff_t ncol = p->T * p->H * p->B;         /* columns of q   */
  const ptrdiff_t ngate = la_gate_dim(p) * p->T * p->HV * p->B;
  const ptrdiff_t nsteps = la_beta_dim(p) * p->T * p->HV * p->B; /* elements of beta */
  const ptrdiff_t l2 = p->qk_l2norm && !per_chunk, gik = p->gate_in_kernel && !per_chunk,
                  bsig = p->beta_sigmoid != 0;
  ptrdiff_t total;
  LA_FN(la_prep) *w = pp;
  real_t *buf;
  memset(pp, 0, sizeof *pp);
  pp->q = (const real_t *)q;
  pp->k = (const real_t *)k;
  pp->g = (const real_t *)g;
  pp->beta = (const real_t *)beta;
  if (p->T == 0) return LA_OK;
  /* only the lb form may omit A_log */
  if (p->gate_in_kernel && !A_log && !p->has_lower_bound) return LA_EARG;
  LA_WS_TOTAL(LA_PREP_WS, &total);
  if (total < 0) return LA_ENOMEM;
  if (total == 0) return LA_OK;
  pp->pooled = la_pool_enter();
  if (!(pp->own = la_pool_get(pp->pooled, LA_POOL_FRAME, total, sizeof(real_t)))) {
    LA_FN(la_prep_free)(pp);
    return LA_ENOMEM;
  }
  buf = (real_t *)pp->own;
  LA_WS_CARVE_ALL(LA_PREP_WS, buf);
  if (l2) { /* in blocks of columns, polling between them */
    const int par = !la_small_call(p); /* as the call's own loops */
    const ptrdiff_t K = p->K, block = LA_POLL_ELEMS / K + 1;
    int status = LA_OK;
    ptrdiff_t m, n;
    for (m = 0; m < ncol; m += block) {
      if (la_poll(p, &status)) {
        LA_FN(la_prep_free)(pp);
        return status;
      }
      n = ncol - m < block ? ncol - m : block;
      LA_FN(la_l2norm_fwd)(K, n, p->l2norm_eps, (const real_t *)q + K * m, pp->own_q + K * m,
                           pp->rq + m, par);
      LA_FN(la_l2norm_fwd)(K, n, p->l2norm_eps, (const real_t *)k + K * m, pp->own_k + K * m,
                           pp->rk + m, par);
    }
    pp->q = pp->own_q;
    pp->k = pp->own_k;
  }
  if (gik) {
    LA_FN(la_gate_fwd)(p, (const real_t *)g, (const real_t *)A_log, (const real_t *)dt_bias,
                       pp->own_g);
    pp->g = pp->own_g;
  }
  if (bsig) {
    LA_FN(la_beta_fwd)(p, nsteps, (const real_t *)beta, pp->own_beta);
    pp->beta = pp->own_beta;
  }
  return LA_OK;
}

/* ---- backward frame ------------------------------------------------------
 * la_bwd_start: prepare the inputs and point dq, dk at where the per-head
 * work writes them (per value head buffers when HV > H, see la_gva.tmpl.h).
 * la_bwd_end: on success sum over the group and chain through the
 * transforms; in any case free what the frame holds. */
typedef struct {
  LA_FN(la_prep) pp;
  real_t *dq, *dk;               /* per value head gradients (used q, k)  */
  int own_dqk;                   /* dq, dk are the frame's (pp.extra)     */
} LA_FN(la_bwd_frame);

static int LA_FN(la_bwd_start)(const la_problem *p, const la_bwd_io *io, LA_FN(la_bwd_frame) *f)
{
  ptrdiff_t n = 0, n2 = 0;
  int rc;
  memset(f, 0, sizeof *f);
  f->dq = (real_t *)io->dq;
  f->dk = (real_t *)io->dk;
  if (p->HV != p->H && (!la_mul4(p->K, p->T, p->HV, p->B, &n) || !la_add(n, n, &n2)))
    return LA_ENOMEM;
  rc = LA_FN(la_prep_fwd)(p, io->q, io->k, io->g, io->beta, io->A_log, io->dt_bias, n2, 0, &f->pp);
  if (rc || p->HV == p->H || n == 0) return rc;
  f->dq = f->pp.extra;
  f->dk = f->pp.extra + n;
  f->own_dqk = 1;
  memset(f->dq, 0, sizeof(real_t) * (size_t)n2);
  return LA_OK;
}

static int LA_FN(la_bwd_end)(const la_problem *p, const la_bwd_io *io, LA_FN(la_bwd_frame) *f,
                             int status)
{
  real_t *dq = (real_t *)io->dq, *dk = (real_t *)io->dk;
  if (status == LA_OK && f->own_dqk) LA_FN(la_gva_sum)(p, f->dq, f->dk, dq, dk);
  if (status == LA_OK && p->qk_l2norm) {
    const ptrdiff_t ncol = p->T * p->H * p->B;
    const int par = !la_small_call(p);
    LA_FN(la_l2norm_bwd)(p->K, ncol, f->pp.q, f->pp.rq, dq, par);
    LA_FN(la_l2norm_bwd)(p->K, ncol, f->pp.k, f->pp.rk, dk, par);
  }
  if (status == LA_OK && p->gate_in_kernel)
    status = LA_FN(la_gate_bwd)(p, (const real_t *)io->g, (const real_t *)io->A_log,
                                (const real_t *)io->dt_bias, f->pp.g, (real_t *)io->dg,
                                (real_t *)io->dA_log, (real_t *)io->ddt_bias);
  if (status == LA_OK && p->beta_sigmoid)
    LA_FN(la_beta_bwd)(p, la_beta_dim(p) * p->T * p->HV * p->B, (const real_t *)io->beta,
                       (real_t *)io->dbeta);
  LA_FN(la_prep_free)(&f->pp);
  return status;
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
  it.beta = pp->beta + la_beta_dim(p) * la_off_beta(p, it.s, hv);
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
  it.dbeta = (real_t *)io->dbeta + la_beta_dim(p) * la_off_beta(p, it.s, hv);
  it.dh0 = io->dh0 ? (real_t *)io->dh0 + la_off_state(p, n, hv) : NULL;
  return it;
}

/* The elements after the chunk workspace that chunk_fwd_transform uses:
 * q and k normalised (K x C each), their factors (C), the gates (GD x C);
 * -1 on overflow. */
static ptrdiff_t LA_FN(chunk_fwd_transform_size)(const la_problem *p)
{
  ptrdiff_t rows = 0, n = 0;
  return la_add(p->K, p->K, &rows) && la_add(rows, 1 + la_gate_dim(p), &rows) &&
                 la_mul(rows, p->chunk, &n)
             ? n
             : -1;
}

/* UseQKL2Norm and GateInKernel of c steps of value head hv, from the raw
 * q, k, g of the chunk into buf (chunk_fwd_transform_size elements); q, k,
 * g then point there.  The same functions as la_prep_fwd, column by column
 * and row by row: the same bits as transforming the whole call first, and
 * no pass over the whole inputs and no buffers of their size
 * (docs/performance.md, "The in-kernel transforms"). */
static void LA_FN(chunk_fwd_transform)(const la_problem *p, const la_fwd_io *io, ptrdiff_t hv,
                                       ptrdiff_t c, real_t *buf, const real_t **q,
                                       const real_t **k, const real_t **g)
{
  const ptrdiff_t K = p->K, C = p->chunk, GD = la_gate_dim(p);
  real_t *qn = buf, *kn = qn + K * C, *r = kn + K * C, *gn = r + C;
  if (p->qk_l2norm) {
    LA_FN(la_l2norm_fwd)(K, c, p->l2norm_eps, *q, qn, r, 0);
    LA_FN(la_l2norm_fwd)(K, c, p->l2norm_eps, *k, kn, r, 0);
    *q = qn;
    *k = kn;
  }
  if (p->gate_in_kernel) {
    const real_t *al = (const real_t *)io->A_log, *db = (const real_t *)io->dt_bias;
    LA_FN(la_gate_span)(p, al ? LA_EXP(al[hv]) : 1, db ? db + GD * hv : NULL, *g, gn, c);
    *g = gn;
  }
}
