/*
 * test_decode.inc.c -- the decode cases of test_core.c (included by it: it
 * uses its utilities), docs/decode.md:
 *   pcbeta   a per-channel beta (V x T x HV x B): the forward against a naive
 *            reference; equal values across the channels give the scalar
 *            beta's bits; the backward's every gradient against central
 *            finite differences of the reference, and single against double
 *   slots    a state pool: the pooled call's o equals the plain call from
 *            the gathered slots bit for bit, the written slots equal the
 *            reference's per-step states, every other slot keeps its bits;
 *            padding skips a sequence (zeros in o) or one write; per-token
 *            states (not in place); the pool itself as ht (in place in C);
 *            the V x K layout and a padded V give the same bits; every
 *            refusal of la_problem_check (badSlot, badOption) and of the
 *            entry points that take no pool or per-channel beta
 */

/* One decode problem: KDA or GDN, raw gates, no transforms but BetaSigmoid,
 * batch of one split by cu into N sequences, beta per channel or not. */
typedef struct {
  la_problem p;
  int64_t cu[8];
  double *q, *k, *v, *g, *beta, *pool;
  ptrdiff_t nq, nv, ng, nb, nstate, npool;
} dprob;

static void dprob_make(dprob *D, int kda, ptrdiff_t V, int per_channel, int bsig,
                       const int64_t *cu, ptrdiff_t N, ptrdiff_t P)
{
  la_problem *p = &D->p;
  ptrdiff_t i;
  memset(D, 0, sizeof *D);
  memcpy(D->cu, cu, sizeof(int64_t) * (size_t)(N + 1));
  p->K = 8; p->V = V; p->T = (ptrdiff_t)cu[N]; p->H = 1; p->HV = 2; p->B = 1; p->N = N;
  p->cu_seqlens = D->cu;
  p->kda = kda;
  p->scale = 0.4;
  p->beta_sigmoid = bsig;
  p->beta_per_channel = per_channel;
  D->nq = p->K * p->T * p->H;
  D->nv = V * p->T * p->HV;
  D->ng = (kda ? p->K : 1) * p->T * p->HV;
  D->nb = (per_channel ? V : 1) * p->T * p->HV;
  D->nstate = p->K * V * p->HV;
  D->npool = D->nstate * P;
  D->q = dalloc(D->nq); D->k = dalloc(D->nq); D->v = dalloc(D->nv); D->g = dalloc(D->ng);
  D->beta = dalloc(D->nb); D->pool = dalloc(D->npool);
  for (i = 0; i < D->nq; i++) D->q[i] = fround(nrand());
  for (i = 0; i < D->nq; i++) D->k[i] = fround(nrand() / sqrt((double)p->K));
  for (i = 0; i < D->nv; i++) D->v[i] = fround(nrand());
  for (i = 0; i < D->ng; i++) D->g[i] = fround(-(0.01 + 0.6 * urand()));
  for (i = 0; i < D->nb; i++) D->beta[i] = fround(bsig ? 1.5 * nrand() : 0.1 + 0.8 * urand());
  for (i = 0; i < D->npool; i++) D->pool[i] = fround(0.5 * nrand());
}

static void dprob_free(dprob *D)
{
  free(D->q); free(D->k); free(D->v); free(D->g); free(D->beta); free(D->pool);
}

/* The naive reference of one (sequence n, value head hv) from the K x V
 * state S (updated in place): o of its steps into o (V x T x HV), and the
 * state after every step into St (K x V per step, may be NULL). */
