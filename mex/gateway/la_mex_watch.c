/*
 * la_mex_watch.c -- see la_mex_watch.h.
 */
#include "la_mex_watch.h"
#include "la_mex_intr.h"

#include <math.h>
#include <stdio.h>
#include <time.h>

/* 1 on the thread that called the MEX function during a verbose call: the
 * only thread that may print (the host's output is not thread-safe). */
static _Thread_local int tl_caller;

static double now(void)
{
  struct timespec ts;
  if (timespec_get(&ts, TIME_UTC) != TIME_UTC) return 0;
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void print_line(const la_call *c, const char *what, double seconds)
{
  const la_problem *p = &c->p;
  mexPrintf("%s: %s %.1f s (T = %td, B = %td, N = %td, HV = %td, K = %td, V = %td, "
            "ChunkSize = %td)\n", c->fname, what, seconds, p->T, p->B, p->N, p->HV, p->K, p->V,
            p->chunk);
#ifdef HAVE_OCTAVE
  fflush(stdout);
#endif
}

/* the core's poll: Ctrl-C, and the progress line when a second has passed */
static int poll_verbose(void *ctx)
{
  la_call *c = (la_call *)ctx;
  if (tl_caller) {
    const double t = now();
    if (t >= c->watch.next) {
      print_line(c, "running,", t - c->watch.start);
      c->watch.printed = 1;
      c->watch.next = t + 1;
    }
  }
  return la_mex_interrupted(NULL);
}

void la_watch_begin(la_call *c)
{
  if (!c->verbose) return;
  c->watch.start = now();
  c->watch.next = c->watch.start + 1;
  c->watch.printed = 0;
  c->p.interrupted = poll_verbose;
  c->p.interrupt_ctx = c;
  tl_caller = 1;
}

void la_watch_end(la_call *c)
{
  if (!c->verbose) return;
  tl_caller = 0;
  if (c->watch.printed || now() - c->watch.start >= 1)
    print_line(c, "done in", now() - c->watch.start);
}

/* element i of a working-class array */
static double elt(const la_call *c, const void *a, ptrdiff_t i)
{
  return c->dbl ? ((const double *)a)[i] : (double)((const float *)a)[i];
}

/* ||x||_2 of n working-class elements from a */
static double norm2(const la_call *c, const void *a, ptrdiff_t off, ptrdiff_t n)
{
  double s = 0;
  ptrdiff_t i;
  for (i = 0; i < n; i++) s += elt(c, a, off + i) * elt(c, a, off + i);
  return sqrt(s);
}

/* the beta step bt uses: the core's transform (la_beta_used_*), in the
 * class of the inputs */
static double beta_used(const la_call *c, const void *beta, ptrdiff_t bt)
{
  if (c->dbl) {
    double u;
    la_beta_used_d(&c->p, 1, (const double *)beta + bt, &u);
    return u;
  } else {
    float u;
    la_beta_used_s(&c->p, 1, (const float *)beta + bt, &u);
    return u;
  }
}

void la_warn_state_growth(const la_call *c, const void *S)
{
  const la_problem *p = &c->p;
  const void *k = mxGetData(c->k), *v = mxGetData(c->v), *beta = mxGetData(c->beta);
  const ptrdiff_t KV = p->K * p->V, group = p->HV / p->H;
  ptrdiff_t n, hv, t;
  if (!S) return;
  for (n = 0; n < p->N; n++)
    for (hv = 0; hv < p->HV; hv++) {
      const ptrdiff_t b = p->cu_seqlens ? 0 : n;
      const ptrdiff_t t0 = p->cu_seqlens ? (ptrdiff_t)p->cu_seqlens[n] : 0;
      const ptrdiff_t t1 = p->cu_seqlens ? (ptrdiff_t)p->cu_seqlens[n + 1] : p->T;
      const ptrdiff_t s0 = KV * (hv + p->HV * n);
      const double got = norm2(c, S, s0, KV);
      double bound = c->h0 ? norm2(c, c->h0, s0, KV) : 0;
      for (t = t0; t < t1; t++) {
        const ptrdiff_t bt = t + p->T * (hv + p->HV * b);
        const double kn = p->qk_l2norm ? 1 : norm2(c, k, p->K * (t + p->T * (hv / group + p->H * b)), p->K);
        bound += fabs(beta_used(c, beta, bt)) * kn * norm2(c, v, p->V * bt, p->V);
      }
      /* inputs with Inf or NaN propagate them by contract: nothing to warn of */
      if (isfinite(bound) && !(got <= LA_GROWTH_FACTOR * bound) && got != 0) { /* NaN too */
        char norm[48];
        if (isfinite(got)) snprintf(norm, sizeof norm, "grew to norm %.3g", got);
        else snprintf(norm, sizeof norm, "is not finite");
        la_warn(c, "stateGrowth", "the state of sequence %td, head %td %s, past "
                "%g times the %.3g that a contractive recurrence reaches from these inputs "
                "(gates g <= 0 and beta ||k||^2 in [0, 2]); with unnormalised keys pass "
                "'UseQKL2Norm', true; the results lose precision as the state grows",
                n + 1, hv + 1, norm, LA_GROWTH_FACTOR, bound);
        return; /* once per call */
      }
    }
}
