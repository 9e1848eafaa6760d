/*
 * la_chunk_fwd.tmpl.h -- template: the driver of the chunked forward
 * (docs/chunk_forward.md).  Per (sequence, value head), chunk after chunk:
 *   intra-chunk:  G, A_raw, A, Aqk    (21), (24)-(26), (29)  la_stage_intra
 *   v_new = A (v - KG S)              (28)                   la_stage_state
 *   o     = s QG S + Aqk v_new        (30)                   la_stage_output
 *   S     = Diag(gamma) S + KC^T v_new  (31)                 la_stage_state
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

typedef struct {
  const la_problem *p;
  const LA_FN(la_prep) *pp;
  const la_fwd_io *io;
  const la_chunk_aux *aux;
  const ptrdiff_t *first;      /* number of the first chunk of each sequence */
  real_t *slots, *S;           /* the window's slots; the states of its items */
  real_t *Sr;                  /* 'Emulate': the rounded states (else NULL) */
  ptrdiff_t slot_elems, items, ipb, nib, wn, ncb, nvb;
  int pooled;                  /* this call holds the pool (la_pool_enter) */
  int fuse;                    /* transforms chunk by chunk (chunk_fwd_transform) */
  int per_item;                /* the schedule per item (chunk_fwd_item), not phases */
  int workers;                 /* per item: the tasks of a window, each a worker */
  la_chains *chains;           /* per item: the items as chains of chunks (la_chains.c) */
  int direct;                  /* v_new = A (v - KG S), not u - w S (chunk_fwd_plan) */
  /* items: N HV; a window: ipb items by wn chunks; nib x ncb windows;
   * nvb: blocks of value columns in the state pass (per item: wn = ncb = 1,
   * nvb = 1, and a window's tasks are its workers, which share its items'
   * chunks through chains) */
} LA_FN(chunk_fwd_ctx);

/* The chunks [c0, c1) of window win, its items [i0, i1). */
typedef struct {
  ptrdiff_t i0, i1, c0, c1;
} la_fwd_window;

static la_fwd_window LA_FN(fwd_window)(const LA_FN(chunk_fwd_ctx) *x, ptrdiff_t win)
{
  la_fwd_window w;
  w.i0 = (win / x->ncb) * x->ipb;
  w.i1 = w.i0 + x->ipb < x->items ? w.i0 + x->ipb : x->items;
  w.c0 = (win % x->ncb) * x->wn;
  w.c1 = w.c0 + x->wn;
  return w;
}

static ptrdiff_t LA_FN(chunk_fwd_ntasks)(void *ctx, ptrdiff_t win, int phase)
{
  const LA_FN(chunk_fwd_ctx) *x = (const LA_FN(chunk_fwd_ctx) *)ctx;
  const la_fwd_window w = LA_FN(fwd_window)(x, win);
  if (x->per_item) return phase == 0 ? x->workers : 0;
  return (w.i1 - w.i0) * (phase == 0 ? x->wn : x->nvb);
}

/* The slot of chunk ci (c steps) of item `item` in window w; its QG right
 * after the c columns of kw, so that the state pass reads [KG, QG] as one
 * K x 2c block (chunk_vnew_output_direct_cols). */
