/*
 * la_recurrent.tmpl.h -- template: the recurrent (step by step) forward and
 * its backpropagation through time with checkpoints, driving the steps of
 * la_rec_step.tmpl.h over every (sequence, value head).
 *
 * The backward keeps the state entering every segment of C = p->chunk steps
 * (forward sweep), then per segment from the last: recompute its C states,
 * and step back through them.  Memory per thread: (T/C + C) states.
 *
 * The extra gates gk (per key) and gv (per value) of FLA's fused recurrent
 * GDN (docs/recurrence.md (2b)) enter as S' = Diag(exp(g + gk)) X with
 * X = S_{t-1} Diag(exp(gv)): gk joins the decay vector a of the step, and
 * gv scales the state's columns in place before the step; the backward
 * keeps X (not S_{t-1}) as the recomputed state, so the step's backward is
 * unchanged and dX turns into dS_{t-1} and dgv afterwards (rec_gv_bwd).
 *
 * With a state pool (la_problem.slots, docs/decode.md) the forward's items
 * are rec_pool_item's: the state read from a slot, each step's state
 * written to a slot or a per-token state.  A per-channel beta reaches the
 * step as a vector (rec_beta); the step's backward then writes dbeta per
 * channel.
 */

/* Per-thread workspace: the padded state (K x V4, dS in the backward) and
 * per-step vectors; the backward adds the checkpoints (nck states) and the
 * states of one segment (segn).  States are kept padded everywhere. */
#define LA_REC_STEP_WS(W_) \
  W_(S, K, V4, 1) W_(a, K, 1, 1) W_(ak, K, 1, 1) W_(dgv, K, 1, 1) W_(vp, V4, 1, 1) W_(op, V4, 1, 1) \
  W_(dvp, V4, 1, 1) W_(bp, V4, 1, 1) W_(dbp, V4, 1, 1)
#define LA_REC_BWD_WS(W_) W_(ckpt, K, V4, nck) W_(seg, K, V4, segn) LA_REC_STEP_WS(W_)

typedef struct {
  LA_REC_BWD_WS(LA_WS_FIELD)
} LA_FN(rec_ws);

/* Elements of the workspace (-1 on overflow), and its carving from buf;
 * backward: with the checkpoints of sequences up to maxlen steps. */
static ptrdiff_t LA_FN(rec_ws_size)(const la_problem *p, int backward, ptrdiff_t maxlen)
{
  const ptrdiff_t K = p->K, V4 = la_pad4(p->V), C = p->chunk;
  const ptrdiff_t nck = la_chunks(maxlen, C), segn = C < maxlen ? C : (maxlen > 0 ? maxlen : 1);
  ptrdiff_t total;
  if (backward) LA_WS_TOTAL(LA_REC_BWD_WS, &total);
  else LA_WS_TOTAL(LA_REC_STEP_WS, &total);
  return total;
}

static void LA_FN(rec_ws_carve)(const la_problem *p, int backward, ptrdiff_t maxlen, real_t *buf,
                                LA_FN(rec_ws) *w)
{
  const ptrdiff_t K = p->K, V4 = la_pad4(p->V), C = p->chunk;
  const ptrdiff_t nck = la_chunks(maxlen, C), segn = C < maxlen ? C : (maxlen > 0 ? maxlen : 1);
  memset(w, 0, sizeof *w);
  if (backward) LA_WS_CARVE_ALL(LA_REC_BWD_WS, buf);
  else LA_WS_CARVE_ALL(LA_REC_STEP_WS, buf);
}

/* load a state and zero its padding columns */
static inline void LA_FN(rec_load)(const la_problem *p, const real_t *src, real_t *S)
{
  LA_FN(la_state_load)(p, src, S);
  memset(S + p->K * p->V, 0, sizeof(real_t) * (size_t)(p->K * (la_pad4(p->V) - p->V)));
}

/* The extra gates of one (sequence, value head): pointers to its first
 * step, NULL when not given. */
typedef struct {
  const real_t *gk, *gv;
  real_t *dgk, *dgv;
} LA_FN(rec_gates);

static LA_FN(rec_gates) LA_FN(rec_gates_of)(const la_problem *p, const void *gk, const void *gv,
                                            void *dgk, void *dgv, la_seq s, ptrdiff_t hv)
{
  const ptrdiff_t ob = la_off_beta(p, s, hv); /* the step index of the item's first step */
  LA_FN(rec_gates) e;
  e.gk = gk ? (const real_t *)gk + p->K * ob : NULL;
  e.gv = gv ? (const real_t *)gv + p->V * ob : NULL;
  e.dgk = dgk ? (real_t *)dgk + p->K * ob : NULL;
  e.dgv = dgv ? (real_t *)dgv + p->V * ob : NULL;
  return e;
}