static void dref_item(const dprob *D, const double *beta, ptrdiff_t n, ptrdiff_t hv, double *S,
                      double *o, double *St)
{
  const la_problem *p = &D->p;
  const ptrdiff_t K = p->K, V = p->V, BD = p->beta_per_channel ? V : 1;
  ptrdiff_t t, i, j;
  for (t = (ptrdiff_t)D->cu[n]; t < (ptrdiff_t)D->cu[n + 1]; t++) {
    const ptrdiff_t col = t + p->T * hv;
    const double *q = D->q + K * t, *k = D->k + K * t; /* H = 1 */
    for (j = 0; j < V; j++) {
      double pj = 0, oj = 0, bj = beta[BD * col + (BD > 1 ? j : 0)];
      if (p->beta_sigmoid) bj = 1 / (1 + exp(-bj));
      for (i = 0; i < K; i++) {
        S[i + K * j] *= exp(D->g[p->kda ? i + K * col : col]);
        pj += S[i + K * j] * k[i];
      }
      for (i = 0; i < K; i++) {
        S[i + K * j] += k[i] * bj * (D->v[j + V * col] - pj);
        oj += S[i + K * j] * p->scale * q[i];
      }
      o[j + V * col] = oj;
    }
    if (St) memcpy(St + K * V * (t - (ptrdiff_t)D->cu[n]), S, sizeof(double) * (size_t)(K * V));
  }
}

/* L = sum(Wo .* o) + sum(Ws .* S_T) of the reference, from h0 (N states). */
static double dref_loss(const dprob *D, const double *q, const double *k, const double *v,
                        const double *g, const double *beta, const double *h0, const double *Wo,
                        const double *Ws)
{
  dprob E = *D;
  const ptrdiff_t KV = D->p.K * D->p.V;
  double *o = dalloc(D->nv), *S = dalloc(KV), L = 0;
  ptrdiff_t n, hv, i;
  E.q = (double *)q; E.k = (double *)k; E.v = (double *)v; E.g = (double *)g;
  for (n = 0; n < D->p.N; n++)
    for (hv = 0; hv < D->p.HV; hv++) {
      memcpy(S, h0 + KV * (hv + D->p.HV * n), sizeof(double) * (size_t)KV);
      dref_item(&E, beta, n, hv, S, o, NULL);
      for (i = 0; i < KV; i++) L += Ws[i + KV * (hv + D->p.HV * n)] * S[i];
    }
  for (i = 0; i < D->nv; i++) L += Wo[i] * o[i];
  free(o); free(S);
  return L;
}

static int same_doubles(const double *a, const double *b, ptrdiff_t n)
{
  return memcmp(a, b, sizeof(double) * (size_t)n) == 0;
}

/* ---- per-channel beta --------------------------------------------------------- */

