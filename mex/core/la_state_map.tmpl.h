/*
 * la_state_map.tmpl.h -- the affine state map of a segment, S_T = P S_0 + R,
 * and its backward (docs/state_map.md).
 *
 * The state's V columns evolve independently under the same steps, and the
 * map is affine in (S_0, v).  So one chunked forward with K extra value
 * columns computes both parts: with value [v_t; 0] and initial state
 * [0, I_K] (K x (V + K)) the final state is [R, P] (docs (SM3)).  The
 * backward is the chunked backward of that same problem with dS = [dR, dP]
 * and do = 0; its dv keeps the first V rows.  Cost: the chunked path's, at
 * value width V + K.
 */

/* Buffers of one augmented call; every count is >= 1 so that empty
 * problems (T = 0) still get valid pointers. */
typedef struct LA_FN(map_bufs) {
  la_problem pa;          /* the problem at value width V + K, states K x (V + K) */
  real_t *v, *h0, *o, *ht; /* value, initial, output, final state (augmented)    */
} LA_FN(map_bufs);

static void *LA_FN(map_alloc)(ptrdiff_t a, ptrdiff_t b, ptrdiff_t c, ptrdiff_t d, int *ok)
{
  ptrdiff_t n;
  void *x = NULL;
  if (*ok && la_mul4(a, b, c, d, &n)) x = la_alloc(n > 0 ? n : 1, sizeof(real_t));
  if (!x) *ok = 0;
  return x;
}

static void LA_FN(map_free)(LA_FN(map_bufs) *m)
{
  free(m->v); free(m->h0); free(m->o); free(m->ht);
}

/* the augmented problem and its value [v; 0] and initial state [0, I] */
static int LA_FN(map_setup)(const la_problem *p, const real_t *v, LA_FN(map_bufs) *m)
{
  const ptrdiff_t K = p->K, V = p->V;
  ptrdiff_t Va, cols, i, j, s;
  int ok = 1, status = LA_OK;
  memset(m, 0, sizeof *m);
  if (!la_add(V, K, &Va)) return LA_ENOMEM;
  m->pa = *p;
  m->pa.V = Va;
  m->pa.state_vk = 0;
  m->v = LA_FN(map_alloc)(Va, p->T, p->HV, p->B, &ok);
  m->o = LA_FN(map_alloc)(Va, p->T, p->HV, p->B, &ok);
  m->h0 = LA_FN(map_alloc)(K, Va, p->HV, p->N, &ok);
  m->ht = LA_FN(map_alloc)(K, Va, p->HV, p->N, &ok);
  if (!ok) {
    LA_FN(map_free)(m);
    return LA_ENOMEM;
  }
  cols = p->T * p->HV * p->B; /* no overflow: the allocations above held it */
  for (j = 0; j < cols; j++) {
    if (j % (LA_POLL_ELEMS / Va + 1) == 0 && la_poll(p, &status)) break;
    memcpy(m->v + j * Va, v + j * V, (size_t)V * sizeof(real_t));
    for (i = V; i < Va; i++) m->v[j * Va + i] = 0;
  }
  for (s = 0; status == LA_OK && s < p->HV * p->N; s++) {
    real_t *h = m->h0 + s * K * Va;
    if (!la_zero_polled(p, h, sizeof(real_t) * (size_t)(K * Va), &status)) break;
    for (i = 0; i < K; i++) h[i + K * (V + i)] = 1;
  }
  if (status != LA_OK) LA_FN(map_free)(m);
  return status;
}

