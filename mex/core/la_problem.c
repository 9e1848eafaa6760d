/*
 * la_problem.c -- la_problem_check: the core's own invariants of a problem
 * (la_core.h).  The gateway and the C test fill an la_problem from their
 * arrays; everything that can be said of the problem alone is checked here,
 * once, with a message that names the field and the values; a field is
 * written `like_this` so that a caller can say it in its own terms (the
 * gateway names the option that sets it).
 */
#include "la_core.h"
#include "la_size.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

static int refuse(la_check *why, const char *id, const char *fmt, ...)
{
  if (why) {
    va_list ap;
    why->id = id;
    va_start(ap, fmt);
    vsnprintf(why->text, sizeof why->text, fmt, ap);
    va_end(ap);
  }
  return LA_EARG;
}

/* CuSeqlens: N+1 strictly increasing offsets from 0 to T, batch of one. */
static int check_cu(const la_problem *p, la_check *why)
{
  ptrdiff_t n;
  if (p->B != 1)
    return refuse(why, "badCuSeqlens", "`cu_seqlens` needs a batch of one (B = 1), got B = %td", p->B);
  if (p->N < 1)
    return refuse(why, "badCuSeqlens", "`cu_seqlens` must hold at least 2 offsets [0, ..., T]");
  if (p->cu_seqlens[0] != 0 || p->cu_seqlens[p->N] != (int64_t)p->T)
    return refuse(why, "badCuSeqlens",
                  "`cu_seqlens` must start at 0 and end at T = %td, got [%lld ... %lld]", p->T,
                  (long long)p->cu_seqlens[0], (long long)p->cu_seqlens[p->N]);
  for (n = 1; n <= p->N; n++)
    if (p->cu_seqlens[n] <= p->cu_seqlens[n - 1])
      return refuse(why, "badCuSeqlens",
                    "`cu_seqlens` must be strictly increasing, but entry %td (counting from 1) = %lld follows %lld",
                    n + 1, (long long)p->cu_seqlens[n], (long long)p->cu_seqlens[n - 1]);
  return LA_OK;
}

/* Every array of the call must be addressable: element counts of q/k, v/o,
 * the gate, the states (and their bytes in double) in checked arithmetic. */
static int check_sizes(const la_problem *p, la_check *why)
{
  ptrdiff_t qk, vo, gate, state, bytes;
  const ptrdiff_t GD = p->kda ? p->K : 1;
  if (!la_mul4(p->K, p->T, p->H, p->B, &qk) || !la_mul4(p->V, p->T, p->HV, p->B, &vo) ||
      !la_mul4(GD, p->T, p->HV, p->B, &gate) || !la_mul4(p->K, p->V, p->HV, p->N, &state) ||
      !la_bytes(qk, sizeof(double), &bytes) || !la_bytes(vo, sizeof(double), &bytes) ||
      !la_bytes(gate, sizeof(double), &bytes) || !la_bytes(state, sizeof(double), &bytes))
    return refuse(why, "outOfMemory",
                  "the arrays of this call (K = %td, V = %td, T = %td, H = %td, HV = %td, "
                  "B = %td, N = %td) hold more elements than this machine can address",
                  p->K, p->V, p->T, p->H, p->HV, p->B, p->N);
  return LA_OK;
}

/* Longest sequence of the problem (T without CuSeqlens). */
static ptrdiff_t longest(const la_problem *p)
{
  ptrdiff_t n, m = p->cu_seqlens ? 0 : p->T;
  for (n = 0; p->cu_seqlens && n < p->N; n++)
    if (p->cu_seqlens[n + 1] - p->cu_seqlens[n] > m)
      m = (ptrdiff_t)(p->cu_seqlens[n + 1] - p->cu_seqlens[n]);
  return m;
}

int la_problem_check(la_problem *p, la_check *why)
{
  int rc;
  if (p->K < 1 || p->V < 1 || p->T < 0 || p->H < 1 || p->HV < 1 || p->B < 1)
    return refuse(why, "badShape",
                  "sizes must be K, V, H, HV, B >= 1 and T >= 0, got K = %td, V = %td, T = %td, "
                  "H = %td, HV = %td, B = %td", p->K, p->V, p->T, p->H, p->HV, p->B);
  if (p->HV % p->H)
    return refuse(why, "badShape",
                  "v has HV = %td value heads and q has H = %td heads: HV must be a multiple of H",
                  p->HV, p->H);
  if (p->cu_seqlens) {
    if ((rc = check_cu(p, why)) != LA_OK) return rc;
  } else if (p->N != p->B) {
    return refuse(why, "badShape", "without CuSeqlens there is one sequence per batch entry: "
                  "N = %td but B = %td", p->N, p->B);
  }
  if ((rc = check_sizes(p, why)) != LA_OK) return rc;
  if (!(p->scale > 0) || !isfinite(p->scale))
    return refuse(why, "badOption", "`scale` must be finite and positive, got %g", p->scale);
  if (p->has_lower_bound && (!(p->lower_bound < 0) || !isfinite(p->lower_bound)))
    return refuse(why, "badOption", "`lower_bound` must be finite and negative, got %g",
                  p->lower_bound);
  if (!(p->l2norm_eps >= 0) || !isfinite(p->l2norm_eps))
    return refuse(why, "badOption", "`l2norm_eps` must be finite and >= 0, got %g",
                  p->l2norm_eps);
  if (p->safe_gate && !p->has_lower_bound)
    return refuse(why, "badOption", "`safe_gate` needs `lower_bound`");
  if (p->safe_gate && p->lower_bound < -5) /* FLA's safe range */
    return refuse(why, "badOption", "with `safe_gate`, `lower_bound` must lie in [-5, 0), got %g",
                  p->lower_bound);
  if (p->chunk < 0)
    return refuse(why, "badOption", "`chunk` must be a positive integer, got %td",
                  p->chunk);
  if (p->emulate < LA_EMULATE_NONE || p->emulate > LA_EMULATE_TF32)
    return refuse(why, "badOption", "`emulate` must be LA_EMULATE_NONE, _BF16, _FP16 or _TF32, got %d",
                  p->emulate);
  if (p->chunk == 0) p->chunk = LA_DEFAULT_CHUNK;
  { /* a chunk (or checkpoint interval) longer than the longest sequence
     * computes the same as one exactly that long: use that, so that the
     * workspace never exceeds what the data needs */
    const ptrdiff_t m = longest(p);
    if (p->chunk > m) p->chunk = m > 0 ? m : 1;
  }
  return LA_OK;
}