static void test_pcbeta_case(int kda, ptrdiff_t V, int bsig)
{
  static const int64_t cu[4] = {0, 5, 6, 13};
  const ptrdiff_t N = 3;
  dprob D;
  la_fwd_io fio;
  la_bwd_io bio;
  double *o, *ht, *ro, *rht, *S, *h0;
  double *Wo, *Ws, *grad[6], *inputs[6], worst = 0;
  const char *names[6] = {"dq", "dk", "dv", "dg", "dbeta", "dh0"};
  ptrdiff_t lens[6], n, hv, i, KV;
  int rc, dbl, d;
  char name[64];

  dprob_make(&D, kda, V, 1, bsig, cu, N, N);
  snprintf(name, sizeof name, "%s V=%td%s", kda ? "kda" : "gdn", V, bsig ? " sigmoid" : "");
  KV = D.p.K * V;
  h0 = D.pool; /* N states */
  /* forward against the reference, both classes */
  ro = dalloc(D.nv); rht = dalloc(D.nstate * N); S = dalloc(KV);
  for (n = 0; n < N; n++)
    for (hv = 0; hv < 2; hv++) {
      memcpy(S, h0 + KV * (hv + 2 * n), sizeof(double) * (size_t)KV);
      dref_item(&D, D.beta, n, hv, S, ro, NULL);
      memcpy(rht + KV * (hv + 2 * n), S, sizeof(double) * (size_t)KV);
    }
  for (dbl = 0; dbl < 2; dbl++) {
    memset(&fio, 0, sizeof fio);
    fio.q = to_class(D.q, D.nq, dbl); fio.k = to_class(D.k, D.nq, dbl);
    fio.v = to_class(D.v, D.nv, dbl); fio.g = to_class(D.g, D.ng, dbl);
    fio.beta = to_class(D.beta, D.nb, dbl); fio.h0 = to_class(h0, D.nstate * N, dbl);
    fio.o = nan_class(D.nv, dbl); fio.ht = nan_class(D.nstate * N, dbl);
    rc = dbl ? la_recurrent_fwd_d(&D.p, &fio) : la_recurrent_fwd_s(&D.p, &fio);
    o = from_class(fio.o, D.nv, dbl); ht = from_class(fio.ht, D.nstate * N, dbl);
    worst = fmax(ratio(ro, o, D.nv), ratio(rht, ht, D.nstate * N));
    report(rc == LA_OK && worst <= (dbl ? TOL_D : TOL_S),
           "pcbeta %-24s recurrent_%s vs reference: %.2e", name, cls(dbl), worst);
    free((void *)fio.q); free((void *)fio.k); free((void *)fio.v); free((void *)fio.g);
    free((void *)fio.beta); free((void *)fio.h0); free(o); free(ht);
  }
  /* the chunked paths refuse it */
  memset(&fio, 0, sizeof fio);
  report(la_chunk_fwd_d(&D.p, &fio, NULL) == LA_EARG && la_chunk_bwd_d(&D.p, &bio) == LA_EARG,
         "pcbeta %-24s chunked paths answer LA_EARG", name);

  /* backward: every gradient against central differences of the reference */
  Wo = dalloc(D.nv); Ws = dalloc(D.nstate * N);
  for (i = 0; i < D.nv; i++) Wo[i] = nrand();
  for (i = 0; i < D.nstate * N; i++) Ws[i] = nrand();
  memset(&bio, 0, sizeof bio);
  bio.q = D.q; bio.k = D.k; bio.v = D.v; bio.g = D.g; bio.beta = D.beta; bio.h0 = h0;
  bio.dout = Wo; bio.dht = Ws;
  lens[0] = lens[1] = D.nq; lens[2] = D.nv; lens[3] = D.ng; lens[4] = D.nb;
  lens[5] = D.nstate * N;
  inputs[0] = D.q; inputs[1] = D.k; inputs[2] = D.v; inputs[3] = D.g; inputs[4] = D.beta;
  inputs[5] = h0;
  for (d = 0; d < 6; d++) grad[d] = dnan(lens[d]);
  bio.dq = grad[0]; bio.dk = grad[1]; bio.dv = grad[2]; bio.dg = grad[3]; bio.dbeta = grad[4];
  bio.dh0 = grad[5];
  D.p.chunk = 2; /* checkpoint segments inside the sequences */
  rc = la_recurrent_bwd_d(&D.p, &bio);
  worst = 0;
  for (d = 0; d < 6; d++) {
    /* the directional derivative along a random direction */
    double *dir = dalloc(lens[d]), *x = inputs[d], fd = 0, an = 0, h = 1e-4, Lp, Lm, err;
    double *save = dcopy(x, lens[d]);
    int r;
    for (i = 0; i < lens[d]; i++) {
      dir[i] = nrand();
      an += dir[i] * grad[d][i];
    }
    for (r = 0; r < 2; r++) { /* 5-point stencil */
      const double hh = r ? 2 * h : h;
      for (i = 0; i < lens[d]; i++) x[i] = save[i] + hh * dir[i];
      Lp = dref_loss(&D, D.q, D.k, D.v, D.g, D.beta, h0, Wo, Ws);
      for (i = 0; i < lens[d]; i++) x[i] = save[i] - hh * dir[i];
      Lm = dref_loss(&D, D.q, D.k, D.v, D.g, D.beta, h0, Wo, Ws);
      fd += (r ? -1.0 : 8.0) * (Lp - Lm) / (12 * h);
    }
    memcpy(x, save, sizeof(double) * (size_t)lens[d]);
    err = fabs(fd - an) / fmax(fabs(fd), 1e-3);
    if (err > worst) worst = err;
    if (err > TOL_FD) printf("       %s: analytic %.10g, FD %.10g\n", names[d], an, fd);
    free(dir); free(save);
  }
  report(rc == LA_OK && worst <= TOL_FD,
         "pcbeta %-24s recurrent_bwd_d vs FD, every gradient: worst %.1e (tol %.0e)", name,
         worst, TOL_FD);
  /* single against double */
  {
    double *gs[6];
    void *ins[6], *outs[6];
    la_bwd_io sio = bio;
    for (d = 0; d < 6; d++) {
      ins[d] = to_class(inputs[d], lens[d], 0);
      outs[d] = nan_class(lens[d], 0);
    }
    sio.q = ins[0]; sio.k = ins[1]; sio.v = ins[2]; sio.g = ins[3]; sio.beta = ins[4];
    sio.h0 = ins[5];
    sio.dout = to_class(Wo, D.nv, 0); sio.dht = to_class(Ws, D.nstate * N, 0);
    sio.dq = outs[0]; sio.dk = outs[1]; sio.dv = outs[2]; sio.dg = outs[3];
    sio.dbeta = outs[4]; sio.dh0 = outs[5];
    rc = la_recurrent_bwd_s(&D.p, &sio);
    worst = 0;
    for (d = 0; d < 6; d++) {
      gs[d] = from_class(outs[d], lens[d], 0);
      worst = fmax(worst, ratio(grad[d], gs[d], lens[d]));
      free(gs[d]); free(ins[d]);
    }
    free((void *)sio.dout); free((void *)sio.dht);
    report(rc == LA_OK && worst <= TOL_S, "pcbeta %-24s recurrent_bwd_s vs _d: worst %.1e",
           name, worst);
  }
  for (d = 0; d < 6; d++) free(grad[d]);
  free(Wo); free(Ws); free(ro); free(rht); free(S);
  dprob_free(&D);
}

