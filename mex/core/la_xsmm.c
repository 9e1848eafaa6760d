/*
 * la_xsmm.c -- the small-GEMM engine behind la_gemm_s / la_gemm_d (la_blas.h)
 * when the core is built with LA_HAVE_LIBXSMM: libxsmm's JIT kernels for the
 * chunk's fixed-shape products, BLAS for the rest.
 *
 * A product goes to libxsmm when alpha is 1, beta is 0 or 1, op(A) is A
 * (libxsmm 1.17 has no transposed-A kernel; A'*B with a small A is
 * transposed into a stack buffer first, see LA_XSMM_TA_MAX) and every
 * dimension is at most LA_XSMM_MAX_DIM.  Each (class, shape, leading
 * dimensions, transposes, beta) is dispatched once, the first call
 * JIT-compiling it, and its kernel kept in a fixed table: readers probe it
 * without a lock (a slot's key is written before its kernel is published
 * with release order), a miss fills a slot under a critical section.  A
 * dispatch that returns nothing is kept too (as "BLAS"); a key whose
 * probes are all taken is dispatched at each call (libxsmm's own registry
 * keeps its kernel).  libxsmm picks its instruction set once per
 * process, from the CPU or LIBXSMM_TARGET (set before the first call).
 */
#define _POSIX_C_SOURCE 200112L /* setenv, unsetenv */
#include "la_blas.h"
#include "la_core.h"

#ifdef LA_HAVE_LIBXSMM

#include <libxsmm.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Larger products (the state's products over long dimensions) are BLAS's:
 * its blocking wins there and a kernel per shape would not be reused. */
#define LA_XSMM_MAX_DIM 256
/* A'*B through a transposed copy of A (m x k) on the stack: at most this
 * many elements (64 KB of float, 128 KB of double). */
#define LA_XSMM_TA_MAX (128 * 128)
#define LA_XSMM_SLOTS 1024 /* a power of two */
#define LA_XSMM_PROBE 16   /* slots a key may take, from its hash on */
#define LA_XSMM_BLAS ((uintptr_t)1) /* a slot whose shape BLAS serves */

typedef struct {
  int64_t key[7]; /* class and flags, m, n, k, lda, ldb, ldc */
  _Atomic uintptr_t fn; /* 0: empty, LA_XSMM_BLAS, or the kernel */
} la_xsmm_slot;

static la_xsmm_slot la_xsmm_table[LA_XSMM_SLOTS];

static size_t la_xsmm_hash(const int64_t *key)
{
  uint64_t h = 1469598103934665603ull;
  int i;
  for (i = 0; i < 7; i++) h = (h ^ (uint64_t)key[i]) * 1099511628211ull;
  return (size_t)(h ^ (h >> 29)) & (LA_XSMM_SLOTS - 1);
}

static uintptr_t la_xsmm_dispatch(const int64_t *key)
{
  const libxsmm_blasint m = key[1], n = key[2], k = key[3];
  const libxsmm_blasint lda = key[4], ldb = key[5], ldc = key[6];
  const int dbl = (int)(key[0] & 1), beta1 = (int)(key[0] >> 1 & 1);
  const int flags = (key[0] & 4) ? LIBXSMM_GEMM_FLAG_TRANS_B : LIBXSMM_GEMM_FLAG_NONE;
  const int prefetch = LIBXSMM_GEMM_PREFETCH_NONE;
  if (dbl) {
    const double alpha = 1, beta = beta1;
    libxsmm_dmmfunction f =
        libxsmm_dmmdispatch(m, n, k, &lda, &ldb, &ldc, &alpha, &beta, &flags, &prefetch);
    return f ? (uintptr_t)f : LA_XSMM_BLAS;
  } else {
    const float alpha = 1, beta = (float)beta1;
    libxsmm_smmfunction f =
        libxsmm_smmdispatch(m, n, k, &lda, &ldb, &ldc, &alpha, &beta, &flags, &prefetch);
    return f ? (uintptr_t)f : LA_XSMM_BLAS;
  }
}

/* libxsmm_init, once, under la_xsmm_fill.  Where no thread affinity is set,
 * libxsmm 1.17's init puts "OMP_PROC_BIND=TRUE" into the environment from
 * a static buffer of its own: programs the caller starts would be pinned,
 * and once the MEX file is unloaded the environment would point into freed
 * memory (Octave crashed at exit).  The variable is put back as it was. */
static atomic_int la_xsmm_started;

static void la_xsmm_init(void)
{
  if (!atomic_load_explicit(&la_xsmm_started, memory_order_relaxed)) {
    const char *was = getenv("OMP_PROC_BIND");
    const int had = was != NULL, empty = had && !*was;
    libxsmm_init();
    if (!had) unsetenv("OMP_PROC_BIND");
    else if (empty) setenv("OMP_PROC_BIND", "", 1);
    atomic_store_explicit(&la_xsmm_started, 1, memory_order_release);
  }
}

