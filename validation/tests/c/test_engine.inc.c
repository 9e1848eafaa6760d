/* ---- the small-GEMM engine (la_blas.h, la_xsmm.c) -----------------------------
 * Included by test_core.c.  In a build with libxsmm every product that
 * libxsmm may serve is compared with BLAS's (tuning no_xsmm: the BLAS-only
 * build's path): each transpose pair, beta 0 and 1, alpha 1 and -1, chunk
 * shapes and odd ones with padded leading dimensions, to rounding.  Then a
 * chunked forward + backward (K = V = 64 and 128, C = 64 and 32, so the
 * chunk's own shapes are dispatched) in double with the engine and without:
 * o, ht and every gradient within 1e-13 relative, i.e. the two builds
 * differ by rounding only.  In a BLAS-only build the same checks compare
 * BLAS with itself (the switch does nothing) and must give the same bits. */
#include "la_blas.h"

/* OMP_PROC_BIND as the program started (libxsmm's init sets it; la_xsmm.c
 * puts it back) */
static char engine_bind_at_start[64];
static int engine_bind_set;
static void engine_env_at_start(void)
{
  const char *b = getenv("OMP_PROC_BIND");
  engine_bind_set = b != NULL;
  if (b) snprintf(engine_bind_at_start, sizeof engine_bind_at_start, "%s", b);
}

static double gemm_case(int dbl, char ta, char tb, ptrdiff_t m, ptrdiff_t n, ptrdiff_t k,
                        double alpha, double beta)
{
  const ptrdiff_t lda = (ta == 'N' ? m : k) + 3, ldb = (tb == 'N' ? k : n) + 1, ldc = m + 2;
  const ptrdiff_t na = lda * (ta == 'N' ? k : m), nb = ldb * (tb == 'N' ? n : k), nc = ldc * n;
  double *a = dalloc(na), *b = dalloc(nb), *c0 = dalloc(nc), *r[2];
  ptrdiff_t i;
  int e;
  for (i = 0; i < na; i++) a[i] = fround(nrand());
  for (i = 0; i < nb; i++) b[i] = fround(nrand());
  for (i = 0; i < nc; i++) c0[i] = fround(nrand());
  for (e = 0; e < 2; e++) {
    la_tune("no_xsmm", e);
    if (dbl) {
      r[e] = dcopy(c0, nc);
      la_gemm_d(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, r[e], ldc);
    } else {
      float *A = to_class(a, na, 0), *B = to_class(b, nb, 0), *C = to_class(c0, nc, 0);
      la_gemm_s(ta, tb, m, n, k, (float)alpha, A, lda, B, ldb, (float)beta, C, ldc);
      r[e] = from_class(C, nc, 0);
      free(A);
      free(B);
    }
  }
  la_tune("no_xsmm", 0);
  {
    const double d = ratio(r[1], r[0], nc);
    free(a); free(b); free(c0); free(r[0]); free(r[1]);
    return d;
  }
}

/* The chunked forward and backward of c with the engine and without (BLAS):
 * o, ht and every gradient within 1e-13 (double) or 1e-5 (single). */
static void engine_chunk_case(const tcfg *c, ptrdiff_t chunk, int dbl)
{
  tprob P;
  double *o[2], *ht[2], worst;
  tgrad G[2];
  const char *wn = "-";
  const double bound = dbl ? 1e-13 : 1e-5;
  int e, rc = LA_OK;
  make_problem(c, &P);
  P.p.chunk = chunk;
  for (e = 0; e < 2; e++) {
    memset(&G[e], 0, sizeof G[e]);
    rc |= core_fwd_tuned(&P.p, &P, dbl, "no_xsmm", e, NULL, &o[e], &ht[e]);
    la_tune("no_xsmm", e);
    rc |= core_bwd(&P.p, &P, &P.in, dbl, 1, 3, &G[e]);
    la_tune("no_xsmm", 0);
  }
  worst = grad_ratio(&P, &G[1], &G[0], &wn);
  if (!(ratio(o[1], o[0], P.nv) <= worst)) {
    worst = ratio(o[1], o[0], P.nv);
    wn = "o";
  }
  if (!(ratio(ht[1], ht[0], P.ns) <= worst)) {
    worst = ratio(ht[1], ht[0], P.ns);
    wn = "ht";
  }
  report(rc == LA_OK && worst <= bound,
         "engine %-27s chunk_%s C=%td, %d thread%s: %s = BLAS, o ht and gradients, to %.1e "
         "(%s; <= %.0e)", c->name, cls(dbl), chunk, la_max_threads(),
         la_max_threads() > 1 ? "s" : "", la_gemm_engine(), worst, wn, bound);
  for (e = 0; e < 2; e++) {
    free(o[e]);
    free(ht[e]);
    free_grad(&G[e]);
  }
  free_problem(&P);
}

