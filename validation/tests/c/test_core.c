/*
 * test_core.c -- the C test program of the core library (no Octave).
 *
 *   build/test_core            every case
 *   build/test_core --quick    a small subset that still goes through every
 *                              code path (seconds; make test runs every case,
 *                              plain and under ASan + UBSan)
 *
 * What is checked, case by case (one line each, PASS / FAIL):
 *   fwd      la_recurrent_fwd_d / _s against a naive double reference written
 *            here straight from docs/recurrence.md (plain loops, every transform)
 *   grad     la_recurrent_bwd_d against central finite differences (5-point
 *            stencil, random directions) of L = sum(Wo.*o) + sum(Ws.*S_T)
 *            evaluated with the reference forward, for checkpoint intervals
 *            1, 3 and > T; every gradient: dq dk dv dg dbeta dh0 (and dA_log,
 *            ddt_bias with gate_in_kernel)
 *   bwd_s    la_recurrent_bwd_s against la_recurrent_bwd_d
 *   chunk    la_chunk_fwd_* / la_chunk_bwd_* against the recurrent results for
 *            chunk sizes 1, 7, 16, 64 with T not a multiple of them, plus the
 *            'Intermediates' quantities of docs/api.md.
 *   fused    the chunked forward's transforms chunk by chunk (no aux) give
 *            the bits of transforming the whole call first (with aux)
 *   form     the chunked paths' two forms of v_new, direct A (v - KG S) and
 *            WY u - w S (tuning wy_form, 'Emulate'), agree to rounding: o, ht,
 *            every gradient, every intermediate of forward and backward; the
 *            forward's aux w, u are the same bits from either
 *   engine   the small-GEMM engine (libxsmm, where built with it) against
 *            BLAS: every product form, and a chunked forward + backward in
 *            double to 1e-13 (test_engine.inc.c)
 *   nan      NaN / Inf inside the data propagate to the outputs (no crash)
 *   misc     NULL ht / dht / dh0 (not wanted / zero), T = 0
 *   check    every refusal of la_problem_check, its defaults and chunk
 *            clipping; every entry point answers LA_EARG to a bad problem
 *   size     la_alloc refuses empty and overflowing counts; huge problems
 *            (extents up to 2^40, sizes that overflow) give LA_ENOMEM or
 *            LA_EARG from every entry point, touching no data
 *   intr     an interrupt callback that fires at the n-th poll stops every
 *            entry point with LA_EINTR (nothing leaks: ASan), and the next
 *            call gives the same result as before, bit for bit
 *   pool     the workspaces kept across calls (la_pool.c): small, big, small
 *            calls, a NaN-filled pool, a pool held by another thread, four
 *            concurrent callers: each bit for bit its fresh call; the size
 *            cap; la_release frees everything (ASan's leak check agrees)
 *   spread   worker placement (la_spread_*, la_platform.c): the caller held
 *            on its CPU and each worker seen in a region pinned to a CPU of
 *            its own for the next region, every mask back after; the tuning's no_spread turns it off; a
 *            parallel call gives the same bits with and without it; after
 *            the calls no thread keeps a pinned mask, also of a team the
 *            runtime created during a call
 *   pipe     the chunked backward's pipelining (H = 1, HV = 3 on two threads:
 *            OpenMP tasks over a ring of workspaces) gives the one-thread
 *            gradients and those without the ring (tuning bwd_no_ring) bit
 *            for bit (double, single, bf16), and stops cleanly when
 *            interrupted
 *   pcbeta, slots   decode as servers run it: per-channel beta, state pools
 *            (test_decode.inc.c says what)
 *   emu      'Emulate' at the chunked entry points, single and double: the
 *            bits of the caller-rounded inputs through the float drivers,
 *            every output (test_emulate.inc.c says what)
 *   sched    the chunked forward's two schedules (per item; in two phases,
 *            tuning fwd_phases) give the same o and ht, bit for bit (double,
 *            single, bf16), and per item (and the backward with items that
 *            divide among the threads) stops cleanly when interrupted;
 *            la_even_part, the plan's even windows
 * Accuracy metric (docs/stability.md): ratio = rms(ref - x) / rms(ref) in double;
 * double results <= 1e-10, single results <= 1e-4.
 *
 * Every output buffer is filled with NaN before a call, so an element the
 * core forgets to write fails the comparison.  The program ends with the
 * line "N passed, N failed" and exits non-zero on any failure.
 */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* sched_getaffinity of another thread, sched_getcpu */
#endif
#include "la_core.h"
#include "la_internal.h" /* la_alloc, la_workspace_ok, la_spread_* */

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define TOL_D 1e-10
#define TOL_S 1e-4
#define TOL_FD 1e-7 /* relative error of a directional derivative */

static int n_pass, n_fail, quick;

/* ---- small utilities ------------------------------------------------------ */

static void *xalloc(ptrdiff_t n, size_t size)
{
  void *p = calloc((size_t)(n > 0 ? n : 1), size);
  if (!p) {
    fprintf(stderr, "test_core: out of memory\n");
    exit(2);
  }
  return p;
}
static double *dalloc(ptrdiff_t n) { return (double *)xalloc(n, sizeof(double)); }
static double *dnan(ptrdiff_t n)
{
  double *p = dalloc(n);
  ptrdiff_t i;
  for (i = 0; i < n; i++) p[i] = NAN;
  return p;
}
static double *dcopy(const double *x, ptrdiff_t n)
{
  double *p;
  if (!x) return NULL;
  p = dalloc(n);
  memcpy(p, x, sizeof(double) * (size_t)(n > 0 ? n : 0));
  return p;
}

/* splitmix64 + Box-Muller: deterministic, same on every machine */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static double urand(void)
{
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return ((double)(z >> 11) + 0.5) / 9007199254740992.0; /* (0, 1) */
}
static double nrand(void)
{
  return sqrt(-2 * log(urand())) * cos(6.283185307179586 * urand());
}
static double fround(double x) { return (double)(float)x; }

static double rms(const double *x, ptrdiff_t n)
{
  double s = 0;
  ptrdiff_t i;
  for (i = 0; i < n; i++) s += x[i] * x[i];
  return n > 0 ? sqrt(s / (double)n) : 0;
}

/* rms(ref - x) / rms(ref); 0 when both are all zero (or empty); NaN or Inf
 * anywhere gives Inf, i.e. a failure. */
static double ratio(const double *ref, const double *x, ptrdiff_t n)
{
  double se = 0, sr = 0;
  ptrdiff_t i;
  for (i = 0; i < n; i++) {
    const double d = ref[i] - x[i];
    if (!isfinite(ref[i]) || !isfinite(x[i])) return INFINITY;
    se += d * d;
    sr += ref[i] * ref[i];
  }
  if (sr == 0) return se == 0 ? 0 : INFINITY;
  return sqrt(se / sr);
}

static void report(int ok, const char *fmt, ...)
{
  va_list ap;
  if (ok) n_pass++;
  else n_fail++;
  printf("%s  ", ok ? "PASS" : "FAIL");
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  printf("\n");
  fflush(stdout);
}

/* ---- a test configuration ------------------------------------------------- */

enum { GATE_MILD, GATE_STRONG, GATE_MIXED };

typedef struct {
  const char *name;
  int kda;
  ptrdiff_t K, V, T, H, HV, B;
  int ncu;            /* 0: no cu_seqlens; else number of offsets */
  int64_t cu[12];
  double scale;       /* 0: default 1/sqrt(K) */
  int l2, gik, dtb, lb, bsig, neg, vk, h0, gate;
  int in_quick;
  int full_size;      /* 1: --quick keeps K and V (shrink) */
} tcfg;

/* Inputs in double (every value exactly representable in float, so the
 * single and double entry points see the same numbers). */
typedef struct {
  double *q, *k, *v, *g, *beta, *A_log, *dt_bias, *h0;
} tin;

typedef struct {
  double *dq, *dk, *dv, *dg, *dbeta, *dh0, *dA_log, *ddt_bias;
} tgrad;

typedef struct {
  la_problem p;
  ptrdiff_t nq, nv, ng, nb, ns, nal, ndb; /* element counts */
  tin in;
  double *Wo, *Ws; /* loss weights: dout and dht */
} tprob;

static void make_problem(const tcfg *c, tprob *P)
{
  la_problem *p = &P->p;
  ptrdiff_t i, GD;
  memset(P, 0, sizeof *P);
  p->K = c->K; p->V = c->V; p->T = c->T; p->H = c->H; p->HV = c->HV; p->B = c->B;
  p->N = c->ncu ? c->ncu - 1 : c->B;
  p->cu_seqlens = c->ncu ? c->cu : NULL;
  p->kda = c->kda;
  p->scale = c->scale > 0 ? c->scale : 1 / sqrt((double)c->K);
  p->qk_l2norm = c->l2;
  p->gate_in_kernel = c->gik;
  p->has_lower_bound = c->lb;
  p->lower_bound = c->lb ? -5.0 : 0;
  p->beta_sigmoid = c->bsig;
  p->allow_neg_eigval = c->neg;
  p->state_vk = c->vk;
  p->chunk = LA_DEFAULT_CHUNK;
  GD = c->kda ? c->K : 1;
  P->nq = p->K * p->T * p->H * p->B;
  P->nv = p->V * p->T * p->HV * p->B;
  P->ng = GD * p->T * p->HV * p->B;
  P->nb = p->T * p->HV * p->B;
  P->ns = p->K * p->V * p->HV * p->N;
  P->nal = p->HV;
  P->ndb = GD * p->HV;

  P->in.q = dalloc(P->nq);
  P->in.k = dalloc(P->nq);
  P->in.v = dalloc(P->nv);
  P->in.g = dalloc(P->ng);
  P->in.beta = dalloc(P->nb);
  for (i = 0; i < P->nq; i++) P->in.q[i] = fround(nrand());
  for (i = 0; i < P->nq; i++) P->in.k[i] = fround(nrand() / sqrt((double)p->K));
  for (i = 0; i < P->nv; i++) P->in.v[i] = fround(nrand());
  for (i = 0; i < P->ng; i++) {
    double x;
    if (c->gik) {
      /* raw gate: softplus(x) ~ 0.2..2, or ~30 for the strong case */
      x = c->gate == GATE_STRONG || (c->gate == GATE_MIXED && urand() < 0.3) ? 30 + nrand()
                                                                              : nrand();
    } else {
      x = c->gate == GATE_STRONG || (c->gate == GATE_MIXED && urand() < 0.3)
              ? -30
              : -(0.01 + 0.6 * urand());
    }
    P->in.g[i] = fround(x);
  }
  for (i = 0; i < P->nb; i++)
    P->in.beta[i] = fround(c->bsig ? 1.5 * nrand() : 0.1 + 0.8 * urand());
  if (c->gik) {
    P->in.A_log = dalloc(P->nal);
    for (i = 0; i < P->nal; i++) P->in.A_log[i] = fround(-1 + 1.5 * urand());
    if (c->dtb) {
      P->in.dt_bias = dalloc(P->ndb);
      for (i = 0; i < P->ndb; i++) P->in.dt_bias[i] = fround(0.5 * nrand());
    }
  }
  if (c->h0) {
    P->in.h0 = dalloc(P->ns);
    for (i = 0; i < P->ns; i++) P->in.h0[i] = fround(0.5 * nrand());
  }
  P->Wo = dalloc(P->nv);
  P->Ws = dalloc(P->ns);
  for (i = 0; i < P->nv; i++) P->Wo[i] = fround(nrand());
  for (i = 0; i < P->ns; i++) P->Ws[i] = fround(nrand());
}

static void free_in(tin *in)
{
  free(in->q); free(in->k); free(in->v); free(in->g); free(in->beta);
  free(in->A_log); free(in->dt_bias); free(in->h0);
  memset(in, 0, sizeof *in);
}
static void free_problem(tprob *P)
{
  free_in(&P->in);
  free(P->Wo);
  free(P->Ws);
}
static void free_grad(tgrad *G)
{
  free(G->dq); free(G->dk); free(G->dv); free(G->dg); free(G->dbeta);
  free(G->dh0); free(G->dA_log); free(G->ddt_bias);
  memset(G, 0, sizeof *G);
}

/* ---- the naive reference (docs/recurrence.md, plain loops, double) -------------
 * o, ht: outputs (ht in the state layout, may be NULL).  Optional extras for
 * the chunk intermediates: Sin (state entering each step, K x V x T x HV x B)
 * and gu (used gate, gate layout), uu (used beta, T x HV x B). */
static void ref_fwd(const la_problem *p, const tin *in, double *o, double *ht, double *Sin,
                    double *gu, double *bu_out)
{
  const ptrdiff_t K = p->K, V = p->V, T = p->T, H = p->H, HV = p->HV, KV = K * V;
  const ptrdiff_t G = HV / H;
  double *S = dalloc(KV), *qt = dalloc(K), *kt = dalloc(K), *a = dalloc(K), *r = dalloc(V);
  ptrdiff_t n, hv, t, i, j;

  for (n = 0; n < p->N; n++) {
    const ptrdiff_t b = p->cu_seqlens ? 0 : n;
    const ptrdiff_t t0 = p->cu_seqlens ? (ptrdiff_t)p->cu_seqlens[n] : 0;
    const ptrdiff_t t1 = p->cu_seqlens ? (ptrdiff_t)p->cu_seqlens[n + 1] : T;
    for (hv = 0; hv < HV; hv++) {
      const ptrdiff_t h = hv / G;                   /* qk head of this value head */
      const double *S0 = in->h0 ? in->h0 + KV * (hv + HV * n) : NULL;
      for (i = 0; i < K; i++)
        for (j = 0; j < V; j++)
          S[i + K * j] = !S0 ? 0 : p->state_vk ? S0[j + V * i] : S0[i + K * j];
      for (t = t0; t < t1; t++) {
        const ptrdiff_t col = t + T * (hv + HV * b); /* step index in v, g, beta */
        double nq = 0, nk = 0, bt;
        for (i = 0; i < K; i++) {
          qt[i] = in->q[i + K * (t + T * (h + H * b))];
          kt[i] = in->k[i + K * (t + T * (h + H * b))];
        }
        if (p->qk_l2norm) {
          for (i = 0; i < K; i++) {
            nq += qt[i] * qt[i];
            nk += kt[i] * kt[i];
          }
          nq = sqrt(nq);
          nk = sqrt(nk);
          for (i = 0; i < K; i++) {
            if (nq > 0) qt[i] /= nq;
            if (nk > 0) kt[i] /= nk;
          }
        }
        for (i = 0; i < K; i++) {
          const ptrdiff_t gi = p->kda ? i + K * col : col;
          double gv = in->g[gi];
          if (p->gate_in_kernel) {
            const double A = exp(in->A_log[hv]);
            const double x =
                gv + (in->dt_bias ? in->dt_bias[p->kda ? i + K * hv : hv] : 0);
            if (p->has_lower_bound)
              gv = p->lower_bound / (1 + exp(-A * x));
            else
              gv = -A * log(1 + exp(x));
          }
          if (gu) gu[gi] = gv;
          a[i] = exp(gv);
        }
        bt = in->beta[col];
        if (p->beta_sigmoid) bt = (p->allow_neg_eigval ? 2.0 : 1.0) / (1 + exp(-bt));
        if (bu_out) bu_out[col] = bt;
        if (Sin) memcpy(Sin + KV * col, S, sizeof(double) * (size_t)KV);
        /* S' = Diag(a) S;  S = S' + beta k (v - S'^T k)^T;  o = S^T (scale q) */
        for (j = 0; j < V; j++)
          for (i = 0; i < K; i++) S[i + K * j] *= a[i];
        for (j = 0; j < V; j++) {
          double pj = 0;
          for (i = 0; i < K; i++) pj += S[i + K * j] * kt[i];
          r[j] = in->v[j + V * col] - pj;
        }
        for (j = 0; j < V; j++)
          for (i = 0; i < K; i++) S[i + K * j] += bt * kt[i] * r[j];
        for (j = 0; j < V; j++) {
          double oj = 0;
          for (i = 0; i < K; i++) oj += S[i + K * j] * (p->scale * qt[i]);
          o[j + V * col] = oj;
        }
      }
      if (ht) {
        double *Sn = ht + KV * (hv + HV * n);
        for (i = 0; i < K; i++)
          for (j = 0; j < V; j++)
            if (p->state_vk) Sn[j + V * i] = S[i + K * j];
            else Sn[i + K * j] = S[i + K * j];
      }
    }
  }
  free(S); free(qt); free(kt); free(a); free(r);
}