static LA_FN(cfwd_slot) LA_FN(fwd_slot)(const LA_FN(chunk_fwd_ctx) *x, la_fwd_window w,
                                        ptrdiff_t item, ptrdiff_t ci, ptrdiff_t c)
{
  const ptrdiff_t at = (item - w.i0) * x->wn + (ci - w.c0);
  LA_FN(cfwd_slot) sl = LA_FN(cfwd_slot_at)(x->p, x->slots + x->slot_elems * at);
  sl.QG = sl.kw + x->p->K * c;
  return sl;
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
static void LA_FN(chunk_fwd_transform)(const LA_FN(chunk_fwd_ctx) *x, ptrdiff_t hv, ptrdiff_t c,
                                       real_t *buf, const real_t **q, const real_t **k,
                                       const real_t **g)
{
  const la_problem *p = x->p;
  const ptrdiff_t K = p->K, C = p->chunk, GD = la_gate_dim(p);
  real_t *qn = buf, *kn = qn + K * C, *r = kn + K * C, *gn = r + C;
  if (p->qk_l2norm) {
    LA_FN(la_l2norm_fwd)(K, c, p->l2norm_eps, *q, qn, r, 0);
    LA_FN(la_l2norm_fwd)(K, c, p->l2norm_eps, *k, kn, r, 0);
    *q = qn;
    *k = kn;
  }
  if (p->gate_in_kernel) {
    const real_t *al = (const real_t *)x->io->A_log, *db = (const real_t *)x->io->dt_bias;
    LA_FN(la_gate_span)(p, al ? LA_EXP(al[hv]) : 1, db ? db + GD * hv : NULL, *g, gn, c);
    *g = gn;
  }
}

/* Phase 0: the intra-chunk work of chunk ci of one item into its slot. */
static void LA_FN(chunk_fwd_intra)(const LA_FN(chunk_fwd_ctx) *x, la_fwd_window w,
                                   ptrdiff_t item, ptrdiff_t ci, real_t *buf, int *status)
{
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
  if (x->fuse) LA_FN(chunk_fwd_transform)(x, hv, c, buf, &q, &k, &g);
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
  if (x->aux && x->aux->cond) { /* cond_1 (I + A_raw) of the chunk (aux.cond) */
    real_t *inv = la_alloc(C * C, sizeof(real_t));
    if (!inv) {
      la_stop(status, LA_ENOMEM);
      return;
    }
    ((real_t *)x->aux->cond)[x->first[n] + ci + x->first[p->N] * hv] =
        LA_FN(la_chunk_cond1)(c, C, ws.Araw, inv);
    free(inv);
  }
  LA_FN(chunk_emu_intra)(p, c, 1, &ws);
  memcpy(sl.gam, ws.eG + K * (c - 1), sizeof(real_t) * (size_t)K);
  if (x->aux) LA_FN(chunk_aux_intra)(p, x->aux, it.s, hv, t0, c, it.g, &ws);
}
/* Columns [v0, v1) of a state: S (K x V) from src in the caller's layout
 * (NULL: zeros), or with store, S into dst (NULL: not wanted). */
static void LA_FN(state_cols)(const la_problem *p, const real_t *src, real_t *S, real_t *dst,
                              int store, ptrdiff_t v0, ptrdiff_t v1)
{
  const ptrdiff_t K = p->K, V = p->V;
  ptrdiff_t i, j;
  if (store && !dst) return;
  for (j = v0; j < v1; j++)
    for (i = 0; i < K; i++) {
      const ptrdiff_t at = p->state_vk ? j + V * i : i + K * j;
      if (store) dst[at] = S[i + K * j];
      else S[i + K * j] = src ? src[at] : 0;
    }
}

/* Phase 1: the state pass of value columns [v0, v1) of one item over the
 * chunks of window w: v_new, o, the next state (and aux h, v_new).  X: the
 * thread's workspace (the direct form's scratch, 2 V C elements at least:
 * la_chunk_fwd). */
static void LA_FN(chunk_fwd_state)(const LA_FN(chunk_fwd_ctx) *x, la_fwd_window w,
                                   ptrdiff_t item, ptrdiff_t v0, ptrdiff_t v1, real_t *X,
                                   int *status)
{
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

/* The schedule per item: chunk ci of item, its intra-chunk work into the
 * item's slot (a window of one chunk: wn = 1) and then its state step over
 * all V columns; an item of no steps has one step that passes the state,
 * h0 to ht.  The items' chunks go to the window's workers through chains
 * (la_chains.c), each item's in order. */
static void LA_FN(chunk_fwd_item)(const LA_FN(chunk_fwd_ctx) *x, la_fwd_window w,
                                  ptrdiff_t item, ptrdiff_t ci, real_t *ws, int *status)
{
  const la_problem *p = x->p;
  w.c0 = ci;
  w.c1 = ci + 1;
  if (la_chunks(la_seq_of(p, item / p->HV).len, p->chunk) == 0) {
    LA_FN(chunk_fwd_state)(x, w, item, 0, p->V, ws, status);
    return;
  }
  LA_STAGE(LA_ST_INTRA, LA_FN(chunk_fwd_intra)(x, w, item, ci, ws, status));
  LA_STAGE(LA_ST_STATE, LA_FN(chunk_fwd_state)(x, w, item, 0, p->V, ws, status));
}

static void LA_FN(chunk_fwd_task)(void *ctx, ptrdiff_t win, int phase, ptrdiff_t task,
                                  real_t *ws, int *status)
{
  const LA_FN(chunk_fwd_ctx) *x = (const LA_FN(chunk_fwd_ctx) *)ctx;
  const la_fwd_window w = LA_FN(fwd_window)(x, win);
  if (x->per_item) {
    ptrdiff_t item = -1, ci;
    while ((ci = la_chains_next(x->chains, w.i0, w.i1, (int)task, &item)) >= 0) {
      if (la_poll(x->p, status)) return; /* the chain stays taken: nobody runs it on */
      LA_FN(chunk_fwd_item)(x, w, item, ci, ws, status);
    }
  } else if (phase == 0) {
    if (la_poll(x->p, status)) return;
    LA_STAGE(LA_ST_INTRA, LA_FN(chunk_fwd_intra)(x, w, w.i0 + task / x->wn,
                                                 w.c0 + task % x->wn, ws, status));
  } else {
    const ptrdiff_t vb = task % x->nvb, V = x->p->V;
    LA_STAGE(LA_ST_STATE,
             LA_FN(chunk_fwd_state)(x, w, w.i0 + task / x->nvb, V * vb / x->nvb,
                                    V * (vb + 1) / x->nvb, ws, status));
  }
}

/* first[n]: number of the first chunk of sequence n (N + 1 entries), and
 * the chunk table of aux. */
static void LA_FN(chunk_number)(const la_problem *p, const la_chunk_aux *aux, ptrdiff_t *first)
{
  const ptrdiff_t C = p->chunk;
  ptrdiff_t n, j;
  first[0] = 0;
  for (n = 0; n < p->N; n++) {
    const la_seq s = la_seq_of(p, n);
    const ptrdiff_t nc = la_chunks(s.len, C);
    for (j = 0; aux && aux->chunk_seq && j < nc; j++) {
      aux->chunk_seq[first[n] + j] = n;
      aux->chunk_t0[first[n] + j] = s.t0 + j * C;
      aux->chunk_len[first[n] + j] = la_chunk_steps(s, j, C);
    }
    first[n + 1] = first[n] + nc;
  }
}

/* The form of v_new, the schedule, windows and column blocks of x for p
 * (x->items set): the direct form but with 'Emulate' (or the tuning's wy_form); per
 * item when every item has the same number of chunks (uniform) and the
 * threads divide the items, a window a multiple of the threads' items;
 * else in two phases, with nvb blocks so that the state pass has a
 * multiple of the threads as tasks, or at least 4 per thread, with blocks
 * of 16 columns or more.  The slots of a window within about LA_FWD_STORE
 * elements, the windows as even as their number allows (la_even_part).
 * 0 on overflow. */
static int LA_FN(chunk_fwd_plan)(const la_problem *p, ptrdiff_t maxnc, int uniform,
                                 LA_FN(chunk_fwd_ctx) *x)
{
  const ptrdiff_t threads = la_max_threads();
  const ptrdiff_t E = LA_FN(cfwd_slot_size)(p, 0);
  if (E < 1) return 0;
  x->per_item = uniform && x->items % threads == 0 && !la_get_tuning().fwd_phases;
  x->direct = la_direct_form(p);
  if (x->per_item) {
    const ptrdiff_t fit = LA_FWD_STORE / E / threads * threads;
    x->ipb = fit > threads ? fit : threads;
    x->wn = 1;
    x->workers = (int)threads;
  } else if (x->items <= LA_FWD_STORE / E) {
    x->ipb = x->items;
    x->wn = LA_FWD_STORE / E / x->items;
    if (x->wn > maxnc) x->wn = maxnc;
    x->wn = la_even_part(maxnc, x->wn);
  } else {
    x->ipb = LA_FWD_STORE / E > threads ? LA_FWD_STORE / E : threads;
    if (x->ipb < x->items) x->ipb = la_even_part(x->items, x->ipb);
    x->wn = 1;
  }
  if (x->ipb > x->items) x->ipb = x->items;
  x->nib = (x->items + x->ipb - 1) / x->ipb;
  x->ncb = x->per_item ? 1 : (maxnc + x->wn - 1) / x->wn;
  x->nvb = 1;
  while (!x->per_item && (x->items * x->nvb) % threads && x->items * x->nvb < 4 * threads &&
         p->V / (x->nvb + 1) >= 16)
    x->nvb++;
  x->slot_elems = E;
  return 1;
}

/* The slots and states of one window, together in the pool's shared
 * buffer (la_pool.c: x->pooled says whether this call holds the pool; the
 * caller gives the buffer back and leaves); 0 if refused. */
static int LA_FN(chunk_fwd_alloc)(const la_problem *p, LA_FN(chunk_fwd_ctx) *x,
                                  ptrdiff_t *bytes)
{
  ptrdiff_t nslot, nstate, total;
  if (!la_mul4(x->ipb, x->wn, x->slot_elems, 1, &nslot) ||
      !la_mul4(x->ipb, p->K, p->V, p->emulate ? 2 : 1, &nstate) ||
      !la_add(nslot, nstate, &total) ||
      !la_bytes(total, sizeof(real_t), bytes) || !la_workspace_ok(1, *bytes))
    return 0;
  x->pooled = la_pool_enter();
  if (!(x->slots = la_pool_get(x->pooled, LA_POOL_SHARED, total, sizeof(real_t)))) return 0;
  x->S = x->slots + nslot;
  x->Sr = p->emulate ? x->S + x->ipb * p->K * p->V : NULL;
  return 1;
}

int LA_FN(la_chunk_fwd)(const la_problem *p0, const la_fwd_io *io, const la_chunk_aux *aux)
{
  LA_ENTRY_CHECK(p0, pc);
  const la_problem *p = &pc;
  LA_FN(la_prep) pp;
  LA_FN(chunk_fwd_ctx) x;
  la_chains chains = {0};
  ptrdiff_t *first, nfirst, n, maxnc = 1, bytes, ws_elems = LA_FN(chunk_ws_size)(p, 0);
  int rc, uniform = 1;

  if (LA_DOUBLE && p->emulate) return LA_EARG; /* emulation works in float */
  if (io->gk || io->gv) return LA_EARG; /* GK, GV: the recurrent paths only */
  if (!la_add(p->N, 1, &nfirst) || !(first = la_alloc(nfirst, sizeof(ptrdiff_t))))
    return LA_ENOMEM;
  LA_FN(chunk_number)(p, aux, first);
  for (n = 0; n < p->N; n++) {
    if (first[n + 1] - first[n] > maxnc) maxnc = first[n + 1] - first[n];
    uniform = uniform && first[n + 1] - first[n] == first[1] - first[0];
  }
  memset(&x, 0, sizeof x);
  x.items = p->N * p->HV;
  /* with aux, the transforms first (aux reads the gates of the whole call) */
  x.fuse = !aux && (p->qk_l2norm || p->gate_in_kernel);
  rc = LA_FN(la_prep_fwd)(p, io->q, io->k, io->g, io->beta, io->A_log, io->dt_bias, 0, x.fuse,
                          &pp);
  if (x.fuse) {
    const ptrdiff_t extra = LA_FN(chunk_fwd_transform_size)(p);
    if (ws_elems < 0 || extra < 0 || !la_add(ws_elems, extra, &ws_elems)) ws_elems = -1;
  }
  { /* the state pass's scratch (the direct form's S^T [KG, QG]): 2 V C */
    ptrdiff_t scratch = 0;
    if (!la_mul4(2, p->V, p->chunk, 1, &scratch)) ws_elems = -1;
    if (ws_elems >= 0 && ws_elems < scratch) ws_elems = scratch;
  }
  if (rc == LA_OK && (ws_elems < 0 || !LA_FN(chunk_fwd_plan)(p, maxnc, uniform, &x) ||
                      !LA_FN(chunk_fwd_alloc)(p, &x, &bytes) ||
                      (x.per_item && /* maxnc >= 1: an item of no steps has one */
                       !la_chains_init(&chains, x.items, maxnc, x.ipb, x.workers))))
    rc = LA_ENOMEM;
  x.chains = &chains;
  if (rc == LA_OK) {
    x.p = p;
    x.pp = &pp;
    x.io = io;
    x.aux = aux;
    x.first = first;
    rc = LA_FN(la_for_phases)(p, ws_elems, bytes, x.nib * x.ncb,
                              LA_FN(chunk_fwd_ntasks), LA_FN(chunk_fwd_task), &x);
  }
  if (x.slots) la_pool_put(x.pooled, LA_POOL_SHARED, x.slots);
  la_pool_leave(x.pooled);
  la_chains_free(&chains);
  LA_FN(la_prep_free)(&pp);
  free(first);
  return rc;
}