/* Equal values across the channels give the scalar beta's bits (forward),
 * and the channels' dbeta sum to the scalar's (backward, to rounding). */
static void test_pcbeta_equal(void)
{
  static const int64_t cu[3] = {0, 4, 9};
  dprob D;
  la_fwd_io f1, f2;
  la_bwd_io b1, b2;
  double *bpc, *o1, *o2, *h1, *h2, *db1, *db2, *sum, *dummy[8], *Wo, *Ws;
  ptrdiff_t i, j, V = 6, steps;
  int rc, d;
  dprob_make(&D, 1, V, 0, 0, cu, 2, 2);
  steps = D.nb;
  bpc = dalloc(V * steps);
  for (i = 0; i < steps; i++)
    for (j = 0; j < V; j++) bpc[j + V * i] = D.beta[i];
  o1 = dnan(D.nv); o2 = dnan(D.nv); h1 = dnan(2 * D.nstate); h2 = dnan(2 * D.nstate);
  memset(&f1, 0, sizeof f1);
  f1.q = D.q; f1.k = D.k; f1.v = D.v; f1.g = D.g; f1.beta = D.beta; f1.h0 = D.pool;
  f2 = f1;
  f1.o = o1; f1.ht = h1; f2.o = o2; f2.ht = h2; f2.beta = bpc;
  rc = la_recurrent_fwd_d(&D.p, &f1);
  D.p.beta_per_channel = 1;
  rc |= la_recurrent_fwd_d(&D.p, &f2);
  report(rc == LA_OK && same_doubles(o1, o2, D.nv) && same_doubles(h1, h2, 2 * D.nstate),
         "pcbeta kda equal channels: the scalar beta's o and S bit for bit");
  Wo = dalloc(D.nv); Ws = dalloc(2 * D.nstate);
  for (i = 0; i < D.nv; i++) Wo[i] = nrand();
  for (i = 0; i < 2 * D.nstate; i++) Ws[i] = nrand();
  db1 = dnan(steps); db2 = dnan(V * steps); sum = dalloc(steps);
  for (d = 0; d < 8; d++) dummy[d] = dnan(D.nq + D.nv + D.ng + 2 * D.nstate);
  memset(&b1, 0, sizeof b1);
  b1.q = D.q; b1.k = D.k; b1.v = D.v; b1.g = D.g; b1.beta = D.beta; b1.h0 = D.pool;
  b1.dout = Wo; b1.dht = Ws;
  b1.dq = dummy[0]; b1.dk = dummy[1]; b1.dv = dummy[2]; b1.dg = dummy[3]; b1.dh0 = dummy[4];
  b2 = b1;
  b2.dq = dummy[5]; b2.dk = dummy[6]; b2.dv = dummy[7]; b2.dg = dummy[3]; b2.dh0 = dummy[4];
  b1.dbeta = db1; b2.dbeta = db2; b2.beta = bpc;
  D.p.beta_per_channel = 0;
  rc = la_recurrent_bwd_d(&D.p, &b1);
  D.p.beta_per_channel = 1;
  rc |= la_recurrent_bwd_d(&D.p, &b2);
  for (i = 0; i < steps; i++)
    for (j = 0; j < V; j++) sum[i] += db2[j + V * i];
  report(rc == LA_OK && ratio(db1, sum, steps) <= TOL_D && ratio(dummy[0], dummy[5], D.nq) == 0,
         "pcbeta kda equal channels: dbeta sums to the scalar's (%.1e), dq the same bits",
         ratio(db1, sum, steps));
  for (d = 0; d < 8; d++) free(dummy[d]);
  free(bpc); free(o1); free(o2); free(h1); free(h2); free(db1); free(db2); free(sum);
  free(Wo); free(Ws);
  dprob_free(&D);
}

