/*
 * la_sched.tmpl.h -- template: the schedules of the chunked paths.  The
 * drivers (la_chunk_fwd.tmpl.h, la_chunk_bwd.tmpl.h) say what one chunk's
 * steps compute; this file says which thread runs which step when.
 *
 * A work item is one (sequence, value head).  Only the state (forward) or
 * its gradient (backward) passes from chunk to chunk; the rest of a chunk's
 * work is its own.  The schedules (docs/performance.md, "The schedules"):
 * - chains (la_for_chains, the forward per item): each item is a chain of
 *   steps run in order, one at a time, by whichever worker la_chains_next
 *   hands it to (la_chains.c); windows of ipb items bound the buffers the
 *   items hold at once.
 * - windows of two phases (la_for_windows, the forward when the items do
 *   not share one chunk count or do not divide among the threads): the
 *   intra-chunk step of a window's chunks in parallel over (item, chunk),
 *   then the state step over (item, block of value columns), chunk after
 *   chunk.
 * - sweeps over a ring of workspaces (la_sweep, the backward's items): a
 *   chunk's own steps as OpenMP tasks that a thread without an item of its
 *   own takes, only the chain in chunk order.
 * A step makes the same calls whichever thread runs it and whatever the
 * schedule, so every schedule gives the same bits.
 */

/* ---- chains ----------------------------------------------------------------- */

/* Step s of item `item`, of the window of items [i0, i1). */
typedef void (*LA_FN(la_step_fn))(void *ctx, ptrdiff_t i0, ptrdiff_t item, ptrdiff_t s,
                                  real_t *ws, int *status);

typedef struct {
  const la_problem *p;
  la_chains *chains;
  ptrdiff_t items, ipb;
  int workers;
  LA_FN(la_step_fn) step;
  void *ctx;
} LA_FN(la_chain_run);

static ptrdiff_t LA_FN(chain_ntasks)(void *ctx, ptrdiff_t win, int phase)
{
  (void)win;
  return phase == 0 ? ((const LA_FN(la_chain_run) *)ctx)->workers : 0;
}

/* Worker `task` of window win: steps of the window's chains until none is
 * left that no other worker runs. */
static void LA_FN(chain_task)(void *ctx, ptrdiff_t win, int phase, ptrdiff_t task, real_t *ws,
                              int *status)
{
  const LA_FN(la_chain_run) *r = (const LA_FN(la_chain_run) *)ctx;
  const ptrdiff_t i0 = win * r->ipb, i1 = i0 + r->ipb < r->items ? i0 + r->ipb : r->items;
  ptrdiff_t item = -1, s;
  (void)phase;
  while ((s = la_chains_next(r->chains, i0, i1, (int)task, &item)) >= 0) {
    if (la_poll(r->p, status)) return; /* the chain stays taken: nobody runs it on */
    r->step(r->ctx, i0, item, s, ws, status);
  }
}

/* Run `items` chains of `steps` steps each (steps >= 1), windows of ipb
 * items, one task per thread and window; each thread's workspace ws_elems
 * elements, the caller's shared buffers extra_bytes (la_for_phases).
 * LA_OK, LA_ENOMEM or LA_EINTR. */
static int LA_FN(la_for_chains)(const la_problem *p, ptrdiff_t ws_elems, ptrdiff_t extra_bytes,
                                ptrdiff_t items, ptrdiff_t steps, ptrdiff_t ipb,
                                LA_FN(la_step_fn) step, void *ctx)
{
  la_chains chains = {0};
  LA_FN(la_chain_run) r;
  int rc;
  r.p = p;
  r.chains = &chains;
  r.items = items;
  r.ipb = ipb;
  r.workers = la_max_threads();
  r.step = step;
  r.ctx = ctx;
  if (!la_chains_init(&chains, items, steps, ipb, r.workers)) return LA_ENOMEM;
  rc = LA_FN(la_for_phases)(p, ws_elems, extra_bytes, (items + ipb - 1) / ipb,
                            LA_FN(chain_ntasks), LA_FN(chain_task), &r);
  la_chains_free(&chains);
  return rc;
}

/* ---- windows of the chunked forward ---------------------------------------------- */

/* A window's items [i0, i1) and chunks [c0, c1). */
typedef struct {
  ptrdiff_t i0, i1, c0, c1;
} la_window;

/* The forward's plan: `items` items of at most maxnc chunks; windows of ipb
 * items by wn chunks, nib x ncb of them; nvb blocks of value columns in the
 * state step; per_item: chains of chunks (wn = ncb = nvb = 1). */
typedef struct {
  ptrdiff_t items, maxnc, ipb, nib, wn, ncb, nvb;
  int per_item;
} la_fwd_plan;

