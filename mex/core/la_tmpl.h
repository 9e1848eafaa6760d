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
 *   LA_SUM_LANES the simdlen of the vector loops that end in sums
 *                (omp simd reduction): 256-bit vectors, 8 floats or 4
 *                doubles.  Left to itself GCC takes 512-bit vectors where
 *                the CPU has them and then adds up each sum's lanes one
 *                by one through memory; over K <= 128 terms that costs
 *                more than the wider loop saves.  On AVX2 it is the native
 *                width and changes nothing.
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
#define LA_SUM_LANES 4
#else
#define real_t float
#define LA_FN(f) f##_s
#define LA_EXP expf
#define LA_LOG1P log1pf
#define LA_SQRT sqrtf
#define LA_FABS fabsf
#define LA_GEMM la_gemm_s
#define LA_SUM_LANES 8
#endif