int LA_FN(la_state_map_fwd)(const la_problem *p0, const la_map_fwd_io *io)
{
  LA_ENTRY_CHECK(p0, pc);
  const la_problem *p = &pc;
  if (p->beta_per_channel || p->slots) return LA_EARG; /* recurrent paths only */
  if (p->emulate) return LA_EARG; /* the chunked forward and backward only */
  const ptrdiff_t K = p->K, V = p->V, Va = V + K;
  LA_FN(map_bufs) m;
  la_fwd_io f;
  real_t *P = io->P, *R = io->R;
  ptrdiff_t s, i, j;
  int rc = LA_FN(map_setup)(p, io->v, &m);
  if (rc) return rc;
  memset(&f, 0, sizeof f);
  f.q = io->q; f.k = io->k; f.v = m.v; f.g = io->g; f.beta = io->beta;
  f.A_log = io->A_log; f.dt_bias = io->dt_bias; f.h0 = m.h0; f.o = m.o; f.ht = m.ht;
  rc = LA_FN(la_chunk_fwd)(&m.pa, &f, NULL);
  for (s = 0; rc == LA_OK && s < p->HV * p->N; s++) {
    const real_t *h = m.ht + s * K * Va;
    for (j = 0; j < V; j++)
      for (i = 0; i < K; i++) R[s * K * V + (p->state_vk ? j + V * i : i + K * j)] = h[i + K * j];
    memcpy(P + s * K * K, h + K * V, (size_t)(K * K) * sizeof(real_t));
  }
  LA_FN(map_free)(&m);
  return rc;
}

int LA_FN(la_state_map_bwd)(const la_problem *p0, const la_map_bwd_io *io)
{
  LA_ENTRY_CHECK(p0, pc);
  const la_problem *p = &pc;
  if (p->beta_per_channel || p->slots) return LA_EARG; /* recurrent paths only */
  if (p->emulate) return LA_EARG; /* the chunked forward and backward only */
  const ptrdiff_t K = p->K, V = p->V, Va = V + K;
  const real_t *dP = io->dP, *dR = io->dR;
  LA_FN(map_bufs) m;
  la_bwd_io b;
  real_t *dq, *dv, *dh0;
  ptrdiff_t s, i, j, cols;
  int ok = 1, rc = LA_FN(map_setup)(p, io->v, &m);
  if (rc) return rc;
  /* what the backward writes and this map does not return: dq, dS0, and
   * the K extra rows of dv */
  dq = LA_FN(map_alloc)(p->K, p->T, p->H, p->B, &ok);
  dv = LA_FN(map_alloc)(Va, p->T, p->HV, p->B, &ok);
  dh0 = LA_FN(map_alloc)(K, Va, p->HV, p->N, &ok);
  cols = p->T * p->HV * p->B;
  if (ok && !la_zero_polled(p, m.o, sizeof(real_t) * (size_t)(Va * cols), &rc)) {
    /* interrupted: rc is LA_EINTR */
  } else if (ok) {
    /* do = 0 (in o); dS = [dR, dP] (in ht) */
    for (s = 0; s < p->HV * p->N; s++) {
      real_t *h = m.ht + s * K * Va;
      for (j = 0; j < V; j++)
        for (i = 0; i < K; i++)
          h[i + K * j] = dR ? dR[s * K * V + (p->state_vk ? j + V * i : i + K * j)] : 0;
      for (i = 0; i < K * K; i++) h[K * V + i] = dP ? dP[s * K * K + i] : 0;
    }
    memset(&b, 0, sizeof b);
    b.q = io->q; b.k = io->k; b.v = m.v; b.g = io->g; b.beta = io->beta;
    b.A_log = io->A_log; b.dt_bias = io->dt_bias; b.h0 = m.h0;
    b.dout = m.o; b.dht = m.ht;
    b.dq = dq; b.dk = io->dk; b.dv = dv; b.dg = io->dg; b.dbeta = io->dbeta; b.dh0 = dh0;
    b.dA_log = io->dA_log; b.ddt_bias = io->ddt_bias;
    rc = LA_FN(la_chunk_bwd)(&m.pa, &b);
    for (j = 0; rc == LA_OK && j < cols; j++)
      memcpy((real_t *)io->dv + j * V, dv + j * Va, (size_t)V * sizeof(real_t));
  } else {
    rc = LA_ENOMEM;
  }
  free(dq); free(dv); free(dh0);
  LA_FN(map_free)(&m);
  return rc;
}
