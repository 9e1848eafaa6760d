/*
 * la_tmpl.h -- type-generic names for the algorithm templates.
 *
 * An algorithm is written once in a *_impl.h file that starts by including
 * this header and ends by including la_tmpl_end.h.  The matching .c file
 * includes the template twice, with LA_DOUBLE defined as 0 and then 1:
 *   real_t     float / double
 *   LA_FN(f)   f_s / f_d        (entry points and static helpers)
 *   LA_EXP ... the <math.h> function of that precision
 *   LA_GEMM... the CBLAS / LAPACKE routine of that precision
 */
#ifndef LA_DOUBLE
#error "define LA_DOUBLE to 0 or 1 before including la_tmpl.h"
#endif

#if LA_DOUBLE
#define real_t double
#define LA_FN(f) f##_d
#define LA_EXP exp
#define LA_LOG1P log1p
#define LA_SQRT sqrt
#define LA_FABS fabs
#define LA_GEMM cblas_dgemm
#define LA_GEMV cblas_dgemv
#define LA_TRSM cblas_dtrsm
#define LA_TRMM cblas_dtrmm
#else
#define real_t float
#define LA_FN(f) f##_s
#define LA_EXP expf
#define LA_LOG1P log1pf
#define LA_SQRT sqrtf
#define LA_FABS fabsf
#define LA_GEMM cblas_sgemm
#define LA_GEMV cblas_sgemv
#define LA_TRSM cblas_strsm
#define LA_TRMM cblas_strmm
#endif