/* The slots of a window (slot_elems each, one per (item, chunk) of it)
 * within about store elements, the windows as even as their number allows
 * (la_even_part).  Per item when every item has the same chunk count
 * (uniform) and the threads divide the items (unless the tuning's
 * fwd_phases), a window a multiple of the threads' items; else two phases,
 * with nvb blocks so that the state step has a multiple of the threads as
 * tasks, or at least 4 per thread, with blocks of 16 columns or more.
 * 0 if slot_elems < 1. */
static int la_fwd_plan_make(const la_problem *p, ptrdiff_t items, ptrdiff_t maxnc, int uniform,
                            ptrdiff_t slot_elems, ptrdiff_t store, la_fwd_plan *x)
{
  const ptrdiff_t threads = la_max_threads(), E = slot_elems;
  if (E < 1) return 0;
  x->items = items;
  x->maxnc = maxnc;
  x->per_item = uniform && x->items % threads == 0 && !la_get_tuning().fwd_phases;
  if (x->per_item) {
    const ptrdiff_t fit = store / E / threads * threads;
    x->ipb = fit > threads ? fit : threads;
    x->wn = 1;
  } else if (x->items <= store / E) {
    x->ipb = x->items;
    x->wn = store / E / x->items;
    if (x->wn > maxnc) x->wn = maxnc;
    x->wn = la_even_part(maxnc, x->wn);
  } else {
    x->ipb = store / E > threads ? store / E : threads;
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
  return 1;
}

static la_window la_fwd_plan_window(const la_fwd_plan *x, ptrdiff_t win)
{
  la_window w;
  w.i0 = (win / x->ncb) * x->ipb;
  w.i1 = w.i0 + x->ipb < x->items ? w.i0 + x->ipb : x->items;
  w.c0 = (win % x->ncb) * x->wn;
  w.c1 = w.c0 + x->wn;
  return w;
}

/* The forward's two steps: the intra-chunk work of chunk ci of item, and
 * the state step of its value columns [v0, v1) over the chunks of w. */
typedef struct {
  void (*intra)(void *ctx, la_window w, ptrdiff_t item, ptrdiff_t ci, real_t *ws, int *status);
  void (*state)(void *ctx, la_window w, ptrdiff_t item, ptrdiff_t v0, ptrdiff_t v1, real_t *ws,
                int *status);
  void *ctx;
  const la_fwd_plan *plan;
  const la_problem *p;
} LA_FN(la_fwd_steps);

static ptrdiff_t LA_FN(fwd_ntasks)(void *ctx, ptrdiff_t win, int phase)
{
  const LA_FN(la_fwd_steps) *s = (const LA_FN(la_fwd_steps) *)ctx;
  const la_window w = la_fwd_plan_window(s->plan, win);
  return (w.i1 - w.i0) * (phase == 0 ? s->plan->wn : s->plan->nvb);
}

static void LA_FN(fwd_task)(void *ctx, ptrdiff_t win, int phase, ptrdiff_t task, real_t *ws,
                            int *status)
{
  const LA_FN(la_fwd_steps) *s = (const LA_FN(la_fwd_steps) *)ctx;
  const la_fwd_plan *x = s->plan;
  const la_window w = la_fwd_plan_window(x, win);
  if (phase == 0) {
    if (la_poll(s->p, status)) return;
    LA_STAGE(LA_ST_INTRA, s->intra(s->ctx, w, w.i0 + task / x->wn, w.c0 + task % x->wn, ws,
                                   status));
  } else {
    const ptrdiff_t vb = task % x->nvb, V = s->p->V;
    LA_STAGE(LA_ST_STATE, s->state(s->ctx, w, w.i0 + task / x->nvb, V * vb / x->nvb,
                                   V * (vb + 1) / x->nvb, ws, status));
  }
}

/* Per item: chunk ci's intra-chunk work and at once its state step over all
 * V columns (a window of one chunk); an item of no steps has one step that
 * passes the state, h0 to ht. */
static void LA_FN(fwd_item_step)(void *ctx, ptrdiff_t i0, ptrdiff_t item, ptrdiff_t ci,
                                 real_t *ws, int *status)
{
  const LA_FN(la_fwd_steps) *s = (const LA_FN(la_fwd_steps) *)ctx;
  const la_problem *p = s->p;
  la_window w;
  w.i0 = i0;
  w.i1 = i0 + s->plan->ipb < s->plan->items ? i0 + s->plan->ipb : s->plan->items;
  w.c0 = ci;
  w.c1 = ci + 1;
  if (la_chunks(la_seq_of(p, item / p->HV).len, p->chunk) == 0) {
    s->state(s->ctx, w, item, 0, p->V, ws, status);
    return;
  }
  LA_STAGE(LA_ST_INTRA, s->intra(s->ctx, w, item, ci, ws, status));
  LA_STAGE(LA_ST_STATE, s->state(s->ctx, w, item, 0, p->V, ws, status));
}

/* Run the forward's steps by its plan. */
static int LA_FN(la_for_windows)(const la_problem *p, const la_fwd_plan *plan, ptrdiff_t ws_elems,
                                 ptrdiff_t extra_bytes, LA_FN(la_fwd_steps) *s)
{
  s->p = p;
  s->plan = plan;
  if (plan->per_item) /* maxnc >= 1: an item of no steps has one */
    return LA_FN(la_for_chains)(p, ws_elems, extra_bytes, plan->items, plan->maxnc, plan->ipb,
                                LA_FN(fwd_item_step), s);
  return LA_FN(la_for_phases)(p, ws_elems, extra_bytes, plan->nib * plan->ncb,
                              LA_FN(fwd_ntasks), LA_FN(fwd_task), s);
}

/* ---- an item's sweep over a ring of workspaces --------------------------------- */

/* Workspaces in a ring at most. */
#define LA_RING 3

/* The ring's size for a call: LA_RING when some thread would have no item
 * of its own (fewer items than threads, or a last round short of them),
 * so that it takes chunks' own steps of another thread's item; else 1
 * (docs/performance.md, "The backward: item by item, and a ring of
 * tasks"); 1 also when !allowed. */
static int la_ring_size(const la_problem *p, int allowed)
{
  const ptrdiff_t th = la_max_threads(), items = p->N * p->HV;
  return LA_OMP_TASKS && allowed && th > 1 && items % th != 0 && !la_small_call(p) &&
                 !la_get_tuning().bwd_no_ring
             ? LA_RING
             : 1;
}

/* One step of a chunk: run(item, ci, r) works on chunk ci with workspace r
 * of the ring; chain: it carries what passes from chunk to chunk (and
 * polls the interrupt), else it is the chunk's own work; stage: the
 * LA_STAGE it is timed as (LA_ST_COUNT: its parts time themselves). */
typedef struct {
  void (*run)(void *item, ptrdiff_t ci, int r);
  int chain;
  la_stage_id stage;
} la_chunk_step;

static void la_step_run(const la_chunk_step *st, void *item, ptrdiff_t ci, int r)
{
  if (st->stage == LA_ST_COUNT) st->run(item, ci, r);
  else LA_STAGE(st->stage, st->run(item, ci, r));
}

/* Run steps[0 .. nsteps) on each of an item's nc chunks, 0 .. nc-1 (or
 * nc-1 .. 0: reverse), chunk ci on workspace ci % ring.  With ring > 1 the
 * steps are OpenMP tasks ordered by their dependences: the chain's in chunk
 * order, a chunk's in table order, a workspace reused only when the chunk
 * before on it is done; a thread without an item of its own takes them at
 * the loop's barrier.  With ring 1 (if (0)) each runs at once, in the
 * order written.  Either way every chunk gets the same operations: the
 * same bits.  The tasks are children of an undeferred task of their own:
 * OpenMP keeps their dependences in a table of the parent, which the
 * loop's implicit task may keep past the region (docs/backward_schedule.md);
 * this one's is freed when the sweep ends. */
static void la_sweep(const la_problem *p, ptrdiff_t nc, int reverse, int ring,
                     const la_chunk_step *steps, int nsteps, void *item, int *status)
{
  LA_OMP(task if (0) default(shared))
  {
    const int defer = ring > 1;
    char pair[LA_RING], chain = 0; /* the tasks' dependences */
    ptrdiff_t i;
    int s;
    (void)pair; (void)chain; (void)defer; /* without OpenMP tasks */
    for (i = 0; i < nc; i++)
      for (s = 0; s < nsteps; s++) {
        const ptrdiff_t ci = reverse ? nc - 1 - i : i;
        const int r = (int)(ci % ring);
        const la_chunk_step *st = &steps[s];
        if (st->chain) {
          LA_OMP(task if (defer) default(shared) firstprivate(ci, r, st)
                     depend(inout : pair[r], chain))
          if (!la_poll(p, status)) la_step_run(st, item, ci, r);
        } else {
          LA_OMP(task if (defer) default(shared) firstprivate(ci, r, st) depend(inout : pair[r]))
          if (!la_stopped(status)) la_step_run(st, item, ci, r);
        }
      }
    LA_OMP(taskwait)
  }
}