/* The decay vector of step t: a = exp(g_t), or exp(g_t + gk_t) (one
 * exponential of the sum: no extra rounding, no product of two tiny
 * factors); and the columns of X scaled by exp(gv_t). */
static inline void LA_FN(rec_decay)(const la_problem *p, const real_t *g, const LA_FN(rec_gates) *e,
                                    ptrdiff_t t, real_t *a)
{
  const ptrdiff_t K = p->K, GD = la_gate_dim(p);
  ptrdiff_t i;
  if (!e->gk) {
    LA_FN(la_decay)(p, g + GD * t, a);
    return;
  }
  for (i = 0; i < K; i++) a[i] = LA_EXP(g[GD * t + (p->kda ? i : 0)] + e->gk[K * t + i]);
}

static inline void LA_FN(rec_gv_fwd)(const la_problem *p, const LA_FN(rec_gates) *e, ptrdiff_t t,
                                     real_t *X)
{
  ptrdiff_t i, j;
  if (!e->gv) return;
  for (j = 0; j < p->V; j++) {
    const real_t b = LA_EXP(e->gv[p->V * t + j]);
    for (i = 0; i < p->K; i++) X[i + p->K * j] *= b;
  }
}

/* Backward of X = S Diag(exp(gv_t)): dS holds dL/dX on entry and dL/dS on
 * return; dgv_t(j) = dX(:, j) . X(:, j). */
static inline void LA_FN(rec_gv_bwd)(const la_problem *p, const LA_FN(rec_gates) *e, ptrdiff_t t,
                                     const real_t *X, real_t *dS)
{
  ptrdiff_t i, j;
  if (!e->gv) return;
  for (j = 0; j < p->V; j++) {
    const real_t b = LA_EXP(e->gv[p->V * t + j]);
    real_t d = 0;
    for (i = 0; i < p->K; i++) {
      d += dS[i + p->K * j] * X[i + p->K * j];
      dS[i + p->K * j] *= b;
    }
    if (e->dgv) e->dgv[p->V * t + j] = d;
  }
}

/* beta of step t for rec_step: where it is (one value, or V with no
 * padding), else the per-channel values copied into the padded bp (its
 * padding stays zero: the workspace is cleared once per call). */
static inline const real_t *LA_FN(rec_beta)(const la_problem *p, const real_t *beta, ptrdiff_t t,
                                            real_t *bp)
{
  const ptrdiff_t BD = la_beta_dim(p);
  if (BD == 1 || la_pad4(p->V) == p->V) return beta + BD * t;
  return memcpy(bp, beta + BD * t, sizeof(real_t) * (size_t)BD);
}

/* What the item functions of both directions need. */
typedef struct {
  const la_problem *p;
  const LA_FN(la_prep) *pp;      /* forward */
  const la_fwd_io *fio;
  const LA_FN(la_bwd_frame) *f;  /* backward */
  const la_bwd_io *bio;
  ptrdiff_t maxlen;
} LA_FN(rec_ctx);

/* Step t of the forward of one item: S = the step from Sin (S may be Sin),
 * o_t written.  direct: v, o and S in the caller's arrays as they are;
 * else v and o pass through the padded workspace (S is then w->S, where
 * GV scales the state in place). */
static inline void LA_FN(rec_fwd_step)(const la_problem *p, const LA_FN(la_item) *it,
                                       const LA_FN(rec_gates) *e, LA_FN(rec_ws) *w,
                                       ptrdiff_t t, int direct, const real_t *Sin, real_t *S)
{
  const ptrdiff_t K = p->K, V = p->V;
  const real_t *vt = it->v + V * t;
  real_t *ot = direct ? it->o + V * t : w->op;
  if (!direct) vt = memcpy(w->vp, vt, sizeof(real_t) * (size_t)V);
  LA_FN(rec_decay)(p, it->g, e, t, w->a);
  LA_FN(rec_gv_fwd)(p, e, t, S);
  LA_FN(rec_step)(K, la_pad4(V), Sin, S, w->a, it->k + K * t, it->q + K * t, vt,
                  LA_FN(rec_beta)(p, it->beta, t, w->bp), p->beta_per_channel != 0,
                  (real_t)p->scale, ot, w->ak);
  if (!direct) memcpy(it->o + V * t, w->op, sizeof(real_t) * (size_t)V);
}

