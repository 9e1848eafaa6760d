/*
 * la_run.tmpl.h -- template: the parallel loop of every path.
 *
 * la_for_items runs fn on every (sequence, value head) item, spread over
 * the OpenMP threads (one item at a time: items differ in length), with
 * OpenBLAS single-threaded meanwhile.  Each thread gets ws_elems elements of
 * workspace at its first item (the pool's buffer of its thread number,
 * la_pool.c, kept across calls), so threads without work touch nothing;
 * zero_ws clears it once per call.  Before anything is allocated the memory
 * guard (la_workspace_ok) compares the workspaces, and BLAS's buffers when
 * fn calls BLAS products (blas), with the memory available.
 * Small calls (la_small_call) run on the calling thread; in large ones the
 * caller and the workers are held on CPUs of their own for the region
 * (la_spread_for, la_spread_*: la_platform.c).
 *
 * The status is shared: an allocation failure or an interrupt (fn polls
 * through la_poll) makes every thread skip the rest of its items.  Returns
 * LA_OK, LA_ENOMEM or LA_EINTR; everything allocated here is freed or back
 * in the pool.
 */

/* Worker placement (la_spread_*) costs a few system calls per worker and
 * call (about 5 us for one worker on the project machine): only for calls
 * of at least 2^20 state elements times steps per thread, a fraction of a
 * millisecond of work each or more. */
#define LA_SPREAD_MIN ((ptrdiff_t)1 << 20)

static inline la_spread *LA_FN(la_spread_for)(const la_problem *p)
{
  const int th = la_max_threads();
  ptrdiff_t need = 0;
  if (!la_mul(LA_SPREAD_MIN, th, &need) || la_state_steps(p) < need) return NULL;
  return la_spread_begin(th);
}

/* What the parallel loops below hold around their region: the pool
 * (la_pool.c), OpenBLAS set to one thread, and for large calls the worker
 * placement. */
typedef struct {
  int pooled, saved;
  la_spread *sp;
} la_region;

static inline la_region LA_FN(la_region_begin)(const la_problem *p, int par)
{
  la_region r;
  r.pooled = la_pool_enter();
  r.saved = la_blas_threads_begin();
  r.sp = par ? LA_FN(la_spread_for)(p) : NULL;
  return r;
}

static inline void la_region_end(const la_region *r)
{
  la_spread_end(r->sp);
  la_blas_threads_end(r->saved);
  la_pool_leave(r->pooled);
}

/* The calling thread's workspace in *ws, taken from the pool at its first
 * task (*ws is NULL until then) and its first zero_bytes cleared; 0, with
 * the status stopped, if refused. */
static inline int LA_FN(la_thread_ws)(const la_problem *p, const la_region *rg, ptrdiff_t elems,
                                      size_t zero_bytes, real_t **ws, int *status)
{
  if (*ws) return 1;
  if (!(*ws = la_pool_get(rg->pooled, LA_POOL_THREAD, elems, sizeof(real_t)))) {
    la_stop(status, LA_ENOMEM);
    return 0;
  }
  return la_zero_polled(p, *ws, zero_bytes, status);
}

typedef void (*LA_FN(la_item_fn))(void *ctx, ptrdiff_t n, ptrdiff_t hv, real_t *ws,
                                   int *status);

/* Item `it` of la_for_items on the calling thread, its workspace *ws
 * taken at its first item; nothing once the call is stopped. */
static inline void LA_FN(la_item_run)(const la_problem *p, const la_region *rg, ptrdiff_t ws_elems,
                                      size_t zero_bytes, LA_FN(la_item_fn) fn, void *ctx,
                                      ptrdiff_t it, real_t **ws, int *status)
{
  if (la_stopped(status) || !LA_FN(la_thread_ws)(p, rg, ws_elems, zero_bytes, ws, status)) return;
  fn(ctx, it / p->HV, it % p->HV, *ws, status);
}