/* L = sum(Wo.*o) + sum(Ws.*S_T); *mag (if not NULL) = the same sum of |terms|,
 * the scale of the rounding error of L */
static double loss(const tprob *P, const tin *in, double *mag)
{
  double *o = dalloc(P->nv), *ht = dalloc(P->ns), L = 0, M = 0;
  ptrdiff_t i;
  ref_fwd(&P->p, in, o, ht, NULL, NULL, NULL);
  for (i = 0; i < P->nv; i++) {
    L += P->Wo[i] * o[i];
    M += fabs(P->Wo[i] * o[i]);
  }
  for (i = 0; i < P->ns; i++) {
    L += P->Ws[i] * ht[i];
    M += fabs(P->Ws[i] * ht[i]);
  }
  if (mag) *mag = M;
  free(o);
  free(ht);
  return L;
}

/* ---- calling the core in either class ---------------------------------------- */

static void *to_class(const double *x, ptrdiff_t n, int dbl)
{
  ptrdiff_t i;
  if (!x) return NULL;
  if (dbl) return dcopy(x, n);
  {
    float *f = (float *)xalloc(n, sizeof(float));
    for (i = 0; i < n; i++) f[i] = (float)x[i];
    return f;
  }
}
static void *nan_class(ptrdiff_t n, int dbl)
{
  ptrdiff_t i;
  if (dbl) return dnan(n);
  {
    float *f = (float *)xalloc(n, sizeof(float));
    for (i = 0; i < n; i++) f[i] = NAN;
    return f;
  }
}
/* copy back to double and free the class buffer */
static double *from_class(void *x, ptrdiff_t n, int dbl)
{
  ptrdiff_t i;
  double *d;
  if (!x) return NULL;
  if (dbl) return (double *)x;
  d = dalloc(n);
  for (i = 0; i < n; i++) d[i] = ((float *)x)[i];
  free(x);
  return d;
}

typedef struct {
  void *q, *k, *v, *g, *beta, *A_log, *dt_bias, *h0;
} cin;

static void cin_make(const tprob *P, const tin *in, int dbl, cin *c)
{
  c->q = to_class(in->q, P->nq, dbl);
  c->k = to_class(in->k, P->nq, dbl);
  c->v = to_class(in->v, P->nv, dbl);
  c->g = to_class(in->g, P->ng, dbl);
  c->beta = to_class(in->beta, P->nb, dbl);
  c->A_log = to_class(in->A_log, P->nal, dbl);
  c->dt_bias = to_class(in->dt_bias, P->ndb, dbl);
  c->h0 = to_class(in->h0, P->ns, dbl);
}
static void cin_free(cin *c)
{
  free(c->q); free(c->k); free(c->v); free(c->g); free(c->beta);
  free(c->A_log); free(c->dt_bias); free(c->h0);
}

/* path: 0 recurrent, 1 chunked.  want_ht 0: ht not requested (NULL). */
/* The intermediates core_fwd asks for (chunked path), NULL: none; set only
 * by test_fused_transforms. */
static const la_chunk_aux *core_fwd_aux;

static int core_fwd(const la_problem *p, const tprob *P, const tin *in, int dbl, int path,
                    int want_ht, double **o, double **ht)
{
  cin c;
  la_fwd_io io;
  int rc;
  cin_make(P, in, dbl, &c);
  memset(&io, 0, sizeof io);
  io.q = c.q; io.k = c.k; io.v = c.v; io.g = c.g; io.beta = c.beta;
  io.A_log = c.A_log; io.dt_bias = c.dt_bias; io.h0 = c.h0;
  io.o = nan_class(P->nv, dbl);
  io.ht = want_ht ? nan_class(P->ns, dbl) : NULL;
  if (path == 0)
    rc = dbl ? la_recurrent_fwd_d(p, &io) : la_recurrent_fwd_s(p, &io);
  else
    rc = dbl ? la_chunk_fwd_d(p, &io, core_fwd_aux) : la_chunk_fwd_s(p, &io, core_fwd_aux);
  *o = from_class(io.o, P->nv, dbl);
  *ht = from_class(io.ht, P->ns, dbl);
  cin_free(&c);
  return rc;
}

/* The chunked forward with the tuning switch `tune` (la_tune: "fwd_phases",
 * "wy_form") set to on, and the intermediates aux (NULL: none); the switch
 * is 0 again after. */
static int core_fwd_tuned(const la_problem *p, const tprob *P, int dbl, const char *tune, int on,
                          const la_chunk_aux *aux, double **o, double **ht)
{
  int rc;
  la_tune(tune, on);
  core_fwd_aux = aux;
  rc = core_fwd(p, P, &P->in, dbl, 1, 1, o, ht);
  core_fwd_aux = NULL;
  la_tune(tune, 0);
  return rc;
}

/* The backward intermediates core_bwd asks for (chunked path), NULL: none;
 * set only by chunk_bwd_aux_check. */
static const la_chunk_bwd_aux *core_bwd_aux;

/* want: bit 0 dht given (else NULL), bit 1 dh0 wanted (else NULL) */
static int core_bwd(const la_problem *p, const tprob *P, const tin *in, int dbl, int path,
                    int want, tgrad *G)
{
  cin c;
  la_bwd_io io;
  int rc;
  void *dout, *dht;
  cin_make(P, in, dbl, &c);
  dout = to_class(P->Wo, P->nv, dbl);
  dht = (want & 1) ? to_class(P->Ws, P->ns, dbl) : NULL;
  memset(&io, 0, sizeof io);
  io.q = c.q; io.k = c.k; io.v = c.v; io.g = c.g; io.beta = c.beta;
  io.A_log = c.A_log; io.dt_bias = c.dt_bias; io.h0 = c.h0;
  io.dout = dout;
  io.dht = dht;
  io.dq = nan_class(P->nq, dbl);
  io.dk = nan_class(P->nq, dbl);
  io.dv = nan_class(P->nv, dbl);
  io.dg = nan_class(P->ng, dbl);
  io.dbeta = nan_class(P->nb, dbl);
  io.dh0 = (want & 2) ? nan_class(P->ns, dbl) : NULL;
  io.dA_log = p->gate_in_kernel ? nan_class(P->nal, dbl) : NULL;
  io.ddt_bias = p->gate_in_kernel ? nan_class(P->ndb, dbl) : NULL;
  io.aux = core_bwd_aux;
  if (path == 0)
    rc = dbl ? la_recurrent_bwd_d(p, &io) : la_recurrent_bwd_s(p, &io);
  else
    rc = dbl ? la_chunk_bwd_d(p, &io) : la_chunk_bwd_s(p, &io);
  G->dq = from_class(io.dq, P->nq, dbl);
  G->dk = from_class(io.dk, P->nq, dbl);
  G->dv = from_class(io.dv, P->nv, dbl);
  G->dg = from_class(io.dg, P->ng, dbl);
  G->dbeta = from_class(io.dbeta, P->nb, dbl);
  G->dh0 = from_class(io.dh0, P->ns, dbl);
  G->dA_log = from_class(io.dA_log, P->nal, dbl);
  G->ddt_bias = from_class(io.ddt_bias, P->ndb, dbl);
  free(dout);
  free(dht);
  cin_free(&c);
  return rc;
}

/* The gradients as a list: name, computed array, input it belongs to, size. */
#define NGRAD 8
static const char *const grad_names[NGRAD] = {"dq", "dk", "dv", "dg", "dbeta", "dh0", "dA_log",
                                              "ddt_bias"};
static double *grad_at(const tgrad *G, int i)
{
  double *const a[NGRAD] = {G->dq, G->dk, G->dv, G->dg, G->dbeta, G->dh0, G->dA_log, G->ddt_bias};
  return a[i];
}
static double **input_at(tin *in, int i)
{
  double **const a[NGRAD] = {&in->q, &in->k, &in->v, &in->g, &in->beta, &in->h0, &in->A_log,
                             &in->dt_bias};
  return a[i];
}
static ptrdiff_t grad_len(const tprob *P, int i)
{
  const ptrdiff_t a[NGRAD] = {P->nq, P->nq, P->nv, P->ng, P->nb, P->ns, P->nal, P->ndb};
  return a[i];
}
/* is gradient i produced for this problem? (dh0 always: zero h0 is an input) */
static int grad_exists(const tprob *P, int i)
{
  if (i >= 6) return P->p.gate_in_kernel;
  return 1;
}

/* ratio of every gradient of X against R; worst into *worst, names the worst */
static double grad_ratio(const tprob *P, const tgrad *R, const tgrad *X, const char **wname)
{
  double worst = 0;
  int i;
  *wname = "-";
  for (i = 0; i < NGRAD; i++) {
    double r;
    if (!grad_exists(P, i)) continue;
    r = ratio(grad_at(R, i), grad_at(X, i), grad_len(P, i));
    if (!(r <= worst)) {
      worst = r;
      *wname = grad_names[i];
    }
  }
  return worst;
}

static const char *cls(int dbl) { return dbl ? "d" : "s"; }

/* ---- forward vs reference --------------------------------------------------- */

static void test_fwd(const tcfg *c, const tprob *P)
{
  double *o_ref = dalloc(P->nv), *ht_ref = dalloc(P->ns);
  int dbl;
  ref_fwd(&P->p, &P->in, o_ref, ht_ref, NULL, NULL, NULL);
  for (dbl = 1; dbl >= 0; dbl--) {
    double *o, *ht, r1, r2, tol = dbl ? TOL_D : TOL_S;
    int rc = core_fwd(&P->p, P, &P->in, dbl, 0, 1, &o, &ht);
    r1 = ratio(o_ref, o, P->nv);
    r2 = ratio(ht_ref, ht, P->ns);
    report(rc == LA_OK && r1 <= tol && r2 <= tol,
           "fwd   %-28s recurrent_%s  rc=%d  o %.2e  S %.2e  (tol %.0e)", c->name, cls(dbl), rc,
           r1, r2, tol);
    free(o);
    free(ht);
  }
  free(o_ref);
  free(ht_ref);
}

/* ---- gradients vs finite differences -------------------------------------------
 * For input X and a random direction d: the analytic directional derivative
 * <dL/dX, d> against the 5-point central difference
 *   (-L(X+2hd) + 8 L(X+hd) - 8 L(X-hd) + L(X-2hd)) / (12 h),
 * error O(h^4) + O(eps |L| / h).  The error is taken relative to the size of
 * the derivative, or (when that is small by cancellation) to the typical size
 * of one term, ||g|| ||d|| / sqrt(n); a derivative below what the difference
 * can resolve at all (the rounding noise 1.5/h * 100 eps * sum|terms of L|,
 * e.g. dg with gates of -30 where dL/dg ~ exp(-30)) is compared only to that
 * noise: the value returned is |fd - an| / (den + noise / TOL_FD), to be
 * <= TOL_FD. */
static double fd_dir(const tprob *P, int which, const double *grad, int ndir)
{
  const ptrdiff_t n = grad_len(P, which);
  const double h = 1e-3;
  double worst = 0;
  int dir;
  tin in = P->in;
  double **slot = input_at(&in, which);
  const double *x0 = *slot;
  double *x = dalloc(n), *d = dalloc(n);
  for (dir = 0; dir < ndir; dir++) {
    static const double st[4] = {2, 1, -1, -2}, w[4] = {-1, 8, -8, 1};
    double an = 0, fd = 0, gn = 0, dn = 0, den, err, mag = 0, magmax = 0, noise;
    ptrdiff_t i;
    int s;
    for (i = 0; i < n; i++) d[i] = nrand();
    for (i = 0; i < n; i++) {
      an += grad[i] * d[i];
      gn += grad[i] * grad[i];
      dn += d[i] * d[i];
    }
    *slot = x;
    for (s = 0; s < 4; s++) {
      for (i = 0; i < n; i++) x[i] = (x0 ? x0[i] : 0) + st[s] * h * d[i];
      fd += w[s] * loss(P, &in, &mag);
      if (mag > magmax) magmax = mag;
    }
    *slot = (double *)x0;
    fd /= 12 * h;
    noise = 1.5 / h * 100 * 2.220446049250313e-16 * magmax;
    den = fabs(an);
    if (den < 1e-2 * sqrt(gn * dn / (double)n)) den = 1e-2 * sqrt(gn * dn / (double)n);
    err = fabs(fd - an) / (den + noise / TOL_FD);
    if (!isfinite(an)) err = INFINITY;
    if (!(err <= worst)) worst = err;
  }
  free(x);
  free(d);
  return worst;
}

static void test_grad(const tcfg *c, const tprob *P0)
{
  const ptrdiff_t chunks[3] = {1, 3, c->T + 5};
  tprob P = *P0;
  int ic;
  for (ic = 0; ic < 3; ic++) {
    tgrad Gd, Gs;
    char line[512];
    size_t len = 0;
    int rc, i, ok = 1;
    const char *wn;
    double rs;
    P.p.chunk = chunks[ic];
    memset(&Gd, 0, sizeof Gd);
    memset(&Gs, 0, sizeof Gs);
    /* dh0 is checked against a perturbation of h0: it must exist as an input */
    rc = core_bwd(&P.p, &P, &P.in, 1, 0, 3, &Gd);
    line[0] = 0;
    for (i = 0; i < NGRAD && rc == LA_OK; i++) {
      double e;
      if (!grad_exists(&P, i)) continue;
      if (i == 5 && !P.in.h0) {
        /* h0 not given: perturb a zero initial state */
        tprob Q = P;
        double *z = dalloc(P.ns);
        Q.in.h0 = z;
        e = fd_dir(&Q, 5, Gd.dh0, quick ? 1 : 2);
        free(z);
      } else if (i == 7 && !P.in.dt_bias) {
        tprob Q = P;
        double *z = dalloc(P.ndb);
        Q.in.dt_bias = z;
        e = fd_dir(&Q, 7, Gd.ddt_bias, quick ? 1 : 2);
        free(z);
      } else {
        e = fd_dir(&P, i, grad_at(&Gd, i), quick ? 1 : 2);
      }
      if (!(e <= TOL_FD)) ok = 0;
      len += (size_t)snprintf(line + len, sizeof line - len, " %s %.0e", grad_names[i], e);
    }
    report(rc == LA_OK && ok, "grad  %-28s recurrent_bwd_d chunk=%-3ld rc=%d FD:%s (tol %.0e)",
           c->name, (long)chunks[ic], rc, line, TOL_FD);

    rc = core_bwd(&P.p, &P, &P.in, 0, 0, 3, &Gs);
    rs = grad_ratio(&P, &Gd, &Gs, &wn);
    report(rc == LA_OK && rs <= TOL_S,
           "bwd_s %-28s recurrent_bwd_s chunk=%-3ld rc=%d vs _d: worst %s %.2e (tol %.0e)",
           c->name, (long)chunks[ic], rc, wn, rs, TOL_S);
    free_grad(&Gd);
    free_grad(&Gs);
  }
}

/* ---- chunked vs recurrent ------------------------------------------------------ */