/* Forward of one (sequence, value head); polls every la_poll_steps steps.
 * Direct when the caller's state layout is the internal one without
 * padding (K x V, V a multiple of 4), there is no GV and T > 0: the first
 * step reads h0 where it is (zeros if NULL), every step writes the final
 * state ht itself (the workspace's state when ht is not wanted), and v, o
 * are used where they are -- a decode step (T = 1) spent as long copying
 * its state in and out as computing it.  Else the state is loaded into the
 * padded workspace and stored at the end.  The same operations on the same
 * values either way, so the same bits. */
static void LA_FN(rec_fwd_item)(void *ctx, ptrdiff_t n, ptrdiff_t hv, real_t *buf, int *status)
{
  const LA_FN(rec_ctx) *x = (const LA_FN(rec_ctx) *)ctx;
  const la_problem *p = x->p;
  const LA_FN(la_item) it = LA_FN(la_item_fwd)(p, x->pp, x->fio, n, hv);
  const ptrdiff_t K = p->K, V = p->V, V4 = la_pad4(p->V), every = la_poll_steps(p);
  const LA_FN(rec_gates) e = LA_FN(rec_gates_of)(p, x->fio->gk, x->fio->gv, NULL, NULL, it.s, hv);
  LA_FN(rec_ws) ws, *w = &ws;
  real_t *S;
  const real_t *Sin;
  int direct;
  ptrdiff_t t;

  LA_FN(rec_ws_carve)(p, 0, 0, buf, w);
  direct = !p->state_vk && V4 == V && !e.gv && it.s.len > 0;
  S = direct && it.ht ? it.ht : w->S;
  Sin = S;
  if (!direct) LA_FN(rec_load)(p, it.h0, S);
  else if (it.h0) Sin = it.h0;
  else memset(S, 0, sizeof(real_t) * (size_t)(K * V));
  for (t = 0; t < it.s.len; t++) {
    if (t % every == 0 && la_poll(p, status)) return;
    LA_FN(rec_fwd_step)(p, &it, &e, w, t, direct, Sin, S);
    Sin = S;
  }
  if (!direct) LA_FN(la_state_store)(p, S, it.ht);
}

/* Forward of one (sequence, value head) with a state pool (la_core.h,
 * docs/decode.md): start from the slot the sequence reads, and after every
 * step write the state to the step's slot (inplace) or to the step's
 * per-token state.  Direct as rec_fwd_item where the layouts allow: each
 * step reads the last state where it was written and writes the next one
 * in its slot, so a decode step copies no state; else through the padded
 * workspace, stored after every step.  The same operations on the same
 * values either way. */
static void LA_FN(rec_pool_item)(void *ctx, ptrdiff_t n, ptrdiff_t hv, real_t *buf, int *status)
{
  const LA_FN(rec_ctx) *x = (const LA_FN(rec_ctx) *)ctx;
  const la_problem *p = x->p;
  const LA_FN(la_item) it = LA_FN(la_item_fwd)(p, x->pp, x->fio, n, hv);
  const ptrdiff_t K = p->K, V = p->V, V4 = la_pad4(p->V);
  const ptrdiff_t every = la_poll_steps(p);
  const LA_FN(rec_gates) e = LA_FN(rec_gates_of)(p, x->fio->gk, x->fio->gv, NULL, NULL, it.s, hv);
  const int64_t *row = p->slots + p->slot_steps * n;
  const real_t *pool = (const real_t *)x->fio->h0;
  real_t *ht = (real_t *)x->fio->ht;
  const ptrdiff_t tok0 = it.s.t0 + p->T * it.s.b; /* per-token states: first step's */
  const int direct = !p->state_vk && V4 == V && !e.gv;
  LA_FN(rec_ws) ws, *w = &ws;
  const real_t *Sin;
  ptrdiff_t t;
  int64_t r;

  if (it.s.len == 0) return; /* reads nothing: its counts were not checked */
  r = row[p->accepted ? p->accepted[n] - 1 : 0] - p->slot_base;
  if (r < 0) { /* padding: skipped */
    memset(it.o, 0, sizeof(real_t) * (size_t)(V * it.s.len));
    for (t = 0; !p->inplace && ht && t < it.s.len; t++)
      memset(ht + la_off_state(p, tok0 + t, hv), 0, sizeof(real_t) * (size_t)(K * V));
    return;
  }
  LA_FN(rec_ws_carve)(p, 0, 0, buf, w);
  Sin = pool ? pool + la_off_state(p, (ptrdiff_t)r, hv) : NULL;
  if (!direct || !Sin) {
    LA_FN(rec_load)(p, Sin, w->S);
    Sin = w->S;
  }
  for (t = 0; t < it.s.len; t++) {
    const int64_t ws_slot = p->inplace ? row[p->slot_steps == 1 ? 0 : t] - p->slot_base : 0;
    real_t *dst = !ht || ws_slot < 0 ? NULL
                  : ht + la_off_state(p, p->inplace ? (ptrdiff_t)ws_slot : tok0 + t, hv);
    real_t *S = direct && dst ? dst : w->S;
    if (t % every == 0 && la_poll(p, status)) return;
    LA_FN(rec_fwd_step)(p, &it, &e, w, t, direct, Sin, S);
    if (!direct && dst) LA_FN(la_state_store)(p, S, dst);
    Sin = S;
  }
}