static void test_engine(void)
{
  static const ptrdiff_t shapes[][3] = {{64, 64, 128}, {64, 128, 64}, {128, 128, 64},
                                        {32, 64, 32}, {37, 20, 13}, {300, 8, 16}};
  static const tcfg cf[] = {
    {"kda K=V=64", 1, 64, 64, 150, 2, 2, 1, .l2 = 1, .h0 = 1, .full_size = 1},
    {"gdn K=V=128 varlen", 0, 128, 128, 140, 1, 1, 1, .ncu = 3, CU(0, 70, 140), .l2 = 1,
     .h0 = 1, .full_size = 1},
  };
  const int ns = (int)(sizeof shapes / sizeof shapes[0]);
  double worst[2] = {0, 0};
  int dbl, s, t, bt, i;
  printf("engine: %s\n", la_gemm_engine());
  for (dbl = 0; dbl < 2; dbl++)
    for (s = 0; s < ns; s++)
      for (t = 0; t < 4; t++)
        for (bt = 0; bt < 4; bt++) {
          const double d = gemm_case(dbl, "NT"[t & 1], "NT"[t >> 1], shapes[s][0], shapes[s][1],
                                     shapes[s][2], bt & 2 ? -1 : 1, bt & 1);
          if (!(d <= worst[dbl])) worst[dbl] = d;
        }
  report(worst[0] <= 1e-6 && worst[1] <= 1e-14,
         "engine gemm %s against BLAS: %d shapes, every transpose, beta 0 / 1, alpha 1 / -1: "
         "single %.1e (<= 1e-6), double %.1e (<= 1e-14)",
         la_gemm_engine(), ns, worst[0], worst[1]);
#ifdef LA_HAVE_LIBXSMM
  {
    /* the chunk's shapes are libxsmm's, alpha -1 and long dimensions BLAS's */
    double *a = dalloc(300 * 128), *b = dalloc(128 * 128), *c = dalloc(300 * 128);
    float *as = xalloc(128 * 128, sizeof(float)), *bs = xalloc(128 * 128, sizeof(float)),
          *cs = xalloc(128 * 128, sizeof(float));
    int served = la_xsmm_gemm_d('N', 'N', 64, 128, 128, 1, a, 64, b, 128, 0, c, 64) &&
                 la_xsmm_gemm_d('N', 'T', 128, 128, 64, 1, a, 128, b, 128, 1, c, 128) &&
                 la_xsmm_gemm_d('T', 'N', 64, 64, 128, 1, a, 128, b, 128, 0, c, 64) &&
                 la_xsmm_gemm_s('N', 'N', 128, 128, 64, 1, as, 128, bs, 64, 1, cs, 128);
    int refused = !la_xsmm_gemm_d('N', 'N', 64, 64, 64, -1, a, 64, b, 64, 0, c, 64) &&
                  !la_xsmm_gemm_d('N', 'N', 64, 64, 64, 1, a, 64, b, 64, 0.5, c, 64) &&
                  !la_xsmm_gemm_d('N', 'N', 300, 64, 64, 1, a, 300, b, 64, 0, c, 300);
    la_tune("no_xsmm", 1);
    refused = refused && !la_xsmm_gemm_d('N', 'N', 64, 128, 128, 1, a, 64, b, 128, 0, c, 64);
    la_tune("no_xsmm", 0);
    report(served && refused,
           "engine libxsmm serves the chunk's shapes (NN, NT, TN; beta 0 / 1): %s; leaves "
           "alpha -1, beta 0.5, a dimension of 300 and no_xsmm to BLAS: %s",
           served ? "yes" : "NO", refused ? "yes" : "NO");
    free(a); free(b); free(c); free(as); free(bs); free(cs);
  }
#endif
  {
    const char *b = getenv("OMP_PROC_BIND");
    report((b != NULL) == engine_bind_set && (!b || !strcmp(b, engine_bind_at_start)),
           "engine OMP_PROC_BIND as at the start (%s): %s", engine_bind_set ? "set" : "unset",
           b ? b : "unset");
  }
  for (i = 0; i < (int)(sizeof cf / sizeof cf[0]); i++) {
    engine_chunk_case(&cf[i], 64, 1);
    if (!quick) engine_chunk_case(&cf[i], 32, 1);
  }
}

