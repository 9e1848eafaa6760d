/*
 * la_internal.h -- helpers shared by the algorithms of the core library:
 * allocation, where a sequence lives in the packed arrays, the status shared
 * by the threads of a call (errors, interrupts), BLAS thread control, the
 * memory guard and the workspaces kept across calls.
 * Not part of the public interface.
 */
#ifndef LA_INTERNAL_H
#define LA_INTERNAL_H

#include "la_core.h"
#include "la_size.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* With glibc's vector math library (libmvec, linked by the Makefile), let
 * loops of exp() (and, from glibc 2.35, log1p(): the softplus of
 * GateInKernel) vectorize: declare the SIMD variants glibc provides.  Same
 * results to an ulp or so; nothing changes without LA_USE_LIBMVEC. */
#if defined(LA_USE_LIBMVEC) && defined(__x86_64__) && defined(__GNUC__)
#pragma omp declare simd notinbranch
float expf(float);
#pragma omp declare simd notinbranch
double exp(double);
#if defined(__GLIBC_PREREQ)
#if __GLIBC_PREREQ(2, 35)
#pragma omp declare simd notinbranch
float log1pf(float);
#pragma omp declare simd notinbranch
double log1p(double);
#endif
#endif
#endif

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

/* malloc for count elements of size bytes; NULL when count < 1 (callers do
 * not allocate for empty sizes), when count * size overflows, or when malloc
 * fails. */
static inline void *la_alloc(ptrdiff_t count, size_t size)
{
  ptrdiff_t bytes;
  if (count < 1 || !la_bytes(count, size, &bytes)) return NULL;
  return malloc((size_t)bytes);
}

/* One sequence: batch b, steps [t0, t0 + len) of that batch. */
typedef struct la_seq {
  ptrdiff_t b, t0, len;
} la_seq;

static inline la_seq la_seq_of(const la_problem *p, ptrdiff_t n)
{
  la_seq s;
  if (p->cu_seqlens) {
    s.b = 0;
    s.t0 = (ptrdiff_t)p->cu_seqlens[n];
    s.len = (ptrdiff_t)p->cu_seqlens[n + 1] - s.t0;
  } else {
    s.b = n;
    s.t0 = 0;
    s.len = p->T;
  }
  return s;
}

/* Chunks of C steps in len steps (the last one shorter; none if len is 0). */
static inline ptrdiff_t la_chunks(ptrdiff_t len, ptrdiff_t C)
{
  return (len + C - 1) / C;
}

/* Steps of chunk ci (C steps each, the last one shorter) of sequence s. */
static inline ptrdiff_t la_chunk_steps(la_seq s, ptrdiff_t ci, ptrdiff_t C)
{
  return s.len - ci * C < C ? s.len - ci * C : C;
}

/* Element offsets of the first step of sequence s, value head hv. */
static inline ptrdiff_t la_qk_head(const la_problem *p, ptrdiff_t hv)
{
  return hv / (p->HV / p->H);
}
static inline ptrdiff_t la_off_qk(const la_problem *p, la_seq s, ptrdiff_t hv)
{
  return p->K * (s.t0 + p->T * (la_qk_head(p, hv) + p->H * s.b));
}
static inline ptrdiff_t la_off_qk_expanded(const la_problem *p, la_seq s, ptrdiff_t hv)
{
  return p->K * (s.t0 + p->T * (hv + p->HV * s.b));
}
static inline ptrdiff_t la_off_v(const la_problem *p, la_seq s, ptrdiff_t hv)
{
  return p->V * (s.t0 + p->T * (hv + p->HV * s.b));
}
/* gate: K values per step for KDA, one for GDN */
static inline ptrdiff_t la_gate_dim(const la_problem *p) { return p->kda ? p->K : 1; }
static inline ptrdiff_t la_off_gate(const la_problem *p, la_seq s, ptrdiff_t hv)
{
  return la_gate_dim(p) * (s.t0 + p->T * (hv + p->HV * s.b));
}
/* beta: V values per step with beta_per_channel, else one */
static inline ptrdiff_t la_beta_dim(const la_problem *p) { return p->beta_per_channel ? p->V : 1; }
static inline ptrdiff_t la_off_beta(const la_problem *p, la_seq s, ptrdiff_t hv)
{
  return s.t0 + p->T * (hv + p->HV * s.b);
}
static inline ptrdiff_t la_off_state(const la_problem *p, ptrdiff_t n, ptrdiff_t hv)
{
  return p->K * p->V * (hv + p->HV * n);
}