/* The 'Intermediates' of docs/api.md, against the reference: chunk table,
 * cumulative gate G, chunk states h, v_new = delta = beta (v - S'^T k), and
 * A_raw, A, w, u related by A = (I + A_raw)^{-1} diag(beta), w = A (exp(G).*k),
 * u = A v, delta = u - w S_0 (checked through those identities).  Returns the
 * worst ratio, or -1 when the entry point is not written yet. */
static double chunk_aux_check(const tprob *P, int dbl, char *what, size_t nwhat)
{
  const la_problem *p = &P->p;
  const ptrdiff_t K = p->K, V = p->V, T = p->T, HV = p->HV, B = p->B, C = p->chunk, KV = K * V;
  const ptrdiff_t GD = p->kda ? K : 1, NC = la_chunk_count(p);
  const ptrdiff_t ncx = C * T * HV * B, nw = K * T * HV * B;
  la_chunk_aux aux;
  la_fwd_io io;
  cin c;
  double *Sin = dalloc(KV * T * HV * B), *gu = dalloc(P->ng), *bu = dalloc(P->nb);
  double *o_ref = dalloc(P->nv), *kn = NULL;
  double *G, *Araw, *A, *w, *u, *h, *vnew;
  double worst = 0, r;
  ptrdiff_t ci, n, hv, i, j, x;
  int rc;

  ref_fwd(p, &P->in, o_ref, NULL, Sin, gu, bu);
  /* used k (l2norm) for the checks below */
  kn = dcopy(P->in.k, P->nq);
  if (p->qk_l2norm)
    for (x = 0; x < P->nq / K; x++) {
      double s = 0;
      for (i = 0; i < K; i++) s += kn[i + K * x] * kn[i + K * x];
      s = sqrt(s);
      for (i = 0; i < K && s > 0; i++) kn[i + K * x] /= s;
    }

  cin_make(P, &P->in, dbl, &c);
  memset(&io, 0, sizeof io);
  io.q = c.q; io.k = c.k; io.v = c.v; io.g = c.g; io.beta = c.beta;
  io.A_log = c.A_log; io.dt_bias = c.dt_bias; io.h0 = c.h0;
  io.o = nan_class(P->nv, dbl);
  io.ht = nan_class(P->ns, dbl);
  memset(&aux, 0, sizeof aux);
  aux.G = nan_class(P->ng, dbl);
  aux.A_raw = nan_class(ncx, dbl);
  aux.A = nan_class(ncx, dbl);
  aux.Aqk = nan_class(ncx, dbl);
  aux.w = nan_class(nw, dbl);
  aux.u = nan_class(P->nv, dbl);
  aux.v_new = nan_class(P->nv, dbl);
  aux.h = nan_class(KV * HV * NC, dbl);
  aux.chunk_seq = (int64_t *)xalloc(NC, sizeof(int64_t));
  aux.chunk_t0 = (int64_t *)xalloc(NC, sizeof(int64_t));
  aux.chunk_len = (int64_t *)xalloc(NC, sizeof(int64_t));
  for (i = 0; i < NC; i++) aux.chunk_seq[i] = aux.chunk_t0[i] = aux.chunk_len[i] = -1;
  rc = dbl ? la_chunk_fwd_d(p, &io, &aux) : la_chunk_fwd_s(p, &io, &aux);
  free(io.o);
  free(io.ht);
  free(aux.Aqk); /* its scale convention is the chunk code's own: not checked */
  G = from_class(aux.G, P->ng, dbl);
  Araw = from_class(aux.A_raw, ncx, dbl);
  A = from_class(aux.A, ncx, dbl);
  w = from_class(aux.w, nw, dbl);
  u = from_class(aux.u, P->nv, dbl);
  vnew = from_class(aux.v_new, P->nv, dbl);
  h = from_class(aux.h, KV * HV * NC, dbl);
  cin_free(&c);
  if (rc != LA_OK) {
    worst = INFINITY;
    snprintf(what, nwhat, "rc=%d", rc);
    goto done;
  }
  /* chunk table: sequence by sequence, consecutive chunks of C steps */
  ci = 0;
  for (n = 0; n < p->N; n++) {
    const ptrdiff_t t0 = p->cu_seqlens ? (ptrdiff_t)p->cu_seqlens[n] : 0;
    const ptrdiff_t t1 = p->cu_seqlens ? (ptrdiff_t)p->cu_seqlens[n + 1] : T;
    ptrdiff_t s;
    for (s = t0; s < t1; s += C, ci++) {
      const ptrdiff_t len = t1 - s < C ? t1 - s : C;
      if (ci >= NC || aux.chunk_seq[ci] != n || aux.chunk_t0[ci] != s ||
          aux.chunk_len[ci] != len) {
        worst = INFINITY;
        snprintf(what, nwhat, "chunk table wrong at chunk %ld", (long)ci);
        goto done;
      }
    }
  }
  /* per chunk and value head: build the reference quantities */
  {
    double *Gr = dalloc(P->ng), *hr = dalloc(KV * HV * NC), *vr = dalloc(P->nv);
    double *e1 = dalloc(ncx), *e2 = dalloc(nw), *e3 = dalloc(P->nv), *e4 = dalloc(P->nv);
    double *z1 = dalloc(ncx), *z2 = dalloc(nw), *z3 = dalloc(P->nv), *z4 = dalloc(P->nv);
    double worstA = 0;
    (void)z1;
    for (ci = 0; ci < NC; ci++) {
      const ptrdiff_t nn = aux.chunk_seq[ci], s0 = aux.chunk_t0[ci], len = aux.chunk_len[ci];
      const ptrdiff_t b = p->cu_seqlens ? 0 : nn;
      for (hv = 0; hv < HV; hv++) {
        const ptrdiff_t hq = hv / (HV / p->H);
        const ptrdiff_t cb = s0 + T * (hv + HV * b); /* column of the first step */
        ptrdiff_t r_, c_;
        /* G: cumulative used gate */
        for (i = 0; i < GD; i++) {
          double acc = 0;
          for (r_ = 0; r_ < len; r_++) {
            acc += gu[i + GD * (cb + r_)];
            Gr[i + GD * (cb + r_)] = acc;
          }
        }
        /* h: the state entering the chunk (K x V) */
        memcpy(hr + KV * (hv + HV * ci), Sin + KV * cb, sizeof(double) * (size_t)KV);
        /* delta_r = beta_r (v_r - S'_r^T k_r), S'_r = Diag(a_r) S_{r-1} */
        for (r_ = 0; r_ < len; r_++) {
          const double *Sp = Sin + KV * (cb + r_);
          const double *kr = kn + K * (s0 + r_ + T * (hq + p->H * b));
          for (j = 0; j < V; j++) {
            double pj = 0;
            for (i = 0; i < K; i++)
              pj += exp(gu[(p->kda ? i : 0) + GD * (cb + r_)]) * Sp[i + K * j] * kr[i];
            vr[j + V * (cb + r_)] = bu[cb + r_] * (P->in.v[j + V * (cb + r_)] - pj);
          }
        }
        /* identities: (I + A_raw) A = diag(beta) (lower part, rows of the chunk);
         * A_raw[r,c] = beta_r k_r' diag(exp(G_r - G_c)) k_c for c < r, 0 else;
         * w_r = sum_c A[r,c] exp(G_c) .* k_c;  u_r = sum_c A[r,c] v_c;
         * v_new = u - w S_0 */
        for (r_ = 0; r_ < len; r_++) {
          const ptrdiff_t colr = cb + r_;
          const double *kr = kn + K * (s0 + r_ + T * (hq + p->H * b));
          for (c_ = 0; c_ < C; c_++) {
            double ref_raw = 0, lhs = 0;
            ptrdiff_t m;
            if (c_ < r_) {
              const double *kc = kn + K * (s0 + c_ + T * (hq + p->H * b));
              for (i = 0; i < K; i++) {
                const ptrdiff_t gi = p->kda ? i : 0;
                ref_raw += kr[i] * kc[i] *
                           exp(Gr[gi + GD * colr] - Gr[gi + GD * (cb + c_)]);
              }
              ref_raw *= bu[colr];
            }
            e1[c_ + C * colr] = ref_raw;
            /* ((I + A_raw) A)[r, c] - beta_r delta_rc, using the core's A_raw, A */
            if (c_ < len) {
              lhs = A[c_ + C * colr];
              for (m = 0; m < len; m++) lhs += Araw[m + C * colr] * A[c_ + C * (cb + m)];
              lhs -= (c_ == r_) ? bu[colr] : 0;
            } else {
              lhs = A[c_ + C * colr]; /* past the chunk: zero */
            }
            if (fabs(lhs) > worstA) worstA = fabs(lhs);
          }
          for (i = 0; i < K; i++) {
            double acc = 0;
            ptrdiff_t m;
            for (m = 0; m < len; m++) {
              const double *km = kn + K * (s0 + m + T * (hq + p->H * b));
              acc += A[m + C * colr] * exp(Gr[(p->kda ? i : 0) + GD * (cb + m)]) * km[i];
            }
            e2[i + K * colr] = acc;
            z2[i + K * colr] = w[i + K * colr];
          }
          for (j = 0; j < V; j++) {
            double acc = 0, ws = 0;
            ptrdiff_t m;
            const double *S0 = hr + KV * (hv + HV * ci);
            for (m = 0; m < len; m++) acc += A[m + C * colr] * P->in.v[j + V * (cb + m)];
            e3[j + V * colr] = acc;
            z3[j + V * colr] = u[j + V * colr];
            for (i = 0; i < K; i++) ws += w[i + K * colr] * S0[i + K * j];
            e4[j + V * colr] = vr[j + V * colr];
            z4[j + V * colr] = u[j + V * colr] - ws;
          }
        }
      }
    }
    r = ratio(Gr, G, P->ng);
    if (!(r <= worst)) { worst = r; snprintf(what, nwhat, "G %.1e", r); }
    r = ratio(hr, h, KV * HV * NC);
    if (!(r <= worst)) { worst = r; snprintf(what, nwhat, "h %.1e", r); }
    r = ratio(vr, vnew, P->nv);
    if (!(r <= worst)) { worst = r; snprintf(what, nwhat, "v_new %.1e", r); }
    r = ratio(e1, Araw, ncx);
    if (!(r <= worst)) { worst = r; snprintf(what, nwhat, "A_raw %.1e", r); }
    r = worstA / (rms(bu, P->nb) > 0 ? rms(bu, P->nb) : 1);
    if (!(r <= worst)) { worst = r; snprintf(what, nwhat, "(I+A_raw)A-diag(beta) %.1e", r); }
    r = ratio(e2, z2, nw);
    if (!(r <= worst)) { worst = r; snprintf(what, nwhat, "w %.1e", r); }
    r = ratio(e3, z3, P->nv);
    if (!(r <= worst)) { worst = r; snprintf(what, nwhat, "u %.1e", r); }
    r = ratio(e4, z4, P->nv);
    if (!(r <= worst)) { worst = r; snprintf(what, nwhat, "u-wS0 %.1e", r); }
    if (what[0] == 0) snprintf(what, nwhat, "all %.1e", worst);
    free(Gr); free(hr); free(vr); free(e1); free(e2); free(e3); free(e4);
    free(z1); free(z2); free(z3); free(z4);
  }
done:
  free(G); free(Araw); free(A); free(w); free(u); free(h); free(vnew);
  free(aux.chunk_seq); free(aux.chunk_t0); free(aux.chunk_len);
  free(Sin); free(gu); free(bu); free(o_ref); free(kn);
  return worst;
}

static int any_nan(const double *x, ptrdiff_t n);

/* One chunk's block of the backward intermediates against what it must be:
 * dh of a sequence's first chunk is dh0 (K x V whatever state_vk); du is
 * dv_new; dAqk lower, dA_raw strictly lower, zero rows past the chunk's
 * length; without GateInKernel the reverse cumulative sum of dG is dg.
 * Returns the dG ratio, or INFINITY with what filled. */
static double bwd_aux_chunk(const tprob *P, const double *const *a, const tgrad *G, ptrdiff_t ci,
                            ptrdiff_t n, ptrdiff_t s0, ptrdiff_t len, char *what, size_t nwhat)
{
  const la_problem *p = &P->p;
  const ptrdiff_t K = p->K, V = p->V, T = p->T, HV = p->HV, C = p->chunk, KV = K * V;
  const ptrdiff_t GD = p->kda ? K : 1, b = p->cu_seqlens ? 0 : n;
  const double *dh = a[0], *dvn = a[1], *du = a[2], *dAqk = a[3], *dAraw = a[4], *dG = a[5];
  double worst = 0;
  ptrdiff_t hv, i, j, x;
  for (hv = 0; hv < HV; hv++) {
    const ptrdiff_t cb = s0 + T * (hv + HV * b); /* column of the chunk's first step */
    const double *dhc = dh + KV * (hv + HV * ci), *dh0 = G->dh0 + KV * (hv + HV * n);
    for (x = 0; x < KV; x++)
      if (s0 == (p->cu_seqlens ? p->cu_seqlens[n] : 0) &&
          dhc[x] != dh0[p->state_vk ? (x / K) + V * (x % K) : x]) {
        snprintf(what, nwhat, "dh of chunk %ld is not dh0", (long)ci);
        return INFINITY;
      }
    for (x = 0; x < V * len; x++)
      if (dvn[V * cb + x] != du[V * cb + x] || dvn[V * cb + x] != dvn[V * cb + x]) {
        snprintf(what, nwhat, "du is not dv_new (chunk %ld)", (long)ci);
        return INFINITY;
      }
    for (i = 0; i < len; i++)
      for (j = 0; j < C; j++)
        if ((j > i || j >= len) ? dAqk[j + C * (cb + i)] != 0 || dAraw[j + C * (cb + i)] != 0
                                : j == i && dAraw[j + C * (cb + i)] != 0) {
          snprintf(what, nwhat, "dAqk / dA_raw not (strictly) lower (chunk %ld)", (long)ci);
          return INFINITY;
        }
    if (!p->gate_in_kernel) {
      double num = 0, den = 0;
      for (x = 0; x < GD; x++) {
        double acc = 0;
        for (i = len - 1; i >= 0; i--) {
          const double ref = G->dg[x + GD * (cb + i)];
          acc += dG[x + GD * (cb + i)];
          num += (acc - ref) * (acc - ref);
          den += ref * ref;
        }
      }
      if (den > 0 && sqrt(num / den) > worst) worst = sqrt(num / den);
    }
  }
  return worst;
}

/* The backward's 'Intermediates' (la_chunk_bwd_aux): asking for them
 * leaves the gradients bit for bit as they are (Gplain: without them);
 * every field written (NaN-filled buffers); the structure of
 * bwd_aux_chunk per chunk.  Returns the worst dG ratio or INFINITY. */
