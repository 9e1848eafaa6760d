/*
 * la_blas.h -- the BLAS routines the core calls, through the Fortran
 * interface.  Every BLAS has it (OpenBLAS, the reference BLAS, MKL, MATLAB's
 * libmwblas), whereas CBLAS is missing from MATLAB's: so one core links
 * against any of them.
 *
 * Fortran passes every argument by reference, and each CHARACTER argument
 * adds a hidden length argument after the declared ones (gfortran passes it
 * as size_t; a BLAS written in C ignores it).  The wrappers below pass 1.
 *
 * la_blas_int: the BLAS integer.  int (LP64: Debian's OpenBLAS, reference
 * BLAS) unless LA_BLAS_ILP64 is defined (64-bit integers: MATLAB's
 * libmwblas, OpenBLAS built with INTERFACE64).  Symbols end in an
 * underscore unless LA_BLAS_NO_UNDERSCORE is defined (MATLAB on Windows).
 *
 * Built with LA_HAVE_LIBXSMM (the Makefile's default where libxsmm-dev is
 * installed), la_gemm_s / la_gemm_d hand the chunk's small products to
 * libxsmm's JIT kernels first (la_xsmm.c: alpha 1, beta 0 or 1, every
 * dimension at most 256) and the rest to BLAS; without it they are BLAS
 * alone.  la_gemm_engine names the engine the build has.
 */
#ifndef LA_BLAS_H
#define LA_BLAS_H

#include <stddef.h>
#include <stdint.h>
#include "la_flops.h"

#ifdef LA_BLAS_ILP64
typedef int64_t la_blas_int;
#else
typedef int la_blas_int;
#endif

#ifdef LA_BLAS_NO_UNDERSCORE
#define LA_BLAS_NAME(x) x
#else
#define LA_BLAS_NAME(x) x##_
#endif

/* "BLAS", or "libxsmm VERSION (target ARCH)" (la_xsmm.c); the first call
 * initialises libxsmm. */
const char *la_gemm_engine(void);

/* Maps the engine's tables (libxsmm's registry, about 10 MB) once per
 * process; the memory guard calls it before it measures the room. */
void la_gemm_engine_start(void);

/* 1 once the calling thread has returned from a BLAS product, so BLAS's
 * buffer for it is mapped; la_blas_note sets it and counts the thread for
 * the memory guard (la_platform.c). */
extern _Thread_local int la_blas_thread_done;
void la_blas_note(void);

#ifdef LA_HAVE_LIBXSMM
/* 1 when libxsmm computed C = alpha op(A) op(B) + beta C, 0 when BLAS must. */
#define LA_XSMM_DECLARE(P, T)                                                                  \
  int la_xsmm_gemm_##P(char ta, char tb, ptrdiff_t m, ptrdiff_t n, ptrdiff_t k, T alpha,      \
                       const T *A, ptrdiff_t lda, const T *B, ptrdiff_t ldb, T beta, T *C,      \
                       ptrdiff_t ldc);
#define LA_XSMM_TRY(P)                                                                         \
  if (la_xsmm_gemm_##P(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc)) {               \
    LA_BLAS_TOC;                                                                               \
    return;                                                                                    \
  }
#else
#define LA_XSMM_DECLARE(P, T)
#define LA_XSMM_TRY(P)
#endif

/* C = alpha op(A) op(B) + beta C for one real type T with prefix P (s, d).
 * (The chunk's triangular solves are the core's own, la_stage_wy.tmpl.h.) */
#define LA_BLAS_DECLARE(P, T)                                                                  \
  LA_XSMM_DECLARE(P, T)                                                                  \
  void LA_BLAS_NAME(P##gemm)(const char *ta, const char *tb, const la_blas_int *m,             \
                             const la_blas_int *n, const la_blas_int *k, const T *alpha,       \
                             const T *A, const la_blas_int *lda, const T *B,                   \
                             const la_blas_int *ldb, const T *beta, T *C,                      \
                             const la_blas_int *ldc, size_t len_ta, size_t len_tb);            \
  static inline void la_gemm_##P(char ta, char tb, ptrdiff_t m, ptrdiff_t n, ptrdiff_t k,      \
                                 T alpha, const T *A, ptrdiff_t lda, const T *B, ptrdiff_t ldb,\
                                 T beta, T *C, ptrdiff_t ldc)                                  \
  {                                                                                            \
    const la_blas_int M = (la_blas_int)m, N = (la_blas_int)n, Kd = (la_blas_int)k;             \
    const la_blas_int LA = (la_blas_int)lda, LB = (la_blas_int)ldb, LC = (la_blas_int)ldc;     \
    LA_FLOPS(2 * m * n * k);                                                                   \
    LA_BLAS_TIC;                                                                               \
    LA_XSMM_TRY(P)                                                                             \
    LA_BLAS_NAME(P##gemm)(&ta, &tb, &M, &N, &Kd, &alpha, A, &LA, B, &LB, &beta, C, &LC, 1, 1); \
    if (!la_blas_thread_done) la_blas_note();                                                  \
    LA_BLAS_TOC;                                                                               \
  }

LA_BLAS_DECLARE(s, float)
LA_BLAS_DECLARE(d, double)

#endif