/* ---- the state pool ------------------------------------------------------------ */

/* One pooled call in double (pool converted to the layout: vk) and its o,
 * ht (both in the K x V layout again, ht transposed back). alias: ht is
 * the pool buffer given as h0 (in place in C). */
static int pool_call(const dprob *D, la_problem p, int dbl, int alias, double **o, double **ht,
                     ptrdiff_t nht)
{
  const ptrdiff_t K = p.K, V = p.V;
  la_fwd_io io;
  double *src = dcopy(D->pool, D->npool), *pre = p.inplace ? dcopy(D->pool, nht) : dnan(nht);
  void *h0, *out;
  ptrdiff_t s, i, j;
  int rc;
  if (p.state_vk) /* each K x V state stored V x K */
    for (s = 0; s < D->npool / (K * V); s++)
      for (i = 0; i < K; i++)
        for (j = 0; j < V; j++) src[j + V * i + K * V * s] = D->pool[i + K * j + K * V * s];
  if (p.state_vk && p.inplace) memcpy(pre, src, sizeof(double) * (size_t)nht);
  memset(&io, 0, sizeof io);
  io.q = to_class(D->q, D->nq, dbl); io.k = to_class(D->k, D->nq, dbl);
  io.v = to_class(D->v, D->nv, dbl); io.g = to_class(D->g, D->ng, dbl);
  io.beta = to_class(D->beta, D->nb, dbl);
  h0 = to_class(src, D->npool, dbl);
  out = alias ? h0 : to_class(pre, nht, dbl);
  io.h0 = h0; io.ht = out;
  io.o = nan_class(D->nv, dbl);
  rc = dbl ? la_recurrent_fwd_d(&p, &io) : la_recurrent_fwd_s(&p, &io);
  *o = from_class(io.o, D->nv, dbl);
  *ht = from_class(out, nht, dbl);
  if (p.state_vk) {
    double *t = dcopy(*ht, nht);
    for (s = 0; s < nht / (K * V); s++)
      for (i = 0; i < K; i++)
        for (j = 0; j < V; j++) (*ht)[i + K * j + K * V * s] = t[j + V * i + K * V * s];
    free(t);
  }
  if (!alias) free(h0);
  free((void *)io.q); free((void *)io.k); free((void *)io.v); free((void *)io.g);
  free((void *)io.beta); free(src); free(pre);
  return rc;
}