void la_gemm_engine_start(void)
{
  if (atomic_load_explicit(&la_xsmm_started, memory_order_acquire)) return;
#pragma omp critical(la_xsmm_fill)
  la_xsmm_init();
}

/* The slot of key among its LA_XSMM_PROBE probes: its own, else the first
 * empty one (*fn 0), else -1 (all taken by other keys). */
static ptrdiff_t la_xsmm_probe(const int64_t *key, uintptr_t *fn)
{
  const size_t h = la_xsmm_hash(key);
  size_t i;
  for (i = 0; i < LA_XSMM_PROBE; i++) {
    const size_t s = (h + i) & (LA_XSMM_SLOTS - 1);
    *fn = atomic_load_explicit(&la_xsmm_table[s].fn, memory_order_acquire);
    if (!*fn || !memcmp(la_xsmm_table[s].key, key, sizeof la_xsmm_table[s].key))
      return (ptrdiff_t)s;
  }
  return -1;
}

/* The kernel of key, dispatched on first use; 0 where BLAS serves it. */
static uintptr_t la_xsmm_kernel(const int64_t *key)
{
  uintptr_t fn;
  if (la_xsmm_probe(key, &fn) >= 0 && fn) return fn == LA_XSMM_BLAS ? 0 : fn;
#pragma omp critical(la_xsmm_fill)
  {
    /* again under the lock: another thread may have filled the slot */
    const ptrdiff_t s = la_xsmm_probe(key, &fn);
    la_xsmm_init();
    if (s < 0)
      fn = la_xsmm_dispatch(key);
    else if (!fn) {
      memcpy(la_xsmm_table[s].key, key, sizeof la_xsmm_table[s].key);
      fn = la_xsmm_dispatch(key);
      atomic_store_explicit(&la_xsmm_table[s].fn, fn, memory_order_release);
    }
  }
  return fn == LA_XSMM_BLAS ? 0 : fn;
}

/* The kernel for C = op(A) op(B) + beta C where libxsmm serves it, else 0;
 * *ta_copy says that A must be transposed first (then lda is m). */
static uintptr_t la_xsmm_find(int dbl, char ta, char tb, ptrdiff_t m, ptrdiff_t n, ptrdiff_t k,
                              ptrdiff_t lda, ptrdiff_t ldb, ptrdiff_t ldc, int beta1,
                              int *ta_copy)
{
  int64_t key[7];
  *ta_copy = ta != 'N';
  if (m < 1 || n < 1 || k < 1 || m > LA_XSMM_MAX_DIM || n > LA_XSMM_MAX_DIM ||
      k > LA_XSMM_MAX_DIM || (*ta_copy && m * k > LA_XSMM_TA_MAX) || la_get_tuning().no_xsmm)
    return 0;
  key[0] = dbl | beta1 << 1 | (tb != 'N') << 2;
  key[1] = m;
  key[2] = n;
  key[3] = k;
  key[4] = *ta_copy ? m : lda;
  key[5] = ldb;
  key[6] = ldc;
  return la_xsmm_kernel(key);
}

#define LA_XSMM_DEFINE(P, T, DBL)                                                              \
  int la_xsmm_gemm_##P(char ta, char tb, ptrdiff_t m, ptrdiff_t n, ptrdiff_t k, T alpha,      \
                       const T *A, ptrdiff_t lda, const T *B, ptrdiff_t ldb, T beta, T *C,      \
                       ptrdiff_t ldc)                                                          \
  {                                                                                            \
    int ta_copy;                                                                               \
    uintptr_t fn;                                                                              \
    if (alpha != 1 || (beta != 0 && beta != 1)) return 0;                                      \
    fn = la_xsmm_find(DBL, ta, tb, m, n, k, lda, ldb, ldc, beta == 1, &ta_copy);               \
    if (!fn) return 0;                                                                         \
    if (ta_copy) {                                                                             \
      T At[LA_XSMM_TA_MAX];                                                                    \
      libxsmm_otrans(At, A, sizeof(T), (libxsmm_blasint)k, (libxsmm_blasint)m,                 \
                     (libxsmm_blasint)lda, (libxsmm_blasint)m);                                \
      ((libxsmm_##P##mmfunction)fn)(At, B, C);                                                 \
    } else                                                                                     \
      ((libxsmm_##P##mmfunction)fn)(A, B, C);                                                  \
    return 1;                                                                                  \
  }

LA_XSMM_DEFINE(s, float, 0)
LA_XSMM_DEFINE(d, double, 1)

const char *la_gemm_engine(void)
{
  static char name[64];
#pragma omp critical(la_xsmm_fill)
  if (!name[0]) {
    la_xsmm_init();
    snprintf(name, sizeof name, "libxsmm %s (target %s)", LIBXSMM_CONFIG_VERSION,
             libxsmm_get_target_arch());
  }
  return name;
}

#else

const char *la_gemm_engine(void) { return "BLAS"; }

void la_gemm_engine_start(void) {}

#endif
