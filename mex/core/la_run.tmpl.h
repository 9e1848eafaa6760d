/*
 * la_run.tmpl.h -- template: the parallel loop of every path.
 *
 * la_for_items runs fn on every (sequence, value head) item, spread over
 * the OpenMP threads (one item at a time: items differ in length), with
 * OpenBLAS single-threaded meanwhile.  Each thread gets ws_elems elements of
 * workspace, allocated at its first item, so threads without work allocate
 * nothing; zero_ws clears it once.  Before anything is allocated the memory
 * guard (la_workspace_ok) compares the workspaces with the memory available.
 *
 * The status is shared: an allocation failure or an interrupt (fn polls
 * through la_poll) makes every thread skip the rest of its items.  Returns
 * LA_OK, LA_ENOMEM or LA_EINTR; everything allocated here is freed.
 */

typedef void (*LA_FN(la_item_fn))(void *ctx, ptrdiff_t n, ptrdiff_t hv, real_t *ws,
                                   int *status);

static int LA_FN(la_for_items)(const la_problem *p, ptrdiff_t ws_elems, int zero_ws,
                               LA_FN(la_item_fn) fn, void *ctx)
{
  const ptrdiff_t items = p->N * p->HV;
  ptrdiff_t bytes, it;
  int status = LA_OK, saved;

  if (!la_bytes(ws_elems, sizeof(real_t), &bytes) || !la_workspace_ok(items, bytes))
    return LA_ENOMEM;
  saved = la_blas_threads_begin();
#pragma omp parallel
  {
    real_t *ws = NULL;
#pragma omp for schedule(dynamic, 1)
    for (it = 0; it < items; it++) {
      if (la_stopped(&status)) continue;
      if (!ws) {
        ws = la_alloc(ws_elems, sizeof(real_t));
        if (!ws) {
          la_stop(&status, LA_ENOMEM);
          continue;
        }
        if (zero_ws) memset(ws, 0, (size_t)bytes);
      }
      fn(ctx, it / p->HV, it % p->HV, ws, &status);
    }
    free(ws);
  }
  la_blas_threads_end(saved);
  return status;
}

/* The first lines of every entry point: a copy of the problem that
 * la_problem_check validated and completed (default and clipped chunk). */
#define LA_ENTRY_CHECK(p, checked)                                   \
  la_problem checked = *(p);                                         \
  if (la_problem_check(&checked, NULL) != LA_OK) return LA_EARG