static void test_slots_case(int kda, ptrdiff_t V, int per_channel)
{
  /* three sequences of 4, 1, 3 steps; pool of 7 slots (0-based, -1 padding):
   *   seq 0 reads Slots(2) (accepted 2), writes slots 1, 2, 3, 4
   *   seq 1 reads padding: skipped
   *   seq 2 reads slot 6 (accepted 3), writes slot 5, (padding), 6  */
  static const int64_t cu[4] = {0, 4, 5, 8};
  static const int64_t slots[12] = {1, 2, 3, 4, -1, 0, 0, 0, 5, -1, 6, 0};
  static const int64_t accepted[3] = {2, 1, 3};
  const ptrdiff_t N = 3, P = 7;
  dprob D;
  la_problem p;
  double *o, *ht, *ro, *rpool, *rtok, *S, *St, *po, *pht, *gath;
  ptrdiff_t KV, n, hv, t, nt;
  int rc, dbl, vk, ok;
  char name[64];

  dprob_make(&D, kda, V, per_channel, 0, cu, N, P);
  snprintf(name, sizeof name, "%s V=%td%s", kda ? "kda" : "gdn", V, per_channel ? " pcbeta" : "");
  KV = D.p.K * V;
  nt = D.p.T;
  p = D.p;
  p.slots = slots; p.slot_steps = 4; p.accepted = accepted; p.pool_slots = P; p.inplace = 1;

  /* the reference: per-step states, the pool after, the per-token states */
  ro = dalloc(D.nv); rpool = dcopy(D.pool, D.npool); rtok = dalloc(D.nstate * nt);
  S = dalloc(KV); St = dalloc(KV * 4);
  for (n = 0; n < N; n++)
    for (hv = 0; hv < 2; hv++) {
      const int64_t r = slots[4 * n + accepted[n] - 1];
      if (r < 0) continue; /* zeros */
      memcpy(S, D.pool + KV * (hv + 2 * r), sizeof(double) * (size_t)KV);
      dref_item(&D, D.beta, n, hv, S, ro, St);
      for (t = 0; t < cu[n + 1] - cu[n]; t++) {
        const int64_t w = slots[4 * n + t];
        if (w >= 0) memcpy(rpool + KV * (hv + 2 * w), St + KV * t, sizeof(double) * (size_t)KV);
        memcpy(rtok + KV * (hv + 2 * (cu[n] + t)), St + KV * t, sizeof(double) * (size_t)KV);
      }
    }
  /* the plain call from the gathered starting slots (the skipped sequence
   * from zeros: its o are compared with zeros below) */
  gath = dalloc(D.nstate * N);
  for (n = 0; n < N; n++) {
    const int64_t r = slots[4 * n + accepted[n] - 1];
    if (r >= 0) memcpy(gath + D.nstate * n, D.pool + D.nstate * r, sizeof(double) * (size_t)D.nstate);
  }
  {
    la_fwd_io io;
    memset(&io, 0, sizeof io);
    io.q = D.q; io.k = D.k; io.v = D.v; io.g = D.g; io.beta = D.beta; io.h0 = gath;
    po = dnan(D.nv); pht = dnan(D.nstate * N);
    io.o = po; io.ht = pht;
    rc = la_recurrent_fwd_d(&D.p, &io);
    for (t = 0; t < V * 2; t++) { /* seq 1 is step 4: its o are zeros in the pool call */
      po[(t % V) + V * (4 + D.p.T * (t / V))] = 0;
    }
  }
  for (dbl = 1; dbl >= 0; dbl--) {
    const double tol = dbl ? TOL_D : TOL_S;
    double e1, e2;
    rc = pool_call(&D, p, dbl, 0, &o, &ht, D.npool);
    e1 = ratio(ro, o, D.nv);
    e2 = ratio(rpool, ht, D.npool);
    ok = rc == LA_OK && e1 <= tol && e2 <= tol;
    if (dbl) {
      /* untouched slots keep their bits: 0 of every head; o as the plain call */
      ok = ok && same_doubles(ht, D.pool, D.nstate) && same_doubles(o, po, D.nv);
      /* seq 2's second step wrote nothing: slot 5 holds its first step's state */
    }
    report(ok, "slots  %-24s recurrent_%s in place vs reference: o %.1e, pool %.1e%s", name,
           cls(dbl), e1, e2, dbl ? "; o = plain call's bits, slot 0 untouched" : "");
    free(o); free(ht);
  }
  /* in place in C (ht is h0), the V x K layout: the same bits */
  {
    double *o0, *h0;
    rc = pool_call(&D, p, 1, 0, &o0, &h0, D.npool);
    for (vk = 0; vk < 2; vk++) {
      la_problem q = p;
      q.state_vk = vk;
      rc |= pool_call(&D, q, 1, 1, &o, &ht, D.npool);
      report(rc == LA_OK && same_doubles(o0, o, D.nv) && same_doubles(h0, ht, D.npool),
             "slots  %-24s ht = h0 (in place)%s: the same bits", name, vk ? ", V x K" : "");
      free(o); free(ht);
    }
    free(o0); free(h0);
  }
  /* per-token states (not in place), zeros for the skipped sequence */
  {
    la_problem q = p;
    q.inplace = 0;
    rc = pool_call(&D, q, 1, 0, &o, &ht, D.nstate * nt);
    report(rc == LA_OK && ratio(rtok, ht, D.nstate * nt) <= TOL_D && same_doubles(o, po, D.nv),
           "slots  %-24s per-token states vs reference: %.1e", name,
           ratio(rtok, ht, D.nstate * nt));
    free(o); free(ht);
  }
  /* one slot per sequence: each step writes it, so it ends with the final
   * state; the plain call's o and S bit for bit */
  {
    static const int64_t one[3] = {3, 0, 5};
    la_problem q = p;
    la_fwd_io io;
    double *o2 = dnan(D.nv), *h2 = dnan(D.nstate * N);
    q.slots = one; q.slot_steps = 1; q.accepted = NULL;
    for (n = 0; n < N; n++)
      memcpy(gath + D.nstate * n, D.pool + D.nstate * one[n], sizeof(double) * (size_t)D.nstate);
    memset(&io, 0, sizeof io);
    io.q = D.q; io.k = D.k; io.v = D.v; io.g = D.g; io.beta = D.beta; io.h0 = gath;
    io.o = o2; io.ht = h2;
    rc = la_recurrent_fwd_d(&D.p, &io);
    rc |= pool_call(&D, q, 1, 0, &o, &ht, D.npool);
    ok = rc == LA_OK && same_doubles(o, o2, D.nv);
    for (n = 0; n < N; n++)
      ok = ok && same_doubles(ht + D.nstate * one[n], h2 + D.nstate * n, D.nstate);
    ok = ok && same_doubles(ht + D.nstate, D.pool + D.nstate, D.nstate);
    report(ok, "slots  %-24s one slot per sequence = plain call from them, bit for bit", name);
    free(o); free(ht); free(o2); free(h2);
  }
  free(ro); free(rpool); free(rtok); free(S); free(St); free(po); free(pht); free(gath);
  dprob_free(&D);
}

