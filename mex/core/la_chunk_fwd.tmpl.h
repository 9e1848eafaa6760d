/*
 * la_chunk_fwd.tmpl.h -- template: the driver of the chunked forward
 * (docs/chunk_forward.md).  Per (sequence, value head), chunk after chunk:
 *   intra-chunk:  decays, A_raw, Aqk, A              (la_stage_intra)
 *   v_new = A (v - KG S)                             (la_stage_state)
 *   o     = scale (exp(G) .* q) S + Aqk v_new        (la_stage_output)
 *   S     = Diag(exp(G_last)) S + (exp(G_last - G) .* k)^T v_new   (la_stage_state)
 * and, when asked, the chunk's intermediates into aux (w = A KG and u = A v
 * formed for them only).
 *
 * v_new = A (v - KG S) is the direct form of (28); FLA's kernels form
 * w = A KG and u = A v in the intra-chunk phase and then v_new = u - w S
 * (the WY form), a GEMM of c x c x K per chunk more.  The direct form saves
 * it: 4-8 % of the forward's time at K = V = 64 and 128 in paired runs
 * (docs/performance.md, "The direct form of v_new").  'Emulate' keeps the
 * WY form, since it rounds w and u where a kernel stores them; LA_WY in
 * the environment forces it (to compare the forms, and for the flop count
 * of docs/flops.md).  Both forms give the same v_new up to rounding.  In
 * the direct form S is read by one GEMM for v_new and o together,
 * S^T [KG, QG] (chunk_vnew_output_direct_cols; the slot keeps KG and QG side
 * by side, fwd_slot).
 *
 * Two schedules (chunk_fwd_plan):
 * - per item, when the items (sequence, value head) have one chunk count
 *   and divide evenly among the threads (H = 4 on two): an item's chunks
 *   run in order, each chunk's intra-chunk work into the item's slot and at
 *   once its state step, while the slot is in the core's own cache.  No
 *   barrier inside a window: 2-5 % faster than the phases in paired runs,
 *   up to 23 % when the host is busy.  The phases would run whole value
 *   columns here too (nvb = 1), so the BLAS calls and the bits are the same
 *   (docs/performance.md, "One task per item").  Each item is a chain of
 *   chunks (la_chains.c): a window's tasks are its workers, each running
 *   its own two items side by side, and a worker with none left carries on
 *   an item another has not got to, so a slower core does not keep the
 *   other waiting at the end (docs/performance.md, "Chains shared between
 *   the threads").
 * - in two phases (la_for_phases) otherwise: only the last three lines
 *   carry the state, so the intra-chunk phase of every chunk of a window
 *   runs in parallel over (item, chunk) and keeps what the state pass reads
 *   in a slot per chunk (cfwd_slot); the state pass then runs over (item,
 *   block of value columns) -- the columns of S, the rows of v_new and o
 *   evolve independently -- chunk after chunk.  So one head (H = 1), an odd
 *   number of heads, or sequences of different lengths still keep every
 *   core busy.
 * Windows (a block of items, and in two phases of chunks) bound the slots
 * kept at once to about LA_FWD_STORE elements.  LA_FWD_PHASES in the
 * environment forces the two phases (to compare the schedules).
 *
 * 'Emulate' (p->emulate, float only): what a GPU kernel stores between its
 * stages in the input's 16-bit format is rounded to it at the same place
 * here (docs/emulation.md): Aqk, A, w, u, the gated q and k, the state's
 * snapshot the chunk reads (the carried state stays single), v_new and o.
 */

/* 4 MB of slots (2^20 elements in single, 2^19 in double): a window's slots
 * are still in the caches when its state pass reads them; 2^22 elements
 * measured 10-15 % slower in single at T = 2048 and 8192, K = V = 64 and
 * 128, and 8 MB 6 % slower in double (docs/performance.md). */
#define LA_FWD_STORE ((ptrdiff_t)((4 << 20) / (int)sizeof(real_t)))

/* Round n values to the emulated format (nothing without 'Emulate'; the
 * double instantiation never emulates: the entry points refuse it). */
static inline void LA_FN(la_emu)(const la_problem *p, real_t *x, ptrdiff_t n)
{
#if LA_DOUBLE
  (void)p; (void)x; (void)n;
#else
  la_round_array(p->emulate, x, n);
#endif
}