/* ---- the engine's bounds, at and past each edge (issue 47) ----------------------
 * la_xsmm.c: a product goes to libxsmm when every dimension is at most
 * LA_XSMM_MAX_DIM (256) and, for op(A) = A', the transposed copy of A
 * (m x k) fits its stack buffer of LA_XSMM_TA_MAX (128 x 128) elements.
 * At each edge the engine serves the product, one past it refuses it
 * (BLAS then serves it); either way it equals BLAS's.  Shapes where m n
 * is within the buffer and m k is not (or the reverse) tell which
 * product the bound must be of.  Then the chunked forward and backward in
 * single and double at K or V = 256 (the chunk's products at the
 * dispatch's largest shape, transposed copies of 256 x 64 and more), with
 * the engine against BLAS, and la_small_call's threshold (2^18 state
 * elements x steps): a call at it and one a step past it, each on one and
 * two threads, the same bits either way. */
static void set_threads(int n)
{
#ifdef _OPENMP
  omp_set_num_threads(n);
#else
  (void)n;
#endif
}

static double engine_case_worst(const ptrdiff_t (*shapes)[3], int ns, int dbl)
{
  double worst = 0;
  int s, t;
  for (s = 0; s < ns; s++)
    for (t = 0; t < 4; t++) {
      const double d = gemm_case(dbl, "NT"[t & 1], "NT"[t >> 1], shapes[s][0], shapes[s][1],
                                 shapes[s][2], 1, t & 1);
      if (!(d <= worst)) worst = d;
    }
  return worst;
}

static void engine_bound_chunk(const tcfg *c, int dbl, int threads)
{
  const int saved = la_max_threads();
  set_threads(threads);
  engine_chunk_case(c, 64, dbl);
  set_threads(saved);
}

static void engine_bound_small(const tcfg *c)
{
  tprob P;
  tresult R[2];
  int th, dbl;
  make_problem(c, &P);
  for (dbl = 0; dbl < 2; dbl++) {
    const int saved = la_max_threads();
    for (th = 0; th < 2; th++) {
      set_threads(th + 1);
      run_paths(&P, dbl, &R[th]);
    }
    set_threads(saved);
    report(same_result(&P, &R[0], &R[1]) && ratio(R[0].o[0], R[0].o[1], P.nv) <= (dbl ? 1e-12 : 1e-5),
           "bounds %-22s %s (T B HV K V = %td, small call at 2^18): 1 thread = 2 threads, "
           "every path and gradient, bit for bit; recurrent = chunked to %.1e", c->name, cls(dbl),
           P.p.T * P.p.B * P.p.HV * P.p.K * P.p.V, ratio(R[0].o[0], R[0].o[1], P.nv));
    free_result(&R[0]);
    free_result(&R[1]);
  }
  free_problem(&P);
}

