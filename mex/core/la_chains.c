/* la_chains.c -- chains of steps shared among the threads of a parallel
 * region (see la_thread.h): the chunked forward's schedule per item, where
 * each item (sequence, value head) is a chain of steps (its chunks) that
 * must run in order, one at a time, on any thread.
 *
 * Why: when one core runs slower than the other for a whole call, threads
 * that each ran their items whole would leave the faster one waiting at the
 * end of the region (docs/performance.md, "The forward: one task per
 * item").  Each worker advances its own two lowest
 * chains side by side, switching to the other when it has fallen
 * LA_CHAIN_LEAD steps behind the one it runs, so that both keep about as
 * many steps left; a worker with no chain of its own left takes over a
 * chain no thread is running, the one with the most steps left.  What a
 * step computes does not depend on the thread that runs it, so the results
 * are the same bits whatever the schedule. */
#include "la_internal.h"

/* Steps a chain may lead the other of its worker's pair before the worker
 * switches: switching reloads the other chain's state and slot (about
 * 230 KB at K = V = 128, C = 64) into the core's cache. */
#define LA_CHAIN_LEAD 4

int la_chains_init(la_chains *c, ptrdiff_t n, ptrdiff_t steps, ptrdiff_t block, int workers)
{
  ptrdiff_t i;
  c->n = n;
  c->steps = steps;
  c->next = la_alloc(n > 0 ? n : 1, sizeof(ptrdiff_t));
  c->owner = la_alloc(n > 0 ? n : 1, sizeof(int));
  c->busy = la_alloc(n > 0 ? n : 1, sizeof(int));
  if (!c->next || !c->owner || !c->busy) {
    la_chains_free(c);
    return 0;
  }
  if (block < 1) block = 1;
  if (workers < 1) workers = 1;
  for (i = 0; i < n; i++) {
    c->next[i] = 0;
    c->busy[i] = 0;
    c->owner[i] = (int)((i % block) % workers);
  }
  return 1;
}

void la_chains_free(la_chains *c)
{
  free(c->next);
  free(c->owner);
  free(c->busy);
  c->next = NULL;
  c->owner = c->busy = NULL;
}

/* The chain worker t runs next among [lo, hi) after cur (-1: none), or -1. */
static ptrdiff_t chains_pick(const la_chains *c, ptrdiff_t lo, ptrdiff_t hi, int t, ptrdiff_t cur)
{
  ptrdiff_t i, a = -1, b = -1, best = -1;
  for (i = lo; i < hi && b < 0; i++) /* the worker's pair: its two lowest chains with steps */
    if (c->owner[i] == t && !c->busy[i] && c->next[i] < c->steps) {
      if (a < 0) a = i;
      else b = i;
    }
  if (a >= 0) {
    const ptrdiff_t ra = c->steps - c->next[a], rb = b >= 0 ? c->steps - c->next[b] : -1;
    if (b < 0) return a;
    if (cur == a) return ra + LA_CHAIN_LEAD > rb ? a : b;
    if (cur == b) return rb + LA_CHAIN_LEAD > ra ? b : a;
    return rb > ra ? b : a;
  }
  for (i = lo; i < hi; i++) /* none of its own: the idle chain with the most steps left */
    if (!c->busy[i] && c->next[i] < c->steps && (best < 0 || c->next[i] < c->next[best]))
      best = i;
  return best;
}

ptrdiff_t la_chains_next(la_chains *c, ptrdiff_t lo, ptrdiff_t hi, int t, ptrdiff_t *cur)
{
  ptrdiff_t step = -1, pick;
#ifdef _OPENMP
#pragma omp critical(la_chains)
#endif
  {
    if (*cur >= 0) c->busy[*cur] = 0;
    pick = chains_pick(c, lo, hi, t, *cur);
    if (pick >= 0) {
      c->busy[pick] = 1;
      c->owner[pick] = t;
      step = c->next[pick]++;
    }
  }
  *cur = pick;
  return step;
}
