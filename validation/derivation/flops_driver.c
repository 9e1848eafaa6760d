/*
 * flops_driver.c -- runs one entry point of the instrumented core
 * (-DLA_COUNT_FLOPS, mex/core/la_flops.h) and prints the flops it counted
 * and the peak of the bytes the core held allocated during the call:
 *
 *   flops_driver PATH OP T C K V      PATH: rec_fwd rec_bwd chunk_fwd chunk_bwd,
 *                                     chunk_fwd_wy chunk_bwd_wy (the WY form
 *                                     of v_new: the tuning's wy_form)
 *                                     OP:   kda gdn
 *   prints "FLOPS PEAK_BYTES"
 *
 * One sequence, one head, double, random inputs (the counts do not depend
 * on the values); C is the chunk size (the checkpoint interval of rec_bwd).
 * Run it with OMP_NUM_THREADS=1: the peak then is one thread's.
 *
 * The bytes: the driver is linked with -Wl,--wrap=malloc,--wrap=free
 * (mk/mutants.mk), so every malloc and free of the core's objects (la_alloc
 * is the core's only malloc) comes through mem_malloc / mem_free below, which
 * keep the bytes live and their peak; OpenBLAS and libgomp are shared
 * libraries, not wrapped, so their own buffers are not counted.
 * Built by `make build/flops_driver` (mk/mutants.mk), run by check_flops.m
 * and, for the peak, by check_recurrence.m (20) and check_chunk_backward.m (53).
 */
#include "../../mex/core/la_core.h"
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long long la_flops_count; /* the counter of la_flops.h */

/* Bytes held and their peak since the last reset. */
static atomic_llong mem_live, mem_peak;

/* The size of a block sits in a header before it; max_align_t keeps the
 * block as aligned as malloc's. */
#define MEM_HEAD sizeof(max_align_t)

void *__real_malloc(size_t n);
void __real_free(void *ptr);

void *__wrap_malloc(size_t n)
{
  char *b = __real_malloc(n + MEM_HEAD);
  long long live, peak;
  if (!b) return NULL;
  memcpy(b, &n, sizeof n);
  live = atomic_fetch_add(&mem_live, (long long)n) + (long long)n;
  peak = atomic_load(&mem_peak);
  while (live > peak && !atomic_compare_exchange_weak(&mem_peak, &peak, live)) {
  }
  return b + MEM_HEAD;
}

void __wrap_free(void *ptr)
{
  size_t n;
  char *b;
  if (!ptr) return; /* before the arithmetic: NULL - MEM_HEAD is undefined */
  b = (char *)ptr - MEM_HEAD;
  memcpy(&n, b, sizeof n);
  atomic_fetch_sub(&mem_live, (long long)n);
  __real_free(b);
}

/* The driver's own arrays, freed before it returns (a run under ASan,
 * mk/mutants.mk, then reports nothing). */
static void *held[24]; /* 16 used */
static int nheld;

static void free_held(void)
{
  while (nheld > 0) free(held[--nheld]);
}

static double *filled(ptrdiff_t n, double lo, double hi)
{
  double *x = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
  ptrdiff_t i;
  if (!x || nheld == (int)(sizeof held / sizeof held[0])) {
    fprintf(stderr, "flops_driver: out of memory or of room in held\n");
    exit(2);
  }
  held[nheld++] = x;
  for (i = 0; i < n; i++) x[i] = lo + (hi - lo) * (double)rand() / RAND_MAX;
  return x;
}

int main(int argc, char **argv)
{
  la_problem p;
  la_fwd_io f;
  la_bwd_io b;
  ptrdiff_t T, K, V, GD;
  int rc = -1;
  if (argc != 7) {
    fprintf(stderr, "usage: flops_driver PATH OP T C K V\n");
    return 2;
  }
  memset(&p, 0, sizeof p);
  T = atol(argv[3]), K = atol(argv[5]), V = atol(argv[6]);
  p.K = K, p.V = V, p.T = T, p.H = p.HV = p.B = p.N = 1;
  p.kda = strcmp(argv[2], "kda") == 0;
  p.scale = 0.5, p.chunk = atol(argv[4]);
  GD = p.kda ? K : 1;
  memset(&f, 0, sizeof f);
  f.q = filled(K * T, -1, 1), f.k = filled(K * T, -0.3, 0.3), f.v = filled(V * T, -1, 1);
  f.g = filled(GD * T, -1, 0), f.beta = filled(T, 0, 1), f.h0 = filled(K * V, -1, 1);
  f.o = filled(V * T, 0, 0), f.ht = filled(K * V, 0, 0);
  memset(&b, 0, sizeof b);
  b.q = f.q, b.k = f.k, b.v = f.v, b.g = f.g, b.beta = f.beta, b.h0 = f.h0;
  b.dout = filled(V * T, -1, 1), b.dht = filled(K * V, -1, 1);
  b.dq = filled(K * T, 0, 0), b.dk = filled(K * T, 0, 0), b.dv = filled(V * T, 0, 0);
  b.dg = filled(GD * T, 0, 0), b.dbeta = filled(T, 0, 0), b.dh0 = filled(K * V, 0, 0);
  if (!strcmp(argv[1], "chunk_fwd_wy") || !strcmp(argv[1], "chunk_bwd_wy")) {
    la_tune("wy_form", 1);
    argv[1][strlen(argv[1]) - 3] = '\0';
  }
  atomic_store(&mem_live, 0); /* the driver's own arrays are not the core's */
  atomic_store(&mem_peak, 0);
  if (!strcmp(argv[1], "rec_fwd")) rc = la_recurrent_fwd_d(&p, &f);
  if (!strcmp(argv[1], "rec_bwd")) rc = la_recurrent_bwd_d(&p, &b);
  if (!strcmp(argv[1], "chunk_fwd")) rc = la_chunk_fwd_d(&p, &f, NULL);
  if (!strcmp(argv[1], "chunk_bwd")) rc = la_chunk_bwd_d(&p, &b);
  if (rc != LA_OK) {
    fprintf(stderr, "flops_driver: %s returned %d\n", argv[1], rc);
    free_held();
    return 1;
  }
  if (atomic_load(&mem_live) != 0) {
    fprintf(stderr, "flops_driver: %s left %lld bytes allocated\n", argv[1],
            (long long)atomic_load(&mem_live));
    free_held();
    return 1;
  }
  printf("%lld %lld\n", la_flops_count, (long long)atomic_load(&mem_peak));
  free_held();
  return 0;
}