static double chunk_bwd_aux_check(const tprob *P, int dbl, const tgrad *Gplain, char *what,
                                  size_t nwhat)
{
  const la_problem *p = &P->p;
  const ptrdiff_t K = p->K, V = p->V, T = p->T, HV = p->HV, B = p->B, C = p->chunk;
  const ptrdiff_t NC = la_chunk_count(p), ncx = C * T * HV * B, nw = K * T * HV * B;
  const ptrdiff_t len[8] = {K * V * HV * NC, P->nv, P->nv, ncx, ncx, P->ng, ncx, nw};
  la_chunk_bwd_aux aux;
  void **field[8] = {&aux.dh, &aux.dv_new, &aux.du, &aux.dAqk, &aux.dA_raw, &aux.dG, &aux.dA,
                     &aux.dw};
  double *a[8], worst = 0, r;
  const char *wn;
  tgrad G;
  ptrdiff_t n, s, ci = 0;
  int i, rc;

  memset(&aux, 0, sizeof aux);
  for (i = 0; i < 8; i++) *field[i] = nan_class(len[i], dbl);
  memset(&G, 0, sizeof G);
  core_bwd_aux = &aux;
  rc = core_bwd(p, P, &P->in, dbl, 1, 3, &G);
  core_bwd_aux = NULL;
  for (i = 0; i < 8; i++) a[i] = from_class(*field[i], len[i], dbl);
  if (rc != LA_OK || grad_ratio(P, Gplain, &G, &wn) != 0) {
    snprintf(what, nwhat, "rc=%d, or gradients changed (%s)", rc, wn);
    worst = INFINITY;
  }
  for (i = 0; i < 8 && worst == 0; i++)
    if (any_nan(a[i], len[i])) { /* the C x T rows past a chunk's length are zeros */
      snprintf(what, nwhat, "field %d not all written", i);
      worst = INFINITY;
    }
  for (n = 0; n < p->N && worst < INFINITY; n++) {
    const ptrdiff_t t0 = p->cu_seqlens ? (ptrdiff_t)p->cu_seqlens[n] : 0;
    const ptrdiff_t t1 = p->cu_seqlens ? (ptrdiff_t)p->cu_seqlens[n + 1] : T;
    for (s = t0; s < t1 && worst < INFINITY; s += C, ci++) {
      r = bwd_aux_chunk(P, (const double *const *)a, &G, ci, n, s, t1 - s < C ? t1 - s : C, what,
                        nwhat);
      if (r > worst) worst = r;
    }
  }
  if (worst < INFINITY) snprintf(what, nwhat, "dG %.2e", worst);
  for (i = 0; i < 8; i++) free(a[i]);
  free_grad(&G);
  return worst;
}

static void test_chunk(const tcfg *c, const tprob *P0, const ptrdiff_t *sizes, int nsizes,
                       int with_aux)
{
  tprob P = *P0;
  double *o_ref, *ht_ref;
  tgrad Gref;
  int is, dbl, rc;
  /* the recurrent results are the reference (themselves checked above) */
  memset(&Gref, 0, sizeof Gref);
  P.p.chunk = 16;
  rc = core_fwd(&P.p, &P, &P.in, 1, 0, 1, &o_ref, &ht_ref);
  rc |= core_bwd(&P.p, &P, &P.in, 1, 0, 3, &Gref);
  if (rc != LA_OK) {
    report(0, "chunk %-28s recurrent reference failed rc=%d", c->name, rc);
    free(o_ref); free(ht_ref); free_grad(&Gref);
    return;
  }
  for (is = 0; is < nsizes; is++) {
    P.p.chunk = sizes[is];
    for (dbl = 1; dbl >= 0; dbl--) {
      const double tol = dbl ? TOL_D : TOL_S;
      double *o, *ht, r1, r2, rg;
      tgrad G;
      const char *wn;
      rc = core_fwd(&P.p, &P, &P.in, dbl, 1, 1, &o, &ht);
      {
        r1 = ratio(o_ref, o, P.nv);
        r2 = ratio(ht_ref, ht, P.ns);
        report(rc == LA_OK && r1 <= tol && r2 <= tol,
               "chunk %-28s chunk_fwd_%s C=%-3ld rc=%d vs recurrent: o %.2e  S %.2e (tol %.0e)",
               c->name, cls(dbl), (long)sizes[is], rc, r1, r2, tol);
      }
      free(o);
      free(ht);
      memset(&G, 0, sizeof G);
      rc = core_bwd(&P.p, &P, &P.in, dbl, 1, 3, &G);
      {
        rg = grad_ratio(&P, &Gref, &G, &wn);
        report(rc == LA_OK && rg <= tol,
               "chunk %-28s chunk_bwd_%s C=%-3ld rc=%d vs recurrent: worst %s %.2e (tol %.0e)",
               c->name, cls(dbl), (long)sizes[is], rc, wn, rg, tol);
      }
      if (with_aux) {
        char what[160] = "";
        double ra = chunk_bwd_aux_check(&P, dbl, &G, what, sizeof what);
        report(ra <= tol, "aux   %-28s chunk_bwd_%s C=%-3ld intermediates: %s (tol %.0e)",
               c->name, cls(dbl), (long)sizes[is], what, tol);
      }
      free_grad(&G);
      if (with_aux) {
        char what[160] = "";
        double ra = chunk_aux_check(&P, dbl, what, sizeof what);
        report(ra <= tol, "aux   %-28s chunk_fwd_%s C=%-3ld intermediates: worst %s (tol %.0e)",
               c->name, cls(dbl), (long)sizes[is], what, tol);
      }
    }
  }
  free(o_ref);
  free(ht_ref);
  free_grad(&Gref);
}

/* ---- NaN / Inf propagation ------------------------------------------------------ */

static int any_nan(const double *x, ptrdiff_t n)
{
  ptrdiff_t i;
  for (i = 0; i < n; i++)
    if (x[i] != x[i]) return 1;
  return 0;
}
static int all_finite(const double *x, ptrdiff_t n)
{
  ptrdiff_t i;
  for (i = 0; i < n; i++)
    if (!isfinite(x[i])) return 0;
  return 1;
}

/* A NaN in v at (j0, t0, head 0, batch 0): o(j0, t >= t0, 0, 0) and the final
 * state column j0 of that head are NaN, every other head stays finite, and
 * the backward runs and puts NaN into the gradients.  Then Inf in q. */
static void test_nan(const tcfg *c, const tprob *P0)
{
  tprob P = *P0;
  const la_problem *p = &P.p;
  const ptrdiff_t V = p->V, T = p->T, t0 = T / 2, j0 = V - 1;
  double *v = dcopy(P0->in.v, P.nv), *q = dcopy(P0->in.q, P.nq);
  int dbl, path;
  P.in.v = v;
  v[j0 + V * t0] = NAN;
  for (path = 0; path < 2; path++)
    for (dbl = 1; dbl >= 0; dbl--) {
      double *o, *ht;
      tgrad G;
      ptrdiff_t t;
      int ok = 1, rc, rcb;
      rc = core_fwd(p, &P, &P.in, dbl, path, 1, &o, &ht);
      /* recurrent: exactly the steps from t0 on; chunked: a chunk is computed
       * as dense blocks, so the NaN may also reach the earlier steps of its
       * own chunk (documented), never an earlier chunk */
      for (t = t0; t < T; t++) ok &= o[j0 + V * t] != o[j0 + V * t];
      for (t = 0; t < (path ? t0 - t0 % p->chunk : t0); t++) ok &= isfinite(o[j0 + V * t]) != 0;
      ok &= any_nan(ht, p->K * p->V); /* head 0 of sequence 0 */
      ok &= all_finite(o + V * T, P.nv - V * T); /* the other heads / batches */
      memset(&G, 0, sizeof G);
      rcb = core_bwd(p, &P, &P.in, dbl, path, 3, &G);
      /* u_t(j0) is NaN from t0 on: dq (through S_t), dk (through u) and
       * the gradient of the initial state (through dk, dS) become NaN */
      if (rcb == LA_OK) ok &= any_nan(G.dq, P.nq) && any_nan(G.dk, P.nq);
      report(rc == LA_OK && rcb == LA_OK && ok,
             "nan   %-28s %s_%s NaN in v propagates (fwd rc=%d, bwd rc=%d)", c->name,
             path ? "chunk" : "recurrent", cls(dbl), rc, rcb);
      free(o); free(ht); free_grad(&G);
    }
  P.in.v = P0->in.v;
  P.in.q = q;
  q[0 + p->K * t0] = INFINITY;
  for (dbl = 1; dbl >= 0; dbl--) {
    double *o, *ht;
    int rc = core_fwd(p, &P, &P.in, dbl, 0, 1, &o, &ht);
    /* o(:, t0, head 0) = S^T (scale q) with an infinite q: not finite */
    int ok = rc == LA_OK && !all_finite(o + V * t0, V) && all_finite(ht, P.ns) &&
             all_finite(o, V * t0);
    report(ok, "nan   %-28s recurrent_%s Inf in q gives non-finite o at that step only",
           c->name, cls(dbl));
    free(o); free(ht);
  }
  free(v);
  free(q);
}

/* ---- NULL optional outputs / inputs ------------------------------------------- */

static void test_nulls(const tcfg *c, const tprob *P)
{
  int dbl;
  for (dbl = 1; dbl >= 0; dbl--) {
    double *o1, *h1, *o2, *h2;
    tgrad G1, G2;
    int rc, ok;
    const char *wn;
    double r;
    /* ht not wanted */
    rc = core_fwd(&P->p, P, &P->in, dbl, 0, 1, &o1, &h1);
    rc |= core_fwd(&P->p, P, &P->in, dbl, 0, 0, &o2, &h2);
    ok = rc == LA_OK && ratio(o1, o2, P->nv) == 0;
    report(ok, "misc  %-28s recurrent_%s ht = NULL gives the same o", c->name, cls(dbl));
    /* dht NULL == zero dht; dh0 NULL is allowed */
    memset(&G1, 0, sizeof G1);
    memset(&G2, 0, sizeof G2);
    {
      tprob Q = *P;
      double *z = dalloc(P->ns);
      Q.Ws = z;
      rc = core_bwd(&Q.p, &Q, &Q.in, dbl, 0, 3, &G1);
      rc |= core_bwd(&Q.p, &Q, &Q.in, dbl, 0, 0, &G2);
      free(z);
    }
    G2.dh0 = dcopy(G1.dh0, P->ns); /* not produced by the second call */
    r = grad_ratio(P, &G1, &G2, &wn);
    report(rc == LA_OK && r == 0, "misc  %-28s recurrent_bwd_%s dht = NULL equals zero dht, "
                                  "dh0 = NULL allowed (worst %s %.1e)",
           c->name, cls(dbl), wn, r);
    free(o1); free(h1); free(o2); free(h2);
    free_grad(&G1);
    free_grad(&G2);
  }
}

/* T = 0: no step; S_T = S_0, dS_0 = dS_T, every other gradient empty, dA_log
 * and ddt_bias zero. */
static void test_t0(const tcfg *c, const tprob *P)
{
  int dbl, path;
  for (path = 0; path < 2; path++)
    for (dbl = 1; dbl >= 0; dbl--) {
      double *o, *ht;
      tgrad G;
      int rc, rcb, ok;
      rc = core_fwd(&P->p, P, &P->in, dbl, path, 1, &o, &ht);
      memset(&G, 0, sizeof G);
      rcb = core_bwd(&P->p, P, &P->in, dbl, path, 3, &G);
      {
        ok = rc == LA_OK && rcb == LA_OK && ratio(P->in.h0, ht, P->ns) == 0 &&
             ratio(P->Ws, G.dh0, P->ns) == 0;
        if (P->p.gate_in_kernel)
          ok = ok && rms(G.dA_log, P->nal) == 0 && rms(G.ddt_bias, P->ndb) == 0;
        report(ok, "T=0   %-28s %s_%s S_T = S_0, dS_0 = dS_T (rc %d/%d)", c->name,
               path ? "chunk" : "recurrent", cls(dbl), rc, rcb);
      }
      free(o); free(ht); free_grad(&G);
    }
}


/* ---- la_problem_check ------------------------------------------------------ */

/* A valid problem to break one field at a time. */
static la_problem base_problem(void)
{
  la_problem p;
  memset(&p, 0, sizeof p);
  p.K = 8; p.V = 6; p.T = 100; p.H = 2; p.HV = 4; p.B = 2; p.N = 2;
  p.kda = 1;
  p.scale = 0.5;
  return p;
}

static void expect_refusal(const char *what, la_problem p, const char *id)
{
  la_check why;
  int rc;
  memset(&why, 0, sizeof why);
  rc = la_problem_check(&p, &why);
  report(rc == LA_EARG && why.id && !strcmp(why.id, id) && why.text[0],
         "check %-40s refused: rc=%d id=%s (%s)", what, rc, why.id ? why.id : "-", why.text);
}

static void test_problem_check(void)
{
  static const int64_t cu_ok[4] = {0, 5, 30, 100}, cu_start[3] = {1, 5, 100},
                       cu_end[3] = {0, 5, 99}, cu_dec[4] = {0, 30, 20, 100};
  la_problem p = base_problem();
  la_check why;
  int rc;

  p = base_problem(); p.K = 0; expect_refusal("K = 0", p, "badShape");
  p = base_problem(); p.V = -1; expect_refusal("V < 0", p, "badShape");
  p = base_problem(); p.T = -1; expect_refusal("T < 0", p, "badShape");
  p = base_problem(); p.H = 0; expect_refusal("H = 0", p, "badShape");
  p = base_problem(); p.B = 0; expect_refusal("B = 0", p, "badShape");
  p = base_problem(); p.HV = 3; expect_refusal("HV not a multiple of H", p, "badShape");
  p = base_problem(); p.N = 3; expect_refusal("N != B without CuSeqlens", p, "badShape");
  p = base_problem(); p.cu_seqlens = cu_ok; p.N = 3; expect_refusal("CuSeqlens with B = 2", p, "badCuSeqlens");
  p = base_problem(); p.B = 1; p.cu_seqlens = cu_ok; p.N = 0; expect_refusal("CuSeqlens N = 0", p, "badCuSeqlens");
  p = base_problem(); p.B = 1; p.cu_seqlens = cu_start; p.N = 2; expect_refusal("CuSeqlens not from 0", p, "badCuSeqlens");
  p = base_problem(); p.B = 1; p.cu_seqlens = cu_end; p.N = 2; expect_refusal("CuSeqlens not to T", p, "badCuSeqlens");
  p = base_problem(); p.B = 1; p.cu_seqlens = cu_dec; p.N = 3; expect_refusal("CuSeqlens not increasing", p, "badCuSeqlens");
  p = base_problem(); p.K = (ptrdiff_t)1 << 40; p.V = (ptrdiff_t)1 << 21; p.T = 0;
  expect_refusal("K V beyond addressable", p, "outOfMemory");
  p = base_problem(); p.scale = 0; expect_refusal("Scale = 0", p, "badOption");
  p = base_problem(); p.scale = NAN; expect_refusal("Scale NaN", p, "badOption");
  p = base_problem(); p.scale = INFINITY; expect_refusal("Scale Inf", p, "badOption");
  p = base_problem(); p.has_lower_bound = 1; p.lower_bound = 0; expect_refusal("LowerBound 0", p, "badOption");
  p = base_problem(); p.has_lower_bound = 1; p.lower_bound = -INFINITY; expect_refusal("LowerBound -Inf", p, "badOption");
  p = base_problem(); p.chunk = -1; expect_refusal("ChunkSize -1", p, "badOption");
  p = base_problem(); p.l2norm_eps = -1e-6; expect_refusal("L2NormEps < 0", p, "badOption");
  p = base_problem(); p.l2norm_eps = NAN; expect_refusal("L2NormEps NaN", p, "badOption");

  p = base_problem();
  rc = la_problem_check(&p, &why);
  report(rc == LA_OK && p.chunk == LA_DEFAULT_CHUNK, "check chunk 0 becomes LA_DEFAULT_CHUNK (%ld)", (long)p.chunk);
  p = base_problem(); p.chunk = (ptrdiff_t)1 << 31;
  rc = la_problem_check(&p, NULL);
  report(rc == LA_OK && p.chunk == 100, "check chunk 2^31 clipped to T = 100 (%ld)", (long)p.chunk);
  p = base_problem(); p.B = 1; p.N = 3; p.cu_seqlens = cu_ok; p.chunk = 1000;
  rc = la_problem_check(&p, NULL);
  report(rc == LA_OK && p.chunk == 70, "check chunk 1000 clipped to the longest sequence 70 (%ld)", (long)p.chunk);
  p = base_problem(); p.T = 0; p.chunk = 0;
  rc = la_problem_check(&p, NULL);
  report(rc == LA_OK && p.chunk == 1, "check T = 0: chunk 1 (%ld)", (long)p.chunk);
}

