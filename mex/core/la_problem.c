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
#include <stdlib.h>

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
    if (p->cu_seqlens[n] < p->cu_seqlens[n - 1]) /* equal: a zero-length sequence, ht = h0 */
      return refuse(why, "badCuSeqlens",
                    "`cu_seqlens` must not decrease, but entry %td (counting from 1) = %lld follows %lld",
                    n + 1, (long long)p->cu_seqlens[n], (long long)p->cu_seqlens[n - 1]);
  return LA_OK;
}

/* Every array of the call must be addressable: element counts of q/k, v/o,
 * the gate, the states (and their bytes in double) in checked arithmetic. */
static int check_sizes(const la_problem *p, la_check *why)
{
  ptrdiff_t qk, vo, gate, state, bytes, pool = 0, tokens = 0;
  const ptrdiff_t GD = p->kda ? p->K : 1;
  /* a state pool and the per-token states (la_core.h) */
  if (p->slots && p->pool_slots >= 1 && (!la_mul4(p->K, p->V, p->HV, p->pool_slots, &pool) ||
                   !la_mul4(p->K, p->V, p->HV, p->B, &tokens) ||
                   !la_mul(tokens, p->T, &tokens) || !la_bytes(pool, sizeof(double), &bytes) ||
                   !la_bytes(tokens, sizeof(double), &bytes)))
    return refuse(why, "outOfMemory",
                  "the state pool (%td slots) or the per-token states (T = %td, B = %td) of "
                  "this call hold more elements than this machine can address",
                  p->pool_slots, p->T, p->B);
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

/* Steps of sequence n. */
static ptrdiff_t seq_len(const la_problem *p, ptrdiff_t n)
{
  return p->cu_seqlens ? (ptrdiff_t)(p->cu_seqlens[n + 1] - p->cu_seqlens[n]) : p->T;
}

/* The slot sequence n starts from (before slot_base is taken off). */
static int64_t read_slot(const la_problem *p, ptrdiff_t n)
{
  return p->slots[p->slot_steps * n + (p->accepted ? p->accepted[n] - 1 : 0)];
}

/* The state pool (la_core.h): slot numbers inside the pool, accepted
 * counts inside [1, slot_steps], and with inplace no slot that two
 * sequences write or that one writes and another reads (a kernel's result
 * would depend on the order its programs run in).  Only the entries a call
 * uses are looked at: those of sequences with steps, up to their length;
 * a skipped sequence (padding start) writes nothing.  Positions in the
 * messages count from 1: Slots(t, n). */
static int check_slots(la_problem *p, la_check *why)
{
  const int64_t base = p->slot_base, P = (int64_t)p->pool_slots;
  const ptrdiff_t m = longest(p);
  ptrdiff_t n, t, *writer = NULL;
  int rc = LA_OK;
  if (p->pool_slots < 1)
    return refuse(why, "badSlot", "a state pool needs at least one slot, got %td", p->pool_slots);
  if (p->slot_steps < 1 || (p->slot_steps != 1 && p->slot_steps < m))
    return refuse(why, "badSlot",
                  "Slots must give one slot per sequence or one per step: %td rows for "
                  "sequences of up to %td steps", p->slot_steps, m);
  for (n = 0; p->accepted && n < p->N; n++)
    if (seq_len(p, n) > 0 && (p->accepted[n] < 1 || p->accepted[n] > (int64_t)p->slot_steps))
      return refuse(why, "badSlot",
                    "AcceptedTokens(%td) = %lld is outside [1, %td], the rows of Slots", n + 1,
                    (long long)p->accepted[n], p->slot_steps);
  for (n = 0; n < p->N; n++) {
    const ptrdiff_t len = seq_len(p, n), rows = p->slot_steps == 1 ? 1 : len;
    const ptrdiff_t read = p->accepted ? (ptrdiff_t)p->accepted[n] - 1 : 0;
    for (t = 0; len > 0 && t <= rows; t++) {
      /* rows 0 .. rows-1 are written; the read row may lie past them */
      const ptrdiff_t row = t < rows ? t : read;
      const int64_t s = p->slots[p->slot_steps * n + row];
      if (s >= base + P)
        return refuse(why, "badSlot",
                      "Slots(%td, %td) = %lld is beyond the pool's last slot %lld", row + 1,
                      n + 1, (long long)s, (long long)(base + P - 1));
    }
  }
  if (!p->inplace) return LA_OK;
  if (!(writer = malloc(sizeof(ptrdiff_t) * (size_t)p->pool_slots)))
    return refuse(why, "outOfMemory", "no memory to check a pool of %td slots", p->pool_slots);
  for (t = 0; t < p->pool_slots; t++) writer[t] = -1;
  for (n = 0; n < p->N && rc == LA_OK; n++) {
    const ptrdiff_t len = seq_len(p, n), rows = p->slot_steps == 1 ? 1 : len;
    if (len == 0 || read_slot(p, n) < base) continue;
    for (t = 0; t < rows && rc == LA_OK; t++) {
      const int64_t s = p->slots[p->slot_steps * n + t] - base;
      if (s < 0) continue;
      if (writer[s] >= 0 && writer[s] != n)
        rc = refuse(why, "badSlot",
                    "slot %lld is written by sequences %td and %td (Slots(%td, %td)): the "
                    "result would depend on their order", (long long)(s + base), writer[s] + 1,
                    n + 1, t + 1, n + 1);
      writer[s] = n;
    }
  }
  for (n = 0; n < p->N && rc == LA_OK; n++) {
    int64_t r;
    if (seq_len(p, n) == 0) continue; /* reads nothing: its count was not checked */
    r = read_slot(p, n) - base;
    if (r >= 0 && writer[r] >= 0 && writer[r] != n)
      rc = refuse(why, "badSlot",
                  "slot %lld is read by sequence %td and written by sequence %td: the result "
                  "would depend on their order", (long long)(r + base), n + 1, writer[r] + 1);
  }
  free(writer);
  return rc;
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
  if (!p->slots && (p->accepted || p->inplace))
    return refuse(why, "badOption", "AcceptedTokens and UpdatePool need Slots");
  if (p->slots && (rc = check_slots(p, why)) != LA_OK) return rc;
  if (p->chunk == 0) p->chunk = LA_DEFAULT_CHUNK;
  { /* a chunk (or checkpoint interval) longer than the longest sequence
     * computes the same as one exactly that long: use that, so that the
     * workspace never exceeds what the data needs */
    const ptrdiff_t m = longest(p);
    if (p->chunk > m) p->chunk = m > 0 ? m : 1;
  }
  return LA_OK;
}

/* ---- helpers exported for callers (la_core.h) ------------------------------ */

int la_size_add(ptrdiff_t a, ptrdiff_t b, ptrdiff_t *r)
{
  return la_add(a, b, r);
}

int la_size_bytes4(ptrdiff_t d0, ptrdiff_t d1, ptrdiff_t d2, ptrdiff_t d3, size_t elem,
                   ptrdiff_t *r)
{
  ptrdiff_t count;
  return la_mul4(d0, d1, d2, d3, &count) && la_bytes(count, elem, r);
}
