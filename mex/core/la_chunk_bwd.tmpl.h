/*
 * la_chunk_bwd.tmpl.h -- template: the driver of the chunked backward
 * (docs/chunk_backward.md).  Per (sequence, value head): a forward sweep
 * forms every chunk's M, Aqk, A, X = v - KG S (the direct form of
 * v_new = A X; w in the WY form, 'Emulate'), v_new and keeps them with the
 * state entering each chunk (cbwd_store, la_chunk_ws.tmpl.h); a reverse
 * sweep then, chunk by chunk, recomputes only the decays and gated q, k and
 * runs the stages' backward in reverse order: output, state passing, WY,
 * gated products, decays.  Only the state (forward sweep) and its gradient
 * dS (reverse sweep) pass from chunk to chunk; the rest of each chunk's work
 * is its own, and when some thread has no item of its own it takes those
 * parts of another item's chunks (chunk_bwd_item: a ring of chunk
 * workspaces and OpenMP tasks).  When the items divide among the threads
 * and share one chunk count, each item is instead a chain of steps (its
 * chunks in both sweeps) that any thread may carry on (chunk_bwd_chains,
 * la_chains.c); the tuning's bwd_items forces item by item.
 *
 * 'Emulate' (docs/emulation.md): the forward sweep stores h, Aqk, A, w,
 * v_new rounded as the forward does; the reverse sweep rounds the recomputed
 * gated q, k, dv after the output stage and after the state stage, and
 * the snapshot of dh the chunk reads (the carried dh stays single); the
 * gradients returned are rounded last.
 *
 * With io->aux ('Intermediates') it also copies out each chunk's gradients
 * of the forward's intermediates (cbwd_aux_store), at no cost otherwise.
 */

/* Forward sweep, chunk ci's own part: M, Aqk, A (24)-(26), (29) (and in
 * the WY form w, u (27)) into the store (and the decays, gated q, k into its pair).  M and Aqk
 * come from one pass, as in the forward (la_stage_gated). */
static void LA_FN(cbwd_fwd_local)(const la_problem *p, const LA_FN(la_item) *it, ptrdiff_t ci,
                                  const LA_FN(cbwd_store) *st, LA_FN(chunk_ws) *ws,
                                  LA_FN(cbwd_ws) *b)
{
  const ptrdiff_t K = p->K, V = p->V, C = p->chunk, GD = la_gate_dim(p);
  const ptrdiff_t t0 = ci * C, c = la_chunk_steps(it->s, ci, C);
  LA_FN(cbwd_use_chunk)(st, ci, c, ws, b);
  LA_FN(chunk_intra)(p, c, it->q + K * t0, it->k + K * t0, it->v + V * t0, it->g + GD * t0,
                     it->beta + t0, LA_CI_AQK | (b->X ? LA_CI_A : LA_CI_WU), ws);
  LA_FN(chunk_emu_intra)(p, c, 1, ws);
}

/* Forward sweep, the chain: v_new (28) of chunk ci and the state entering
 * the next one (31) (none after the last).  b->dS: scratch for the rounded state
 * ('Emulate'; free until the reverse sweep). */
static void LA_FN(cbwd_fwd_chain)(const la_problem *p, const LA_FN(la_item) *it, ptrdiff_t ci,
                                  const LA_FN(cbwd_store) *st, const LA_FN(chunk_ws) *ws,
                                  LA_FN(cbwd_ws) *b)
{
  const ptrdiff_t K = p->K, V = p->V, KV = p->K * p->V, C = p->chunk;
  const ptrdiff_t nc = la_chunks(it->s.len, C), c = la_chunk_steps(it->s, ci, C);
  const real_t *S = st->h + KV * ci;
  const real_t *Sh = LA_FN(chunk_emu_state)(p, S, b->dS, K * V); /* S, or its rounded copy */
  if (b->X) /* the direct form: X = v - KG S kept for the reverse sweep's dA */
    LA_FN(chunk_vnew_direct_cols)(K, V, c, Sh, ws->KG, ws->Am, C, it->v + V * ci * C, V, b->X,
                                  b->vnew, V);
  else
    LA_FN(chunk_vnew)(K, V, c, Sh, ws, b->vnew);
  LA_FN(la_emu)(p, b->vnew, V * c);
  if (ci + 1 < nc) LA_FN(chunk_state_next)(K, V, c, ws, b->vnew, S, st->h + KV * (ci + 1));
  if (Sh != S) memcpy(st->h + KV * ci, Sh, sizeof(real_t) * (size_t)KV);
}

