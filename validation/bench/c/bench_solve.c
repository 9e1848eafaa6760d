/*
 * bench_solve.c -- `make bench-c`: the chunk's triangular solve
 * A = (I + A_raw)^{-1} Diag(beta) by the core's forward substitution
 * (tri_solve_lower, la_stage_wy.tmpl.h) against two blocked inverses built
 * on BLAS GEMMs, as FLA's solve_tril builds A from 16 x 16 diagonal blocks:
 *
 *   rows16  block rows of 16: the diagonal block X_II = (I + L_II)^{-1} by
 *           substitution, then X(I, 0:I0) = -X_II (L(I, 0:I0) X(0:I0, 0:I0))
 *           as two GEMMs; Diag(beta) applied to the columns at the end;
 *   halves  recursive halves (multiples of 16): X21 = -X2 (L21 X1), two
 *           GEMMs per level, substitution below 16.
 *
 * Both GEMMs take the triangular factors whole (their zero halves
 * included): the flops of the substitution, c^3/3 multiply-adds, become
 * about the same count of dense ones.  The matrices are the chunk's own
 * kind: A_raw = Diag(beta) M, M(i,j) = sum_x k_i(x) k_j(x) exp(G_i(x) -
 * G_j(x)) for i > j, with unit keys of K = 64 channels, per-channel
 * log-decays in [-0.1, 0) summed over the steps, beta in (0, 1).
 *
 * The three run interleaved, round after round (a noise burst hits all
 * three), each solve on one of BS_HOT chunks in turn, which stay in the
 * L2 cache as a chunk's A_raw does in the kernel; printed per chunk size:
 * the median time of one solve with its quartiles, its ratio to the
 * substitution's, and the accuracy: the largest |X - X_ref| over the
 * largest |X_ref| against a long double substitution, the worst of
 * BS_ACC chunks.  validation/bench/results/performance_log_0.1.0.md ("The triangular solve as a
 * blocked inverse") records a run.
 *
 * Built once per class: -DBS_DOUBLE=0 (bench_solve_s) or 1 (bench_solve_d),
 * linked with the core's library (build/lib/libla.a), whose
 * la_tri_solve_lower_s / _d (la_internal.h) is the chunk's solve.
 * Usage: bench_solve [rounds] [solves per round]  (defaults 15, 4000)
 */
#define _POSIX_C_SOURCE 200809L
#ifndef BS_DOUBLE
#define BS_DOUBLE 0
#endif
#include "la_blas.h"
#include "la_internal.h"

#if BS_DOUBLE
typedef double real_t;
#define BS_SOLVE la_tri_solve_lower_d
#define BS_GEMM la_gemm_d
#else
typedef float real_t;
#define BS_SOLVE la_tri_solve_lower_s
#define BS_GEMM la_gemm_s
#endif

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BS_KEYS 64   /* channels of the keys that make M */
#define BS_BLOCK 16  /* the blocked inverses' diagonal blocks */
#define BS_CMAX 64   /* largest chunk size timed (the ld of every block) */
#define BS_HOT 8     /* chunks the timing cycles through: 512 KB with X */
#define BS_ACC 500   /* chunks the accuracy is taken over */

static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* X = X Diag(d) on the lower triangle (d NULL: nothing). */
static void scale_cols(ptrdiff_t c, ptrdiff_t C, const real_t *d, real_t *X)
{
  ptrdiff_t i, j;
  for (j = 0; d && j < c; j++)
    for (i = j; i < c; i++) X[i + C * j] *= d[j];
}

/* Block rows of BS_BLOCK (P: scratch of BS_BLOCK x c). */
static void solve_rows16(ptrdiff_t c, ptrdiff_t C, const real_t *L, const real_t *d, real_t *X,
                         real_t *P)
{
  ptrdiff_t i0, i, j;
  for (i0 = 0; i0 < c; i0 += BS_BLOCK) {
    const ptrdiff_t nb = c - i0 < BS_BLOCK ? c - i0 : BS_BLOCK;
    BS_SOLVE(nb, C, L + i0 + C * i0, NULL, X + i0 + C * i0);
    for (j = 0; j < nb; j++) /* above the diagonal block: zero */
      for (i = 0; i < i0; i++) X[i + C * (i0 + j)] = 0;
    if (i0 == 0) continue;
    BS_GEMM('N', 'N', nb, i0, i0, 1, L + i0, C, X, C, 0, P, BS_BLOCK);
    BS_GEMM('N', 'N', nb, i0, nb, -1, X + i0 + C * i0, C, P, BS_BLOCK, 0, X + i0, C);
  }
  scale_cols(c, C, d, X);
}

