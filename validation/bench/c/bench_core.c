/*
 * bench_core.c -- `make bench-c`: the core library timed without Octave.
 *
 * Every row is timed rep by rep: a pause of LA_BENCH_SETTLE s, one run of
 * the BLAS gemm (n x n, all cores), a pause again, the row, and one more
 * gemm at once.  The pauses let idle threads stop spinning before each
 * timed kernel: OpenBLAS's workers spin for about 0.1 s after a threaded
 * gemm, and the core's OpenMP workers (libgomp) spin for a few ms after
 * the row; a kernel started during either shares the cores with them.  The
 * "(hot)" rows start right after their gemm and show what OpenBLAS's spin
 * costs the row; the column "next gemm" shows what the OpenMP spin costs
 * the gemm started right after the row (its rate over the settled gemm's).
 * A noise burst hits a row and its reference alike; the row's ratio is
 * (nominal flops / median row time) over the median settled gemm rate of
 * the same reps; the last column gives the ratio of each rep to its own
 * gemm, median (min-max): how far the reps spread.  Inputs and outputs are
 * allocated and touched before the first rep, so no row pays for fresh
 * page faults.
 * The "(transforms)" rows add UseQKL2Norm, GateInKernel and BetaSigmoid to
 * the first row (the same nominal flops: what the transforms cost).
 * Printed per row: median, min and max seconds, tokens/s, GFLOP/s, the
 * ratio to the gemm.  The decode rows (T = 1) compare a call with the
 * arithmetic of one step (time per step of a T = 1024 recurrent call).
 *
 * Built with -DLA_TIME_BLAS (bench_core_blas) it prints instead, for the
 * chunked rows (in the goals mode: the goal rows), the time their GEMMs
 * take and their stages (la_flops.h).
 *
 * Usage: bench_core [reps] [gemm n] [all | decode | idle | goals | sched | forms | engine |
 *                                     shapes | profile ROW]
 * (defaults 9, 1024, all; decode, idle, goals, sched, forms, engine, shapes:
 * only the decode rows (H = 4 and 32, back to back and spaced), only the
 * calls after idle, only the rows of the goals -- validation/run_bench_goals.m
 * runs that mode several times -- only the chunked schedules (the forward's
 * two, the backward's ring), paired, only the two forms of v_new, paired,
 * only the goal rows with and without libxsmm, only the chunk's products one
 * at a time against the 1024^3 sgemm and the FMA peak; profile ROW: goal row
 * ROW (0-5, in the goals' order) back to back, reps calls after one warm-up,
 * for a sampling profiler -- validation/bench/bench_profile.sh runs it on one
 * thread under perf -- printing the calls' median CPU time of the process)
 * Environment: OPENBLAS_CORETYPE, OPENBLAS_NUM_THREADS, OMP_NUM_THREADS,
 * OMP_WAIT_POLICY and GOMP_SPINCOUNT are echoed; the flop counts are those
 * of docs/flops.md (67), (68), (65).
 */
#define _POSIX_C_SOURCE 200809L
#include "la_core.h"
#include "la_blas.h"
#include "la_thread.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#endif

typedef struct {
  const char *what;   /* "chunk", "rec", "decode" */
  int dbl, bwd, kda;
  ptrdiff_t T, H, K, V, C;
  int hot;            /* 1: the row starts right after the gemm (no settle) */
  int goal;           /* 1: a row of a goal (bench_goals.m): the "goals" mode */
  int tr;             /* 1: with UseQKL2Norm, GateInKernel and BetaSigmoid (FLA's
                         KDA defaults); the same nominal flops, so its ratio
                         shows what the transforms cost */
} row_spec;

/* The arrays of one problem: inputs, outputs, gradients (20 for a
 * forward + backward with the transforms). */
#define BENCH_MAX_ARRAYS 24
/* The paired tables: 4 pairs per rep, at most (reps <= 256). */
#define BENCH_MAX_PAIRS 1024

typedef struct {
  la_problem p;
  la_fwd_io f;
  la_bwd_io b;
  void *mem[BENCH_MAX_ARRAYS];
  int nmem;
  ptrdiff_t nv, ns; /* elements of o and of ht */
} bench_problem;

/* The label of a row in every table: "kda chunk", "gdn rec", with
 * " (hot)" or " (transforms)" (a static buffer: one label at a time). */
static const char *row_label(const row_spec *r)
{
  static char label[48];
  snprintf(label, sizeof label, "%s %s%s", r->kda ? "kda" : "gdn", r->what,
           r->hot ? " (hot)" : r->tr ? " (transforms)" : "");
  return label;
}

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The process's CPU seconds so far: on one thread, a call's own time, which
 * a busy machine's other processes do not add to (unlike the wall clock). */
