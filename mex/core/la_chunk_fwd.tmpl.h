/*
 * la_chunk_fwd.tmpl.h -- template: the driver of the chunked forward
 * (docs/chunk_forward.md).  Per (sequence, value head), chunk after chunk:
 *   intra-chunk:  G, A_raw, A, Aqk    (24), (27)-(29), (34)  la_stage_intra
 *   v_new = A (v - KG S)              (31)                   la_stage_state
 *   o     = s QG S + Aqk v_new        (35)                   la_stage_output
 *   S     = Diag(gamma) S + KC^T v_new  (36)                 la_stage_state
 * and, when asked, the chunk's intermediates (la_aux.tmpl.h).
 *
 * v_new is formed in the direct form A (v - KG S), reading S once for v_new
 * and o together (S^T [KG, QG]: the slot keeps KG and QG side by side,
 * fwd_slot); 'Emulate' runs FLA's WY form u - w S instead, since it rounds
 * w and u where a kernel stores them (la_emu.tmpl.h), and so does the
 * tuning's wy_form (la_core.h).  Both give v_new to rounding.
 *
 * Two schedules (chunk_fwd_plan; docs/performance.md describes both):
 * - per item, when the items (sequence, value head) share one chunk count
 *   and divide among the threads: each item is a chain of chunks
 *   (la_chains.c), a chunk's intra-chunk work then at once its state step;
 * - in two phases otherwise (la_for_phases): the intra-chunk work of a
 *   window's chunks in parallel over (item, chunk) into slots, then the
 *   state pass over (item, block of value columns), chunk after chunk.
 * The tuning's fwd_phases forces the two phases.  Windows bound the slots
 * kept at once to about LA_FWD_STORE elements.
 */

/* 4 MB of slots: a window's slots are still in the caches when its state
 * pass reads them. */
#define LA_FWD_STORE ((ptrdiff_t)((4 << 20) / (int)sizeof(real_t)))

/* What the forward's steps read: the call, its windows' slots and states
 * (chunk_fwd_alloc), and how v_new and the transforms are formed. */
typedef struct {
  const la_problem *p;
  const LA_FN(la_prep) *pp;
  const la_fwd_io *io;
  const la_chunk_aux *aux;
  const ptrdiff_t *first;      /* number of the first chunk of each sequence */
  la_fwd_plan plan;            /* windows and schedule (la_sched.tmpl.h) */
  real_t *slots, *S;           /* a window's slots; the states of its items */
  real_t *Sr;                  /* 'Emulate': the rounded states (else NULL) */
  ptrdiff_t slot_elems;        /* elements of one slot (cfwd_slot_size) */
  int pooled;                  /* this call holds the pool (la_pool_enter) */
  int fuse;                    /* transforms chunk by chunk (chunk_fwd_transform) */
  int direct;                  /* v_new = A (v - KG S), not u - w S (la_direct_form) */
} LA_FN(chunk_fwd_ctx);

/* The slot of chunk ci (c steps) of item `item` in window w; its QG right
 * after the c columns of kw, so that the state pass reads [KG, QG] as one
 * K x 2c block (chunk_vnew_output_direct_cols). */
static LA_FN(cfwd_slot) LA_FN(fwd_slot)(const LA_FN(chunk_fwd_ctx) *x, la_window w,
                                        ptrdiff_t item, ptrdiff_t ci, ptrdiff_t c)
{
  const ptrdiff_t at = (item - w.i0) * x->plan.wn + (ci - w.c0);
  LA_FN(cfwd_slot) sl = LA_FN(cfwd_slot_at)(x->p, x->slots + x->slot_elems * at);
  sl.QG = sl.kw + x->p->K * c;
  return sl;
}

/* The intra-chunk step: G, A_raw, A, Aqk (24), (27)-(29), (34) of chunk ci
 * of one item into its slot, with QG, KG, KC. */