/* Recursive halves, unit diagonal (P: scratch of c x c, ld BS_CMAX). */
static void solve_halves_unit(ptrdiff_t c, ptrdiff_t C, const real_t *L, real_t *X, real_t *P)
{
  ptrdiff_t h, i, j;
  if (c <= BS_BLOCK) {
    BS_SOLVE(c, C, L, NULL, X);
    return;
  }
  h = (c / 2 + BS_BLOCK - 1) / BS_BLOCK * BS_BLOCK;
  solve_halves_unit(h, C, L, X, P);
  solve_halves_unit(c - h, C, L + h + C * h, X + h + C * h, P);
  for (j = 0; j < c - h; j++)
    for (i = 0; i < h; i++) X[i + C * (h + j)] = 0;
  BS_GEMM('N', 'N', c - h, h, h, 1, L + h, C, X, C, 0, P, BS_CMAX);
  BS_GEMM('N', 'N', c - h, h, c - h, -1, X + h + C * h, C, P, BS_CMAX, 0, X + h, C);
}

static void solve_halves(ptrdiff_t c, ptrdiff_t C, const real_t *L, const real_t *d, real_t *X,
                         real_t *P)
{
  solve_halves_unit(c, C, L, X, P);
  scale_cols(c, C, d, X);
}

static void solve_subst(ptrdiff_t c, ptrdiff_t C, const real_t *L, const real_t *d, real_t *X,
                        real_t *P)
{
  (void)P;
  BS_SOLVE(c, C, L, d, X);
}

/* The reference: substitution in long double. */
static void solve_ref(ptrdiff_t c, ptrdiff_t C, const real_t *L, const real_t *d,
                      long double *X)
{
  ptrdiff_t i, j, m;
  for (j = 0; j < c; j++)
    for (i = 0; i < c; i++) {
      long double s = i == j ? (long double)d[j] : 0;
      for (m = j; m < i; m++) s -= (long double)L[i + C * m] * X[m + C * j];
      X[i + C * j] = i >= j ? s : 0;
    }
}

static double urand(void) { return (double)rand() / ((double)RAND_MAX + 1); }

/* One chunk's A_raw (strictly lower, ld C) and beta, as the kernel forms them. */
static void make_chunk(ptrdiff_t C, real_t *L, real_t *d)
{
  static double k[BS_CMAX][BS_KEYS], G[BS_CMAX][BS_KEYS];
  ptrdiff_t i, j, x;
  for (i = 0; i < C; i++) {
    double nrm = 0;
    for (x = 0; x < BS_KEYS; x++) {
      /* sum of 12 uniforms: about normal */
      double s = -6;
      int r;
      for (r = 0; r < 12; r++) s += urand();
      k[i][x] = s;
      nrm += s * s;
      G[i][x] = (i ? G[i - 1][x] : 0) - 0.1 * urand();
    }
    for (x = 0; x < BS_KEYS; x++) k[i][x] /= sqrt(nrm);
    d[i] = (real_t)(0.02 + 0.96 * urand());
  }
  for (j = 0; j < C; j++)
    for (i = 0; i < C; i++) {
      double m = 0;
      for (x = 0; i > j && x < BS_KEYS; x++) m += k[i][x] * k[j][x] * exp(G[i][x] - G[j][x]);
      L[i + C * j] = i > j ? (real_t)((double)d[i] * m) : 0;
    }
}

typedef void (*solve_fn)(ptrdiff_t, ptrdiff_t, const real_t *, const real_t *, real_t *,
                         real_t *);