/* What the chunked paths' chunk_intra computes besides the decays and the
 * gated q, k (la_stage_intra.tmpl.h). */
enum { LA_CI_AQK = 1,    /* Aqk                                       */
       LA_CI_WU = 2,     /* M, A_raw, A, w, u                         */
       LA_CI_DECAYS = 4, /* eG and eGc in full (else their last column) */
       LA_CI_A = 8       /* M, A_raw, A (the direct form: no w, u)    */ };

/* The chunked paths' form of v_new (docs/chunk_forward.md, (28)): direct,
 * A (v - KG S), but with 'Emulate' (which rounds w and u where FLA stores
 * them) or with LA_WY in the environment (to compare the forms); else the
 * WY form u - w S. */
static inline int la_direct_form(const la_problem *p)
{
  return !p->emulate && !getenv("LA_WY");
}

/* The size of the parts when n things (n, m >= 1) are cut into parts of at
 * most m, as even as that number of parts allows (32 chunks by at most 25:
 * two parts of 16, not 25 and 7, whose phase would keep a thread waiting). */
static inline ptrdiff_t la_even_part(ptrdiff_t n, ptrdiff_t m)
{
  const ptrdiff_t parts = (n + m - 1) / m;
  return (n + parts - 1) / parts;
}

/* V rounded up to a multiple of 4 (column blocking of the recurrent kernels) */
static inline ptrdiff_t la_pad4(ptrdiff_t V) { return (V + 3) / 4 * 4; }

/* ---- status of a call, shared by its threads ---------------------------------
 * LA_OK until an error or an interrupt sets it; every thread then skips its
 * remaining work.  Interrupts are polled (la_poll) once per chunk, checkpoint
 * segment, or LA_POLL_STEPS recurrent steps, from whichever thread runs. */
#define LA_POLL_STEPS 4096

static inline int la_stopped(int *status)
{
  int s;
#pragma omp atomic read
  s = *status;
  return s != LA_OK;
}

static inline void la_stop(int *status, int why)
{
#pragma omp atomic write
  *status = why;
  (void)why; /* GCC's -Wunused-but-set-parameter misses the atomic write */
}

/* 1 if the call must stop: an earlier error or interrupt, or the caller's
 * interrupt callback answers nonzero now (then *status = LA_EINTR). */
static inline int la_poll(const la_problem *p, int *status)
{
  if (la_stopped(status)) return 1;
  if (p->interrupted && p->interrupted(p->interrupt_ctx)) {
    la_stop(status, LA_EINTR);
    return 1;
  }
  return 0;
}

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
 * with LA_NO_SPREAD in the environment or at compile time.  Results do not
 * depend on it: only where threads run. */
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

/* Whether `items` work items, each needing `bytes_per_thread` of workspace
 * on the threads that run them (at most one per item), fit in the memory
 * available now.  Entry points answer LA_ENOMEM otherwise: with overcommit a
 * huge malloc succeeds and the process is killed when the pages are touched.
 * A negative bytes_per_thread (an overflowed size) never fits. */
int la_workspace_ok(ptrdiff_t items, ptrdiff_t bytes_per_thread);

/* ---- workspaces kept across calls (la_pool.c) -------------------------------
 * la_pool_enter at the start of a call (before its parallel region): 1 if
 * the call holds the pool (also when this thread holds it already), 0 if
 * another call does (then get and put malloc and free).  la_pool_leave(held)
 * at its end.  la_pool_get: count elements of size bytes, NULL as la_alloc
 * (the contents are garbage: zero them where needed); kind LA_POOL_THREAD:
 * the buffer of the calling OpenMP thread's number, LA_POOL_SHARED: the
 * call's buffer its threads share, LA_POOL_FRAME: the call's transformed
 * inputs and per-head gradients (la_frame.tmpl.h).  la_pool_put gives it
 * back (frees it if it is not the pool's, or larger than LA_POOL_KEEP).
 * la_pool_bytes: bytes the pool holds (0 while another call holds it);
 * la_release (la_core.h) frees them. */
#define LA_POOL_THREADS 64                  /* thread numbers with a buffer */
#define LA_POOL_KEEP ((size_t)256 << 20)    /* larger buffers end with their call */
enum { LA_POOL_THREAD, LA_POOL_SHARED, LA_POOL_FRAME };
int la_pool_enter(void);
void la_pool_leave(int held);
void *la_pool_get(int held, int kind, ptrdiff_t count, size_t size);
void la_pool_put(int held, int kind, void *buf);
size_t la_pool_bytes(void);

#endif