/* Every entry point refuses an invalid problem (HV not a multiple of H)
 * before reading any array (all pointers NULL here). */
static void test_entry_refusal(void)
{
  la_problem p = base_problem();
  la_fwd_io fio;
  la_bwd_io bio;
  int rc[8];
  p.HV = 3;
  memset(&fio, 0, sizeof fio);
  memset(&bio, 0, sizeof bio);
  rc[0] = la_recurrent_fwd_s(&p, &fio); rc[1] = la_recurrent_fwd_d(&p, &fio);
  rc[2] = la_recurrent_bwd_s(&p, &bio); rc[3] = la_recurrent_bwd_d(&p, &bio);
  rc[4] = la_chunk_fwd_s(&p, &fio, NULL); rc[5] = la_chunk_fwd_d(&p, &fio, NULL);
  rc[6] = la_chunk_bwd_s(&p, &bio); rc[7] = la_chunk_bwd_d(&p, &bio);
  report(rc[0] == LA_EARG && rc[1] == LA_EARG && rc[2] == LA_EARG && rc[3] == LA_EARG &&
         rc[4] == LA_EARG && rc[5] == LA_EARG && rc[6] == LA_EARG && rc[7] == LA_EARG,
         "check every entry point answers LA_EARG to an invalid problem");
}

/* ---- huge sizes ------------------------------------------------------------- */

/* Run the 8 entry points on p with tiny dummy arrays: the sizes must be
 * refused before any array is read (else this crashes). */
static void huge_case(const char *what, const la_problem *p, int want)
{
  double dummy[64];
  la_fwd_io fio;
  la_bwd_io bio;
  int rc[8], ok = 1, i;
  memset(dummy, 0, sizeof dummy);
  memset(&fio, 0, sizeof fio);
  memset(&bio, 0, sizeof bio);
  fio.q = fio.k = fio.v = fio.g = fio.beta = dummy;
  fio.o = dummy;
  bio.q = bio.k = bio.v = bio.g = bio.beta = bio.dout = dummy;
  bio.dq = bio.dk = bio.dv = bio.dg = bio.dbeta = dummy;
  rc[0] = la_recurrent_fwd_s(p, &fio); rc[1] = la_recurrent_fwd_d(p, &fio);
  rc[2] = la_recurrent_bwd_s(p, &bio); rc[3] = la_recurrent_bwd_d(p, &bio);
  rc[4] = la_chunk_fwd_s(p, &fio, NULL); rc[5] = la_chunk_fwd_d(p, &fio, NULL);
  rc[6] = la_chunk_bwd_s(p, &bio); rc[7] = la_chunk_bwd_d(p, &bio);
  for (i = 0; i < 8; i++) ok &= rc[i] == want;
  report(ok, "size  %-40s every entry point: %d %d %d %d %d %d %d %d (want %d)", what, rc[0],
         rc[1], rc[2], rc[3], rc[4], rc[5], rc[6], rc[7], want);
}

static void test_sizes(void)
{
  la_problem p = base_problem();
  const ptrdiff_t big = PTRDIFF_MAX / 2;
  report(la_alloc(0, 8) == NULL && la_alloc(-5, 8) == NULL && la_alloc(big, 8) == NULL &&
         la_alloc(PTRDIFF_MAX, 2) == NULL,
         "size  la_alloc refuses count < 1 and overflowing byte counts");
  report(!la_workspace_ok(1, -1, 1) && !la_workspace_ok(4, PTRDIFF_MAX / 2, 1) &&
             la_workspace_ok(4, 1024, 1),
         "size  la_workspace_ok: overflowed and huge refused, 4 KiB fits (%ld MiB available)",
         (long)(la_mem_available() >> 20));
  /* issue 13: K V4 + 3K + 3V4 of the recurrent workspace; here K V fits in
   * bytes, the workspace does not fit in memory */
  p = base_problem(); p.K = (ptrdiff_t)1 << 31; p.V = (ptrdiff_t)1 << 20; p.T = 0;
  p.H = p.HV = 1;
  huge_case("K = 2^31, V = 2^20, T = 0", &p, LA_ENOMEM);
  /* the state K x V is addressable but the chunk store of T/C states is not */
  p = base_problem(); p.K = p.V = (ptrdiff_t)1 << 20; p.T = (ptrdiff_t)1 << 20; p.chunk = 1;
  p.H = p.HV = 1; p.B = p.N = 1;
  huge_case("K = V = T = 2^20, chunk 1", &p, LA_ENOMEM);
  p = base_problem(); p.K = (ptrdiff_t)1 << 40; p.V = (ptrdiff_t)1 << 30; p.T = 0;
  huge_case("K = 2^40, V = 2^30 (state overflows)", &p, LA_EARG);
}

/* ---- interrupts ------------------------------------------------------------- */

typedef struct {
  long polls;       /* polls so far                          */
  long fire_at;     /* answer nonzero from this poll on; 0: never */
} intr_ctx;

static int intr_cb(void *ctx)
{
  intr_ctx *c = (intr_ctx *)ctx;
  long n;
#pragma omp atomic capture
  n = ++c->polls;
  return c->fire_at > 0 && n >= c->fire_at;
}

/* One path (0 recurrent, 1 chunked), fwd or bwd, one class: count the polls
 * of a full run, interrupt at the first and at half of them, then run again
 * and compare with the first, uninterrupted, result. */
static void test_interrupt_path(const tcfg *c, const tprob *P, int path, int bwd, int dbl)
{
  la_problem p = P->p;
  intr_ctx ic = {0, 0};
  double *o0 = NULL, *h0 = NULL, *o1 = NULL, *h1 = NULL, r = 0;
  tgrad G0, G1;
  long total;
  int rc0, rc1, rc2, rc3, k;
  const char *wn = "-";
  memset(&G0, 0, sizeof G0);
  memset(&G1, 0, sizeof G1);
  p.interrupted = intr_cb;
  p.interrupt_ctx = &ic;
  rc0 = bwd ? core_bwd(&p, P, &P->in, dbl, path, 3, &G0) : core_fwd(&p, P, &P->in, dbl, path, 1, &o0, &h0);
  total = ic.polls;
  for (k = 0, rc1 = rc2 = LA_EINTR; k < 2; k++) {
    ic.polls = 0;
    ic.fire_at = k == 0 ? 1 : (total + 1) / 2;
    if (bwd) {
      rc1 = core_bwd(&p, P, &P->in, dbl, path, 3, &G1);
      free_grad(&G1);
    } else {
      rc1 = core_fwd(&p, P, &P->in, dbl, path, 1, &o1, &h1);
      free(o1); free(h1);
    }
    if (rc1 != LA_EINTR) rc2 = rc1;
  }
  ic.polls = 0;
  ic.fire_at = 0;
  if (bwd) {
    rc3 = core_bwd(&p, P, &P->in, dbl, path, 3, &G1);
    r = grad_ratio(P, &G0, &G1, &wn);
  } else {
    rc3 = core_fwd(&p, P, &P->in, dbl, path, 1, &o1, &h1);
    r = ratio(o0, o1, P->nv) + ratio(h0, h1, P->ns);
  }
  report(rc0 == LA_OK && total >= 2 && rc2 == LA_EINTR && rc3 == LA_OK && r == 0,
         "intr  %-28s %s%s_%s %ld polls; interrupted at 1 and %ld: rc %d; next call rc %d, "
         "same result (worst %s %.1e)", c->name, path ? "chunk" : "recurrent", bwd ? "_bwd" : "",
         cls(dbl), total, (total + 1) / 2, rc2, rc3, wn, r);
  free(o0); free(h0); free(o1); free(h1);
  free_grad(&G0);
  free_grad(&G1);
}

static void test_interrupt(const tcfg *c, const tprob *P)
{
  int path, bwd, dbl;
  for (path = 0; path < 2; path++)
    for (bwd = 0; bwd < 2; bwd++)
      for (dbl = 1; dbl >= 0; dbl--) test_interrupt_path(c, P, path, bwd, dbl);
}

/* ---- workspaces kept across calls (la_pool.c) ------------------------------------
 * A call must give the same bits whatever the pool holds: after a bigger
 * call (larger buffers, stale data), after the buffers were filled with
 * NaN, while another caller holds the pool (malloc instead), and from
 * several threads at once; la_release frees everything. */

typedef struct {
  double *o[2], *ht[2]; /* [path]: 0 recurrent, 1 chunked */
  tgrad G[2];
  int rc;
} tresult;

static void run_paths(const tprob *P, int dbl, tresult *R)
{
  int path;
  memset(R, 0, sizeof *R);
  for (path = 0; path < 2; path++) {
    R->rc |= core_fwd(&P->p, P, &P->in, dbl, path, 1, &R->o[path], &R->ht[path]);
    R->rc |= core_bwd(&P->p, P, &P->in, dbl, path, 3, &R->G[path]);
  }
}

static void free_result(tresult *R)
{
  int path;
  for (path = 0; path < 2; path++) {
    free(R->o[path]);
    free(R->ht[path]);
    free_grad(&R->G[path]);
  }
}

/* finite (the inputs are: NaN would be garbage read) and equal bit for bit */
static int same_bits(const double *a, const double *b, ptrdiff_t n)
{
  return a && b && all_finite(a, n) && memcmp(a, b, sizeof(double) * (size_t)n) == 0;
}

/* 1 if both ran and X is R bit for bit, every output of both paths */
static int same_result(const tprob *P, const tresult *R, const tresult *X)
{
  int path, i, ok = R->rc == LA_OK && X->rc == LA_OK;
  for (path = 0; ok && path < 2; path++) {
    ok = same_bits(R->o[path], X->o[path], P->nv) && same_bits(R->ht[path], X->ht[path], P->ns);
    for (i = 0; ok && i < NGRAD; i++)
      ok = !grad_exists(P, i) ||
           same_bits(grad_at(&R->G[path], i), grad_at(&X->G[path], i), grad_len(P, i));
  }
  return ok;
}

/* Fill the first 8 MB of every thread's pool buffer and of the shared and
 * frame ones with NaN: garbage that a call must overwrite before reading. */
static void poison_pool(void)
{
  const ptrdiff_t n = (ptrdiff_t)1 << 20;
  const int held = la_pool_enter();
#pragma omp parallel
  {
    int kind;
    for (kind = LA_POOL_THREAD; kind <= LA_POOL_FRAME; kind++) {
      const int once = kind != LA_POOL_THREAD; /* the call's buffer: one thread fills it */
      double *x = NULL;
      ptrdiff_t i;
#pragma omp master
      if (once) x = la_pool_get(held, kind, n, sizeof(double));
      if (!once) x = la_pool_get(held, kind, n, sizeof(double));
      for (i = 0; x && i < n; i++) x[i] = NAN;
      if (x) la_pool_put(held, kind, x);
#pragma omp barrier
    }
  }
  la_pool_leave(held);
}

/* While another thread holds the pool, a call mallocs and gives the same
 * bits; 0 if the team had fewer than two threads (not tested). */
static int run_while_held(const tprob *P, int dbl, tresult *X, int *other_held, int *mine)
{
  int team = 1;
  *other_held = 0;
  *mine = 1;
#pragma omp parallel num_threads(2)
  {
#ifdef _OPENMP
    const int me = omp_get_thread_num();
#pragma omp master
    team = omp_get_num_threads();
#else
    const int me = 0;
#endif
    if (me == 1) *other_held = la_pool_enter();
#pragma omp barrier
    if (me == 0 && team == 2) {
      *mine = la_pool_enter(); /* must be 0: taken */
      la_pool_leave(*mine);
      run_paths(P, dbl, X);
    }
#pragma omp barrier
    if (me == 1) la_pool_leave(*other_held);
  }
  return team == 2;
}

static void test_pool_class(const tprob *S, const tprob *L, int dbl)
{
  tresult fs, fl, x1, x2, x3, x4, xb, xc[4];
  size_t held;
  int i, ok_conc = 1, other, mine, tested;
  la_release();
  run_paths(S, dbl, &fs);
  la_release();
  run_paths(L, dbl, &fl);
  la_release();
  run_paths(S, dbl, &x1);
  run_paths(L, dbl, &x2);
  run_paths(S, dbl, &x3);
  held = la_pool_bytes();
  poison_pool();
  run_paths(S, dbl, &x4);
  report(same_result(S, &fs, &x1) && same_result(L, &fl, &x2) && same_result(S, &fs, &x3) &&
             same_result(S, &fs, &x4) && held > 0,
         "pool  small, big, small, NaN-filled pool, small (%s): each bit for bit its fresh "
         "call; the pool held %zu bytes", cls(dbl), held);
  tested = run_while_held(S, dbl, &xb, &other, &mine);
  report(!tested || (other == 1 && mine == 0 && same_result(S, &fs, &xb)),
         "pool  a call while another thread holds the pool (%s): malloc, same bits%s", cls(dbl),
         tested ? "" : " (one thread only: not tested)");
#pragma omp parallel for schedule(static, 1)
  for (i = 0; i < 4; i++) run_paths(S, dbl, &xc[i]);
  for (i = 0; i < 4; i++) ok_conc = ok_conc && same_result(S, &fs, &xc[i]);
  report(ok_conc, "pool  four callers from concurrent threads (%s): same bits", cls(dbl));
  free_result(&fs); free_result(&fl); free_result(&x1); free_result(&x2);
  free_result(&x3); free_result(&x4);
  if (tested) free_result(&xb);
  for (i = 0; i < 4; i++) free_result(&xc[i]);
}

/* The transformed inputs (UseQKL2Norm, GateInKernel, BetaSigmoid) and the
 * backward's per-value-head dq, dk come from the pool's frame buffer: the
 * pool holds at least their size more after calls with the transforms than
 * after the same calls without; and a NaN-filled pool gives the fresh
 * call's bits.  On one thread: with more, which thread numbers take a
 * workspace of their own depends on the dynamic schedule, and the totals
 * of the two runs with it (three threads failed it now and then). */
static void test_pool_frame(void)
{
  static const tcfg plain = {"frame plain", 1, 16, 12, 300, 1, 2, 4, .h0 = 1};
  static const tcfg tr = {"frame transforms", 1, 16, 12, 300, 1, 2, 4, .l2 = 1, .gik = 1,
                          .dtb = 1, .bsig = 1, .h0 = 1};
  tprob A, B;
  tresult ra, rb, rb2;
  size_t bytes_plain, bytes_tr, frame;
  int ok;
  make_problem(&plain, &A);
  make_problem(&tr, &B);
  /* 2 q, k normalised + their 1/norms, the gates, beta (the backward's
   * dq, dk per value head: in both) */
  frame = sizeof(double) * (size_t)(2 * B.nq + 2 * B.p.T * B.p.H * B.p.B + B.ng + B.nb);
#ifdef _OPENMP
  const int saved = omp_get_max_threads();
  omp_set_num_threads(1);
#endif
  la_release();
  run_paths(&A, 1, &ra);
  bytes_plain = la_pool_bytes();
  la_release();
  run_paths(&B, 1, &rb);
  bytes_tr = la_pool_bytes();
  poison_pool();
  run_paths(&B, 1, &rb2);
#ifdef _OPENMP
  omp_set_num_threads(saved);
#endif
  ok = ra.rc == 0 && rb.rc == 0 && bytes_tr >= bytes_plain + frame && same_result(&B, &rb, &rb2);
  report(ok, "pool  the transforms' inputs in the pool's frame (double): %zu bytes held with "
         "them, %zu without (frame %zu); a NaN-filled pool gives the same bits",
         bytes_tr, bytes_plain, frame);
  free_result(&ra); free_result(&rb); free_result(&rb2);
  free_problem(&A); free_problem(&B);
}

