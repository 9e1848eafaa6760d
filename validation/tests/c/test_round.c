/*
 * test_round.c -- la_round.h against a reference written differently: the
 * two neighbours of x on the grid of the format, computed in double, and
 * the nearer one (the even one on a tie), Inf past the largest finite.
 * Cases: every halfway point between two consecutive finite values of each
 * format and the floats just beside it (both signs, subnormals included),
 * the overflow threshold, NaN / Inf / zeros, and float patterns spread over
 * the whole 32-bit range.  Exit status 0 if all agree (bit for bit).
 */
#include "la_round.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct {
  const char *name;
  int sig;           /* significant bits, leading one included */
  int emin;          /* exponent of the smallest normal number */
  double maxfinite;
  float (*fn)(float);
} format;

/* x rounded to the format's grid, to nearest, ties to even */
static float reference(const format *f, float x)
{
  double a = fabs((double)x), q, lo, hi, r;
  int e;
  if (isnan(x) || isinf(x) || x == 0) return x;
  frexp(a, &e); /* a = m 2^e, m in [0.5, 1): leading bit 2^(e-1) */
  q = ldexp(1.0, (e - 1 > f->emin ? e - 1 : f->emin) - (f->sig - 1));
  lo = floor(a / q) * q;
  hi = lo + q;
  if (a - lo < hi - a) r = lo;
  else if (hi - a < a - lo) r = hi;
  else r = fmod(lo / q, 2.0) == 0 ? lo : hi;
  if (r > f->maxfinite) r = INFINITY;
  return (float)copysign(r, (double)x);
}

static long g_fail;

static void check(const format *f, float x)
{
  const float got = f->fn(x), want = reference(f, x);
  const int same = (isnan(got) && isnan(want)) || la_float_bits(got) == la_float_bits(want);
  if (!same && g_fail++ < 10)
    printf("FAIL %s(%a = 0x%08x): got %a, want %a\n", f->name, (double)x, la_float_bits(x),
           (double)got, (double)want);
}

/* every finite non-negative value of the format and the next one: the value,
 * their midpoint and the floats just beside it, both signs */
static void check_halfway(const format *f)
{
  uint32_t h;
  for (h = 0;; h++) {
    /* the h-th non-negative value of the format: subnormals first */
    const int m = (int)(h & ((1u << (f->sig - 1)) - 1)), be = (int)(h >> (f->sig - 1));
    const double val = be == 0 ? ldexp((double)m, f->emin - (f->sig - 1))
                               : ldexp((double)(m + (1 << (f->sig - 1))), f->emin + be - 1 - (f->sig - 1));
    const double q = ldexp(1.0, (be == 0 ? f->emin : f->emin + be - 1) - (f->sig - 1));
    const float mid = (float)(val + q / 2);
    int s;
    if (val > f->maxfinite) break;
    for (s = 0; s < 2; s++) {
      const float x = s ? -mid : mid;
      check(f, x);
      check(f, nextafterf(x, INFINITY));
      check(f, nextafterf(x, -INFINITY));
      check(f, (float)(s ? -val : val));
    }
  }
}

/* la_round_array (a vectorised loop) against the scalar functions, bit for
 * bit, on blocks of patterns spread over the whole 32-bit range (NaN, Inf,
 * subnormals and both signs among them). */
static void check_array(void)
{
  enum { N = 4096 };
  static float x[N], y[N];
  const int kinds[2] = {LA_EMULATE_BF16, LA_EMULATE_FP16};
  uint64_t u;
  int i, k;
  for (k = 0; k < 2; k++)
    for (u = 0; u < (1ull << 32); u += (uint64_t)N * 613) {
      for (i = 0; i < N; i++) x[i] = y[i] = la_bits_float((uint32_t)(u + (uint64_t)i * 613));
      la_round_array(kinds[k], x, N);
      for (i = 0; i < N; i++) {
        const float r = kinds[k] == LA_EMULATE_BF16 ? la_round_bf16(y[i]) : la_round_fp16(y[i]);
        if (la_float_bits(x[i]) != la_float_bits(r) && g_fail++ < 10)
          printf("la_round_array %s: %08x gives %08x, the scalar function %08x\n",
                 k ? "fp16" : "bf16", (unsigned)la_float_bits(y[i]), (unsigned)la_float_bits(x[i]),
                 (unsigned)la_float_bits(r));
      }
    }
}

int main(void)
{
  static const format formats[2] = {
    {"bf16", 8, -126, 0x1.fep127, la_round_bf16},
    {"fp16", 11, -14, 65504.0, la_round_fp16}};
  const float specials[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 65504.0f, 65519.996f,
                            65520.0f, -65520.0f, 0x1p-24f, 0x1p-25f, 0x1.8p-25f, 0x1p-26f,
                            0x1.fffffep127f, 0x1.fe8p127f, 0x1.ffp127f, 0x1p-149f, 0x1p-133f,
                            0x1p-134f, 0x1.8p-134f};
  int i;
  uint64_t u;
  for (i = 0; i < 2; i++) {
    const format *f = &formats[i];
    size_t j;
    check_halfway(f);
    for (j = 0; j < sizeof specials / sizeof specials[0]; j++) check(f, specials[j]);
    for (u = 0; u < (1ull << 32); u += 4093) check(f, la_bits_float((uint32_t)u));
  }
  check_array();
  printf("test_round: %s (%ld mismatches)\n", g_fail ? "FAILED" : "ok", g_fail);
  return g_fail != 0;
}
