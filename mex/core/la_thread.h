/*
 * la_thread.h -- threading: OpenMP task pragmas, BLAS thread control,
 * the small-call threshold, worker placement and chains of steps shared
 * among a region's workers (la_platform.c, la_chains.c).
 * Not part of the public interface.
 */
#ifndef LA_THREAD_H
#define LA_THREAD_H

#include "la_core.h"
#include "la_size.h"
#include <stdint.h>

/* LA_OMP(directive): "#pragma omp directive" where OpenMP has task
 * dependences (4.0, _OPENMP 201307, GCC 4.9, clang 3.9), else nothing:
 * the chunked backward's tasks (la_chunk_bwd.tmpl.h) then run in order on
 * their thread, which LA_OMP_TASKS 0 tells it. */
#if defined(_OPENMP) && _OPENMP >= 201307
#define LA_OMP_TASKS 1
#define LA_PRAGMA_STR(...) #__VA_ARGS__
#define LA_OMP(...) _Pragma(LA_PRAGMA_STR(omp __VA_ARGS__))
#else
#define LA_OMP_TASKS 0
#define LA_OMP(...)
#endif

/* OpenBLAS is told to use one thread while our own OpenMP loop runs (its
 * threads would otherwise fight ours); the caller's setting is restored.
 * With another BLAS (MATLAB's MKL) these do nothing (la_platform.c). */
int la_blas_threads_begin(void);
void la_blas_threads_end(int saved);

/* Threads an OpenMP parallel region of the core would get (1 without). */
int la_max_threads(void);

/* A call too small to pay for waking the threads (a decode step: T = 1 at
 * H = 4, K = V = 128 is 2^18 state elements): it runs on the calling
 * thread, its transforms too (la_frame.tmpl.h). */
#define LA_SMALL_CALL ((ptrdiff_t)1 << 18)

/* State elements times steps of a call, T B HV K V (PTRDIFF_MAX if that
 * overflows): the size the thresholds compare (also la_run.tmpl.h). */
static inline ptrdiff_t la_state_steps(const la_problem *p)
{
  ptrdiff_t bh = 0, n = 0;
  return la_mul(p->B, p->HV, &bh) && la_mul4(p->T, bh, p->K, p->V, &n) ? n : PTRDIFF_MAX;
}

static inline int la_small_call(const la_problem *p)
{
  return la_state_steps(p) <= LA_SMALL_CALL;
}

/* Worker placement for one parallel region (la_platform.c).  On some
 * virtual machines Linux wakes a sleeping OpenMP worker on the CPU of the
 * thread that woke it although another CPU is idle; the two then share one
 * CPU until the next scheduler tick, a few ms (docs/performance.md, "Calls
 * after idle").  la_spread_begin, before a parallel region of up to
 * nthreads threads, holds the calling thread on its current CPU and pins
 * each worker of its team seen in an earlier region to a CPU of its own;
 * la_spread_end restores every mask.  Inside the region each thread calls
 * la_spread_note(sp) so that its worker can be pinned next time.  NULL (and
 * nothing done) off Linux, with one thread, inside a parallel region of the
 * caller (ours is then nested, one thread), with OMP_PROC_BIND set (the
 * runtime places threads itself), with fewer allowed CPUs than threads, or
 * with the tuning's no_spread (la_core.h).  Results do not depend on it:
 * only where threads run. */
typedef struct la_spread la_spread;
la_spread *la_spread_begin(int nthreads);
void la_spread_note(la_spread *sp);
void la_spread_end(la_spread *sp);

/* Chains of steps shared among the workers of a parallel region
 * (la_chains.c): chain i's steps 0, 1, ... run in order, one at a time, on
 * whichever worker la_chains_next hands them to.  Worker t first owns the
 * chains i with (i mod block) mod workers = t and runs two of them side by
 * side; with none left it takes over an idle chain of another.  Results do
 * not depend on the schedule: a step computes the same on any thread. */
typedef struct {
  ptrdiff_t n, steps;     /* chains; steps of each */
  ptrdiff_t *next;        /* the next step of each chain */
  int *owner, *busy;      /* its worker; 1 while a worker runs a step of it */
} la_chains;
/* 0 if out of memory (then nothing to free). */
int la_chains_init(la_chains *c, ptrdiff_t n, ptrdiff_t steps, ptrdiff_t block, int workers);
void la_chains_free(la_chains *c);
/* Worker t's next step among chains [lo, hi), after the step of chain *cur
 * it has just run (-1 at first): the step's number, its chain in *cur; -1
 * when no step is left that no other worker is running. */
ptrdiff_t la_chains_next(la_chains *c, ptrdiff_t lo, ptrdiff_t hi, int t, ptrdiff_t *cur);

#endif