/* The same for the rows [v0, v0 + vw) of c columns of leading dimension ld. */
static inline void LA_FN(la_emu_rows)(const la_problem *p, real_t *x, ptrdiff_t vw, ptrdiff_t c,
                                      ptrdiff_t ld)
{
  ptrdiff_t i;
  for (i = 0; p->emulate && i < c; i++) LA_FN(la_emu)(p, x + ld * i, vw);
}

/* The intra-chunk quantities a kernel stores (or feeds its next dot) in
 * the 16-bit format: Aqk, A, w, u, QG, KG, KC of a chunk of c steps.
 * In the backward's reverse sweep Aqk, A, w, u are the stored (already
 * rounded) ones and only the recomputed gated q, k are rounded (all = 0). */
static void LA_FN(chunk_emu_intra)(const la_problem *p, ptrdiff_t c, int all, LA_FN(chunk_ws) *ws)
{
  const ptrdiff_t K = p->K, C = ws->C;
  if (!p->emulate) return;
  LA_FN(la_emu)(p, ws->QG, K * c);
  LA_FN(la_emu)(p, ws->KG, K * c);
  LA_FN(la_emu)(p, ws->KC, K * c);
  if (!all) return;
  LA_FN(la_emu)(p, ws->Aqk, C * c);
  LA_FN(la_emu)(p, ws->Am, C * c);
  LA_FN(la_emu)(p, ws->w, K * c);
  LA_FN(la_emu)(p, ws->u, p->V * c);
}

/* The state a chunk reads: S, or with 'Emulate' its rounded copy in Sr
 * (a kernel keeps the running state in fp32 and stores h in 16 bits). */
static const real_t *LA_FN(chunk_emu_state)(const la_problem *p, const real_t *S, real_t *Sr,
                                            ptrdiff_t n)
{
  if (!p->emulate) return S;
  memcpy(Sr, S, sizeof(real_t) * (size_t)n);
  LA_FN(la_emu)(p, Sr, n);
  return Sr;
}

/* Copy a c x c chunk matrix M (ld C) into the aux layout: column i of dst
 * (C rows) holds row i of M, zeros past c. */
static void LA_FN(aux_rows)(const real_t *M, ptrdiff_t C, ptrdiff_t c, real_t *dst)
{
  ptrdiff_t i, j;
  for (i = 0; i < c; i++)
    for (j = 0; j < C; j++) dst[j + C * i] = j < c ? M[i + C * j] : 0;
}

/* The intermediates of the intra-chunk phase of the chunk of c steps at
 * step t0 of item (s, hv) into aux (la_core.h gives the layouts); g: the
 * item's used gate. */
static void LA_FN(chunk_aux_intra)(const la_problem *p, const la_chunk_aux *aux, la_seq s,
                                   ptrdiff_t hv, ptrdiff_t t0, ptrdiff_t c, const real_t *g,
                                   const LA_FN(chunk_ws) *ws)
{
  const ptrdiff_t K = p->K, V = p->V, C = p->chunk, GD = la_gate_dim(p);
  const ptrdiff_t tg = la_off_beta(p, s, hv) + t0; /* global step index */
  ptrdiff_t i, x;
  if (aux->G) {
    real_t *G = (real_t *)aux->G + GD * tg;
    for (x = 0; x < GD; x++) G[x] = g[GD * t0 + x];
    for (i = 1; i < c; i++)
      for (x = 0; x < GD; x++) G[x + GD * i] = G[x + GD * (i - 1)] + g[GD * (t0 + i) + x];
  }
  if (aux->A_raw) LA_FN(aux_rows)(ws->Araw, C, c, (real_t *)aux->A_raw + C * tg);
  if (aux->A) LA_FN(aux_rows)(ws->Am, C, c, (real_t *)aux->A + C * tg);
  if (aux->Aqk) LA_FN(aux_rows)(ws->Aqk, C, c, (real_t *)aux->Aqk + C * tg);
  if (aux->w) memcpy((real_t *)aux->w + K * tg, ws->w, sizeof(real_t) * (size_t)(K * c));
  if (aux->u) memcpy((real_t *)aux->u + V * tg, ws->u, sizeof(real_t) * (size_t)(V * c));
}

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
 * no pass over the whole inputs and no buffers of their size (a forward
 * with both at T = 2048, H = 4, K = V = 128: docs/performance.md, "The
 * in-kernel transforms"). */
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
 * (x->items set): the direct form but with 'Emulate' (or LA_WY); per
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
  x->per_item = uniform && x->items % threads == 0 && !getenv("LA_FWD_PHASES");
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
  if (p->beta_per_channel || p->slots) return LA_EARG; /* so are these */
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
