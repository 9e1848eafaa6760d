/*
 * pool_bench.c -- `make bench-pool`: what the workspace pool (la_pool.c)
 * and OpenBLAS's spinning workers cost a call, measured on the core alone
 * (single precision, one sequence, H heads, K = V, chunk 64, KDA).
 *
 *   pool_bench faults T H K reps   chunked forward + backward: median wall
 *                                  time, minor page faults, user and system
 *                                  CPU time per call
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
#include "la_core.h"
#include "la_blas.h"
#include "la_internal.h" /* la_pool_bytes */

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

/* minor page faults, user and system CPU seconds of the process so far */
typedef struct {
  double faults, user, sys;
} usage_t;

static usage_t usage(void)
{
  struct rusage ru;
  usage_t u;
  getrusage(RUSAGE_SELF, &ru);
  u.faults = (double)ru.ru_minflt;
  u.user = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec;
  u.sys = (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
  return u;
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

/* The problem and every array (teardown frees them). */
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

static void teardown(case_t *c)
{
  void *a[] = {(void *)c->f.q,  (void *)c->f.k,      (void *)c->f.v,     (void *)c->f.g,
               (void *)c->f.beta, (void *)c->f.h0,   c->f.o,             c->f.ht,
               (void *)c->b.dout, (void *)c->b.dht,  c->b.dq,            c->b.dk,
               c->b.dv,          c->b.dg,            c->b.dbeta,         c->b.dh0};
  size_t i;
  for (i = 0; i < sizeof a / sizeof a[0]; i++) free(a[i]);
  memset(c, 0, sizeof *c);
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

/* Per call of `calls` calls, medians over reps: wall time, faults, user
 * and system CPU time (the system time is where page faults show). */
static void measure(const char *label, const case_t *c, int which, int reps, int calls)
{
  double t[MAX_REPS], f[MAX_REPS], us[MAX_REPS], sy[MAX_REPS], med;
  int i, j;
  run(c, which); /* warm-up */
  for (i = 0; i < reps; i++) {
    const usage_t u0 = usage();
    const double t0 = wall();
    usage_t u1;
    for (j = 0; j < calls; j++) run(c, which);
    t[i] = (wall() - t0) / calls;
    u1 = usage();
    f[i] = (u1.faults - u0.faults) / calls;
    us[i] = (u1.user - u0.user) / calls;
    sy[i] = (u1.sys - u0.sys) / calls;
  }
  med = mid(t, reps); /* sorts t: t[0] is the least */
  printf("%-34s wall median %10.1f us (min %.1f)  faults %8.1f  user %10.1f us  sys %9.1f us\n",
         label, 1e6 * med, 1e6 * t[0], mid(f, reps), 1e6 * mid(us, reps), 1e6 * mid(sy, reps));
}

/* Wall and process CPU seconds of one chunked forward. */
static void timed_fwd(const case_t *c, double *t, double *cpu)
{
  const usage_t u0 = usage();
  const double t0 = wall();
  usage_t u1;
  run(c, 2);
  *t = wall() - t0;
  u1 = usage();
  *cpu = (u1.user + u1.sys) - (u0.user + u0.sys);
}

/* The forward right after a threaded sgemm, and after 0.3 s of idle: wall
 * time, and the CPU time of the whole process (spinning workers burn it). */
static void spin(int reps)
{
  const ptrdiff_t n = 1024;
  float *a = floats(n * n, -1, 2), *b = floats(n * n, -1, 2), *cc = floats(n * n, 0, 0);
  double ta[MAX_REPS], ca[MAX_REPS], ti[MAX_REPS], ci[MAX_REPS], m[4];
  const struct timespec pause = {0, 300000000L};
  const char *env = getenv("OPENBLAS_THREAD_TIMEOUT");
  case_t c;
  int i;
  setup(&c, 2048, 4, 128);
  run(&c, 2);
  for (i = 0; i < reps; i++) {
    la_gemm_s('N', 'N', n, n, n, 1, a, n, b, n, 0, cc, n);
    timed_fwd(&c, &ta[i], &ca[i]);
    nanosleep(&pause, NULL);
    timed_fwd(&c, &ti[i], &ci[i]);
  }
  m[0] = mid(ta, reps); /* mid sorts: [reps - 1] is the largest */
  m[1] = mid(ca, reps);
  m[2] = mid(ti, reps);
  m[3] = mid(ci, reps);
  printf("OPENBLAS_THREAD_TIMEOUT=%s: chunk fwd T=2048 H=4 K=V=128, medians of %d: right after "
         "sgemm %.1f ms wall (max %.1f), %.1f ms CPU; after 0.3 s idle %.1f ms wall (max %.1f), "
         "%.1f ms CPU\n",
         env ? env : "(unset)", reps, 1e3 * m[0], 1e3 * ta[reps - 1], 1e3 * m[1], 1e3 * m[2],
         1e3 * ti[reps - 1], 1e3 * m[3]);
  teardown(&c);
  free(a);
  free(b);
  free(cc);
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
    printf("the pool holds %.1f MB after the calls\n", (double)la_pool_bytes() / (1 << 20));
    teardown(&c);
  } else if (!strcmp(mode, "decode") && argc == 3) {
    const int reps = atoi(argv[2]);
    setup(&c, 1, 4, 128);
    measure("recurrent fwd T=1 H=4 K=V=128", &c, 1, reps < MAX_REPS ? reps : MAX_REPS, 200);
    measure("chunk fwd T=1 H=4 K=V=128", &c, 2, reps < MAX_REPS ? reps : MAX_REPS, 200);
    teardown(&c);
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