/* A buffer above LA_POOL_KEEP ends with its call; la_release empties the
 * pool.  (The 256 MB block is never touched: no pages are faulted in.) */
static void test_pool_limits(void)
{
  size_t before, after, released;
  void *x;
  int held;
  la_release();
  held = la_pool_enter();
  x = la_pool_get(held, LA_POOL_SHARED, (ptrdiff_t)LA_POOL_KEEP + 1, 1);
  before = la_pool_bytes();
  la_pool_put(held, LA_POOL_SHARED, x);
  after = la_pool_bytes();
  x = la_pool_get(held, LA_POOL_THREAD, 1000, 1);
  la_pool_put(held, LA_POOL_THREAD, x);
  la_pool_leave(held);
  la_release();
  released = la_pool_bytes();
  report(held && before > LA_POOL_KEEP && after == 0 && released == 0,
         "pool  a %zu-byte buffer is freed at the end of its call (held %zu, then %zu); "
         "la_release leaves %zu bytes", (size_t)LA_POOL_KEEP + 1, before, after, released);
}

/* A problem large enough to run on every thread (la_small_call: no), V not
 * a multiple of 4 (the recurrent paths rely on zeroed padding, zero_ws):
 * the pool's big calls and the placement test's call. */
static const tcfg parallel_cfg = {"parallel", 1, 32, 30, 700, 1, 4, 1, .l2 = 1, .h0 = 1};

static void test_pool(void)
{
  /* V not a multiple of 4 here too */
  static const tcfg small = {"pool small", 1, 16, 10, 100, 1, 2, 2, .l2 = 1, .h0 = 1};
  tprob S, L;
  int dbl;
  make_problem(&small, &S);
  make_problem(&parallel_cfg, &L);
  for (dbl = 1; dbl >= 0; dbl--) test_pool_class(&S, &L, dbl);
  free_problem(&S);
  free_problem(&L);
  test_pool_limits();
  test_pool_frame();
}

/* ---- worker placement (la_spread_*) ----------------------------------------------- */

#if defined(__linux__) && defined(_OPENMP)
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

/* la_spread_begin pins each worker noted in a region to one CPU of its own
 * (not the caller's at that moment), la_spread_end gives each its mask back. */
static void test_spread_api(void)
{
  const int nth = omp_get_max_threads();
  pid_t tid[64] = {0};
  cpu_set_t before[64], during[64], after[64];
  la_spread *sp = la_spread_begin(nth);
  int i, j, ok = 1, me = -1, n = nth < 64 ? nth : 64;
#pragma omp parallel num_threads(n)
  {
    la_spread_note(sp);
    tid[omp_get_thread_num()] = (pid_t)syscall(SYS_gettid);
  }
  la_spread_end(sp);
  ok = sched_getaffinity(0, sizeof before[0], &before[0]) == 0;
  for (i = 1; i < n; i++) ok = ok && sched_getaffinity(tid[i], sizeof before[i], &before[i]) == 0;
  la_tune("no_spread", 0);
  sp = la_spread_begin(n);
  if (!sp) { /* declined, as it must with one thread, OMP_PROC_BIND or too few CPUs */
    report(n < 2 || omp_get_proc_bind() != omp_proc_bind_false || CPU_COUNT(&before[0]) < n,
           "spread  la_spread_begin declined (%d threads, proc_bind %d, %d CPUs allowed): "
           "not tested", n, (int)omp_get_proc_bind(), CPU_COUNT(&before[0]));
    return;
  }
  /* the caller is held on one CPU now, each worker on another of its own */
  me = sched_getcpu();
  ok = ok && sched_getaffinity(0, sizeof during[0], &during[0]) == 0 &&
       CPU_COUNT(&during[0]) == 1 && CPU_ISSET(me, &during[0]);
  for (i = 1; i < n; i++) {
    ok = ok && sched_getaffinity(tid[i], sizeof during[i], &during[i]) == 0 &&
         CPU_COUNT(&during[i]) == 1 && !CPU_ISSET(me, &during[i]);
    for (j = 1; j < i; j++) ok = ok && !CPU_EQUAL(&during[i], &during[j]);
  }
  la_spread_end(sp);
  for (i = 0; i < n; i++)
    ok = ok && sched_getaffinity(i ? tid[i] : 0, sizeof after[i], &after[i]) == 0 &&
         CPU_EQUAL(&after[i], &before[i]);
  report(ok, "spread  the caller held on its CPU %d, %d workers pinned to CPUs of their own, "
         "every mask restored after", me, n - 1);
  la_tune("no_spread", 1);
  sp = la_spread_begin(n);
  report(sp == NULL, "spread  the tuning's no_spread: nothing pinned");
  la_spread_end(sp);
  la_tune("no_spread", 0);
}

/* 1 if every thread of the process is allowed exactly the CPUs of mask. */
static int spread_all_masks(const cpu_set_t *mask, int *nthreads)
{
  DIR *d = opendir("/proc/self/task");
  struct dirent *e;
  int ok = d != NULL;
  *nthreads = 0;
  while (ok && (e = readdir(d)) != NULL) {
    cpu_set_t m;
    const pid_t tid = (pid_t)atoi(e->d_name);
    if (tid <= 0) continue;
    /* a thread that ended since readdir saw it has no mask to check */
    if (sched_getaffinity(tid, sizeof m, &m) != 0) continue;
    ok = CPU_EQUAL(&m, mask);
    ++*nthreads;
  }
  if (d) closedir(d);
  return ok;
}

typedef struct {
  const tprob *L;
  const cpu_set_t *mask;
  int ok, nthreads;
} spread_fresh;

/* On a thread of its own: a new OpenMP team, whose workers the runtime
 * creates in the first region of the first call -- the chunked forward,
 * which places its workers (a call large enough, la_spread_for). */
static void *spread_fresh_team(void *arg)
{
  spread_fresh *f = (spread_fresh *)arg;
  double *o = NULL, *ht = NULL;
  tresult r;
  const int rc = core_fwd(&f->L->p, f->L, &f->L->in, 1, 1, 1, &o, &ht);
  free(o);
  free(ht);
  run_paths(f->L, 1, &r);
  f->ok = rc == 0 && r.rc == 0 && spread_all_masks(f->mask, &f->nthreads);
  free_result(&r);
  return NULL;
}

/* A parallel call (the pool test's big problem) with and without placement:
 * the same bits; and after the calls, of this thread's team and of a team
 * created during a call, no thread keeps a pinned mask (a worker created
 * while the caller was held on its CPU used to inherit that one CPU). */
static void test_spread_results(void)
{
  static const tcfg fresh_cfg = {"spread fresh", 1, 32, 30, 700, 1, 4, 1, .h0 = 1};
  tprob L;
  tresult off, on1, on2;
  cpu_set_t mask;
  spread_fresh f;
  pthread_t th;
  int n = 0, ok;
  make_problem(&parallel_cfg, &L);
  la_tune("no_spread", 1);
  run_paths(&L, 1, &off);
  la_tune("no_spread", 0);
  run_paths(&L, 1, &on1);
  run_paths(&L, 1, &on2);
  report(same_result(&L, &off, &on1) && same_result(&L, &off, &on2),
         "spread  every path with and without worker placement (double): same bits");
  free_result(&off); free_result(&on1); free_result(&on2);
  free_problem(&L);
  /* the fresh team's first region must be the forward's own: no l2norm
   * pass before it (that region places nothing) */
  make_problem(&fresh_cfg, &L);
  ok = sched_getaffinity(0, sizeof mask, &mask) == 0 && spread_all_masks(&mask, &n);
  f.L = &L;
  f.mask = &mask;
  f.ok = 0;
  f.nthreads = 0;
  ok = ok && pthread_create(&th, NULL, spread_fresh_team, &f) == 0 && pthread_join(th, NULL) == 0;
  report(ok && f.ok, "spread  after the calls every thread has the process's mask again "
         "(%d threads; then %d with a second team made during a call)", n, f.nthreads);
  free_problem(&L);
}

static void test_spread(void)
{
  test_spread_api();
  test_spread_results();
}
#else
static void test_spread(void) { report(1, "spread  not built (not Linux with OpenMP)"); }
#endif

/* ---- the chunked backward's pipelining (la_sweep, la_sched.tmpl.h) ----------------
 * With fewer items than threads (H = 1), or a last round short of them (HV = 3
 * on two threads), the backward runs each item's chunks as OpenMP tasks over
 * a ring of workspaces.  Its gradients must be those of the one-thread run
 * (one workspace, the chunks in order) and of the same threads without the
 * ring (tuning bwd_no_ring) bit for bit, in double, single and emulated
 * bf16; and an interrupt must stop it cleanly. */

#ifdef _OPENMP
static void pipe_case(const tcfg *c)
{
  tprob P;
  int dbl, emu, k, team = omp_get_max_threads() > 2 ? omp_get_max_threads() : 2;
  make_problem(c, &P);
  for (emu = 0; emu < 2; emu++)
    for (dbl = emu ? 0 : 1; dbl >= 0; dbl--) {
      la_problem p = P.p;
      tgrad G[3];
      int rc[3], same[2] = {1, 1}, i;
      p.emulate = emu ? LA_EMULATE_BF16 : LA_EMULATE_NONE;
      for (k = 0; k < 3; k++) { /* tasks; one thread; no ring (tuning bwd_no_ring) */
        omp_set_num_threads(k == 1 ? 1 : team);
        la_tune("bwd_no_ring", k == 2);
        rc[k] = core_bwd(&p, &P, &P.in, dbl, 1, 3, &G[k]);
      }
      la_tune("bwd_no_ring", 0);
      omp_set_num_threads(team);
      for (k = 0; k < 2; k++)
        for (i = 0; i < NGRAD; i++)
          same[k] = same[k] && (!grad_exists(&P, i) || same_bits(grad_at(&G[0], i),
                                                                  grad_at(&G[k + 1], i),
                                                                  grad_len(&P, i)));
      report(rc[0] == LA_OK && rc[1] == LA_OK && same[0],
             "pipe  %-28s chunk_bwd_%s%s on %d threads (tasks) = on 1 thread, bit for bit", c->name,
             cls(dbl), emu ? " bf16" : "", team);
      report(rc[0] == LA_OK && rc[2] == LA_OK && same[1],
             "pipe  %-28s chunk_bwd_%s%s tasks = no ring (tuning bwd_no_ring), bit for bit",
             c->name, cls(dbl), emu ? " bf16" : "");
      for (k = 0; k < 3; k++) free_grad(&G[k]);
    }
  omp_set_num_threads(team);
  for (dbl = 1; dbl >= 0; dbl--) test_interrupt_path(c, &P, 1, 1, dbl);
  free_problem(&P);
}

static void test_pipe(void)
{
  /* each above la_small_call's 2^18 state-steps: they run on every thread */
  static const tcfg one = {"pipe kda H=1", 1, 32, 30, 700, 1, 1, 1, .l2 = 1, .gik = 1, .dtb = 1,
                           .h0 = 1};
  static const tcfg three = {"pipe gdn HV=3 varlen", 0, 24, 20, 600, 1, 3, 1, .ncu = 3,
                             .cu = {0, 250, 600}, .h0 = 1, .gate = GATE_MIXED};
  const int saved = omp_get_max_threads();
  pipe_case(&one);
  pipe_case(&three);
  omp_set_num_threads(saved);
}
#else
static void test_pipe(void) { report(1, "pipe  not built (no OpenMP)"); }
#endif

/* la_even_part: the window sizes of the forward's plan (la_internal.h).
 * For every n, m up to 80: the parts of the returned size cover n, there
 * are as many as with parts of m, none larger than m, and the last is
 * within one part of the others (no 25 + 7). */
static void test_even_part(void)
{
  ptrdiff_t n, m, bad = 0;
  for (n = 1; n <= 80; n++)
    for (m = 1; m <= 80; m++) {
      const ptrdiff_t e = la_even_part(n, m), parts = (n + m - 1) / m;
      const ptrdiff_t last = n - (parts - 1) * e;
      if (e > m || (n + e - 1) / e != parts || last < 1 || last < e - parts) bad++;
    }
  report(bad == 0 && la_even_part(32, 25) == 16 && la_even_part(128, 25) == 22,
         "sched la_even_part: 32 chunks by 25 in two windows of 16; %td of 6400 (n, m) wrong",
         bad);
}

/* ---- chains of steps shared among workers (la_chains.c) -------------------------
 * The forward's schedule per item hands each item's chunks out through
 * la_chains_next.  Whatever the workers' speeds: every step of every chain
 * exactly once and in order, never two workers on one chain, a worker's
 * first steps on chains it owns and alternating between its two, and a
 * worker with none left taking over the idle chain with most steps left. */
typedef struct {
  ptrdiff_t got[8];   /* steps handed out per chain */
  int bad, steals;    /* out of order or twice; steps run on another's chain */
} chains_log;

static void chains_took(la_chains *ch, chains_log *lg, int t, ptrdiff_t cur, ptrdiff_t step,
                        int first_owner)
{
  if (cur < 0 || cur >= ch->n || step != lg->got[cur] || !ch->busy[cur] || ch->owner[cur] != t)
    lg->bad++;
  else lg->got[cur]++;
  if (first_owner != t) lg->steals++;
}

/* One thread plays two workers, worker 1 taking a step for every `ratio`
 * of worker 0. */
static void chains_serial(ptrdiff_t n, ptrdiff_t steps, int ratio, chains_log *lg, int *lead_ok,
                          ptrdiff_t *done0)
{
  la_chains ch;
  ptrdiff_t cur[2] = {-1, -1}, s;
  int live[2] = {1, 1}, k = 0, t;
  memset(lg, 0, sizeof *lg);
  *lead_ok = 1;
  *done0 = 0;
  if (!la_chains_init(&ch, n, steps, n, 2)) {
    lg->bad = -1;
    return;
  }
  while (live[0] || live[1]) {
    t = (k++ % (ratio + 1)) < ratio ? 0 : 1;
    if (!live[t]) t = 1 - t;
    s = la_chains_next(&ch, 0, n, t, &cur[t]);
    if (s < 0) {
      live[t] = 0;
      continue;
    }
    chains_took(&ch, lg, t, cur[t], s, (int)(cur[t] % 2)); /* first owner: i mod 2 */
    if (cur[t] == cur[1 - t]) lg->bad++; /* the other worker still runs that chain */
    if (t == 0) (*done0)++;
    { /* a worker's two own chains with steps keep within LA_CHAIN_LEAD + 1 */
      ptrdiff_t i, r[2], m = 0;
      for (i = 0; i < n && m < 2; i++)
        if (ch.owner[i] == t && (ch.next[i] < steps || i == cur[t])) r[m++] = steps - ch.next[i];
      if (m == 2 && (r[0] - r[1] > 5 || r[1] - r[0] > 5) && lg->steals == 0) *lead_ok = 0;
    }
  }
  la_chains_free(&ch);
}

