/*
 * la_transform_gate.tmpl.h -- template: the GateInKernel transform, forward
 * and backward.  From the raw gate g (GD x T x HV x B, GD = K for KDA, 1 for
 * GDN), A_log (HV) and dt_bias (GD x HV, or NULL), with x = g + dt_bias:
 *   g_used = -exp(A_log) softplus(x)                      (default)
 *   g_used = lower_bound sigmoid(exp(A_log) x)            (has_lower_bound)
 *   g_used = lower_bound sigmoid(x)                       (has_lower_bound,
 *                                                          A_log NULL)
 * A NULL A_log counts as A_log = 0 (exp = 1); the caller allows it only with
 * a lower bound (la_prep_fwd), and then no dA_log is written.
 */

/* g_used of n consecutive steps of value head hv (GD gates each, from gr
 * to gu); A = exp(A_log(hv)) (1 without A_log), dbh = dt_bias of hv or
 * NULL.  Row by row, so that every element takes the same vector or scalar
 * code wherever the span starts (the chunked forward transforms chunk by
 * chunk, la_chunk_fwd.tmpl.h: the same bits as the whole call at once). */
static void LA_FN(la_gate_span)(const la_problem *p, real_t A, const real_t *dbh, const real_t *gr,
                                real_t *gu, ptrdiff_t n)
{
  const ptrdiff_t GD = la_gate_dim(p);
  const real_t lb = (real_t)p->lower_bound;
  ptrdiff_t t, i;
  for (t = 0; t < n; t++) {
    const ptrdiff_t o = GD * t;
    /* one loop per form, each without branches: vectorised (libmvec) */
    if (p->has_lower_bound) {
#pragma omp simd
      for (i = 0; i < GD; i++)
        gu[o + i] = lb * LA_FN(la_sigmoid)(A * (gr[o + i] + (dbh ? dbh[i] : 0)));
    } else {
#pragma omp simd
      for (i = 0; i < GD; i++)
        gu[o + i] = -A * LA_FN(la_softplus)(gr[o + i] + (dbh ? dbh[i] : 0));
    }
  }
}

static void LA_FN(la_gate_fwd)(const la_problem *p, const real_t *gr, const real_t *al,
                               const real_t *db, real_t *gu)
{
  const ptrdiff_t GD = la_gate_dim(p);
  ptrdiff_t hv;
#pragma omp parallel for schedule(static) if (!la_small_call(p))
  for (hv = 0; hv < p->HV; hv++) {
    const real_t A = al ? LA_EXP(al[hv]) : 1;
    ptrdiff_t b;
    for (b = 0; b < p->B; b++) {
      const ptrdiff_t o = GD * p->T * (hv + p->HV * b);
      LA_FN(la_gate_span)(p, A, db ? db + GD * hv : NULL, gr + o, gu + o, p->T);
    }
  }
}

/* Blocked sum for the long reductions of dA_log / dt_bias: lowers the
 * worst-case error bound of an n-term sum from about n eps to about
 * (256 + n/256) eps times the sum of the absolute values
 * (docs/stability.md, section 4); it does not make the error sqrt(n) eps. */
#define LA_RED_BLOCK 256

/* Backward: dg holds dL/dg_used on entry and dL/dg (raw) on return; writes
 * dA_log (HV; not when A_log is NULL) and ddt_bias (GD x HV).  gu: g_used
 * of the forward.  LA_ENOMEM if the block partials (GD per head) cannot be
 * had: never the less accurate unblocked sums instead. */
static int LA_FN(la_gate_bwd)(const la_problem *p, const real_t *gr, const real_t *al,
                              const real_t *db, const real_t *gu, real_t *dg, real_t *dal,
                              real_t *ddb)
{
  const ptrdiff_t GD = la_gate_dim(p);
  const real_t lb = (real_t)p->lower_bound;
  ptrdiff_t hv, nblk = 0;
  real_t *blks;
  if (!la_mul(GD, p->HV, &nblk) || !(blks = la_alloc(nblk, sizeof(real_t)))) return LA_ENOMEM;
#pragma omp parallel for schedule(static) if (!la_small_call(p))
  for (hv = 0; hv < p->HV; hv++) {
    const real_t A = al ? LA_EXP(al[hv]) : 1;
    real_t sA = 0, bA = 0;          /* total and block partial of dA_log */
    real_t *sb = ddb + GD * hv;     /* totals of ddt_bias                */
    ptrdiff_t b, t, i, cnt = 0;
    const real_t *dbh = db ? db + GD * hv : NULL;
    real_t *blk = blks + GD * hv;   /* block partials of ddt_bias         */
    for (i = 0; i < GD; i++) sb[i] = 0;
    for (i = 0; i < GD; i++) blk[i] = 0;
    for (b = 0; b < p->B; b++)
      for (t = 0; t < p->T; t++) {
        const ptrdiff_t o = GD * (t + p->T * (hv + p->HV * b));
        if (p->has_lower_bound) { /* sigmoid' = s(z) s(-z): no 1 - s cancellation */
#pragma omp simd simdlen(LA_SUM_LANES) reduction(+ : bA)
          for (i = 0; i < GD; i++) {
            const real_t x = gr[o + i] + (dbh ? dbh[i] : 0), d = dg[o + i];
            const real_t ds = lb * LA_FN(la_sigmoid)(A * x) * LA_FN(la_sigmoid)(-A * x);
            const real_t dx = d * ds * A;
            dg[o + i] = dx;
            blk[i] += dx;
            bA += dx * x;
          }
        } else {
#pragma omp simd simdlen(LA_SUM_LANES) reduction(+ : bA)
          for (i = 0; i < GD; i++) {
            const real_t x = gr[o + i] + (dbh ? dbh[i] : 0), d = dg[o + i];
            const real_t dx = d * (-A * LA_FN(la_sigmoid)(x));
            dg[o + i] = dx;
            blk[i] += dx;
            bA += d * gu[o + i];
          }
        }
        if (++cnt == LA_RED_BLOCK) {
          for (i = 0; i < GD; i++) { sb[i] += blk[i]; blk[i] = 0; }
          sA += bA; bA = 0; cnt = 0;
        }
      }
    for (i = 0; i < GD; i++) sb[i] += blk[i];
    sA += bA;
    if (al && dal) dal[hv] = sA;
  }
  free(blks);
  return LA_OK;
}