static void test_slots_refusals(void)
{
  static const int64_t cu[3] = {0, 2, 3};
  static const int64_t ok_slots[4] = {1, 2, 3, 0}, beyond[4] = {1, 7, 3, 0},
                       twice[4] = {1, 2, 2, 0}, readw[4] = {1, 2, 3, 1}, acc_bad[2] = {3, 1},
                       acc_zero[2] = {0, 1}, padw[4] = {-1, 2, 2, 0}, base1[4] = {1, 2, 0, 0};
  static const int64_t acc_ok[2] = {2, 1}, acc_read[2] = {1, 2};
  dprob D;
  la_problem p, q;
  la_fwd_io fio;
  la_bwd_io bio;
  dprob_make(&D, 1, 4, 0, 0, cu, 2, 4);
  p = D.p;
  p.slots = ok_slots; p.slot_steps = 2; p.pool_slots = 4; p.inplace = 1;
  q = p;
  report(la_problem_check(&q, NULL) == LA_OK, "slots  check: a valid pool call passes");
  q = p; q.slots = beyond; expect_refusal("slot beyond the pool", q, "badSlot");
  q = p; q.slots = twice; expect_refusal("slot written by two sequences", q, "badSlot");
  q = p; q.slots = readw; q.accepted = acc_read;
  expect_refusal("slot read by one, written by another", q, "badSlot");
  q = p; q.accepted = acc_bad; expect_refusal("AcceptedTokens beyond Slots' rows", q, "badSlot");
  q = p; q.accepted = acc_zero; expect_refusal("AcceptedTokens 0", q, "badSlot");
  q = p; q.pool_slots = 0; expect_refusal("pool of 0 slots", q, "badSlot");
  q = p; q.slot_steps = 0; expect_refusal("Slots of 0 rows", q, "badSlot");
  q = p; q.slot_steps = 1; q.slots = ok_slots;
  report(la_problem_check(&q, NULL) == LA_OK, "slots  check: one slot per sequence passes");
  q = p; q.slots = NULL; expect_refusal("UpdatePool without Slots", q, "badOption");
  q = p; q.slots = NULL; q.inplace = 0; q.accepted = acc_ok;
  expect_refusal("AcceptedTokens without Slots", q, "badOption");
  /* a padding start skips the sequence, so its writes cannot conflict */
  q = p; q.slots = padw;
  report(la_problem_check(&q, NULL) == LA_OK,
         "slots  check: a skipped sequence's slots do not conflict");
  /* not in place: nothing is written, reads may share slots */
  q = p; q.slots = twice; q.inplace = 0;
  report(la_problem_check(&q, NULL) == LA_OK, "slots  check: not in place, shared slots pass");
  /* numbering from 1: 0 is padding, 4 the last slot */
  q = p; q.slots = base1; q.slot_base = 1;
  report(la_problem_check(&q, NULL) == LA_OK, "slots  check: slot_base 1 takes 1..4, 0 pads");
  q = p; q.slots = base1; q.slot_base = 1; q.pool_slots = 1;
  expect_refusal("slot_base 1: slot 2 beyond a pool of 1", q, "badSlot");
  /* the paths that take no pool */
  memset(&fio, 0, sizeof fio);
  memset(&bio, 0, sizeof bio);
  report(la_recurrent_bwd_d(&p, &bio) == LA_EARG && la_chunk_fwd_d(&p, &fio, NULL) == LA_EARG &&
             la_chunk_bwd_s(&p, &bio) == LA_EARG,
         "slots  recurrent backward and chunked paths answer LA_EARG to a pool");
  dprob_free(&D);
}

