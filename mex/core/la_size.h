/*
 * la_size.h -- element counts and byte sizes in checked arithmetic.
 *
 * Every size the gateway and the core compute from caller-given extents goes
 * through these: a product or sum that overflows ptrdiff_t, or a negative
 * operand, makes the result invalid (return 0) instead of wrapping.  Callers
 * answer "outOfMemory" (gateway) or LA_ENOMEM (core) then.
 *
 * Plain C11; uses __builtin_*_overflow where the compiler has it and a
 * division-based test elsewhere (MSVC, old compilers).
 */
#ifndef LA_SIZE_H
#define LA_SIZE_H

#include <stddef.h>
#include <stdint.h>

#if defined(__has_builtin)
#if __has_builtin(__builtin_mul_overflow) && __has_builtin(__builtin_add_overflow)
#define LA_HAVE_OVERFLOW_BUILTINS 1
#endif
#elif defined(__GNUC__) && __GNUC__ >= 5
#define LA_HAVE_OVERFLOW_BUILTINS 1
#endif

/* *r = a * b; 1 if a, b >= 0 and the product fits, else 0 (*r = -1). */
static inline int la_mul(ptrdiff_t a, ptrdiff_t b, ptrdiff_t *r)
{
  if (a < 0 || b < 0) { *r = -1; return 0; }
#ifdef LA_HAVE_OVERFLOW_BUILTINS
  if (__builtin_mul_overflow(a, b, r)) { *r = -1; return 0; }
#else
  if (b != 0 && a > PTRDIFF_MAX / b) { *r = -1; return 0; }
  *r = a * b;
#endif
  return 1;
}

/* *r = a + b; 1 if a, b >= 0 and the sum fits, else 0 (*r = -1). */
static inline int la_add(ptrdiff_t a, ptrdiff_t b, ptrdiff_t *r)
{
  if (a < 0 || b < 0) { *r = -1; return 0; }
#ifdef LA_HAVE_OVERFLOW_BUILTINS
  if (__builtin_add_overflow(a, b, r)) { *r = -1; return 0; }
#else
  if (a > PTRDIFF_MAX - b) { *r = -1; return 0; }
  *r = a + b;
#endif
  return 1;
}

/* Products of up to four factors (pass 1 for unused ones). */
static inline int la_mul4(ptrdiff_t a, ptrdiff_t b, ptrdiff_t c, ptrdiff_t d, ptrdiff_t *r)
{
  ptrdiff_t x, y;
  return la_mul(a, b, &x) && la_mul(c, d, &y) && la_mul(x, y, r);
}

/* Bytes of `count` elements of `elem` bytes, as a checked ptrdiff_t. */
static inline int la_bytes(ptrdiff_t count, size_t elem, ptrdiff_t *r)
{
  return la_mul(count, (ptrdiff_t)elem, r);
}

#endif