static double cpu_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Median of t[0..n) (sorts t). */
static double median(double *t, int n)
{
  qsort(t, (size_t)n, sizeof *t, cmp_double);
  return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/* n elements of the class, filled (touched) with values in lo + [0, span). */
static void *filled(bench_problem *P, ptrdiff_t n, int dbl, double lo, double span)
{
  void *x = malloc((size_t)n * (dbl ? sizeof(double) : sizeof(float)));
  ptrdiff_t i;
  if (!x) { fprintf(stderr, "bench_core: out of memory\n"); exit(2); }
  if (P->nmem == BENCH_MAX_ARRAYS) { fprintf(stderr, "bench_core: BENCH_MAX_ARRAYS too small\n"); exit(2); }
  for (i = 0; i < n; i++) {
    const double r = lo + span * (double)rand() / RAND_MAX;
    if (dbl) ((double *)x)[i] = r; else ((float *)x)[i] = (float)r;
  }
  P->mem[P->nmem++] = x;
  return x;
}

static void make_problem(const row_spec *r, bench_problem *P)
{
  la_problem *p = &P->p;
  const ptrdiff_t nq = r->K * r->T * r->H, nv = r->V * r->T * r->H, nb = r->T * r->H;
  const ptrdiff_t ng = (r->kda ? r->K : 1) * nb, ns = r->K * r->V * r->H;
  const ptrdiff_t nd = (r->kda ? r->K : 1) * r->H; /* dt_bias: GD per head */
  const double ks = 1 / sqrt((double)r->K);
  memset(P, 0, sizeof *P);
  P->nv = nv;
  P->ns = ns;
  p->K = r->K; p->V = r->V; p->T = r->T; p->H = r->H; p->HV = r->H; p->B = 1; p->N = 1;
  p->kda = r->kda; p->scale = ks; p->chunk = r->C;
  p->qk_l2norm = p->gate_in_kernel = p->beta_sigmoid = r->tr;
  srand(1);
  P->f.q = P->b.q = filled(P, nq, r->dbl, -ks, 2 * ks);
  P->f.k = P->b.k = filled(P, nq, r->dbl, -ks, 2 * ks);
  P->f.v = P->b.v = filled(P, nv, r->dbl, -1, 2);
  /* gates used of about -0.01 to -0.3; with GateInKernel the raw gates in
   * [-1, 1] give about that (below) */
  P->f.g = P->b.g = r->tr ? filled(P, ng, r->dbl, -1, 2) : filled(P, ng, r->dbl, -0.3, 0.29);
  P->f.beta = P->b.beta = filled(P, nb, r->dbl, 0, 1);
  P->f.h0 = P->b.h0 = filled(P, ns, r->dbl, -0.1, 0.2);
  P->f.o = filled(P, nv, r->dbl, 0, 0);
  P->f.ht = filled(P, ns, r->dbl, 0, 0);
  if (r->tr) { /* FLA's initialisation: A in [1, 16], softplus(dt_bias) in
                 [0.001, 0.1] */
    P->f.A_log = P->b.A_log = filled(P, r->H, r->dbl, 0, log(16.0));
    P->f.dt_bias = P->b.dt_bias = filled(P, nd, r->dbl, -6.9, 4.6);
  }
  if (!r->bwd) return;
  if (r->tr) {
    P->b.dA_log = filled(P, r->H, r->dbl, 0, 0);
    P->b.ddt_bias = filled(P, nd, r->dbl, 0, 0);
  }
  P->b.dout = filled(P, nv, r->dbl, -1, 2);
  P->b.dht = filled(P, ns, r->dbl, -1, 2);
  P->b.dq = filled(P, nq, r->dbl, 0, 0);
  P->b.dk = filled(P, nq, r->dbl, 0, 0);
  P->b.dv = filled(P, nv, r->dbl, 0, 0);
  P->b.dg = filled(P, ng, r->dbl, 0, 0);
  P->b.dbeta = filled(P, nb, r->dbl, 0, 0);
  P->b.dh0 = filled(P, ns, r->dbl, 0, 0);
}

static void free_problem(bench_problem *P)
{
  while (P->nmem > 0) free(P->mem[--P->nmem]);
}

/* One run of the row: forward, or forward then backward. */
static int run_row(const row_spec *r, const bench_problem *P)
{
  const int chunk = strcmp(r->what, "chunk") == 0;
  int rc;
  if (chunk)
    rc = r->dbl ? la_chunk_fwd_d(&P->p, &P->f, NULL) : la_chunk_fwd_s(&P->p, &P->f, NULL);
  else
    rc = r->dbl ? la_recurrent_fwd_d(&P->p, &P->f) : la_recurrent_fwd_s(&P->p, &P->f);
  if (rc || !r->bwd) return rc;
  if (chunk) return r->dbl ? la_chunk_bwd_d(&P->p, &P->b) : la_chunk_bwd_s(&P->p, &P->b);
  return r->dbl ? la_recurrent_bwd_d(&P->p, &P->b) : la_recurrent_bwd_s(&P->p, &P->b);
}

/* reps runs of the row back to back while rc is 0, each timed by clock
 * into t[i]; the last rc. */
static int run_timed(const row_spec *r, const bench_problem *P, int reps, double (*clock)(void),
                     double *t, int rc)
{
  int i;
  for (i = 0; i < reps && rc == 0; i++) {
    const double t0 = clock();
    rc = run_row(r, P);
    t[i] = clock() - t0;
  }
  return rc;
}

/* Nominal flops of docs/flops.md for the row (all heads). */
static double row_flops(const row_spec *r)
{
  const double T = (double)r->T, K = (double)r->K, V = (double)r->V, C = (double)r->C;
  const double NC = ceil(T / C), cl = T - (NC - 1) * C;
  const double s2 = (NC - 1) * C * C + cl * cl, s3 = (NC - 1) * C * C * C + cl * cl * cl;
  double f;
  if (strcmp(r->what, "chunk") == 0) {
    f = 6 * T * K * V + (3 * K + 2 * V) * s2 + s3 / 3;
    if (r->bwd) f += 14 * T * K * V + (9 * K + 5 * V) * s2 + 5 * s3 / 3 + 2 * (NC - 1) * C * K * V;
  } else {
    f = 7 * T * K * V;
    if (r->bwd) f += 20 * T * K * V + 5 * K * V * (2 * T - cl - NC);
  }
  return f * (double)r->H;
}

/* The gemm reference: square n x n product, class of the row. */
typedef struct {
  ptrdiff_t n;
  float *as, *bs, *cs;
  double *ad, *bd, *cd;
} gemm_ref;

static double time_gemm(gemm_ref *g, int dbl)
{
  const double t0 = now();
  if (dbl) la_gemm_d('N', 'N', g->n, g->n, g->n, 1, g->ad, g->n, g->bd, g->n, 0, g->cd, g->n);
  else la_gemm_s('N', 'N', g->n, g->n, g->n, 1, g->as, g->n, g->bs, g->n, 0, g->cs, g->n);
  return now() - t0;
}

static void gemm_init(gemm_ref *g, ptrdiff_t n)
{
  const size_t nn = (size_t)(n * n);
  size_t i;
  g->n = n;
  g->as = malloc(nn * sizeof(float)); g->bs = malloc(nn * sizeof(float));
  g->cs = malloc(nn * sizeof(float)); g->ad = malloc(nn * sizeof(double));
  g->bd = malloc(nn * sizeof(double)); g->cd = malloc(nn * sizeof(double));
  if (!g->as || !g->bs || !g->cs || !g->ad || !g->bd || !g->cd) {
    fprintf(stderr, "bench_core: out of memory\n");
    exit(2);
  }
  for (i = 0; i < nn; i++) {
    g->ad[i] = g->as[i] = (float)rand() / RAND_MAX - 0.5f;
    g->bd[i] = g->bs[i] = (float)rand() / RAND_MAX - 0.5f;
    g->cd[i] = g->cs[i] = 0;
  }
}

static void gemm_free(gemm_ref *g)
{
  free(g->as); free(g->bs); free(g->cs);
  free(g->ad); free(g->bd); free(g->cd);
}

/* Timings of one row: median, min, max of the row, the median rate of the
 * settled gemm of the same reps and the median ratio of the gemm started
 * right after the row to it. */
typedef struct {
  double med, lo, hi, gemm_gf, next;
  double pair_med, pair_lo, pair_hi; /* the ratio rep by rep: row time against its own gemm */
  double blas; /* built with LA_TIME_BLAS: median seconds in gemm, summed over threads */
  /* built with LA_TIME_BLAS: per stage (la_flops.h, la_stage_id) its seconds
   * summed over threads as a share of threads x the rep's time; the rest of
   * the intra-chunk phase ("other") and the time in no stage ("waiting"):
   * each the median over the reps of the rep's own share */
  double share[LA_ST_COUNT], other, waiting;
  int rc;
} row_time;

/* Seconds spent in gemm so far, summed over threads: the core built with
 * -DLA_TIME_BLAS (bench_core_blas) adds them up (la_flops.h); 0 otherwise. */
#ifdef LA_TIME_BLAS
double la_blas_seconds, la_stage_seconds[LA_ST_COUNT];
static double blas_seconds(void) { return la_blas_seconds; }
static double stage_seconds(int s) { return la_stage_seconds[s]; }
#else
static double blas_seconds(void) { return 0; }
static double stage_seconds(int s) { return (void)s, 0; }
#endif

/* OpenBLAS's pthread workers keep spinning for about 0.1 s after a
 * threaded gemm, and libgomp's for a few ms after the row's parallel
 * regions (docs/performance.md); a kernel started at once shares the cores
 * with them.  Each gemm and each row waits LA_BENCH_SETTLE seconds first so
 * that the ratio compares the two kernels; the "hot" rows and the "next
 * gemm" column measure the cost of starting at once. */
#define LA_BENCH_SETTLE 0.25

static void settle(void)
{
  struct timespec ts;
  ts.tv_sec = 0;
  ts.tv_nsec = (long)(LA_BENCH_SETTLE * 1e9);
  nanosleep(&ts, NULL);
}

static int max_threads(void)
{
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

static row_time time_row(const row_spec *r, gemm_ref *g, int reps)
{
  bench_problem P;
  const double gemm_flops = 2.0 * (double)(g->n * g->n) * (double)g->n;
  const double pair = row_flops(r) / gemm_flops; /* tr below: gemm time / row time */
  const int th = max_threads();
  double t[256], tg[256], tn[256], tb[256], tr[256], ts[LA_ST_COUNT][256], to[256], tw[256];
  row_time out;
  int i, st;
  make_problem(r, &P);
  out.rc = run_row(r, &P); /* warm-up: workspaces, BLAS buffers */
  for (i = 0; i < reps && out.rc == 0; i++) {
    double t0;
    settle();
    tg[i] = time_gemm(g, r->dbl);
    if (!r->hot) settle();
    tb[i] = blas_seconds();
    for (st = 0; st < LA_ST_COUNT; st++) ts[st][i] = stage_seconds(st);
    t0 = now();
    out.rc = run_row(r, &P);
    t[i] = now() - t0;
    tb[i] = blas_seconds() - tb[i];
    for (st = 0; st < LA_ST_COUNT; st++) ts[st][i] = (stage_seconds(st) - ts[st][i]) / (th * t[i]);
    /* the intra phase's own parts, and every stage at the top (the
     * backward's reverse parts stand for its last task) */
    to[i] = ts[LA_ST_INTRA][i];
    for (st = LA_ST_GATING; st <= LA_ST_WU; st++) to[i] -= ts[st][i];
    tw[i] = 1 - ts[LA_ST_INTRA][i];
    for (st = LA_ST_STATE; st < LA_ST_COUNT; st++) tw[i] -= ts[st][i];
    tn[i] = tg[i] / time_gemm(g, r->dbl); /* rate after the row / settled rate */
    tr[i] = tg[i] / t[i];                  /* times `pair` below: the ratio of this rep */
  }
  free_problem(&P);
  out.gemm_gf = gemm_flops / median(tg, reps) / 1e9;
  out.next = median(tn, reps);
  out.pair_med = median(tr, reps) * pair; /* sorts tr */
  out.pair_lo = tr[0] * pair;
  out.pair_hi = tr[reps - 1] * pair;
  out.blas = median(tb, reps);
  for (st = 0; st < LA_ST_COUNT; st++) out.share[st] = median(ts[st], reps);
  out.other = median(to, reps);
  out.waiting = median(tw, reps);
  out.med = median(t, reps);
  out.lo = t[0];
  out.hi = t[reps - 1];
  return out;
}

/* Median, min and max microseconds per call of `calls` runs of the row,
 * over reps timed reps after one warm-up rep; with gap > 0 the calling
 * thread spins gap seconds before each call (not counted), as a caller
 * that does other work between calls. */
static void time_calls(const row_spec *r, const bench_problem *P, int reps, int calls,
                       double gap, double out[3])
{
  double t[256];
  int i, j;
  for (i = 0; i <= reps; i++) {
    double spent = 0;
    for (j = 0; j < calls; j++) {
      double t0 = now();
      if (gap > 0) {
        while (now() - t0 < gap) {}
        t0 = now();
      }
      run_row(r, P);
      spent += now() - t0;
    }
    t[i > 0 ? i - 1 : 0] = 1e6 * spent / calls;
  }
  out[0] = median(t, reps); /* sorts t */
  out[1] = t[0];
  out[2] = t[reps - 1];
}

/* Decode: a T = 1 call with the state in and out (200 calls per rep: one
 * call is too short for the clock) against the arithmetic of one step: a
 * T = 1024 call / 1024 (the state stays in cache, in place), on one thread
 * and on all.  A call as small as H = 4 runs on the calling thread
 * (la_run.tmpl.h); H = 32 is parallel.  "spaced" times the same calls
 * LA_BENCH_GAP s apart, as Octave spaces them (its copy of the outputs):
 * idle workers have gone to sleep and must be woken, and the vector units'
 * upper halves may have powered down.  Rows "| decode kda |" are read by
 * validation/bench/bench_decode.m. */
#define LA_BENCH_GAP 1e-3
static void time_decode(const row_spec *r, int reps)
{
  row_spec longr = *r;
  bench_problem P;
  double call[3], spaced[3], step[3], step_all[3], own;
  const int threads = max_threads();
  int alone; /* the T = 1 call runs on the calling thread */
  longr.T = 1024;
  make_problem(&longr, &P);
  time_calls(&longr, &P, reps, 1, 0, step_all);
#ifdef _OPENMP
  omp_set_num_threads(1);
#endif
  time_calls(&longr, &P, reps, 1, 0, step);
#ifdef _OPENMP
  omp_set_num_threads(threads);
#endif
  free_problem(&P);
  make_problem(r, &P);
  alone = la_small_call(&P.p);
  time_calls(r, &P, reps, 200, 0, call);
  time_calls(r, &P, reps, 50, LA_BENCH_GAP, spaced);
  free_problem(&P);
  own = (alone ? step[0] : step_all[0]) / longr.T;
  printf("| decode %s | %s | %td | %td | %d | %.2f (%.2f, %.2f) | %.2f (%.2f, %.2f) | %.2f | "
         "%.2f | %.2f | %.2f (%.2f, %.2f) | %.2f |\n",
         r->kda ? "kda" : "gdn", r->dbl ? "double" : "single", r->H, r->K, alone ? 1 : threads,
         call[0], call[1], call[2], step[0] / longr.T, step[1] / longr.T, step[2] / longr.T,
         step_all[0] / longr.T, own, call[0] - own, spaced[0], spaced[1], spaced[2],
         spaced[0] - own);
  fflush(stdout);
}

/* Calls after idle: the row after a pause of LA_BENCH_SETTLE s with nothing
 * in between (the OpenMP workers asleep), reps alternating with and without
 * worker placement (the tuning's no_spread set for every other rep, la_platform.c).
 * Prints medians (min, max) of each, and of the same row back to back. */
static void time_idle(const row_spec *r, int reps)
{
  bench_problem P;
  double on[256], off[256], warm[256];
  int i, rc;
  make_problem(r, &P);
  rc = run_row(r, &P);
  for (i = 0; i < 2 * reps && rc == 0; i++) {
    double t0;
    la_tune("no_spread", i % 2);
    settle();
    t0 = now();
    rc = run_row(r, &P);
    (i % 2 ? off : on)[i / 2] = now() - t0;
  }
  la_tune("no_spread", 0);
  rc = run_timed(r, &P, reps, now, warm, rc);
  free_problem(&P);
  if (rc) {
    printf("| %s | error %d |\n", row_label(r), rc);
    return;
  }
  {
    const double mon = median(on, reps), moff = median(off, reps); /* sorts them */
    printf("| %s | %s | %s | %td | %td | %.5f (%.5f, %.5f) | %.5f (%.5f, %.5f) | %.5f |\n",
           row_label(r), r->dbl ? "double" : "single",
           r->bwd ? "fwd+bwd" : "fwd", r->H, r->K, mon, on[0], on[reps - 1], moff, off[0],
           off[reps - 1], median(warm, reps));
  }
  fflush(stdout);
}

/* rms(b - a) / rms(a) of n values of one class (0 when a is all zero and b
 * equals it). */
static double rms_ratio(const void *a, const void *b, ptrdiff_t n, int dbl)
{
  double se = 0, sa = 0;
  ptrdiff_t i;
  for (i = 0; i < n; i++) {
    const double x = dbl ? ((const double *)a)[i] : ((const float *)a)[i];
    const double y = dbl ? ((const double *)b)[i] : ((const float *)b)[i];
    se += (y - x) * (y - x);
    sa += x * x;
  }
  return sa > 0 ? sqrt(se / sa) : (se > 0 ? INFINITY : 0);
}

/* Two ways of one call of the chunked forward (la_chunk_fwd.tmpl.h),
 * paired: each of `pairs` reps makes one call as is (A) and one with the
 * core's tuning switch `tune` set (B, la_tune) back to back, which goes first
 * alternating, so that both see the same moment of a shared machine; the
 * ratio A / B is taken pair by pair.  Prints the median seconds of each,
 * the median (quartiles) of the ratios, whether every call gave its own
 * way's first bits of o and ht, and how B's first o and ht compare with
 * A's: "same bits" or rms(B - A) / rms(A).  A forward + backward row
 * changes only in its forward. */
static void time_paired(const row_spec *r, int pairs, const char *tune, double *med)
{
  bench_problem P;
  double t[2][BENCH_MAX_PAIRS], ratio[BENCH_MAX_PAIRS];
  const size_t es = r->dbl ? sizeof(double) : sizeof(float);
  size_t no, ns;
  char *o0[2], *ht0[2], cmp[64];
  int i, k, rc = 0, repro = 1;
  make_problem(r, &P);
  no = es * (size_t)P.nv;
  ns = es * (size_t)P.ns;
  for (k = 0; k < 2; k++)
    if (!(o0[k] = malloc(no)) || !(ht0[k] = malloc(ns))) {
      fprintf(stderr, "bench_core: out of memory\n");
      exit(2);
    }
  for (i = -1; i < pairs && rc == 0; i++) /* i = -1: each way's first call, untimed */
    for (k = 0; k < 2 && rc == 0; k++) {
      const int b = (i + k + 2) % 2;
      double t0;
      la_tune(tune, b);
      t0 = now();
      rc = run_row(r, &P);
      if (i < 0) {
        memcpy(o0[b], P.f.o, no);
        memcpy(ht0[b], P.f.ht, ns);
        continue;
      }
      t[b][i] = now() - t0;
      repro = repro && !memcmp(o0[b], P.f.o, no) && !memcmp(ht0[b], P.f.ht, ns);
    }
  la_tune(tune, 0);
  if (!memcmp(o0[0], o0[1], no) && !memcmp(ht0[0], ht0[1], ns))
    snprintf(cmp, sizeof cmp, "same bits");
  else
    snprintf(cmp, sizeof cmp, "o %.1e, ht %.1e", rms_ratio(o0[0], o0[1], P.nv, r->dbl),
             rms_ratio(ht0[0], ht0[1], P.ns, r->dbl));
  free_problem(&P);
  for (k = 0; k < 2; k++) {
    free(o0[k]);
    free(ht0[k]);
  }
  if (med) med[0] = med[1] = NAN;
  if (rc) {
    printf("| %s | %s | error %d |\n", row_label(r), r->dbl ? "double" : "single", rc);
    return;
  }
  for (i = 0; i < pairs; i++) ratio[i] = t[0][i] / t[1][i];
  if (med) {
    med[0] = median(t[0], pairs);
    med[1] = median(t[1], pairs);
  }
  {
    const double mr = median(ratio, pairs); /* sorts ratio */
    printf("| %s | %s | %s | %td | %td | %td | %td | %.5f | %.5f | %.3f (%.3f-%.3f) | %s | %s |\n",
           row_label(r), r->dbl ? "double" : "single", r->bwd ? "fwd+bwd" : "fwd", r->T, r->H,
           r->K, r->C, median(t[0], pairs), median(t[1], pairs), mr, ratio[pairs / 4],
           ratio[3 * pairs / 4], repro ? "yes" : "NO", cmp);
  }
  fflush(stdout);
}

/* The machine's single-precision FMA peak, GFLOP/s on all threads: each
 * thread runs 12 independent chains of vector FMAs (enough to cover the
 * FMA latency on two ports) for about 0.1 s; the best of 3.  bits: 512
 * (where the compiler targets AVX-512) or 256; 0 when neither is there. */
static double fma_peak(int bits)
{
  const long iters = 4000000;
  double best = 0;
  int round;
#if defined(__AVX2__) && defined(__FMA__)
  for (round = 0; round < 3; round++) {
    double t0 = now(), dt;
    int nth = 1;
    float sink = 0;
#pragma omp parallel reduction(+ : sink)
    {
      long i;
      int j;
      nth = omp_get_num_threads();
      if (bits == 256) {
        __m256 a[12], x = _mm256_set1_ps(0.999999f), y = _mm256_set1_ps(1e-7f);
        for (j = 0; j < 12; j++) a[j] = _mm256_set1_ps((float)j);
        for (i = 0; i < iters; i++)
          for (j = 0; j < 12; j++) a[j] = _mm256_fmadd_ps(a[j], x, y);
        for (j = 0; j < 12; j++) sink += _mm256_cvtss_f32(a[j]);
      }
#ifdef __AVX512F__
      else {
        __m512 a[12], x = _mm512_set1_ps(0.999999f), y = _mm512_set1_ps(1e-7f);
        for (j = 0; j < 12; j++) a[j] = _mm512_set1_ps((float)j);
        for (i = 0; i < iters; i++)
          for (j = 0; j < 12; j++) a[j] = _mm512_fmadd_ps(a[j], x, y);
        for (j = 0; j < 12; j++) sink += _mm512_reduce_add_ps(a[j]);
      }
#endif
    }
    dt = now() - t0;
    if (sink == 12345.678f) printf(" "); /* keeps the chains */
    {
      const double gf = 2.0 * 12 * (bits / 32) * (double)iters * nth / dt / 1e9;
      if (gf > best) best = gf;
    }
  }
#ifndef __AVX512F__
  if (bits == 512) best = 0;
#endif
#else
  (void)bits;
  (void)round;
#endif
  return best;
}

/* The engine's share: each goal row with the small products on libxsmm and
 * on BLAS (tuning no_xsmm), paired in one process (time_paired), and each
 * way's GFLOP/s over the machine's FMA peak measured here: the peak of the
 * vector width the engine's target uses (LIBXSMM_TARGET=hsw: 256 bits). */
/* The vector width of the engine's target: 256 bits with
 * LIBXSMM_TARGET=hsw (or avx2), else 512. */
static int engine_bits(void)
{
  const char *target = getenv("LIBXSMM_TARGET");
  return target && (!strcmp(target, "hsw") || !strcmp(target, "avx2")) ? 256 : 512;
}

static void engine_table(const row_spec *rows, size_t nrows, int pairs)
{
  int bits = engine_bits();
  double peak = fma_peak(bits);
  double med[64][2];
  size_t i, n = 0;
  if (peak <= 0) peak = fma_peak(bits = 256);
  printf("\nThe GEMM engine (docs/performance.md): %s.  Single-precision FMA peak of this "
         "machine, measured now (all %d threads, %d-bit vectors): %.1f GFLOP/s.\n",
         la_gemm_engine(), max_threads(), bits, peak);
#ifndef LA_HAVE_LIBXSMM
  printf("A BLAS-only build: nothing to pair.\n");
  (void)rows; (void)nrows; (void)pairs; (void)med; (void)i; (void)n;
#else
  printf("Goal rows, %d pairs each, the small products on libxsmm and on BLAS (tuning no_xsmm) "
         "back to back, the order alternating; seconds, medians; the ratio pair by pair, "
         "median (quartiles); reproducible: every call's o and ht those of its way's first; "
         "BLAS's o and ht against libxsmm's.\n\n"
         "| row | class | mode | T | H | K=V | C | libxsmm s | BLAS s | libxsmm / BLAS "
         "| reproducible | BLAS vs libxsmm |\n"
         "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|\n", pairs);
  for (i = 0; i < nrows && n < 64; i++)
    if (rows[i].goal && !rows[i].hot) time_paired(&rows[i], pairs, "no_xsmm", med[n++]);
  printf("\nThe same rows' rates: GFLOP/s (nominal flops / median seconds) and their fraction "
         "of the FMA peak above.\n\n| row | class | mode | H | K=V | C | libxsmm GFLOP/s "
         "| BLAS GFLOP/s | libxsmm of peak | BLAS of peak |\n"
         "|---|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
  for (i = 0, n = 0; i < nrows && n < 64; i++)
    if (rows[i].goal && !rows[i].hot) {
      const double f = row_flops(&rows[i]) / 1e9, a = f / med[n][0], b = f / med[n][1];
      n++;
      printf("| %s | %s | %s | %td | %td | %td | %.1f | %.1f | %.2f | %.2f |\n",
             row_label(&rows[i]), rows[i].dbl ? "double" : "single",
             rows[i].bwd ? "fwd+bwd" : "fwd", rows[i].H, rows[i].K, rows[i].C, a, b, a / peak,
             b / peak);
    }
#endif
  fflush(stdout);
}

/* OpenBLAS's own report of its kernels, if OpenBLAS is linked. */
extern char *openblas_get_corename(void) __attribute__((weak));
extern char *openblas_get_config(void) __attribute__((weak));

/* Seconds of `calls` runs of one product back to back. */
static double time_product(char ta, char tb, ptrdiff_t m, ptrdiff_t n, ptrdiff_t k, const float *A,
                           const float *B, float *C, long calls)
{
  const double t0 = now();
  long c;
  for (c = 0; c < calls; c++)
    la_gemm_s(ta, tb, m, n, k, 1, A, ta == 'N' ? m : k, B, tb == 'N' ? k : n, 1, C, m);
  return now() - t0;
}

/* The chunk's products one at a time: the shapes that carry most of the
 * goal rows' single-precision flops (with their share), on one thread with
 * the operands in cache, through the core's interface (la_gemm_s: libxsmm
 * where it takes the product) and on BLAS (tuning no_xsmm), each against
 * the 1024^3 sgemm and the FMA peak of one thread measured in the same run.
 * What the chunked rows can reach is bounded by these rates: a row's ratio
 * to the large sgemm is at most its GEMMs' (bench_core_blas, "GEMMs alone"). */
static void shapes_table(void)
{
  static const struct { char ta, tb; int m, n, k; double share; } sh[] = {
    {'T', 'N', 128, 128, 128, 0.18}, {'N', 'T', 128, 128, 64, 0.13},
    {'T', 'N', 128, 64, 128, 0.09},  {'N', 'T', 128, 128, 128, 0.09},
    {'N', 'N', 128, 128, 128, 0.09}, {'N', 'T', 128, 32, 64, 0.06},
    {'T', 'N', 64, 64, 128, 0.05},   {'N', 'N', 128, 64, 128, 0.05},
    {'N', 'T', 128, 32, 32, 0.03},   {'T', 'N', 16, 48, 128, 0.03},
    {'N', 'N', 64, 128, 128, 0.00},  {'N', 'N', 64, 128, 64, 0.00}};
  const ptrdiff_t big = 1024;
  const int threads = max_threads();
  float *A = malloc(128 * 128 * sizeof *A), *B = malloc(128 * 128 * sizeof *B);
  float *C = malloc(128 * 128 * sizeof *C);
#define NSHAPES (sizeof sh / sizeof sh[0])
  gemm_ref g;
  double peak, gemm_gf, tg = INFINITY, te[NSHAPES], tb[NSHAPES];
  long calls[NSHAPES];
  int run, bits = engine_bits(), blas_threads;
  size_t i;
  if (!A || !B || !C) {
    fprintf(stderr, "bench_core: out of memory\n");
    exit(2);
  }
  for (i = 0; i < 128 * 128; i++) {
    A[i] = (float)rand() / RAND_MAX - 0.5f;
    B[i] = (float)rand() / RAND_MAX - 0.5f;
    C[i] = 0;
  }
#ifdef _OPENMP
  omp_set_num_threads(1);
#endif
  blas_threads = la_blas_threads_begin(); /* OpenBLAS on one thread */
  peak = fma_peak(bits);
  if (peak <= 0) peak = fma_peak(bits = 256);
  for (i = 0; i < NSHAPES; i++) calls[i] = (long)(2e8 / (2.0 * sh[i].m * sh[i].n * sh[i].k)) + 1;
  gemm_init(&g, big);
  for (i = 0; i < NSHAPES; i++) te[i] = tb[i] = INFINITY;
  for (run = 0; run < 9; run++) { /* interleaved, the best of each: what the kernels can do */
    const double t = time_gemm(&g, 0);
    if (t < tg) tg = t;
    for (i = 0; i < NSHAPES; i++) {
      double x;
      x = time_product(sh[i].ta, sh[i].tb, sh[i].m, sh[i].n, sh[i].k, A, B, C, calls[i]);
      if (x < te[i]) te[i] = x;
      la_tune("no_xsmm", 1);
      x = time_product(sh[i].ta, sh[i].tb, sh[i].m, sh[i].n, sh[i].k, A, B, C, calls[i]);
      la_tune("no_xsmm", 0);
      if (x < tb[i]) tb[i] = x;
    }
  }
  gemm_free(&g);
  gemm_gf = 2.0 * big * big * big / tg / 1e9;
  printf("\nThe chunk's products one at a time (%s): one thread, operands in cache, the best "
         "of 9 interleaved runs; the shapes carrying most of the goal rows' single-precision "
         "flops (share of them; two more for reference).  On one thread the FMA peak is %.1f "
         "GFLOP/s (%d-bit vectors; 0: not measured in a build without AVX2) and the 1024^3 "
         "sgemm %.1f GFLOP/s (%.2f of the peak).\n\n"
         "| product | share of flops | engine GFLOP/s | vs sgemm 1024 | of peak | BLAS GFLOP/s "
         "| vs sgemm 1024 |\n|---|---:|---:|---:|---:|---:|---:|\n",
         la_gemm_engine(), peak, bits, gemm_gf, peak > 0 ? gemm_gf / peak : 0);
  for (i = 0; i < NSHAPES; i++) {
    const double f = 2.0 * sh[i].m * sh[i].n * sh[i].k * calls[i] / 1e9;
    char of_peak[16] = "-"; /* no FMA loop in a build without AVX2 */
    if (peak > 0) snprintf(of_peak, sizeof of_peak, "%.2f", f / te[i] / peak);
    printf("| %c%c %d x %d x %d | %.2f | %.1f | %.2f | %s | %.1f | %.2f |\n", sh[i].ta, sh[i].tb,
           sh[i].m, sh[i].n, sh[i].k, sh[i].share, f / te[i], f / te[i] / gemm_gf, of_peak,
           f / tb[i], f / tb[i] / gemm_gf);
  }
  la_blas_threads_end(blas_threads);
#ifdef _OPENMP
  omp_set_num_threads(threads);
#endif
  free(A);
  free(B);
  free(C);
  fflush(stdout);
#undef NSHAPES
}

static const char *env_or(const char *name, const char *dflt)
{
  const char *v = getenv(name);
  return v && *v ? v : dflt;
}

static void print_header(int reps, ptrdiff_t n, int table)
{
  printf("bench_core: the core without Octave; each rep = a pause of %.2f s, one %tdx%td gemm, "
         "the pause again (none for the rows marked hot), the row, one more gemm at once "
         "(\"next gemm\": its rate over the first's); median of %d reps (min, max shown)\n\n",
         LA_BENCH_SETTLE, n, n, reps);
  printf("- BLAS: %s; kernels (core type): %s\n",
         openblas_get_config ? openblas_get_config() : "unknown",
         openblas_get_corename ? openblas_get_corename() : "unknown");
  printf("- GEMM engine of the chunk's small products: %s\n", la_gemm_engine());
  printf("- OPENBLAS_CORETYPE=%s LIBXSMM_TARGET=%s OPENBLAS_NUM_THREADS=%s OMP_NUM_THREADS=%s "
         "OMP_WAIT_POLICY=%s GOMP_SPINCOUNT=%s\n\n",
         env_or("OPENBLAS_CORETYPE", "(unset)"), env_or("LIBXSMM_TARGET", "(unset)"), env_or("OPENBLAS_NUM_THREADS", "(unset)"),
         env_or("OMP_NUM_THREADS", "(unset)"), env_or("OMP_WAIT_POLICY", "(unset)"),
         env_or("GOMP_SPINCOUNT", "(unset)"));
  if (!table) return; /* a mode without the rows' table */
  printf("| row | class | mode | T | H | K=V | C | median s | min s | max s | tokens/s | GFLOP/s "
         "| gemm GFLOP/s (same reps) | vs gemm | next gemm | vs gemm rep by rep |\n");
  printf("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
}

static void print_row(const row_spec *r, const row_time *t)
{
  const double gf = row_flops(r) / t->med / 1e9;
  if (t->rc) {
    printf("| %s | %s | error %d |\n", row_label(r), r->dbl ? "double" : "single", t->rc);
    return;
  }
  printf("| %s | %s | %s | %td | %td | %td | %td | %.5f | %.5f | %.5f | %.0f | %.1f | %.1f "
         "| %.2f | %.2f | %.2f (%.2f-%.2f) |\n", row_label(r),
         r->dbl ? "double" : "single",
         r->bwd ? "fwd+bwd" : "fwd", r->T, r->H, r->K, r->C, t->med, t->lo, t->hi,
         (double)r->T / t->med, gf, t->gemm_gf, gf / t->gemm_gf, t->next, t->pair_med,
         t->pair_lo, t->pair_hi);
  fflush(stdout);
}

#ifdef LA_TIME_BLAS

/* The first cells of a stage table's line for row r, if it is a chunked
 * row at T = 2048 of that mode (bwd) that ran; else 0, nothing printed. */
static int stage_row_head(const row_spec *r, const row_time *t, int bwd)
{
  if (r->hot || r->bwd != bwd || strcmp(r->what, "chunk") != 0 || r->T != 2048 || t->rc)
    return 0;
  printf("| %s | %s | %td | %td | %td", row_label(r), r->dbl ? "double" : "single", r->H, r->K,
         r->C);
  return 1;
}

/* The cells of the stages [s0, s1] of t (their shares). */
static void stage_cells(const row_time *t, int s0, int s1)
{
  int st;
  for (st = s0; st <= s1; st++) printf(" | %.2f", t->share[st]);
}

/* Where a forward row's and a forward + backward row's time goes: the
 * stages (la_flops.h, la_stage_id) as shares of the threads' time, threads
 * x the rep's time, each the median over the reps. */
static void print_stage_table(const row_spec *rows, const row_time *times, size_t nrows)
{
  const int th = max_threads();
  size_t i;
  printf("\nWhere the forward's time goes (the same build and runs; the core's stages timed, "
         "la_flops.h): the seconds of each stage, summed over the threads, as a share of %d x "
         "the rep's time, the median over the reps.  The chunks' intra-chunk work is split into "
         "its stages (\"other\": the rest of it: copies, the emulation, the transforms chunk by "
         "chunk); \"waiting\": the threads' time in neither it nor the state pass (barriers, "
         "the start of the region, the transforms of a whole call).  GEMMs run inside "
         "\"off-diag\", \"w, u\" and \"state pass\"; \"w, u\" is the WY form's only ('Emulate', "
         "tuning wy_form): the direct form applies A in the state pass.\n\n", th);
  printf("| row | class | H | K=V | C | intra phase | gating | diag | scale | off-diag | solve "
         "| w, u | other | state pass | waiting |\n"
         "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (i = 0; i < nrows; i++) {
    const row_time *t = &times[i];
    if (!stage_row_head(&rows[i], t, 0)) continue;
    stage_cells(t, LA_ST_INTRA, LA_ST_WU);
    printf(" | %.2f | %.2f | %.2f |\n", t->other, t->share[LA_ST_STATE], t->waiting);
  }
  printf("\nWhere the forward + backward's time goes (the same runs, the same shares): the "
         "forward's intra-chunk work and state pass, then the backward's tasks (forward sweep: "
         "a chunk's intra-chunk work again, Aqk with it, its state step; reverse sweep: decays "
         "and gated q, k again with the output's backward, the state gradient's step) and the "
         "parts of its last task (the "
         "state's local gradients, the backward of w, u and the solve, of the gated products, "
         "of the decays); \"waiting\": the threads' time in none of them.\n\n");
  printf("| row | class | H | K=V | C | fwd intra | fwd state | bwd again | bwd state | rev pre "
         "| rev chain | state grads | w, u, solve | gated products | decays | waiting |\n"
         "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (i = 0; i < nrows; i++) {
    const row_time *t = &times[i];
    if (!stage_row_head(&rows[i], t, 1)) continue;
    printf(" | %.2f", t->share[LA_ST_INTRA]);
    stage_cells(t, LA_ST_STATE, LA_ST_B_DECAYS);
    printf(" | %.2f |\n", t->waiting);
  }
  fflush(stdout);
}

/* bench_core_blas: per chunked row, the time its GEMMs take as the core
 * calls them (summed over threads, over the threads), and the ratio the row
 * would reach if everything else took no time: the GEMMs' own ceiling;
 * then where the chunked rows' time goes (print_stage_table). */
static void print_blas_table(const row_spec *rows, size_t nrows, gemm_ref *g, int reps,
                             int only_goals)
{
  const int th = max_threads();
  row_time *times = calloc(nrows, sizeof *times);
  size_t i;
  if (!times) {
    fprintf(stderr, "bench_core: out of memory\n");
    exit(2);
  }
  printf("Time in BLAS (`bench_core_blas`: the core built with -DLA_TIME_BLAS, each gemm call "
         "timed); kernels: %s; %d threads.  \"in gemm\": median seconds per call spent in "
         "gemm, summed over the threads; \"share\": that over %d x the call's time; \"GEMMs "
         "alone\": the ratio to the same-run gemm the row would reach if everything outside "
         "its GEMMs took no time (nominal flops over in-gemm seconds / %d).\n\n",
         openblas_get_corename ? openblas_get_corename() : "unknown", th, th, th);
  printf("| row | class | mode | H | K=V | C | median s | in gemm s | share | vs gemm "
         "| GEMMs alone |\n|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (i = 0; i < nrows; i++) {
    const row_spec *r = &rows[i];
    row_time *t = &times[i];
    double gf;
    t->rc = 1; /* not run */
    if (r->hot || strcmp(r->what, "chunk") != 0 || r->T != 2048 || (only_goals && !r->goal))
      continue;
    *t = time_row(r, g, reps);
    if (t->rc) {
      printf("| %s | error %d |\n", row_label(r), t->rc);
      continue;
    }
    gf = row_flops(r) / 1e9;
    printf("| %s | %s | %s | %td | %td | %td | %.5f | %.5f | %.2f | %.2f | %.2f |\n",
           row_label(r), r->dbl ? "double" : "single", r->bwd ? "fwd+bwd" : "fwd", r->H, r->K,
           r->C, t->med, t->blas, t->blas / (th * t->med), gf / t->med / t->gemm_gf,
           gf / (t->blas / th) / t->gemm_gf);
    fflush(stdout);
  }
  print_stage_table(rows, times, nrows);
  free(times);
}
#endif

/* profile ROW: the row `reps` times back to back after one warm-up (the
 * JIT's dispatch, the workspaces); prints its label and the median CPU
 * seconds per call.  Nothing else runs, so a sampling profiler attached
 * to the program (bench_profile.sh) sees the row and its inputs' setup. */
static int profile_row(const row_spec *r, int reps)
{
  bench_problem P;
  double t[256];
  int rc;
  make_problem(r, &P);
  rc = run_timed(r, &P, reps, cpu_now, t, run_row(r, &P));
  free_problem(&P);
  if (rc) {
    printf("| %s | error %d |\n", row_label(r), rc);
    return 1;
  }
  printf("| %s | %s | %s | %td | %td | %d threads | %.5f s CPU per call |\n", row_label(r),
         r->dbl ? "double" : "single", r->bwd ? "fwd+bwd" : "fwd", r->H, r->K, max_threads(),
         median(t, reps));
  return 0;
}

int main(int argc, char **argv)
{
  /* what, dbl, bwd, kda, T, H, K, V, C, hot, goal, tr */
  static const row_spec rows[] = {
    {"chunk", 0, 0, 1, 2048, 4, 128, 128, 64, 0, 1, 0},
    {"chunk", 0, 0, 1, 2048, 4, 128, 128, 32, 0, 0, 0},
    {"chunk", 0, 1, 1, 2048, 4, 128, 128, 64, 0, 1, 0},
    {"chunk", 0, 1, 1, 2048, 4, 128, 128, 32, 0, 0, 0},
    {"chunk", 0, 0, 1, 2048, 1, 128, 128, 64, 0, 1, 0},
    {"chunk", 0, 0, 1, 2048, 3, 128, 128, 64, 0, 0, 0},
    /* the backward's tasks (fewer items than threads, a short last round) */
    {"chunk", 0, 1, 1, 2048, 1, 128, 128, 64, 0, 0, 0},
    {"chunk", 0, 1, 1, 2048, 3, 128, 128, 64, 0, 0, 0},
    {"chunk", 0, 0, 1, 2048, 4, 64, 64, 64, 0, 1, 0},
    {"chunk", 0, 0, 1, 2048, 4, 32, 32, 64, 0, 0, 0},
    {"chunk", 1, 0, 1, 2048, 4, 128, 128, 64, 0, 1, 0},
    {"chunk", 1, 1, 1, 2048, 4, 128, 128, 64, 0, 1, 0},
    {"chunk", 0, 0, 0, 2048, 4, 128, 128, 64, 0, 0, 0},
    {"chunk", 0, 0, 1, 8192, 4, 128, 128, 64, 0, 0, 0},
    {"rec", 0, 0, 1, 2048, 4, 128, 128, 64, 0, 0, 0},
    {"chunk", 0, 1, 1, 2048, 4, 128, 128, 64, 1, 0, 0},
    {"chunk", 0, 0, 1, 2048, 4, 128, 128, 64, 1, 0, 0},
    {"chunk", 0, 0, 1, 2048, 4, 128, 128, 64, 0, 0, 1},
    {"chunk", 0, 1, 1, 2048, 4, 128, 128, 64, 0, 0, 1},
  };
  static const row_spec idle[] = {{"chunk", 0, 0, 1, 2048, 4, 128, 128, 64, 0, 0, 0},
                                   {"chunk", 0, 0, 1, 2048, 1, 128, 128, 64, 0, 0, 0},
                                   {"chunk", 0, 1, 1, 2048, 4, 128, 128, 64, 0, 0, 0}};
  /* the schedule per item applies (items divide among 2 threads) */
  static const row_spec sched[] = {{"chunk", 0, 0, 1, 2048, 4, 128, 128, 64, 0, 0, 0},
                                    {"chunk", 0, 0, 1, 2048, 4, 64, 64, 64, 0, 0, 0},
                                    {"chunk", 0, 0, 1, 2048, 2, 128, 128, 64, 0, 0, 0},
                                    {"chunk", 0, 0, 1, 2048, 4, 128, 128, 32, 0, 0, 0},
                                    {"chunk", 0, 0, 1, 8192, 4, 128, 128, 64, 0, 0, 0},
                                    {"chunk", 1, 0, 1, 2048, 4, 128, 128, 64, 0, 0, 0},
                                    {"chunk", 0, 1, 1, 2048, 4, 128, 128, 64, 0, 0, 0}};
  /* the backward's ring of tasks (H = 1 and 3 on 2 threads) */
  static const row_spec bwd_ring[] = {{"chunk", 0, 1, 1, 2048, 1, 128, 128, 64, 0, 0, 0},
                                       {"chunk", 0, 1, 1, 2048, 3, 128, 128, 64, 0, 0, 0},
                                       {"chunk", 0, 1, 1, 2048, 1, 64, 64, 64, 0, 0, 0},
                                       {"chunk", 1, 1, 1, 2048, 1, 128, 128, 64, 0, 0, 0}};
  /* the forms: both schedules, K = V = 64 and 128, C = 32, double, gdn,
   * forward + backward (its tasks at H = 1, double) */
  static const row_spec forms[] = {{"chunk", 0, 0, 1, 2048, 4, 128, 128, 64, 0, 0, 0},
                                    {"chunk", 0, 0, 1, 2048, 4, 64, 64, 64, 0, 0, 0},
                                    {"chunk", 0, 0, 1, 2048, 1, 128, 128, 64, 0, 0, 0},
                                    {"chunk", 0, 0, 1, 2048, 3, 128, 128, 64, 0, 0, 0},
                                    {"chunk", 0, 0, 1, 2048, 4, 128, 128, 32, 0, 0, 0},
                                    {"chunk", 1, 0, 1, 2048, 4, 128, 128, 64, 0, 0, 0},
                                    {"chunk", 0, 1, 1, 2048, 4, 128, 128, 64, 0, 0, 0},
                                    {"chunk", 0, 1, 1, 2048, 1, 128, 128, 64, 0, 0, 0},
                                    {"chunk", 1, 1, 1, 2048, 4, 128, 128, 64, 0, 0, 0},
                                    {"chunk", 0, 0, 0, 2048, 4, 128, 128, 64, 0, 0, 0}};
  static const row_spec decode[] = {{"rec", 0, 0, 1, 1, 4, 128, 128, 64, 0, 0, 0},
                                     {"rec", 0, 0, 0, 1, 4, 128, 128, 64, 0, 0, 0},
                                     {"rec", 0, 0, 1, 1, 32, 128, 128, 64, 0, 0, 0}};
  const int reps = argc > 1 ? atoi(argv[1]) : 9;
  const ptrdiff_t n = argc > 2 ? atoi(argv[2]) : 1024;
  const char *mode = argc > 3 ? argv[3] : "all";
  const int all = strcmp(mode, "all") == 0, goals = strcmp(mode, "goals") == 0;
  const int dec = strcmp(mode, "decode") == 0, idl = strcmp(mode, "idle") == 0;
  const int sch = strcmp(mode, "sched") == 0, frm = strcmp(mode, "forms") == 0;
  const int eng = strcmp(mode, "engine") == 0, shp = strcmp(mode, "shapes") == 0;
  const int prf = strcmp(mode, "profile") == 0;
  const int prow = prf && argc > 4 ? atoi(argv[4]) : -1;
  gemm_ref g;
  size_t i;
  if (reps < 1 || reps > 256 || n < 64 || (prf && (prow < 0 || prow > 5)) ||
      !(all || goals || dec || idl || sch || frm || eng || shp || prf)) {
    fprintf(stderr, "usage: bench_core [reps 1..256] [gemm n >= 64] "
                    "[all | decode | idle | goals | sched | forms | engine | shapes | "
                    "profile ROW (0-5)]\n");
    return 2;
  }
  if (prf) { /* the ROW-th goal row, in the table's order */
    int k = -1;
    for (i = 0; i < sizeof rows / sizeof rows[0]; i++)
      if (rows[i].goal && ++k == prow) return profile_row(&rows[i], reps);
    return 2;
  }
  gemm_init(&g, n);
#ifdef LA_TIME_BLAS
  print_blas_table(rows, sizeof rows / sizeof rows[0], &g, reps, goals);
  gemm_free(&g);
  return 0;
#endif
  print_header(reps, n, all || goals);
  for (i = 0; i < sizeof rows / sizeof rows[0] && (all || goals); i++) {
    row_time t;
    if (goals && !rows[i].goal) continue;
    t = time_row(&rows[i], &g, reps);
    print_row(&rows[i], &t);
  }
  if (all || goals || eng) engine_table(rows, sizeof rows / sizeof rows[0], 2 * reps);
  if (all || goals || shp) shapes_table();
  if (all || dec) {
    printf("\nDecode (T = 1, state in and out), microseconds per call: median (min, max) of %d "
           "reps of 200 calls back to back; arithmetic = a T = 1024 call / 1024 (the state in "
           "cache and in place) on 1 thread and on all %d; its own: on the threads the T = 1 call "
           "runs on; overhead = call - its own arithmetic; spaced: 50 calls per rep, %.1f ms "
           "apart (as Octave spaces them: workers asleep, vector units cold), and its overhead."
           "\n\n", reps, max_threads(), 1e3 * LA_BENCH_GAP);
    printf("| decode | class | H | K=V | threads | core call us | arithmetic us (1 thread) "
           "| arithmetic us (%d threads) | its own | overhead us | spaced call us | spaced "
           "overhead us |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
           max_threads());
    for (i = 0; i < sizeof decode / sizeof decode[0]; i++) time_decode(&decode[i], reps);
  }
  if (all || idl) {
    printf("\nCalls after idle (docs/performance.md): seconds, median (min, max) of %d reps, each "
           "after a pause of %.2f s with nothing in between, alternating with and without "
           "worker placement (tuning no_spread); last column: back to back.\n\n"
           "| row | class | mode | H | K=V | after idle, placed | after idle, not placed "
           "| back to back |\n|---|---|---|---:|---:|---:|---:|---:|\n", reps, LA_BENCH_SETTLE);
    for (i = 0; i < sizeof idle / sizeof idle[0]; i++) time_idle(&idle[i], reps);
  }
  if (all || sch) {
    printf("\nThe chunked forward's two schedules (docs/performance.md, \"One task per item\"): "
           "%d pairs, each one call per item and one in two phases (tuning fwd_phases) back to "
           "back, the order alternating; seconds, medians; the ratio pair by pair, median "
           "(quartiles); reproducible: every call's o and ht those of its schedule's first; "
           "the two schedules' o and ht compared.\n\n"
           "| row | class | mode | T | H | K=V | C | per item s | two phases s "
           "| per item / two phases | reproducible | two phases vs per item |\n"
           "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|\n",
           4 * reps);
    for (i = 0; i < sizeof sched / sizeof sched[0]; i++)
      time_paired(&sched[i], 4 * reps, "fwd_phases", NULL);
    printf("\nThe chunked backward's ring of tasks, paired as above against none (tuning "
           "bwd_no_ring) where a thread would be idle; the columns as above, the switch's way "
           "second.\n\n"
           "| row | class | mode | T | H | K=V | C | as is s | switched s "
           "| as is / switched | reproducible | switched vs as is |\n"
           "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|\n");
    for (i = 0; i < sizeof bwd_ring / sizeof bwd_ring[0]; i++)
      time_paired(&bwd_ring[i], 4 * reps, "bwd_no_ring", NULL);
  }
  if (all || frm) {
    printf("\nThe chunked paths' two forms of v_new (docs/performance.md, \"The direct form "
           "of v_new\"): %d pairs, each one call in the direct form A (v - KG S) and one in "
           "FLA's WY form u - w S (tuning wy_form) back to back, the order alternating; seconds, "
           "medians; the ratio pair by pair, median (quartiles); reproducible: every call's o "
           "and ht those of its form's first; the WY form's o and ht against the direct "
           "form's, rms(WY - direct) / rms(direct) (test_core compares the gradients).\n\n"
           "| row | class | mode | T | H | K=V | C | direct s | WY s | direct / WY "
           "| reproducible | WY vs direct |\n"
           "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|\n",
           4 * reps);
    for (i = 0; i < sizeof forms / sizeof forms[0]; i++)
      time_paired(&forms[i], 4 * reps, "wy_form", NULL);
  }
  gemm_free(&g);
  return 0;
}
