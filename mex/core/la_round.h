/*
 * la_round.h -- rounding of float values to bfloat16 or float16 precision
 * and range, the result kept in float ('Emulate', docs/emulation.md).
 *
 * Round to nearest, ties to even, as a GPU's conversion does.  bfloat16 has
 * float's exponent range and 8 significant bits: values past its largest
 * finite number (by half an ulp or more) become Inf, float subnormals round
 * on the same bit.  float16 has 11 significant bits, normal numbers from
 * 2^-14 to 65504, subnormals down to 2^-24: |x| >= 65520 becomes Inf, below
 * 2^-14 the spacing is 2^-24.  TF32 (the operands of a tensor core's float32
 * dot) has float's exponent range and 11 significant bits.  NaN stays NaN,
 * Inf stays Inf.
 */
#ifndef LA_ROUND_H
#define LA_ROUND_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "la_core.h" /* LA_EMULATE_* */

static inline uint32_t la_float_bits(float x)
{
  uint32_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

static inline float la_bits_float(uint32_t u)
{
  float x;
  memcpy(&x, &u, sizeof x);
  return x;
}

/* Keep the top 32 - drop bits of x's pattern, rounding the dropped ones to
 * nearest even; a carry into the exponent is the correct next binade (or
 * Inf after the largest finite value).  Meant for finite x (the callers
 * discard what it gives for NaN and Inf; the unsigned sum wraps). */
static inline float la_round_bits(float x, int drop)
{
  const uint32_t u = la_float_bits(x), half = (1u << (drop - 1)) - 1u;
  const uint32_t odd = (u >> drop) & 1u;
  return la_bits_float((u + half + odd) & ~((1u << drop) - 1u));
}

/* NaN or Inf (all exponent bits set): returned as they are. */
static inline int la_nonfinite_bits(uint32_t u)
{
  return (u & 0x7f800000u) == 0x7f800000u;
}

/* la_round_array's loops vectorise (GCC turns bf16's one test into a
 * select by itself; written as selects it measured slower).  fp16 is
 * written as selects, with no branch: the same values as the branches "if
 * NaN or Inf, x; if past the range, Inf; if subnormal, ..." it replaced
 * (test_round holds it to a reference), and it vectorises. */
static inline float la_round_bf16(float x)
{
  if (isnan(x) || isinf(x)) return x;
  return la_round_bits(x, 16);
}

static inline float la_round_fp16(float x)
{
  const float a = fabsf(x);
  /* subnormal range: a fixed spacing 2^-24; the products are exact */
  const float sub = copysignf(rintf(a * 0x1p24f) * 0x1p-24f, x);
  float r = a < 0x1p-14f ? sub : la_round_bits(x, 13);
  r = a >= 65520.0f ? copysignf(INFINITY, x) : r; /* past 65504 + half an ulp */
  return la_nonfinite_bits(la_float_bits(x)) ? x : r;
}

static inline float la_round_tf32(float x)
{
  if (isnan(x) || isinf(x)) return x;
  return la_round_bits(x, 13);
}

/* Round n values in place to the format `emulate` names (no-op for NONE). */
static inline void la_round_array(int emulate, float *x, ptrdiff_t n)
{
  ptrdiff_t i;
  if (emulate == LA_EMULATE_BF16) {
#pragma omp simd
    for (i = 0; i < n; i++) x[i] = la_round_bf16(x[i]);
  } else if (emulate == LA_EMULATE_FP16) {
#pragma omp simd
    for (i = 0; i < n; i++) x[i] = la_round_fp16(x[i]);
  } else if (emulate == LA_EMULATE_TF32) {
#pragma omp simd
    for (i = 0; i < n; i++) x[i] = la_round_tf32(x[i]);
  }
}

#endif