/* Reverse sweep, chunk ci's part before the chain: the decays and gated
 * q, k recomputed (Aqk is the forward sweep's), the output stage's backward:
 * dv_new's part from dO and dAqk (35), (36) (b->dvn, b->dAqk). */
static void LA_FN(cbwd_rev_pre)(const la_problem *p, const LA_FN(la_item) *it, ptrdiff_t ci,
                                const LA_FN(cbwd_store) *st, LA_FN(chunk_ws) *ws,
                                LA_FN(cbwd_ws) *b)
{
  const ptrdiff_t K = p->K, V = p->V, C = p->chunk, GD = la_gate_dim(p);
  const ptrdiff_t t0 = ci * C, c = la_chunk_steps(it->s, ci, C);
  LA_FN(cbwd_use_chunk)(st, ci, c, ws, b);
  LA_FN(chunk_intra)(p, c, it->q + K * t0, it->k + K * t0, it->v + V * t0, it->g + GD * t0,
                     it->beta + t0, LA_CI_DECAYS, ws);
  LA_FN(chunk_emu_intra)(p, c, 0, ws);
  LA_FN(chunk_araw)(c, ws->M, it->beta + t0, ws);
  LA_FN(cbwd_output)(p, c, it->dout + V * t0, ws, b);
  LA_FN(la_emu)(p, b->dvn, V * c);
}

/* Reverse sweep, the chain: dH (37); b->dS holds the gradient of the state
 * after chunk ci on entry and of the state entering it on return. */
static void LA_FN(cbwd_rev_chain)(const la_problem *p, const LA_FN(la_item) *it, ptrdiff_t ci,
                                  const LA_FN(chunk_ws) *ws, LA_FN(cbwd_ws) *b)
{
  const ptrdiff_t V = p->V, t0 = ci * p->chunk, c = la_chunk_steps(it->s, ci, p->chunk);
  LA_FN(cbwd_emu_dh)(p, c, ws, b, 0);
  LA_FN(cbwd_state_chain)(p, c, it->dout + V * t0, ws, b);
  LA_FN(cbwd_emu_dh)(p, c, ws, b, 1);
}

/* Reverse sweep, chunk ci's part after the chain: the rest of the state
 * stage (38), WY (39)-(42), gated products (43), (44), decays (45)-(46b):
 * dq, dk, dv, dg, dbeta of its steps; at: NULL, or where its
 * intermediates go. */
static void LA_FN(cbwd_rev_post)(const la_problem *p, const LA_FN(la_item) *it, ptrdiff_t ci,
                                 const LA_FN(cbwd_store) *st, LA_FN(chunk_ws) *ws,
                                 LA_FN(cbwd_ws) *b, const LA_FN(cbwd_aux_at) *at)
{
  const ptrdiff_t K = p->K, V = p->V, KV = p->K * p->V, C = p->chunk, GD = la_gate_dim(p);
  const ptrdiff_t t0 = ci * C, c = la_chunk_steps(it->s, ci, C);
  const real_t *qc = it->q + K * t0, *kc = it->k + K * t0, *bc = it->beta + t0;
  LA_STAGE(LA_ST_B_STATE, LA_FN(cbwd_state_local)(p, c, st->h + KV * ci, b));
  LA_FN(la_emu)(p, b->dvn, V * c);
  LA_STAGE(LA_ST_B_WY, LA_FN(cbwd_wy)(K, V, c, it->v + V * t0, bc, it->dv + V * t0,
                                      it->dbeta + t0, ws, b, at ? at->keep : NULL));
  LA_STAGE(LA_ST_B_GATED, LA_FN(cbwd_gated_products)(p, c, qc, kc, b->dAqk, b->dL, ws, b));
  LA_STAGE(LA_ST_B_DECAYS, LA_FN(chunk_decays_bwd)(p, c, qc, kc, it->dq + K * t0,
                                                   it->dk + K * t0, it->dg + GD * t0, ws, b));
  if (at) LA_FN(cbwd_aux_store)(p, c, at, b, st->h + KV * ci, it->dg + GD * t0);
}