static void LA_FN(chunk_fwd_intra)(void *ctx, la_window w, ptrdiff_t item, ptrdiff_t ci,
                                   real_t *buf, int *status)
{
  const LA_FN(chunk_fwd_ctx) *x = (const LA_FN(chunk_fwd_ctx) *)ctx;
  const la_problem *p = x->p;
  const ptrdiff_t n = item / p->HV, hv = item % p->HV, K = p->K, V = p->V, C = p->chunk;
  const ptrdiff_t GD = la_gate_dim(p);
  const LA_FN(la_item) it = LA_FN(la_item_fwd)(p, x->pp, x->io, n, hv);
  const ptrdiff_t t0 = ci * C, c = la_chunk_steps(it.s, ci, C);
  const LA_FN(cfwd_slot) sl = LA_FN(fwd_slot)(x, w, item, ci, c);
  const real_t *q, *k, *g;
  LA_FN(chunk_ws) ws;

  if (t0 >= it.s.len) return; /* a window's chunk past this item's end */
  q = it.q + K * t0, k = it.k + K * t0, g = it.g + GD * t0;
  LA_FN(chunk_ws_carve)(p, &buf, &ws);
  if (x->fuse) LA_FN(chunk_fwd_transform)(p, x->io, hv, c, buf, &q, &k, &g);
  ws.QG = sl.QG; ws.KC = sl.KC; ws.Aqk = sl.Aqk; ws.Am = sl.Am;
  if (x->direct) {
    ws.KG = sl.kw;
  } else {
    ws.w = sl.kw;
    ws.u = sl.vn;
  }
  LA_FN(chunk_intra)(p, c, q, k, it.v + V * t0, g, it.beta + t0,
                     LA_CI_AQK | (x->direct ? LA_CI_A : LA_CI_WU), &ws);
  if (x->direct && x->aux && (x->aux->w || x->aux->u)) /* only for aux: into ws's own w, u */
    LA_FN(chunk_wu)(K, V, c, it.v + V * t0, &ws);
  if (x->aux && x->aux->cond &&
      !LA_FN(chunk_aux_cond)(p, x->aux, x->first[n] + ci + x->first[p->N] * hv, c, ws.Araw)) {
    la_stop(status, LA_ENOMEM);
    return;
  }
  LA_FN(chunk_emu_intra)(p, c, 1, &ws);
  memcpy(sl.gam, ws.eG + K * (c - 1), sizeof(real_t) * (size_t)K);
  if (x->aux) LA_FN(chunk_aux_intra)(p, x->aux, it.s, hv, t0, c, it.g, &ws);
}

/* The state step of value columns [v0, v1) of one item over the chunks of
 * window w: v_new (31), o (35), the next state (36) (and aux h, v_new).
 * X: the thread's workspace (the direct form's scratch, 2 V C elements at
 * least: la_chunk_fwd). */
static void LA_FN(chunk_fwd_state)(void *ctx, la_window w, ptrdiff_t item, ptrdiff_t v0,
                                   ptrdiff_t v1, real_t *X, int *status)
{
  const LA_FN(chunk_fwd_ctx) *x = (const LA_FN(chunk_fwd_ctx) *)ctx;
  const la_problem *p = x->p;
  const ptrdiff_t n = item / p->HV, hv = item % p->HV, K = p->K, V = p->V, C = p->chunk;
  const LA_FN(la_item) it = LA_FN(la_item_fwd)(p, x->pp, x->io, n, hv);
  const ptrdiff_t nc = la_chunks(it.s.len, C), vw = v1 - v0;
  real_t *S = x->S + K * V * (item - w.i0), *Sb = S + K * v0;
  real_t *Srb = x->Sr ? x->Sr + K * V * (item - w.i0) + K * v0 : NULL;
  ptrdiff_t ci, i;

  if (w.c0 == 0) LA_FN(state_cols)(p, it.h0, S, NULL, 0, v0, v1);
  for (ci = w.c0; ci < w.c1 && ci < nc; ci++) {
    const ptrdiff_t t0 = ci * C, c = la_chunk_steps(it.s, ci, C);
    const LA_FN(cfwd_slot) sl = LA_FN(fwd_slot)(x, w, item, ci, c);
    real_t *vn = sl.vn + v0;
    const real_t *Sh = LA_FN(chunk_emu_state)(p, Sb, Srb, K * vw); /* the state read */
    if (la_poll(p, status)) return;
    if (x->aux && x->aux->h)
      memcpy((real_t *)x->aux->h + K * v0 + K * V * (hv + p->HV * (x->first[n] + ci)), Sh,
             sizeof(real_t) * (size_t)(K * vw));
    if (x->direct) { /* [KG, QG] side by side (fwd_slot) */
      LA_FN(chunk_vnew_output_direct_cols)(p, vw, c, Sh, sl.kw, sl.Am, sl.Aqk, C,
                                           it.v + V * t0 + v0, V, X, vn, V, it.o + V * t0 + v0, V);
    } else { /* the WY form ('Emulate'): rounded as a kernel stores them */
      LA_FN(chunk_vnew_cols)(K, vw, c, Sh, sl.kw, vn, V);
      LA_FN(la_emu_rows)(p, vn, vw, c, V);
      LA_FN(chunk_output_cols)(p, vw, c, Sh, sl.QG, sl.Aqk, C, vn, V, it.o + V * t0 + v0, V);
      LA_FN(la_emu_rows)(p, (real_t *)it.o + V * t0 + v0, vw, c, V);
    }
    LA_FN(chunk_state_cols)(K, vw, c, sl.gam, sl.KC, vn, V, Sb, Sb);
    if (x->aux && x->aux->v_new)
      for (i = 0; i < c; i++)
        memcpy((real_t *)x->aux->v_new + V * (la_off_beta(p, it.s, hv) + t0 + i) + v0,
               vn + V * i, sizeof(real_t) * (size_t)vw);
  }
  if (w.c0 < nc ? w.c1 >= nc : w.c0 == 0) LA_FN(state_cols)(p, NULL, S, it.ht, 1, v0, v1);
}

/* The slots and states of one window, together in the pool's shared
 * buffer (la_pool.c: x->pooled says whether this call holds the pool; the
 * caller gives the buffer back and leaves); 0 if refused. */