static void test_chains(void)
{
  chains_log lg;
  ptrdiff_t i, done0;
  int lead_ok, whole = 1;
  /* equal speeds: nothing changes hands, each worker alternates its two */
  chains_serial(4, 32, 1, &lg, &lead_ok, &done0);
  for (i = 0; i < 4; i++) whole = whole && lg.got[i] == 32;
  report(lg.bad == 0 && whole && lg.steals == 0 && lead_ok && done0 == 64,
         "sched la_chains, 4 chains of 32 steps, 2 workers at one speed: every step once, in "
         "order, on its owner (%d wrong, %d taken over); each worker's two chains within 5 steps",
         lg.bad, lg.steals);
  /* worker 0 three times as fast: it takes over worker 1's idle chain */
  chains_serial(4, 32, 3, &lg, &lead_ok, &done0);
  whole = 1;
  for (i = 0; i < 4; i++) whole = whole && lg.got[i] == 32;
  report(lg.bad == 0 && whole && lg.steals > 0 && lead_ok && done0 > 64 && done0 < 100,
         "sched la_chains, worker 0 three times as fast: every step once, in order (%d wrong); "
         "%d steps on a chain taken over, worker 0 ran %td of 128 (64-100)",
         lg.bad, lg.steals, done0);
  /* an item of no chunks is a chain of one step; one worker runs all */
  chains_serial(3, 1, 1000000, &lg, &lead_ok, &done0);
  report(lg.bad == 0 && lg.got[0] == 1 && lg.got[1] == 1 && lg.got[2] == 1 && done0 == 3,
         "sched la_chains, 3 chains of 1 step, worker 1 never comes: worker 0 runs all 3 "
         "(%d wrong)", lg.bad);
#ifdef _OPENMP
  { /* two threads, thread 1 slowed: the same, under a real race */
    la_chains ch;
    chains_log tl;
    int ok = la_chains_init(&ch, 4, 200, 4, 2), holder[4] = {-1, -1, -1, -1};
    memset(&tl, 0, sizeof tl);
#pragma omp parallel num_threads(2) if (ok)
    {
      const int t = omp_get_thread_num();
      ptrdiff_t cur = -1, s;
      volatile double sink = 0;
      for (;;) {
        int j;
        if (cur >= 0) { /* let go of it before la_chains_next can hand it on */
#pragma omp critical(test_chains)
          holder[cur] = -1;
        }
        if ((s = la_chains_next(&ch, 0, 4, t, &cur)) < 0) break;
#pragma omp critical(test_chains)
        {
          chains_took(&ch, &tl, t, cur, s, (int)(cur % 2));
          if (holder[cur] >= 0) tl.bad++; /* two threads on one chain */
          holder[cur] = t;
        }
        for (j = 0; j < (t ? 40000 : 10000); j++) sink += j; /* a step's work */
      }
    }
    whole = ok;
    for (i = 0; i < 4; i++) whole = whole && tl.got[i] == 200;
    report(whole && tl.bad == 0 && tl.steals > 0,
           "sched la_chains on 2 threads, thread 1 slower: every step once, in order (%d "
           "wrong), %d steps on a chain taken over", tl.bad, tl.steals);
    if (ok) la_chains_free(&ch);
  }
#endif
}

/* ---- the chunked forward's two schedules (la_chunk_fwd.tmpl.h) -----------------
 * Items of one chunk count, four or eight, on two threads run per item
 * (each item's chunks in order, intra-chunk work then state step);
 * the tuning's fwd_phases forces the two phases.  The outputs must be the same bits. */
#ifdef _OPENMP
static void sched_case(const tcfg *c)
{
  tprob P;
  int dbl, emu, k;
  make_problem(c, &P);
  for (emu = 0; emu < 2; emu++)
    for (dbl = emu ? 0 : 1; dbl >= 0; dbl--) {
      la_problem p = P.p;
      double *o[2], *ht[2];
      int rc[2];
      p.emulate = emu ? LA_EMULATE_BF16 : LA_EMULATE_NONE;
      for (k = 0; k < 2; k++) rc[k] = core_fwd_tuned(&p, &P, dbl, "fwd_phases", k, NULL, &o[k], &ht[k]);
      report(rc[0] == LA_OK && rc[1] == LA_OK && same_bits(o[0], o[1], P.nv) &&
                 same_bits(ht[0], ht[1], P.ns),
             "sched %-28s chunk_fwd_%s%s per item = in two phases, o and ht bit for bit", c->name,
             cls(dbl), emu ? " bf16" : "");
      for (k = 0; k < 2; k++) {
        free(o[k]);
        free(ht[k]);
      }
    }
  for (dbl = 1; dbl >= 0; dbl--) test_interrupt_path(c, &P, 1, 0, dbl);
  for (dbl = 1; dbl >= 0; dbl--) test_interrupt_path(c, &P, 1, 1, dbl);
  free_problem(&P);
}

static void test_sched(void)
{
  /* above la_small_call's 2^18 state-steps: they run on both threads */
  static const tcfg four = {"kda H=2 B=2", 1, 32, 30, 700, 2, 2, 2, .l2 = 1, .gik = 1,
                            .dtb = 1, .h0 = 1};
  static const tcfg gva = {"gdn HV=4 varlen", 0, 24, 20, 620, 2, 4, 1, .ncu = 3,
                           .cu = {0, 300, 620}, .h0 = 1, .gate = GATE_MIXED};
  const int saved = omp_get_max_threads();
  omp_set_num_threads(2);
  sched_case(&four);
  sched_case(&gva);
  omp_set_num_threads(saved);
}
#else
static void test_sched(void) { report(1, "sched  not built (no OpenMP)"); }
#endif

/* ---- the configurations ---------------------------------------------------------- */

#define CU(...) .cu = {__VA_ARGS__}

static const tcfg cfgs[] = {
  /* name                      kda K  V  T   H HV B */
  {"kda basic",                 1, 16, 16, 37, 2, 2, 2, .h0 = 1, .in_quick = 1},
  {"gdn basic",                 0, 16, 16, 37, 2, 2, 2, .h0 = 1, .in_quick = 1},
  {"kda no h0",                 1, 8, 12, 20, 1, 1, 2, .h0 = 0, .in_quick = 1},
  {"gdn no h0",                 0, 8, 12, 20, 1, 1, 2, .h0 = 0},
  {"kda T=1",                   1, 8, 8, 1, 1, 1, 1, .h0 = 1, .in_quick = 1},
  {"gdn T=1",                   0, 8, 8, 1, 2, 2, 1, .h0 = 1},
  {"kda l2norm",                1, 12, 10, 25, 1, 2, 1, .l2 = 1, .h0 = 1},
  {"gdn l2norm",                0, 12, 10, 25, 1, 2, 1, .l2 = 1, .h0 = 1},
  {"kda gate-in-kernel",        1, 12, 10, 25, 1, 1, 2, .gik = 1, .dtb = 1, .h0 = 1},
  {"kda gik no dt_bias",        1, 12, 10, 25, 1, 1, 1, .gik = 1, .in_quick = 1},
  {"kda gik lower bound",       1, 12, 10, 25, 1, 2, 1, .gik = 1, .dtb = 1, .lb = 1, .h0 = 1},
  {"gdn gate-in-kernel",        0, 12, 10, 25, 1, 2, 2, .gik = 1, .dtb = 1, .h0 = 1},
  {"gdn gik lower bound",       0, 12, 10, 25, 1, 2, 1, .gik = 1, .lb = 1, .h0 = 1, .in_quick = 1},
  /* T * B > 256: the blocked sums of dA_log / ddt_bias flush more than once */
  {"kda gik long T=300 B=2",    1, 6, 5, 300, 1, 1, 2, .gik = 1, .dtb = 1, .h0 = 1,
   .in_quick = 1},
  {"gdn gik lb long T=600",     0, 6, 5, 600, 1, 2, 1, .gik = 1, .lb = 1, .h0 = 1},
  {"kda beta sigmoid",          1, 12, 10, 25, 1, 1, 1, .bsig = 1, .h0 = 1},
  {"kda beta sigmoid neg",      1, 12, 10, 25, 1, 1, 1, .l2 = 1, .bsig = 1, .neg = 1, .h0 = 1},
  {"gdn beta sigmoid neg",      0, 12, 10, 25, 1, 1, 1, .l2 = 1, .bsig = 1, .neg = 1, .h0 = 1},
  {"kda neg without sigmoid",   1, 8, 8, 15, 1, 1, 1, .neg = 1, .h0 = 1},
  {"kda scale 0.7",             1, 8, 8, 15, 1, 1, 1, .scale = 0.7, .h0 = 1},
  {"kda state VK",              1, 8, 12, 20, 1, 2, 1, .vk = 1, .h0 = 1},
  {"gdn state VK",              0, 8, 12, 20, 1, 2, 1, .vk = 1, .h0 = 1},
  {"kda GVA H=2 HV=6",          1, 10, 8, 21, 2, 6, 2, .h0 = 1, .in_quick = 1},
  {"gdn GVA H=1 HV=3",          0, 10, 8, 21, 1, 3, 2, .h0 = 1},
  {"kda varlen",                1, 10, 8, 40, 2, 2, 1, .ncu = 5, CU(0, 5, 6, 29, 40), .h0 = 1,
   .in_quick = 1},
  {"gdn varlen",                0, 10, 8, 40, 1, 2, 1, .ncu = 4, CU(0, 17, 18, 40), .h0 = 1},
  {"kda K=8 V=24",              1, 8, 24, 20, 1, 1, 1, .h0 = 1},
  {"gdn K=24 V=8",              0, 24, 8, 20, 1, 1, 1, .h0 = 1},
  {"kda K=60 V=100",            1, 60, 100, 30, 1, 1, 1, .h0 = 1},
  {"gdn K=60 V=100",            0, 60, 100, 30, 1, 1, 1, .h0 = 1},
  {"kda strong gates -30",      1, 12, 10, 25, 1, 1, 1, .gate = GATE_STRONG, .h0 = 1,
   .in_quick = 1},
  {"gdn strong gates -30",      0, 12, 10, 25, 1, 1, 1, .gate = GATE_STRONG, .h0 = 1},
  {"kda mixed gates -30",       1, 12, 10, 25, 1, 2, 1, .gate = GATE_MIXED, .h0 = 1},
  {"gdn mixed gates -30",       0, 12, 10, 25, 1, 2, 1, .gate = GATE_MIXED, .h0 = 1},
  {"kda gik strong gates",      1, 12, 10, 25, 1, 1, 1, .gik = 1, .dtb = 1, .gate = GATE_STRONG,
   .h0 = 1},
  {"kda all options",           1, 12, 10, 33, 2, 4, 1, .ncu = 4, CU(0, 9, 10, 33), .l2 = 1,
   .gik = 1, .dtb = 1, .bsig = 1, .neg = 1, .vk = 1, .h0 = 1, .scale = 0.4, .gate = GATE_MIXED,
   .in_quick = 1},
  {"gdn all options",           0, 12, 10, 33, 1, 2, 1, .ncu = 3, CU(0, 20, 33), .l2 = 1,
   .gik = 1, .dtb = 1, .bsig = 1, .neg = 1, .vk = 1, .h0 = 1, .in_quick = 1},
  {"kda all options lb",        1, 12, 10, 33, 1, 2, 1, .ncu = 3, CU(0, 1, 33), .l2 = 1,
   .gik = 1, .lb = 1, .bsig = 1, .vk = 1, .h0 = 1},
};

/* The chunk configurations: T not a multiple of 7, 16 or 64. */
static const tcfg chunk_cfgs[] = {
  {"kda T=100",                 1, 16, 16, 100, 1, 2, 2, .h0 = 1, .in_quick = 1},
  {"gdn T=100",                 0, 16, 16, 100, 1, 2, 2, .h0 = 1, .in_quick = 1},
  {"kda T=1",                   1, 8, 8, 1, 1, 1, 1, .h0 = 1},
  {"kda all options T=150",     1, 16, 12, 150, 2, 4, 1, .ncu = 5, CU(0, 3, 70, 71, 150),
   .l2 = 1, .gik = 1, .dtb = 1, .bsig = 1, .neg = 1, .vk = 1, .h0 = 1, .scale = 0.3,
   .in_quick = 1},
  {"gdn all options T=150",     0, 16, 12, 150, 1, 2, 1, .ncu = 3, CU(0, 65, 150), .l2 = 1,
   .gik = 1, .lb = 1, .bsig = 1, .vk = 1, .h0 = 1},
  {"kda strong gates T=90",     1, 16, 16, 90, 1, 1, 1, .gate = GATE_STRONG, .h0 = 1},
  {"kda mixed gates T=90",      1, 16, 16, 90, 1, 1, 1, .gate = GATE_MIXED, .h0 = 1,
   .in_quick = 1},
  {"gdn mixed gates T=90",      0, 16, 16, 90, 1, 1, 1, .gate = GATE_MIXED, .h0 = 1},
  {"kda K=60 V=100 T=75",       1, 60, 100, 75, 1, 1, 1, .l2 = 1, .h0 = 1},
  {"gdn K=60 V=100 T=75",       0, 60, 100, 75, 1, 1, 1, .l2 = 1, .h0 = 1},
  /* V far above K: the forward's state-pass scratch (2 V C) outgrows the
   * chunk workspace (la_chunk_fwd) */
  {"kda K=2 V=200 T=100",       1, 2, 200, 100, 1, 2, 1, .h0 = 1, .in_quick = 1,
   .full_size = 1},
  /* single precision over a long sequence */
  {"kda l2 T=2000",             1, 32, 32, 2000, 1, 1, 1, .l2 = 1, .h0 = 1},
  {"gdn l2 gik T=2000",         0, 32, 32, 2000, 1, 1, 1, .l2 = 1, .gik = 1, .dtb = 1, .h0 = 1},
};

/* ---- state maps (docs/state_map.md) ---------------------------------------------
 * The forward: P S_0 + R is the reference's final state from h0, R its final
 * state from zero.  The backward: for L = <Ws, S_T> with S_T = P S_0 + R,
 * dL/dP = Ws S_0' and dL/dR = Ws, so the map's backward given those must
 * return the chunked backward's gradients of <Ws, S_T> (do = 0). */

/* element (i, j) of the K x V state of item m, in the problem's layout */
static ptrdiff_t st_at(const la_problem *p, ptrdiff_t m, ptrdiff_t i, ptrdiff_t j)
{
  return p->K * p->V * m + (p->state_vk ? j + p->V * i : i + p->K * j);
}

/* the map's P (K x K x items) and R (state layout) in double, from class dbl */
static int core_map(const tprob *P, int dbl, double **Pm, double **R)
{
  const la_problem *p = &P->p;
  const ptrdiff_t nP = p->K * p->K * p->HV * p->N;
  cin c;
  la_map_fwd_io io;
  int rc;
  cin_make(P, &P->in, dbl, &c);
  memset(&io, 0, sizeof io);
  io.q = c.q; io.k = c.k; io.v = c.v; io.g = c.g; io.beta = c.beta;
  io.A_log = c.A_log; io.dt_bias = c.dt_bias;
  io.P = nan_class(nP, dbl);
  io.R = nan_class(P->ns, dbl);
  rc = dbl ? la_state_map_fwd_d(p, &io) : la_state_map_fwd_s(p, &io);
  *Pm = from_class(io.P, nP, dbl);
  *R = from_class(io.R, P->ns, dbl);
  cin_free(&c);
  return rc;
}

static void test_map_fwd(const tcfg *c, const tprob *P)
{
  const la_problem *p = &P->p;
  const ptrdiff_t K = p->K, V = p->V;
  tin zero_in = P->in;
  double *o = dalloc(P->nv), *ht = dalloc(P->ns), *R_ref = dalloc(P->ns), *S = dalloc(P->ns);
  int dbl;
  ref_fwd(p, &P->in, o, ht, NULL, NULL, NULL);
  zero_in.h0 = NULL;
  ref_fwd(p, &zero_in, o, R_ref, NULL, NULL, NULL);
  for (dbl = 1; dbl >= 0; dbl--) {
    double *Pm, *R, r1, r2, tol = dbl ? TOL_D : TOL_S;
    ptrdiff_t m, i, j, l;
    int rc = core_map(P, dbl, &Pm, &R);
    for (m = 0; m < p->HV * p->N; m++) /* S = P S_0 + R, item by item */
      for (j = 0; j < V; j++)
        for (i = 0; i < K; i++) {
          double x = R[st_at(p, m, i, j)];
          for (l = 0; l < K; l++) x += Pm[i + K * l + K * K * m] * P->in.h0[st_at(p, m, l, j)];
          S[st_at(p, m, i, j)] = x;
        }
    r1 = ratio(R_ref, R, P->ns);
    r2 = ratio(ht, S, P->ns);
    report(rc == LA_OK && r1 <= tol && r2 <= tol,
           "map   %-28s state_map_%s  rc=%d  R %.2e  P S0 + R %.2e  (tol %.0e)", c->name,
           cls(dbl), rc, r1, r2, tol);
    free(Pm);
    free(R);
  }
  free(o); free(ht); free(R_ref); free(S);
}