typedef struct {
  const la_problem *p;
  const LA_FN(la_bwd_frame) *f;
  const la_bwd_io *io;
  ptrdiff_t maxnc;             /* most chunks of one sequence */
  ptrdiff_t ring;              /* pairs per item: LA_BWD_RING when pipelined, else 1 */
  int direct;                  /* the direct form of v_new (la_direct_form) */
  const ptrdiff_t *first;      /* with io->aux: number of each sequence's first chunk */
  /* the schedule by chains (chunk_bwd_chains), else NULL: */
  real_t *stores;              /* a window's items' stores and chain buffers */
  ptrdiff_t item_elems;        /* elements of one item's in stores */
  ptrdiff_t nc;                /* chunks of every item */
} LA_FN(chunk_bwd_ctx);

/* Where chunk ci of item (n, hv) puts its intermediates: aux NULL without
 * io->aux; keep: the 2 C x C past the carved workspace (cbwd_wy). */
static LA_FN(cbwd_aux_at) LA_FN(cbwd_aux_of)(const LA_FN(chunk_bwd_ctx) *x,
                                             const LA_FN(la_item) *it, ptrdiff_t n,
                                             ptrdiff_t hv, ptrdiff_t ci, real_t *keep)
{
  LA_FN(cbwd_aux_at) at;
  memset(&at, 0, sizeof at);
  if (!x->io->aux) return at;
  at.aux = x->io->aux;
  at.hv = hv;
  at.keep = keep;
  at.tg = la_off_beta(x->p, it->s, hv) + ci * x->p->chunk;
  at.nci = x->first ? x->first[n] + ci : 0;
  return at;
}

/* One item.  Each sweep is, per chunk, a part of its own and a part of the
 * chain that carries the state (forward) or its gradient (reverse; there
 * the chunk's own work comes before and after the chain).  With a ring of
 * several pairs these parts are OpenMP tasks ordered by their
 * dependences: the chain's in chunk order, a chunk's parts in stage order,
 * a pair reused only when the chunk before on it is done; a thread without
 * an item of its own (H = 1, the last of H = 3 on two threads) takes them
 * at the loop's barrier.  With one pair (if (0)) each task runs at once,
 * in the order written.  Either way every chunk gets the same operations:
 * the same bits. */
