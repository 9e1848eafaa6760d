/*
 * pool_bench.c -- `make bench-pool`: what the workspace pool (la_pool.c)
 * and OpenBLAS's spinning workers cost a call, measured on the core alone
 * (single precision, one sequence, H heads, K = V, chunk 64, KDA).
 *
 *   pool_bench faults T H K reps   chunked forward + backward: median time
 *                                  and minor page faults per call
 *   pool_bench decode reps         T = 1 calls (recurrent and chunked
 *                                  forward, H = 4, K = V = 128): median
 *                                  microseconds and faults per call
 *   pool_bench spin reps           a threaded 1024 sgemm, then at once a
 *                                  chunked forward (T = 2048, H = 4,
 *                                  K = V = 128), against the same forward
 *                                  after 0.3 s of idle
 *
 * The inputs and outputs are touched before the first call and one
 * warm-up call runs first, so the faults counted are the core's own.
 * Prints one line per measurement (docs/performance.md quotes them).
 */
#define _POSIX_C_SOURCE 200809L
#include "../core/la_core.h"
#include "../core/la_blas.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define MAX_REPS 200

static double wall(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static long minor_faults(void)
{
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_minflt;
}

static int by_value(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double mid(double *x, int n)
{
  qsort(x, (size_t)n, sizeof *x, by_value);
  return x[n / 2];
}

/* n floats in [lo, lo + span), every page touched */
static float *floats(ptrdiff_t n, float lo, float span)
{
  float *x = malloc(sizeof(float) * (size_t)(n > 0 ? n : 1));
  ptrdiff_t i;
  if (!x) {
    fprintf(stderr, "pool_bench: out of memory\n");
    exit(2);
  }
  for (i = 0; i < n; i++) x[i] = lo + span * (float)rand() / (float)RAND_MAX;
  return x;
}

typedef struct {
  la_problem p;
  la_fwd_io f;
  la_bwd_io b;
} case_t;

/* The problem and every array (never freed: the program is short-lived). */
static void setup(case_t *c, ptrdiff_t T, ptrdiff_t H, ptrdiff_t K)
{
  const ptrdiff_t nk = K * T * H, ns = K * K * H;
  memset(c, 0, sizeof *c);
  c->p.K = c->p.V = K;
  c->p.T = T;
  c->p.H = c->p.HV = H;
  c->p.B = c->p.N = 1;
  c->p.kda = 1;
  c->p.scale = 0.088;
  c->p.chunk = 64;
  c->f.q = c->b.q = floats(nk, -0.1f, 0.2f);
  c->f.k = c->b.k = floats(nk, -0.1f, 0.2f);
  c->f.v = c->b.v = floats(nk, -1, 2);
  c->f.g = c->b.g = floats(nk, -0.3f, 0.29f);
  c->f.beta = c->b.beta = floats(T * H, 0, 1);
  c->f.h0 = c->b.h0 = floats(ns, -0.1f, 0.2f);
  c->f.o = floats(nk, 0, 0);
  c->f.ht = floats(ns, 0, 0);
  c->b.dout = floats(nk, -1, 2);
  c->b.dht = floats(ns, -1, 2);
  c->b.dq = floats(nk, 0, 0);
  c->b.dk = floats(nk, 0, 0);
  c->b.dv = floats(nk, 0, 0);
  c->b.dg = floats(nk, 0, 0);
  c->b.dbeta = floats(T * H, 0, 0);
  c->b.dh0 = floats(ns, 0, 0);
}

static void check(int rc, const char *what)
{
  if (rc == LA_OK) return;
  fprintf(stderr, "pool_bench: %s returned %d\n", what, rc);
  exit(1);
}

/* which: 0 chunked fwd + bwd, 1 recurrent fwd, 2 chunked fwd */
static void run(const case_t *c, int which)
{
  check(which == 1 ? la_recurrent_fwd_s(&c->p, &c->f) : la_chunk_fwd_s(&c->p, &c->f, NULL),
        "forward");
  if (which == 0) check(la_chunk_bwd_s(&c->p, &c->b), "backward");
}

/* Median seconds and faults per call of `calls` calls, over reps. */
static void measure(const char *label, const case_t *c, int which, int reps, int calls)
{
  double t[MAX_REPS], f[MAX_REPS];
  int i, j;
  run(c, which); /* warm-up */
  for (i = 0; i < reps; i++) {
    const long f0 = minor_faults();
    const double t0 = wall();
    for (j = 0; j < calls; j++) run(c, which);
    t[i] = (wall() - t0) / calls;
    f[i] = (double)(minor_faults() - f0) / calls;
  }
  {
    const double med = mid(t, reps); /* sorts t: t[0] is the least */
    printf("%-34s median %10.1f us  (min %.1f)  faults/call %8.1f\n", label, 1e6 * med,
           1e6 * t[0], mid(f, reps));
  }
}

/* The forward right after a threaded sgemm, and after 0.3 s of idle. */
static void spin(int reps)
{
  const ptrdiff_t n = 1024;
  float *a = floats(n * n, -1, 2), *b = floats(n * n, -1, 2), *cc = floats(n * n, 0, 0);
  double after[MAX_REPS], idle[MAX_REPS];
  const struct timespec pause = {0, 300000000L};
  const char *env = getenv("OPENBLAS_THREAD_TIMEOUT");
  case_t c;
  int i;
  setup(&c, 2048, 4, 128);
  run(&c, 2);
  for (i = 0; i < reps; i++) {
    double t0;
    la_gemm_s('N', 'N', n, n, n, 1, a, n, b, n, 0, cc, n);
    t0 = wall();
    run(&c, 2);
    after[i] = wall() - t0;
    nanosleep(&pause, NULL);
    t0 = wall();
    run(&c, 2);
    idle[i] = wall() - t0;
  }
  {
    const double m_after = mid(after, reps), m_idle = mid(idle, reps); /* sorted now */
    printf("OPENBLAS_THREAD_TIMEOUT=%s: chunk fwd T=2048 right after sgemm median %.1f ms "
           "(max %.1f), after idle %.1f ms (max %.1f)\n",
           env ? env : "(unset)", 1e3 * m_after, 1e3 * after[reps - 1], 1e3 * m_idle,
           1e3 * idle[reps - 1]);
  }
}

int main(int argc, char **argv)
{
  const char *mode = argc > 1 ? argv[1] : "";
  case_t c;
  if (!strcmp(mode, "faults") && argc == 6) {
    const int reps = atoi(argv[5]);
    char label[64];
    setup(&c, atol(argv[2]), atol(argv[3]), atol(argv[4]));
    snprintf(label, sizeof label, "chunk fwd+bwd T=%s H=%s K=V=%s", argv[2], argv[3], argv[4]);
    measure(label, &c, 0, reps < MAX_REPS ? reps : MAX_REPS, 1);
  } else if (!strcmp(mode, "decode") && argc == 3) {
    const int reps = atoi(argv[2]);
    setup(&c, 1, 4, 128);
    measure("recurrent fwd T=1 H=4 K=V=128", &c, 1, reps < MAX_REPS ? reps : MAX_REPS, 200);
    measure("chunk fwd T=1 H=4 K=V=128", &c, 2, reps < MAX_REPS ? reps : MAX_REPS, 200);
  } else if (!strcmp(mode, "spin") && argc == 3) {
    const int reps = atoi(argv[2]);
    spin(reps < MAX_REPS ? reps : MAX_REPS);
  } else {
    fprintf(stderr, "usage: pool_bench faults T H K reps | decode reps | spin reps\n");
    return 2;
  }
  la_release();
  return 0;
}