static int LA_FN(la_for_items)(const la_problem *p, ptrdiff_t ws_elems, int zero_ws, int blas,
                               LA_FN(la_item_fn) fn, void *ctx)
{
  const ptrdiff_t items = p->N * p->HV;
  const int par = !la_small_call(p);
  ptrdiff_t bytes, it;
  size_t zero_bytes;
  int status = LA_OK;
  la_region rg;

  if (!la_bytes(ws_elems, sizeof(real_t), &bytes) || !la_workspace_ok(items, bytes, blas))
    return LA_ENOMEM;
  zero_bytes = zero_ws ? (size_t)bytes : 0;
  rg = LA_FN(la_region_begin)(p, par);
  if (!par) { /* no OpenMP region: even a team of one pays two futex calls */
    real_t *ws = NULL;
    for (it = 0; it < items; it++)
      LA_FN(la_item_run)(p, &rg, ws_elems, zero_bytes, fn, ctx, it, &ws, &status);
    if (ws) la_pool_put(rg.pooled, LA_POOL_THREAD, ws);
  } else {
#pragma omp parallel
    {
      real_t *ws = NULL;
      la_spread_note(rg.sp);
#pragma omp for schedule(dynamic, 1)
      for (it = 0; it < items; it++)
        LA_FN(la_item_run)(p, &rg, ws_elems, zero_bytes, fn, ctx, it, &ws, &status);
      if (ws) la_pool_put(rg.pooled, LA_POOL_THREAD, ws);
    }
  }
  la_region_end(&rg);
  return status;
}

/* The first lines of every entry point: a copy of the problem that
 * la_problem_check validated and completed (default and clipped chunk). */
#define LA_ENTRY_CHECK(p, checked)                                   \
  la_problem checked = *(p);                                         \
  if (la_problem_check(&checked, NULL) != LA_OK) return LA_EARG

/* la_for_phases: the loop of a path whose items are split further.  The
 * work comes in nwin windows, each of two phases; phase 0 of a window runs
 * all its tasks (in parallel) before phase 1 starts, and a window before
 * the next.  ntasks(ctx, win, phase) gives the number of tasks; task runs
 * one with the calling thread's workspace (ws_elems elements, the pool's
 * buffer of its thread number, taken at its first task).  Shared buffers
 * are the caller's; extra_bytes of them are counted by the memory guard.
 * Small calls (la_small_call of p) run on the calling thread.  OpenBLAS
 * single-threaded meanwhile.
 * Returns LA_OK, LA_ENOMEM or LA_EINTR. */
typedef ptrdiff_t (*LA_FN(la_count_fn))(void *ctx, ptrdiff_t win, int phase);
typedef void (*LA_FN(la_task_fn))(void *ctx, ptrdiff_t win, int phase, ptrdiff_t task,
                                  real_t *ws, int *status);

static int LA_FN(la_for_phases)(const la_problem *p, ptrdiff_t ws_elems, ptrdiff_t extra_bytes,
                                ptrdiff_t nwin, LA_FN(la_count_fn) ntasks, LA_FN(la_task_fn) task,
                                void *ctx)
{
  const int par = !la_small_call(p);
  ptrdiff_t bytes, win;
  int status = LA_OK;
  la_region rg;

  /* the guard counts the shared buffers once per thread: conservative */
  if (!la_bytes(ws_elems, sizeof(real_t), &bytes) || extra_bytes < 0 ||
      !la_add(bytes, extra_bytes, &bytes) || !la_workspace_ok(PTRDIFF_MAX, bytes, 1))
    return LA_ENOMEM;
  rg = LA_FN(la_region_begin)(p, par);
#pragma omp parallel private(win) if (par)
  {
    real_t *ws = NULL;
    int phase;
    la_spread_note(rg.sp);
    for (win = 0; win < nwin; win++)
      for (phase = 0; phase < 2; phase++) {
        const ptrdiff_t n = ntasks(ctx, win, phase);
        ptrdiff_t i;
#pragma omp for schedule(dynamic, 1)
        for (i = 0; i < n; i++) {
          if (la_stopped(&status) || !LA_FN(la_thread_ws)(p, &rg, ws_elems, 0, &ws, &status))
            continue;
          task(ctx, win, phase, i, ws, &status);
        }
      }
    if (ws) la_pool_put(rg.pooled, LA_POOL_THREAD, ws);
  }
  la_region_end(&rg);
  return status;
}