static void LA_FN(chunk_bwd_item_tasks)(void *ctx, ptrdiff_t n, ptrdiff_t hv, real_t *buf,
                                         int *status)
{
  const LA_FN(chunk_bwd_ctx) *x = (const LA_FN(chunk_bwd_ctx) *)ctx;
  const la_problem *p = x->p;
  const LA_FN(la_item) it = LA_FN(la_item_bwd)(p, x->f, x->io, n, hv);
  const ptrdiff_t nc = la_chunks(it.s.len, p->chunk), nr = x->ring;
  const int defer = nr > 1;
  LA_FN(cbwd_store) st;
  LA_FN(cbwd_ring) ring;
  LA_FN(cbwd_aux_at) at;
  real_t *keep;
  char pair[LA_BWD_RING], chain = 0; /* the tasks' dependences */
  ptrdiff_t ci;

  (void)pair; (void)chain; (void)defer; /* without OpenMP tasks */
  keep = LA_FN(cbwd_carve)(p, x->maxnc, nr, buf, &st, &ring);
  st.direct = x->direct;
  LA_FN(la_state_load)(p, it.h0, st.h);
  for (ci = 0; ci < nc; ci++) {
    LA_FN(chunk_ws) *ws = &ring.ws[ci % nr];
    LA_FN(cbwd_ws) *b = &ring.b[ci % nr];
    LA_OMP(task if (defer) default(shared) firstprivate(ci, ws, b) depend(inout : pair[ci % nr]))
    if (!la_stopped(status))
      LA_STAGE(LA_ST_B_FWD_LOCAL, LA_FN(cbwd_fwd_local)(p, &it, ci, &st, ws, b));
    LA_OMP(task if (defer) default(shared) firstprivate(ci, ws, b)
               depend(inout : pair[ci % nr], chain))
    if (!la_poll(p, status))
      LA_STAGE(LA_ST_B_FWD_CHAIN, LA_FN(cbwd_fwd_chain)(p, &it, ci, &st, ws, b));
  }
  LA_OMP(taskwait)
  if (la_stopped(status)) return;
  LA_FN(la_state_load)(p, it.dht, ring.b[0].dS);
  for (ci = nc - 1; ci >= 0; ci--) {
    LA_FN(chunk_ws) *ws = &ring.ws[ci % nr];
    LA_FN(cbwd_ws) *b = &ring.b[ci % nr];
    at = LA_FN(cbwd_aux_of)(x, &it, n, hv, ci, keep);
    LA_OMP(task if (defer) default(shared) firstprivate(ci, ws, b) depend(inout : pair[ci % nr]))
    if (!la_stopped(status))
      LA_STAGE(LA_ST_B_REV_PRE, LA_FN(cbwd_rev_pre)(p, &it, ci, &st, ws, b));
    LA_OMP(task if (defer) default(shared) firstprivate(ci, ws, b)
               depend(inout : pair[ci % nr], chain))
    if (!la_poll(p, status)) LA_STAGE(LA_ST_B_REV_CHAIN, LA_FN(cbwd_rev_chain)(p, &it, ci, ws, b));
    LA_OMP(task if (defer) default(shared) firstprivate(ci, ws, b, at)
               depend(inout : pair[ci % nr]))
    if (!la_stopped(status)) LA_FN(cbwd_rev_post)(p, &it, ci, &st, ws, b, at.aux ? &at : NULL);
  }
  LA_OMP(taskwait)
  if (la_stopped(status)) return;
  LA_FN(la_state_store)(p, ring.b[0].dS, it.dh0);
}

/* The item's tasks under a task of its own (undeferred: it runs here, at
 * once).  A task's dependences are kept in a table of its parent, and the
 * loop's implicit task may keep it past the region (docs/chunk_backward.md,
 * section 1); this task's table is freed when the item ends. */
static void LA_FN(chunk_bwd_item)(void *ctx, ptrdiff_t n, ptrdiff_t hv, real_t *buf, int *status)
{
  LA_OMP(task if (0) default(shared))
  LA_FN(chunk_bwd_item_tasks)(ctx, n, hv, buf, status);
}

/* The schedule by chains (when every item has the same nc >= 1 chunks and
 * the items divide among the threads, as the forward's schedule per item):
 * each item is a chain of 2 nc steps, the forward sweep's chunks 0 .. nc-1
 * and then the reverse sweep's nc-1 .. 0, and its store and chain buffers
 * are in the window's shared buffer, so that any worker can run its next
 * step (la_chains.c).  A worker keeps one pair of chunk workspaces in its
 * own buffer (ws), and the aux's keep after it.  Step s of item: the same
 * calls in the same order as chunk_bwd_item_tasks with one pair, so the
 * same bits. */