int LA_FN(la_recurrent_fwd)(const la_problem *p0, const la_fwd_io *io)
{
  LA_ENTRY_CHECK(p0, pc);
  const la_problem *p = &pc;
  LA_FN(la_prep) pp;
  LA_FN(rec_ctx) x;
  int rc;

  if (p->emulate) return LA_EARG; /* 'Emulate': the chunked paths only */
  rc = LA_FN(la_prep_fwd)(p, io->q, io->k, io->g, io->beta, io->A_log, io->dt_bias, 0, 0, &pp);
  if (rc) return rc;
  memset(&x, 0, sizeof x);
  x.p = p;
  x.pp = &pp;
  x.fio = io;
  /* only the padding columns (V not a multiple of 4) need zeros */
  rc = LA_FN(la_for_items)(p, LA_FN(rec_ws_size)(p, 0, 0), la_pad4(p->V) != p->V, 0,
                           p->slots ? LA_FN(rec_pool_item) : LA_FN(rec_fwd_item), &x);
  LA_FN(la_prep_free)(&pp);
  return rc;
}

/* Backward, forward sweep: the state entering every segment of C steps into
 * w->ckpt (w->seg serves as the running state).  0 if stopped. */
static int LA_FN(rec_bwd_checkpoints)(const la_problem *p, const LA_FN(la_item) *it,
                                      const LA_FN(rec_gates) *e, LA_FN(rec_ws) *w, int *status)
{
  const ptrdiff_t K = p->K, V = p->V, V4 = la_pad4(p->V), KV = p->K * V4;
  const ptrdiff_t C = p->chunk, nseg = la_chunks(it->s.len, C), bs = p->beta_per_channel != 0;
  real_t *S = w->seg; /* the segment buffer is free during the forward sweep */
  ptrdiff_t c, t;

  LA_FN(rec_load)(p, it->h0, S);
  for (c = 0; c + 1 < nseg; c++) {
    if (la_poll(p, status)) return 0;
    memcpy(w->ckpt + KV * c, S, sizeof(real_t) * (size_t)KV);
    for (t = c * C; t < (c + 1) * C; t++) {
      memcpy(w->vp, it->v + V * t, sizeof(real_t) * (size_t)V);
      LA_FN(rec_decay)(p, it->g, e, t, w->a);
      LA_FN(rec_gv_fwd)(p, e, t, S);
      LA_FN(rec_step)(K, V4, S, S, w->a, it->k + K * t, NULL, w->vp,
                      LA_FN(rec_beta)(p, it->beta, t, w->bp), bs, (real_t)p->scale, NULL, w->ak);
    }
  }
  if (nseg > 0) memcpy(w->ckpt + KV * (nseg - 1), S, sizeof(real_t) * (size_t)KV);
  return 1;
}

/* Backward of steps [t0, t1) (one segment): recompute its states S_{t-1}
 * (X_t with GV) into w->seg from the checkpoint, then step back; w->S holds
 * dS. */