static int LA_FN(chunk_fwd_alloc)(const la_problem *p, LA_FN(chunk_fwd_ctx) *x,
                                  ptrdiff_t *bytes)
{
  ptrdiff_t nslot, nstate, total;
  if (!la_mul4(x->plan.ipb, x->plan.wn, x->slot_elems, 1, &nslot) ||
      !la_mul4(x->plan.ipb, p->K, p->V, p->emulate ? 2 : 1, &nstate) ||
      !la_add(nslot, nstate, &total) ||
      !la_bytes(total, sizeof(real_t), bytes) || !la_workspace_ok(1, *bytes, 1))
    return 0;
  x->pooled = la_pool_enter();
  if (!(x->slots = la_pool_get(x->pooled, LA_POOL_SHARED, total, sizeof(real_t)))) return 0;
  x->S = x->slots + nslot;
  x->Sr = p->emulate ? x->S + x->plan.ipb * p->K * p->V : NULL;
  return 1;
}

/* A thread's workspace: a chunk workspace (and with fuse the transforms'
 * buffers), at least the state step's scratch, 2 V C (the direct form's
 * S^T [KG, QG]); -1 on overflow. */
static ptrdiff_t LA_FN(chunk_fwd_ws_elems)(const la_problem *p, int fuse)
{
  ptrdiff_t ws_elems = LA_FN(chunk_ws_size)(p, 0), scratch = 0;
  if (fuse) {
    const ptrdiff_t extra = LA_FN(chunk_fwd_transform_size)(p);
    if (ws_elems < 0 || extra < 0 || !la_add(ws_elems, extra, &ws_elems)) ws_elems = -1;
  }
  if (!la_mul4(2, p->V, p->chunk, 1, &scratch)) ws_elems = -1;
  if (ws_elems >= 0 && ws_elems < scratch) ws_elems = scratch;
  return ws_elems;
}

/* The forward: per chunk the intra-chunk step, then the state step
 * (v_new, o, the next state), scheduled by la_for_windows. */
int LA_FN(la_chunk_fwd_run)(const la_problem *p0, const la_fwd_io *io, const la_chunk_aux *aux)
{
  LA_ENTRY_CHECK(p0, pc);
  const la_problem *p = &pc;
  LA_FN(la_prep) pp;
  LA_FN(chunk_fwd_ctx) x;
  LA_FN(la_fwd_steps) steps;
  ptrdiff_t *first, n, maxnc = 1, bytes, ws_elems;
  int rc, uniform = 1;

  if (LA_DOUBLE && p->emulate) return LA_EARG; /* emulation works in float */
  if (io->gk || io->gv) return LA_EARG; /* GK, GV: the recurrent paths only */
  if (p->beta_per_channel || p->slots) return LA_EARG; /* so are these */
  if (!(first = LA_FN(chunk_first)(p, aux))) return LA_ENOMEM;
  for (n = 0; n < p->N; n++) {
    if (first[n + 1] - first[n] > maxnc) maxnc = first[n + 1] - first[n];
    uniform = uniform && first[n + 1] - first[n] == first[1] - first[0];
  }
  memset(&x, 0, sizeof x);
  x.p = p;
  x.pp = &pp;
  x.io = io;
  x.aux = aux;
  x.first = first;
  x.direct = la_direct_form(p);
  /* with aux, the transforms first (aux reads the gates of the whole call) */
  x.fuse = !aux && (p->qk_l2norm || p->gate_in_kernel);
  x.slot_elems = LA_FN(cfwd_slot_size)(p, 0);
  ws_elems = LA_FN(chunk_fwd_ws_elems)(p, x.fuse);
  rc = LA_FN(la_prep_fwd)(p, io->q, io->k, io->g, io->beta, io->A_log, io->dt_bias, 0, x.fuse,
                          &pp);
  if (rc == LA_OK &&
      (ws_elems < 0 ||
       !la_fwd_plan_make(p, p->N * p->HV, maxnc, uniform, x.slot_elems, LA_FWD_STORE, &x.plan) ||
       !LA_FN(chunk_fwd_alloc)(p, &x, &bytes)))
    rc = LA_ENOMEM;
  if (rc == LA_OK) {
    steps.intra = LA_FN(chunk_fwd_intra);
    steps.state = LA_FN(chunk_fwd_state);
    steps.ctx = &x;
    rc = LA_FN(la_for_windows)(p, &x.plan, ws_elems, bytes, &steps);
  }
  if (x.slots) la_pool_put(x.pooled, LA_POOL_SHARED, x.slots);
  la_pool_leave(x.pooled);
  LA_FN(la_prep_free)(&pp);
  free(first);
  return rc;
}

/* The entry point: 'Emulate' rounds the inputs first (la_emulate.c). */
int LA_FN(la_chunk_fwd)(const la_problem *p, const la_fwd_io *io, const la_chunk_aux *aux)
{
  return p->emulate ? la_emu_chunk_fwd(p, io, aux, LA_DOUBLE) : LA_FN(la_chunk_fwd_run)(p, io, aux);
}
