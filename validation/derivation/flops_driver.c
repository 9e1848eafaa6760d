/*
 * flops_driver.c -- runs one entry point of the instrumented core
 * (-DLA_COUNT_FLOPS, mex/core/la_flops.h) and prints the flops it counted.
 *
 *   flops_driver PATH OP T C K V      PATH: rec_fwd rec_bwd chunk_fwd chunk_bwd
 *                                     OP:   kda gdn
 *
 * One sequence, one head, double, random inputs (the count does not depend
 * on the values); C is the chunk size (the checkpoint interval of rec_bwd).
 * Built by `make build/flops_driver` (mk/mutants.mk), run by check_flops.m.
 */
#include "../../mex/core/la_core.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long long la_flops_count; /* the counter of la_flops.h */

static double *filled(ptrdiff_t n, double lo, double hi)
{
  double *x = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
  ptrdiff_t i;
  if (!x) exit(2);
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
  if (!strcmp(argv[1], "rec_fwd")) rc = la_recurrent_fwd_d(&p, &f);
  if (!strcmp(argv[1], "rec_bwd")) rc = la_recurrent_bwd_d(&p, &b);
  if (!strcmp(argv[1], "chunk_fwd")) rc = la_chunk_fwd_d(&p, &f, NULL);
  if (!strcmp(argv[1], "chunk_bwd")) rc = la_chunk_bwd_d(&p, &b);
  if (rc != LA_OK) {
    fprintf(stderr, "flops_driver: %s returned %d\n", argv[1], rc);
    return 1;
  }
  printf("%lld\n", la_flops_count);
  return 0;
}
