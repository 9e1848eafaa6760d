/*
 * la_flops.h -- flop counting for the instrumented build (-DLA_COUNT_FLOPS),
 * used by validation/derivation/check_flops.m to hold the core to the counts
 * of docs/flops.md.  LA_FLOPS(n) adds n to la_flops_count, a counter the
 * program linking the instrumented core defines (validation/derivation/
 * flops_driver.c); without the flag it compiles to nothing.
 *
 * Hooks: every BLAS call (la_blas.h: 2mnk per gemm, m(m-1)n per unit
 * triangular solve), each recurrent step, and the loop nests of the chunked
 * paths that do O(K c^2) work outside BLAS; the O(K c) elementwise work of
 * the chunked paths is not counted (docs/flops.md says which).
 *
 * Time in BLAS (-DLA_TIME_BLAS, the bench's bench_core_blas): LA_BLAS_TIC /
 * LA_BLAS_TOC around every gemm add its wall seconds to la_blas_seconds, a
 * counter the program defines (validation/bench/c/bench_core.c), summed over
 * threads; it says how much of a call the GEMMs take as they are called.
 * The same build times the stages of the chunked paths: LA_STAGE(s, ...)
 * runs its statements and adds their wall seconds to la_stage_seconds[s]
 * (summed over threads; the stages are those of la_stage_id below, the
 * shared ones, the gating and the gated products, also when the backward
 * calls them); bench_core_blas prints where the time of a forward and of a
 * forward + backward goes.
 *
 * Memory needs no hook here: the driver wraps malloc and free at link time
 * (mk/mutants.mk) and prints the peak of the bytes the core holds.
 */
#ifndef LA_FLOPS_H
#define LA_FLOPS_H

#ifdef LA_COUNT_FLOPS
extern long long la_flops_count;
#define LA_FLOPS(n)                                       \
  do {                                                    \
    const long long la_flops_n_ = (long long)(n);         \
    _Pragma("omp atomic") la_flops_count += la_flops_n_; \
  } while (0)
#else
#define LA_FLOPS(n) ((void)0)
#endif

#if defined(LA_TIME_BLAS) && defined(_OPENMP)
#include <omp.h>
extern double la_blas_seconds;
#define LA_BLAS_TIC const double la_blas_t0_ = omp_get_wtime()
#define LA_BLAS_TOC                                         \
  do {                                                      \
    const double la_blas_dt_ = omp_get_wtime() - la_blas_t0_; \
    _Pragma("omp atomic") la_blas_seconds += la_blas_dt_;   \
  } while (0)
#else
#define LA_BLAS_TIC ((void)0)
#define LA_BLAS_TOC ((void)0)
#endif

/* The stages LA_STAGE times (bench_core.c names them in this order). */
typedef enum {
  LA_ST_INTRA,   /* a chunk's intra-chunk work, all of it */
  LA_ST_GATING,  /* decays, QG, KG, KC (chunk_gating) */
  LA_ST_DIAG,    /* the diagonal sub-blocks of the gated products */
  LA_ST_SCALE,   /* the scaled copies of the off-diagonal sub-blocks */
  LA_ST_OFFDIAG, /* their GEMMs and the copy into Aqk, M */
  LA_ST_SOLVE,   /* A_raw and the triangular solve */
  LA_ST_WU,      /* w = A KG and u = A v (GEMMs) */
  LA_ST_STATE,   /* the state pass: a block of value columns over a window's
                    chunks (two phases), or one chunk's step (per item) */
  /* the chunked backward's tasks (la_chunk_bwd.tmpl.h), and the parts of
   * its reverse sweep's last task */
  LA_ST_B_FWD_LOCAL, /* forward sweep: a chunk's intra-chunk work again */
  LA_ST_B_FWD_CHAIN, /* forward sweep: v_new and the next state */
  LA_ST_B_REV_PRE,   /* reverse sweep: decays, gated q, k again, output's backward */
  LA_ST_B_REV_CHAIN, /* reverse sweep: the state gradient to the chunk before */
  LA_ST_B_STATE,     /* reverse sweep: the state's local gradients */
  LA_ST_B_WY,        /* reverse sweep: the backward of w, u and the solve */
  LA_ST_B_GATED,     /* reverse sweep: the backward of the gated products */
  LA_ST_B_DECAYS,    /* reverse sweep: the decays' backward, dq, dk, dg */
  LA_ST_COUNT
} la_stage_id;

#if defined(LA_TIME_BLAS) && defined(_OPENMP)
extern double la_stage_seconds[LA_ST_COUNT];
#define LA_STAGE(s, ...)                                      \
  do {                                                        \
    const double la_stage_t0_ = omp_get_wtime();              \
    __VA_ARGS__;                                              \
    {                                                         \
      const double la_stage_dt_ = omp_get_wtime() - la_stage_t0_; \
      _Pragma("omp atomic") la_stage_seconds[s] += la_stage_dt_;  \
    }                                                         \
  } while (0)
#else
#define LA_STAGE(s, ...) \
  do {                   \
    __VA_ARGS__;         \
  } while (0)
#endif

#endif
