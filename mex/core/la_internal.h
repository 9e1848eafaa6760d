/*
 * la_internal.h -- what every algorithm of the core includes: the headers
 * of each concern and glibc's vector math declarations.
 * Not part of the public interface.
 */
#ifndef LA_INTERNAL_H
#define LA_INTERNAL_H

#include "la_core.h"
#include "la_size.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "la_layout.h" /* sequences, chunks, offsets in the packed arrays */
#include "la_status.h" /* a call's status: errors, interrupts             */
#include "la_pool.h"   /* allocation, the memory guard, the pool          */
#include "la_thread.h" /* OpenMP, BLAS threads, placement, chains         */

/* X = (I + L)^{-1} Diag(d) for the strictly lower c x c L (ld C; d NULL:
 * the identity): the chunk's triangular solve (la_stage_wy.tmpl.h), for
 * the bench that times it (validation/bench/c/bench_solve.c). */
void la_tri_solve_lower_s(ptrdiff_t c, ptrdiff_t C, const float *L, const float *d, float *X);
void la_tri_solve_lower_d(ptrdiff_t c, ptrdiff_t C, const double *L, const double *d, double *X);

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

#endif