/* AcceptedTokens at and one past its range, [1, rows of Slots], where no
 * other rule refuses the call (not in place: no write to conflict with),
 * for Slots per step and per sequence (issue 47: a conflict refused the
 * old case before the range did). */
static void test_slots_accepted_edges(void)
{
  static const int64_t cu[3] = {0, 2, 3};
  static const int64_t slots[4] = {0, 1, 2, 3}, one[2] = {0, 2}; /* slot_base 0 */
  static const int64_t at[2] = {2, 2}, past[2] = {3, 1}, past2[2] = {1, 3}, zero[2] = {1, 0},
                       first[2] = {1, 1};
  dprob D;
  la_problem p, q;
  dprob_make(&D, 1, 4, 0, 0, cu, 2, 4);
  p = D.p;
  p.slots = slots; p.slot_steps = 2; p.pool_slots = 4; p.inplace = 0;
  q = p; q.accepted = at;
  report(la_problem_check(&q, NULL) == LA_OK,
         "slots  check: AcceptedTokens at the rows of Slots (2 of 2) passes");
  q = p; q.accepted = past; expect_refusal("AcceptedTokens one past the rows (3 of 2)", q, "badSlot");
  q = p; q.accepted = past2;
  expect_refusal("AcceptedTokens one past the rows, second sequence", q, "badSlot");
  q = p; q.accepted = zero; expect_refusal("AcceptedTokens 0, second sequence", q, "badSlot");
  q = p; q.slots = one; q.slot_steps = 1; q.accepted = first;
  report(la_problem_check(&q, NULL) == LA_OK,
         "slots  check: one slot per sequence, AcceptedTokens 1 passes");
  q = p; q.slots = one; q.slot_steps = 1; q.accepted = at;
  expect_refusal("one slot per sequence, AcceptedTokens 2", q, "badSlot");
  dprob_free(&D);
}

static void test_decode(void)
{
  test_pcbeta_case(1, 6, 0);
  test_pcbeta_case(0, 8, 1);
  test_pcbeta_case(1, 8, 1);
  test_pcbeta_equal();
  test_slots_case(1, 8, 0);
  test_slots_case(1, 6, 1);
  test_slots_case(0, 8, 1);
  test_slots_refusals();
  test_slots_accepted_edges();
}