static int cmp_dbl(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
  const int rounds = argc > 1 ? atoi(argv[1]) : 15, n = argc > 2 ? atoi(argv[2]) : 4000;
  static const ptrdiff_t sizes[] = {64, 32}; /* 16: no block to join */
  static const solve_fn fn[] = {solve_subst, solve_rows16, solve_halves};
  static const char *name[] = {"substitution (the core's)", "blocked: rows of 16, GEMMs",
                               "blocked: halves, GEMMs"};
  const ptrdiff_t C = BS_CMAX, nf = 3;
  real_t *L, *d, *X, *P;
  long double *R;
  double *t;
  size_t s;
  ptrdiff_t v, q;
  int r;
  if (rounds < 1 || n < 1) {
    fprintf(stderr, "usage: bench_solve [rounds >= 1] [solves per round >= 1]\n");
    return 2;
  }
  L = malloc(sizeof(real_t) * (size_t)(C * C * BS_ACC));
  d = malloc(sizeof(real_t) * (size_t)(C * BS_ACC));
  X = malloc(sizeof(real_t) * (size_t)(C * C * BS_ACC));
  P = malloc(sizeof(real_t) * (size_t)(C * C));
  R = malloc(sizeof(long double) * (size_t)(C * C));
  t = malloc(sizeof(double) * (size_t)(nf * rounds));
  if (!L || !d || !X || !P || !R || !t) {
    fprintf(stderr, "bench_solve: out of memory\n");
    return 2;
  }
  srand(7);
  for (q = 0; q < BS_ACC; q++) make_chunk(C, L + C * C * q, d + C * q);
  memset(X, 0, sizeof(real_t) * (size_t)(C * C * BS_ACC));

  printf("The chunk's triangular solve A = (I + A_raw)^{-1} Diag(beta), %s, one thread "
         "(bench_solve: %d rounds of %d solves, the three interleaved; accuracy: max |X - "
         "X_ref| / max |X_ref| against a long double substitution, worst of %d "
         "chunks).\n\n",
         BS_DOUBLE ? "double" : "single", rounds, n, BS_ACC);
  printf("| c | method | us per solve, median (q1-q3) | vs substitution | accuracy |\n"
         "|---:|---|---:|---:|---:|\n");
  for (s = 0; s < sizeof sizes / sizeof *sizes; s++) {
    const ptrdiff_t c = sizes[s];
    double med0 = 0;
    for (r = 0; r < rounds; r++)
      for (v = 0; v < nf; v++) {
        const double t0 = now();
        for (q = 0; q < n; q++) {
          const ptrdiff_t h = q % BS_HOT;
          fn[v](c, C, L + C * C * h, d + C * h, X + C * C * h, P);
        }
        t[v * rounds + r] = (now() - t0) / n * 1e6;
      }
    for (v = 0; v < nf; v++) {
      double *tv = t + v * rounds, err = 0;
      qsort(tv, (size_t)rounds, sizeof(double), cmp_dbl);
      if (v == 0) med0 = tv[rounds / 2];
      for (q = 0; q < BS_ACC; q++) {
        real_t *x = X + C * C * q;
        long double emax = 0, xmax = 0;
        ptrdiff_t i, j;
        fn[v](c, C, L + C * C * q, d + C * q, x, P);
        solve_ref(c, C, L + C * C * q, d + C * q, R);
        for (j = 0; j < c; j++)
          for (i = j; i < c; i++) {
            const long double e = fabsl((long double)x[i + C * j] - R[i + C * j]);
            if (e > emax) emax = e;
            if (fabsl(R[i + C * j]) > xmax) xmax = fabsl(R[i + C * j]);
          }
        if ((double)(emax / xmax) > err) err = (double)(emax / xmax);
      }
      printf("| %td | %s | %.2f (%.2f-%.2f) | %.2f | %.1e |\n", c, name[v], tv[rounds / 2],
             tv[rounds / 4], tv[(3 * rounds) / 4], tv[rounds / 2] / med0, err);
    }
  }
  free(L); free(d); free(X); free(P); free(R); free(t);
  return 0;
}