static void test_map_bwd(const tcfg *c, const tprob *P)
{
  const la_problem *p = &P->p;
  const ptrdiff_t K = p->K, V = p->V, nP = K * K * p->HV * p->N;
  tprob Z = *P; /* the same problem with do = 0 */
  double *dP = dalloc(nP);
  ptrdiff_t m, i, j, l;
  int dbl;
  Z.Wo = dalloc(P->nv);
  for (i = 0; i < P->nv; i++) Z.Wo[i] = 0;
  for (m = 0; m < p->HV * p->N; m++) /* dP = Ws S_0', per item */
    for (i = 0; i < K; i++)
      for (l = 0; l < K; l++) {
        double x = 0;
        for (j = 0; j < V; j++) x += P->Ws[st_at(p, m, i, j)] * P->in.h0[st_at(p, m, l, j)];
        dP[i + K * l + K * K * m] = x;
      }
  for (dbl = 1; dbl >= 0; dbl--) {
    double tol = dbl ? TOL_D : TOL_S, r;
    const char *worst;
    tgrad Ref, X;
    cin cc;
    la_map_bwd_io io;
    void *dPc = to_class(dP, nP, dbl), *dRc = to_class(P->Ws, P->ns, dbl);
    int rc = core_bwd(p, &Z, &P->in, dbl, 1, 3, &Ref), rc2;
    cin_make(P, &P->in, dbl, &cc);
    memset(&io, 0, sizeof io);
    io.q = cc.q; io.k = cc.k; io.v = cc.v; io.g = cc.g; io.beta = cc.beta;
    io.A_log = cc.A_log; io.dt_bias = cc.dt_bias; io.dP = dPc; io.dR = dRc;
    io.dk = nan_class(P->nq, dbl);
    io.dv = nan_class(P->nv, dbl);
    io.dg = nan_class(P->ng, dbl);
    io.dbeta = nan_class(P->nb, dbl);
    io.dA_log = p->gate_in_kernel ? nan_class(P->nal, dbl) : NULL;
    io.ddt_bias = p->gate_in_kernel ? nan_class(P->ndb, dbl) : NULL;
    rc2 = dbl ? la_state_map_bwd_d(p, &io) : la_state_map_bwd_s(p, &io);
    memset(&X, 0, sizeof X);
    X.dq = dcopy(Ref.dq, P->nq);   /* the map has no dq, dh0: not compared */
    X.dh0 = dcopy(Ref.dh0, P->ns);
    X.dk = from_class(io.dk, P->nq, dbl);
    X.dv = from_class(io.dv, P->nv, dbl);
    X.dg = from_class(io.dg, P->ng, dbl);
    X.dbeta = from_class(io.dbeta, P->nb, dbl);
    X.dA_log = from_class(io.dA_log, P->nal, dbl);
    X.ddt_bias = from_class(io.ddt_bias, P->ndb, dbl);
    r = grad_ratio(P, &Ref, &X, &worst);
    report(rc == LA_OK && rc2 == LA_OK && r <= tol,
           "map   %-28s state_map_bwd_%s  rc=%d  worst %s %.2e  (tol %.0e)", c->name, cls(dbl),
           rc2, worst, r, tol);
    free_grad(&Ref);
    free_grad(&X);
    cin_free(&cc);
    free(dPc);
    free(dRc);
  }
  free(Z.Wo);
  free(dP);
}

/* The chunked forward applies UseQKL2Norm and GateInKernel chunk by chunk
 * when no intermediates are asked for, else to the whole call first
 * (la_chunk_fwd.tmpl.h): the same bits either way -- K not a multiple of
 * the vector length, grouped value heads, CuSeqlens, both gate forms. */
static void test_fused_transforms(void)
{
  static const tcfg cfgs_f[] = {
    {"kda all", 1, 20, 12, 150, 2, 4, 1, .ncu = 3, CU(0, 70, 150), .l2 = 1, .gik = 1,
     .dtb = 1, .bsig = 1, .h0 = 1},
    {"kda lower bound", 1, 16, 16, 130, 1, 1, 1, .gik = 1, .dtb = 1, .lb = 1, .h0 = 1},
    {"gdn l2 gik", 0, 24, 8, 97, 1, 2, 2, .l2 = 1, .gik = 1, .h0 = 1},
  };
  const la_chunk_aux none = {0};
  int i, dbl;
  for (i = 0; i < (int)(sizeof cfgs_f / sizeof cfgs_f[0]); i++)
    for (dbl = 1; dbl >= 0; dbl--) {
      tprob P;
      double *o1 = NULL, *h1 = NULL, *o2 = NULL, *h2 = NULL;
      int rc1, rc2;
      make_problem(&cfgs_f[i], &P);
      P.p.chunk = 32;
      core_fwd_aux = NULL;
      rc1 = core_fwd(&P.p, &P, &P.in, dbl, 1, 1, &o1, &h1);
      core_fwd_aux = &none;
      rc2 = core_fwd(&P.p, &P, &P.in, dbl, 1, 1, &o2, &h2);
      core_fwd_aux = NULL;
      report(rc1 == LA_OK && rc2 == LA_OK && same_bits(o1, o2, P.nv) && same_bits(h1, h2, P.ns),
             "fused %-28s chunk_fwd_%s: transforms per chunk = whole call first, bit for bit",
             cfgs_f[i].name, cls(dbl));
      free(o1); free(h1); free(o2); free(h2);
      free_problem(&P);
    }
}

/* ---- the chunked paths' two forms of v_new (la_chunk_fwd.tmpl.h) ---------------
 * Direct, A (v - KG S), and WY, u - w S (tuning wy_form; what 'Emulate' runs).  o,
 * ht and aux.v_new agree to rounding (single and double), and the
 * intermediates w = A KG and u = A v, which the direct form forms only for
 * aux, are the WY form's bits.  Chunks of 7 (a dense triangle, a short last
 * chunk) and 64 (split triangles, c = C and c < C), strong gates,
 * transforms, CuSeqlens, grouped value heads.
 *
 * The backward in both forms: every gradient, and every field of its
 * intermediates (dw = -dv_new S^T, which the direct form forms for aux
 * only, included), agree to rounding. */
static void form_bwd_case(const tcfg *c, const tprob *P, int dbl, double bound)
{
  const la_problem *p = &P->p;
  const ptrdiff_t K = p->K, T = p->T, HV = p->HV, B = p->B, C = p->chunk;
  const ptrdiff_t NC = la_chunk_count(p), ncx = C * T * HV * B;
  const ptrdiff_t len[8] = {K * p->V * HV * NC, P->nv, P->nv, ncx, ncx, P->ng, ncx, K * T * HV * B};
  double *a[2][8], worst = 0;
  tgrad G[2];
  const char *wn = "-";
  int f, i, rc = LA_OK;
  for (f = 0; f < 2; f++) {
    la_chunk_bwd_aux aux;
    void **field[8] = {&aux.dh, &aux.dv_new, &aux.du, &aux.dAqk, &aux.dA_raw, &aux.dG, &aux.dA,
                       &aux.dw};
    memset(&aux, 0, sizeof aux);
    memset(&G[f], 0, sizeof G[f]);
    for (i = 0; i < 8; i++) *field[i] = nan_class(len[i], dbl);
    if (f) la_tune("wy_form", 1);
    core_bwd_aux = &aux;
    rc |= core_bwd(p, P, &P->in, dbl, 1, 3, &G[f]);
    core_bwd_aux = NULL;
    la_tune("wy_form", 0);
    for (i = 0; i < 8; i++) a[f][i] = from_class(*field[i], len[i], dbl);
  }
  worst = grad_ratio(P, &G[1], &G[0], &wn);
  for (i = 0; i < 8; i++) {
    const double r = ratio(a[1][i], a[0][i], len[i]);
    static const char *names[8] = {"aux.dh", "aux.dv_new", "aux.du", "aux.dAqk",
                                   "aux.dA_raw", "aux.dG", "aux.dA", "aux.dw"};
    if (!(r <= worst)) {
      worst = r;
      wn = names[i];
    }
  }
  report(rc == LA_OK && worst <= bound,
         "form  %-28s chunk_bwd_%s C=%td: direct = WY form, gradients and aux, to %.1e (%s; "
         "<= %.0e)", c->name, cls(dbl), C, worst, wn, bound);
  for (f = 0; f < 2; f++) {
    free_grad(&G[f]);
    for (i = 0; i < 8; i++) free(a[f][i]);
  }
}

static void test_forms(void)
{
  static const tcfg cf[] = {
    {"kda all varlen", 1, 20, 12, 150, 2, 4, 1, .ncu = 3, CU(0, 70, 150), .l2 = 1, .gik = 1,
     .dtb = 1, .bsig = 1, .h0 = 1, .gate = GATE_MIXED},
    {"gdn l2 strong", 0, 24, 8, 97, 1, 2, 2, .l2 = 1, .h0 = 1, .gate = GATE_STRONG},
  };
  static const ptrdiff_t chunks[] = {7, 64};
  int i, j, dbl, f;
  for (i = 0; i < (int)(sizeof cf / sizeof cf[0]); i++)
    for (j = 0; j < 2; j++)
      for (dbl = 1; dbl >= 0; dbl--) {
        const double bound = dbl ? 1e-13 : 1e-6;
        tprob P;
        double *o[2], *ht[2], *w[2], *u[2], *vn[2], worst = 0;
        ptrdiff_t nw;
        int rc = LA_OK, same = 1;
        make_problem(&cf[i], &P);
        P.p.chunk = chunks[j];
        nw = P.p.K * P.p.T * P.p.HV * P.p.B;
        for (f = 0; f < 2; f++) {
          la_chunk_aux aux;
          memset(&aux, 0, sizeof aux);
          aux.w = nan_class(nw, dbl);
          aux.u = nan_class(P.nv, dbl);
          aux.v_new = nan_class(P.nv, dbl);
          rc |= core_fwd_tuned(&P.p, &P, dbl, "wy_form", f, &aux, &o[f], &ht[f]);
          w[f] = from_class(aux.w, nw, dbl);
          u[f] = from_class(aux.u, P.nv, dbl);
          vn[f] = from_class(aux.v_new, P.nv, dbl);
          free(o[f]);
          free(ht[f]);
          rc |= core_fwd_tuned(&P.p, &P, dbl, "wy_form", f, NULL, &o[f], &ht[f]);
        }
        worst = fmax(ratio(o[1], o[0], P.nv), ratio(ht[1], ht[0], P.ns));
        worst = fmax(worst, ratio(vn[1], vn[0], P.nv));
        same = same_bits(w[0], w[1], nw) && same_bits(u[0], u[1], P.nv);
        report(rc == LA_OK && worst <= bound && same,
               "form  %-28s chunk_fwd_%s C=%td: direct = WY form to %.1e (<= %.0e); aux w, u "
               "bit for bit: %s", cf[i].name, cls(dbl), chunks[j], worst, bound,
               same ? "yes" : "NO");
        for (f = 0; f < 2; f++) {
          free(o[f]); free(ht[f]); free(w[f]); free(u[f]); free(vn[f]);
        }
        form_bwd_case(&cf[i], &P, dbl, bound);
        free_problem(&P);
      }
}

/* a smaller copy of a configuration for --quick (same code paths) */
static tcfg shrink(tcfg c)
{
  if (c.full_size) return c;
  if (c.K > 16) c.K = 16 + c.K % 3;
  if (c.V > 16) c.V = 16 + c.V % 5;
  return c;
}

#include "test_decode.inc.c"
#include "test_engine.inc.c"
#include "test_emulate.inc.c"

int main(int argc, char **argv)
{
  const ptrdiff_t csizes[4] = {1, 7, 16, 64};
  const int ncfg = (int)(sizeof cfgs / sizeof cfgs[0]);
  const int nchk = (int)(sizeof chunk_cfgs / sizeof chunk_cfgs[0]);
  int i;
  if (argc > 1 && !strcmp(argv[1], "--quick")) quick = 1;
  engine_env_at_start();
  printf("test_core%s: core library against a naive reference (docs/recurrence.md)\n",
         quick ? " --quick" : "");

  for (i = 0; i < ncfg; i++) {
    tprob P;
    tcfg c = cfgs[i];
    if (quick && !c.in_quick) continue;
    if (quick) c = shrink(c);
    make_problem(&c, &P);
    test_fwd(&c, &P);
    test_grad(&c, &P);
    free_problem(&P);
  }
  for (i = 0; i < nchk; i++) {
    tprob P;
    tcfg c = chunk_cfgs[i];
    if (quick && !c.in_quick) continue;
    if (quick) c = shrink(c);
    make_problem(&c, &P);
    test_fwd(&c, &P);
    test_chunk(&c, &P, csizes, 4, i < 2 || i == 3 || i == 6);
    if (c.h0 && c.T < 1000) { /* the state maps, on the chunked path */
      test_map_fwd(&c, &P);
      test_map_bwd(&c, &P);
    }
    free_problem(&P);
  }
  {
    /* NaN / Inf, NULL outputs, T = 0 */
    static const tcfg nc[] = {
      {"kda nan", 1, 8, 6, 12, 1, 2, 2, .h0 = 1},
      {"gdn nan l2 gik", 0, 8, 6, 12, 1, 2, 2, .l2 = 1, .gik = 1, .dtb = 1, .h0 = 1},
    };
    static const tcfg t0c[] = {
      {"kda T=0", 1, 8, 6, 0, 1, 2, 2, .h0 = 1},
      {"gdn T=0 gik", 0, 8, 6, 0, 1, 2, 1, .gik = 1, .dtb = 1, .h0 = 1},
      {"kda T=0 gik vk", 1, 8, 6, 0, 1, 1, 1, .gik = 1, .vk = 1, .h0 = 1},
    };
    tprob P;
    for (i = 0; i < 2; i++) {
      make_problem(&nc[i], &P);
      test_nan(&nc[i], &P);
      free_problem(&P);
    }
    for (i = 0; i < 3; i++) {
      make_problem(&t0c[i], &P);
      test_t0(&t0c[i], &P);
      free_problem(&P);
    }
    make_problem(&cfgs[0], &P);
    test_nulls(&cfgs[0], &P);
    free_problem(&P);
  }
  {
    /* interrupts: short chunks and checkpoint segments, so every path polls
     * several times per item */
    static const tcfg ic = {"kda intr varlen gik", 1, 8, 6, 60, 1, 2, 1, .ncu = 3,
                            CU(0, 23, 60), .gik = 1, .dtb = 1, .l2 = 1, .h0 = 1};
    tprob P;
    make_problem(&ic, &P);
    P.p.chunk = 8;
    test_interrupt(&ic, &P);
    free_problem(&P);
  }
  test_fused_transforms();
  test_forms();
  test_engine();
  test_engine_bounds();
  test_problem_check();
  test_entry_refusal();
  test_sizes();
  test_pool();
  test_spread();
  test_pipe();
  test_even_part();
  test_chains();
  test_sched();
  test_decode();
  test_emulate();
  la_release(); /* nothing left for the leak checker */

  printf("%d passed, %d failed\n", n_pass, n_fail);
  return n_fail ? 1 : 0;
}
