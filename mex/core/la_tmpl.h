/*
 * la_tmpl.h -- type-generic names for the algorithm templates (*.tmpl.h).
 *
 * Every algorithm is written once against these names.  la_float.c and
 * la_double.c define LA_DOUBLE (0 or 1) and include la_all.tmpl.h, which
 * includes this header and then every template once:
 *   real_t       float / double
 *   LA_FN(f)     f_s / f_d        (entry points and static helpers)
 *   LA_EXP ...   the <math.h> function of that precision
 *   LA_GEMM      the BLAS wrapper of la_blas.h, column-major, with
 *                transposes as characters ('N', 'T', ...)
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
#define LA_GEMM la_gemm_d
#else
#define real_t float
#define LA_FN(f) f##_s
#define LA_EXP expf
#define LA_LOG1P log1pf
#define LA_SQRT sqrtf
#define LA_FABS fabsf
#define LA_GEMM la_gemm_s
#endif