static void LA_FN(rec_bwd_segment)(const la_problem *p, const LA_FN(la_item) *it,
                                   const LA_FN(rec_gates) *e, ptrdiff_t c, ptrdiff_t t0,
                                   ptrdiff_t t1, LA_FN(rec_ws) *w)
{
  const ptrdiff_t K = p->K, V = p->V, V4 = la_pad4(p->V), KV = p->K * V4;
  const real_t scale = (real_t)p->scale;
  const ptrdiff_t bs = p->beta_per_channel != 0;
  real_t *seg = w->seg;
  ptrdiff_t t, i;

  memcpy(seg, w->ckpt + KV * c, sizeof(real_t) * (size_t)KV);
  for (t = t0; t < t1 - 1; t++) { /* seg[t - t0] = S_{t-1} */
    memcpy(w->vp, it->v + V * t, sizeof(real_t) * (size_t)V);
    LA_FN(rec_decay)(p, it->g, e, t, w->a);
    LA_FN(rec_gv_fwd)(p, e, t, seg + KV * (t - t0));
    LA_FN(rec_step)(K, V4, seg + KV * (t - t0), seg + KV * (t - t0 + 1), w->a, it->k + K * t,
                    NULL, w->vp, LA_FN(rec_beta)(p, it->beta, t, w->bp), bs, scale, NULL, w->ak);
  }
  LA_FN(rec_gv_fwd)(p, e, t1 - 1, seg + KV * (t1 - 1 - t0));
  for (t = t1 - 1; t >= t0; t--) {
    memcpy(w->vp, it->v + V * t, sizeof(real_t) * (size_t)V);
    memcpy(w->op, it->dout + V * t, sizeof(real_t) * (size_t)V);
    LA_FN(rec_decay)(p, it->g, e, t, w->a);
    LA_FN(rec_step_bwd)(K, V4, seg + KV * (t - t0), w->S, w->a, it->k + K * t, it->q + K * t,
                        w->vp, LA_FN(rec_beta)(p, it->beta, t, w->bp), bs, scale, w->op,
                        it->dq + K * t, it->dk + K * t, w->dvp, w->dgv, bs ? w->dbp : it->dbeta + t,
                        w->ak);
    memcpy(it->dv + V * t, w->dvp, sizeof(real_t) * (size_t)V);
    if (bs) memcpy(it->dbeta + V * t, w->dbp, sizeof(real_t) * (size_t)V);
    LA_FN(rec_gv_bwd)(p, e, t, seg + KV * (t - t0), w->S);
    if (e->dgk) memcpy(e->dgk + K * t, w->dgv, sizeof(real_t) * (size_t)K);
    if (p->kda) {
      memcpy(it->dg + K * t, w->dgv, sizeof(real_t) * (size_t)K);
    } else {
      real_t sum = 0;
      for (i = 0; i < K; i++) sum += w->dgv[i];
      it->dg[t] = sum;
    }
  }
}

/* Backward of one (sequence, value head); polls once per segment. */
static void LA_FN(rec_bwd_item)(void *ctx, ptrdiff_t n, ptrdiff_t hv, real_t *buf, int *status)
{
  const LA_FN(rec_ctx) *x = (const LA_FN(rec_ctx) *)ctx;
  const la_problem *p = x->p;
  const LA_FN(la_item) it = LA_FN(la_item_bwd)(p, x->f, x->bio, n, hv);
  const la_bwd_io *io = x->bio;
  const LA_FN(rec_gates) e = LA_FN(rec_gates_of)(p, io->gk, io->gv, io->dgk, io->dgv, it.s, hv);
  const ptrdiff_t C = p->chunk, nseg = la_chunks(it.s.len, C);
  LA_FN(rec_ws) ws, *w = &ws;
  ptrdiff_t c;

  LA_FN(rec_ws_carve)(p, 1, x->maxlen, buf, w);
  if (!LA_FN(rec_bwd_checkpoints)(p, &it, &e, w, status)) return;
  LA_FN(rec_load)(p, it.dht, w->S);
  for (c = nseg - 1; c >= 0; c--) {
    const ptrdiff_t t0 = c * C, t1 = (c + 1) * C < it.s.len ? (c + 1) * C : it.s.len;
    if (la_poll(p, status)) return;
    LA_FN(rec_bwd_segment)(p, &it, &e, c, t0, t1, w);
  }
  LA_FN(la_state_store)(p, w->S, it.dh0);
}

int LA_FN(la_recurrent_bwd)(const la_problem *p0, const la_bwd_io *io)
{
  LA_ENTRY_CHECK(p0, pc);
  const la_problem *p = &pc;
  LA_FN(la_bwd_frame) f;
  LA_FN(rec_ctx) x;
  ptrdiff_t n;
  int rc;

  if (p->slots) return LA_EARG; /* a state pool: forward only (docs/decode.md) */
  if (p->emulate) return LA_EARG; /* 'Emulate': the chunked paths only */
  memset(&x, 0, sizeof x);
  for (n = 0; n < p->N; n++) {
    const la_seq s = la_seq_of(p, n);
    if (s.len > x.maxlen) x.maxlen = s.len;
  }
  rc = LA_FN(la_bwd_start)(p, io, &f);
  if (rc) return rc;
  x.p = p;
  x.f = &f;
  x.bio = io;
  rc = LA_FN(la_for_items)(p, LA_FN(rec_ws_size)(p, 1, x.maxlen), 1, 0, LA_FN(rec_bwd_item), &x);
  return LA_FN(la_bwd_end)(p, io, &f, rc);
}