static void LA_FN(chunk_bwd_chain_step)(void *ctx, ptrdiff_t w0, ptrdiff_t item, ptrdiff_t s,
                                        real_t *buf, int *status)
{
  const LA_FN(chunk_bwd_ctx) *x = (const LA_FN(chunk_bwd_ctx) *)ctx;
  const la_problem *p = x->p;
  const ptrdiff_t n = item / p->HV, hv = item % p->HV, nc = x->nc;
  const LA_FN(la_item) it = LA_FN(la_item_bwd)(p, x->f, x->io, n, hv);
  LA_FN(cbwd_store) st;
  LA_FN(cbwd_ws) chain, b;
  LA_FN(chunk_ws) ws;
  LA_FN(cbwd_aux_at) at;
  real_t *keep;
  (void)status; /* polled between steps (la_for_chains) */
  LA_FN(cbwd_carve_item)(p, nc, x->stores + x->item_elems * (item - w0), &st, &chain);
  st.direct = x->direct;
  keep = LA_FN(cbwd_carve_pair)(p, buf, &chain, &ws, &b);
  if (s < nc) { /* the forward sweep */
    if (s == 0) LA_FN(la_state_load)(p, it.h0, st.h);
    LA_STAGE(LA_ST_B_FWD_LOCAL, LA_FN(cbwd_fwd_local)(p, &it, s, &st, &ws, &b));
    LA_STAGE(LA_ST_B_FWD_CHAIN, LA_FN(cbwd_fwd_chain)(p, &it, s, &st, &ws, &b));
    return;
  }
  s = 2 * nc - 1 - s; /* the reverse sweep's chunk */
  at = LA_FN(cbwd_aux_of)(x, &it, n, hv, s, keep);
  if (s == nc - 1) LA_FN(la_state_load)(p, it.dht, b.dS);
  LA_STAGE(LA_ST_B_REV_PRE, LA_FN(cbwd_rev_pre)(p, &it, s, &st, &ws, &b));
  LA_STAGE(LA_ST_B_REV_CHAIN, LA_FN(cbwd_rev_chain)(p, &it, s, &ws, &b));
  LA_FN(cbwd_rev_post)(p, &it, s, &st, &ws, &b, at.aux ? &at : NULL);
  if (s == 0) LA_FN(la_state_store)(p, b.dS, it.dh0);
}

/* Run the backward by chains if it applies (see chunk_bwd_chain_step):
 * 1 and *rc set if it ran, 0 if the items' schedule must run instead (the
 * items of different chunk counts, not dividing among the threads, a call
 * small enough for one thread, the tuning's bwd_items, or no
 * memory for it). */
static int LA_FN(chunk_bwd_chains)(LA_FN(chunk_bwd_ctx) *x, ptrdiff_t keep, int *rc)
{
  const la_problem *p = x->p;
  const ptrdiff_t th = la_max_threads(), items = p->N * p->HV;
  const ptrdiff_t store = LA_FN(cbwd_store_size)(p, x->maxnc), chain = LA_FN(cbwd_chain_size)(p, 0);
  const ptrdiff_t pair = LA_FN(cbwd_pair_size)(p, 0);
  ptrdiff_t n, ws_elems, total, all = 0, ipb;
  int pooled;
  if (th < 2 || items % th != 0 || la_small_call(p) || la_get_tuning().bwd_items) return 0;
  for (n = 0; n < p->N; n++)
    if (la_chunks(la_seq_of(p, n).len, p->chunk) != x->maxnc) return 0; /* maxnc >= 1 */
  x->nc = x->maxnc;
  ipb = items < 2 * th ? items : 2 * th; /* two items per worker at once */
  /* the window's stores and every worker's pair must fit now; else the
   * items' schedule, which holds one store per thread, may still run */
  if (store < 0 || chain < 0 || pair < 0 || !la_add(store, chain, &x->item_elems) ||
      !la_mul(x->item_elems, ipb, &total) || !la_add(pair, keep, &ws_elems) ||
      !la_mul(ws_elems, th, &all) || !la_add(all, total, &all) ||
      !la_bytes(all, sizeof(real_t), &all) || !la_workspace_ok(1, all))
    return 0;
  pooled = la_pool_enter();
  x->stores = la_pool_get(pooled, LA_POOL_SHARED, total, sizeof(real_t));
  if (x->stores) {
    *rc = LA_FN(la_for_chains)(p, ws_elems, 0, items, 2 * x->nc, ipb,
                               LA_FN(chunk_bwd_chain_step), x);
    la_pool_put(pooled, LA_POOL_SHARED, x->stores);
  }
  la_pool_leave(pooled);
  return x->stores != NULL;
}