static void test_engine_bounds(void)
{
  /* m x n x k; 'T' products copy m x k */
  static const ptrdiff_t edge[][3] = {
    {128, 8, 128},   /* the copy at its buffer */
    {128, 8, 129},   /* one past: BLAS */
    {64, 256, 256},  /* the copy at its buffer, n and k at the largest dimension */
    {256, 64, 128},  /* m n = 128^2, m k = 2 x 128^2 */
    {128, 128, 256}, /* m n = 128^2, m k = 2 x 128^2 */
    {8, 256, 256},   /* m n and m k small, n at the largest */
    {256, 256, 8},   /* the largest dispatched non-transposed product */
    {257, 8, 8}, {8, 257, 8}, {8, 8, 257}, /* one past the largest dimension */
  };
  static const tcfg wide[] = {
    {"kda K=256 V=128", 1, 256, 128, 70, 1, 1, 1, .h0 = 1, .full_size = 1},
    {"gdn K=128 V=256", 0, 128, 256, 70, 1, 1, 1, .h0 = 1, .full_size = 1},
    {"kda K=256 V=256 HV=2", 1, 256, 256, 40, 1, 2, 1, .h0 = 1, .full_size = 1},
  };
  /* 2^18 = T B HV K V: at the threshold and one step past */
  static const tcfg small[] = {
    {"small kda at", 1, 16, 16, 512, 1, 2, 1, .h0 = 1},
    {"small gdn past", 0, 16, 16, 513, 1, 2, 1, .h0 = 1},
  };
  const int ne = (int)(sizeof edge / sizeof edge[0]);
  int dbl, i, th;
  for (dbl = 0; dbl < 2; dbl++) {
    const double w = engine_case_worst(edge, ne, dbl);
    report(w <= (dbl ? 1e-14 : 1e-6),
           "bounds gemm_%s %s at and past the copy buffer and the largest dimension: %d "
           "shapes, every transpose, beta 0 / 1: %.1e", cls(dbl), la_gemm_engine(), ne, w);
  }
#ifdef LA_HAVE_LIBXSMM
  {
    const ptrdiff_t n = 257 * 257;
    double *a = dalloc(n), *b = dalloc(n), *c = dalloc(n);
    float *as = xalloc(n, sizeof(float)), *bs = xalloc(n, sizeof(float)),
          *cs = xalloc(n, sizeof(float));
    for (i = 0; i < n; i++) a[i] = b[i] = c[i] = as[i] = bs[i] = cs[i] = 0;
    const int served = la_xsmm_gemm_d('T', 'N', 128, 8, 128, 1, a, 128, b, 128, 0, c, 128) &&
                       la_xsmm_gemm_s('T', 'N', 128, 8, 128, 1, as, 128, bs, 128, 0, cs, 128) &&
                       la_xsmm_gemm_s('T', 'T', 64, 256, 256, 1, as, 256, bs, 256, 0, cs, 64) &&
                       la_xsmm_gemm_d('N', 'N', 256, 256, 256, 1, a, 256, b, 256, 1, c, 256) &&
                       la_xsmm_gemm_s('N', 'T', 256, 256, 256, 1, as, 256, bs, 256, 0, cs, 256);
    const int refused = !la_xsmm_gemm_d('T', 'N', 128, 8, 129, 1, a, 129, b, 129, 0, c, 128) &&
                        !la_xsmm_gemm_s('T', 'N', 256, 64, 128, 1, as, 128, bs, 128, 0, cs, 256) &&
                        !la_xsmm_gemm_s('T', 'N', 128, 128, 256, 1, as, 256, bs, 256, 0, cs, 128) &&
                        !la_xsmm_gemm_d('N', 'N', 257, 8, 8, 1, a, 257, b, 8, 0, c, 257) &&
                        !la_xsmm_gemm_d('N', 'N', 8, 257, 8, 1, a, 8, b, 8, 0, c, 8) &&
                        !la_xsmm_gemm_s('N', 'N', 8, 8, 257, 1, as, 8, bs, 257, 0, cs, 8);
    report(served && refused,
           "bounds libxsmm serves the copy of 128 x 128 and dimensions of 256: %s; refuses a "
           "copy of 128 x 129 or 256 x 128 (m n within the buffer) and a dimension of 257: %s",
           served ? "yes" : "NO", refused ? "yes" : "NO");
    free(a); free(b); free(c); free(as); free(bs); free(cs);
  }
#endif
  for (i = 0; i < (int)(sizeof wide / sizeof wide[0]); i++)
    for (dbl = 0; dbl < 2; dbl++)
      for (th = 1; th <= 2; th++)
        if (!quick || (i < 2 && dbl == 0)) engine_bound_chunk(&wide[i], dbl, th);
  for (i = 0; i < 2; i++) engine_bound_small(&small[i]);
}