int LA_FN(la_chunk_bwd)(const la_problem *p0, const la_bwd_io *io)
{
  LA_ENTRY_CHECK(p0, pc);
  const la_problem *p = &pc;
  LA_FN(la_bwd_frame) f;
  LA_FN(chunk_bwd_ctx) x;
  ptrdiff_t n, ws_elems, *first = NULL, nfirst, keep = 0;
  int rc;

  if (LA_DOUBLE && p->emulate) return LA_EARG; /* emulation works in float */
  if (io->gk || io->gv) return LA_EARG; /* GK, GV: the recurrent paths only */
  if (p->beta_per_channel || p->slots) return LA_EARG; /* so are these */
  x.maxnc = 1;
  x.direct = la_direct_form(p);
  for (n = 0; n < p->N; n++) {
    const ptrdiff_t nc = la_chunks(la_seq_of(p, n).len, p->chunk);
    if (nc > x.maxnc) x.maxnc = nc;
  }
  /* pipelined (LA_BWD_RING pairs per item) when some thread would have no
   * item of its own: fewer items than threads, or a last round short of
   * them (docs/performance.md, "The backward's tasks") */
  {
    const ptrdiff_t th = la_max_threads(), items = p->N * p->HV;
    const ptrdiff_t pair = LA_FN(cbwd_pair_size)(p, 0), store = LA_FN(cbwd_store_size)(p, x.maxnc);
    const ptrdiff_t chain = LA_FN(cbwd_chain_size)(p, 0);
    x.ring = LA_OMP_TASKS && !io->aux && th > 1 && items % th != 0 && !la_small_call(p) &&
                     !la_get_tuning().bwd_no_ring
                 ? LA_BWD_RING
                 : 1;
    /* a thread's workspace: the store, the chain, the ring (and with aux
     * cbwd_wy's keep) */
    if (pair < 0 || store < 0 || chain < 0 || !la_mul(pair, x.ring, &ws_elems) ||
        !la_add(store, ws_elems, &ws_elems) || !la_add(chain, ws_elems, &ws_elems))
      return LA_ENOMEM;
  }
  if (io->aux) { /* the chunk numbers of aux.dh, and room for cbwd_wy's keep */
    if (!la_mul(2 * p->chunk, p->chunk, &keep) ||
        !la_add(ws_elems, keep, &ws_elems) || !la_add(p->N, 1, &nfirst) ||
        !(first = la_alloc(nfirst, sizeof(ptrdiff_t))))
      return LA_ENOMEM;
    LA_FN(chunk_number)(p, NULL, first);
  }
  rc = LA_FN(la_bwd_start)(p, io, &f);
  if (rc) {
    free(first);
    return rc;
  }
  x.p = p;
  x.f = &f;
  x.io = io;
  x.first = first;
  x.stores = NULL;
  if (x.ring > 1 || !LA_FN(chunk_bwd_chains)(&x, io->aux ? keep : 0, &rc))
    rc = LA_FN(la_for_items)(p, ws_elems, 0, LA_FN(chunk_bwd_item), &x);
  free(first);
  rc = LA_FN(la_bwd_end)(p, io, &f, rc);
  if (rc == LA_OK && p->emulate) { /* the gradients, stored in the input's format */
    const ptrdiff_t nqk = p->K * p->T * p->H * p->B, nsteps = p->T * p->HV * p->B;
    LA_FN(la_emu)(p, (real_t *)io->dq, nqk);
    LA_FN(la_emu)(p, (real_t *)io->dk, nqk);
    LA_FN(la_emu)(p, (real_t *)io->dv, p->V * nsteps);
    LA_FN(la_emu)(p, (real_t *)io->dg, la_gate_dim(p) * nsteps);
    LA_FN(la_emu)(p, (real_t *)io->dbeta, nsteps);
  }
  return rc;
}
