/*
 * la_chunk_fwd.tmpl.h -- template: the driver of the chunked forward.  Per
 * (sequence, value head), chunk after chunk (docs/chunk_forward.md):
 *   intra-chunk:  decays, A_raw, Aqk, w, u           (la_stage_intra)
 *   v_new = u - w S                                  (la_stage_state)
 *   o     = scale (exp(G) .* q) S + Aqk v_new        (la_stage_output)
 *   S     = Diag(exp(G_last)) S + (exp(G_last - G) .* k)^T v_new   (la_stage_state)
 * and, when asked, the chunk's intermediates into aux.
 */

/* Copy a c x c chunk matrix M (ld C) into the aux layout: column i of dst
 * (C rows) holds row i of M, zeros past c. */
static void LA_FN(aux_rows)(const real_t *M, ptrdiff_t C, ptrdiff_t c, real_t *dst)
{
  ptrdiff_t i, j;
  for (i = 0; i < c; i++)
    for (j = 0; j < C; j++) dst[j + C * i] = j < c ? M[i + C * j] : 0;
}

/* The intermediates of the chunk of c steps starting at step t0 of item it
 * (la_core.h gives the layouts); g: the item's used gate. */
static void LA_FN(chunk_aux_store)(const la_problem *p, const la_chunk_aux *aux, la_seq s,
                                   ptrdiff_t hv, ptrdiff_t t0, ptrdiff_t c, const real_t *g,
                                   const LA_FN(chunk_ws) *ws, const real_t *vnew)
{
  const ptrdiff_t K = p->K, V = p->V, C = p->chunk, GD = la_gate_dim(p);
  const ptrdiff_t tg = la_off_beta(p, s, hv) + t0; /* global step index */
  ptrdiff_t i, x;
  if (aux->G) {
    real_t *G = (real_t *)aux->G + GD * tg;
    for (x = 0; x < GD; x++) G[x] = g[GD * t0 + x];
    for (i = 1; i < c; i++)
      for (x = 0; x < GD; x++) G[x + GD * i] = G[x + GD * (i - 1)] + g[GD * (t0 + i) + x];
  }
  if (aux->A_raw) LA_FN(aux_rows)(ws->Araw, C, c, (real_t *)aux->A_raw + C * tg);
  if (aux->A) LA_FN(aux_rows)(ws->Am, C, c, (real_t *)aux->A + C * tg);
  if (aux->Aqk) LA_FN(aux_rows)(ws->Aqk, C, c, (real_t *)aux->Aqk + C * tg);
  if (aux->w) memcpy((real_t *)aux->w + K * tg, ws->w, sizeof(real_t) * (size_t)(K * c));
  if (aux->u) memcpy((real_t *)aux->u + V * tg, ws->u, sizeof(real_t) * (size_t)(V * c));
  if (aux->v_new) memcpy((real_t *)aux->v_new + V * tg, vnew, sizeof(real_t) * (size_t)(V * c));
}

typedef struct {
  const la_problem *p;
  const LA_FN(la_prep) *pp;
  const la_fwd_io *io;
  const la_chunk_aux *aux;
  const ptrdiff_t *first;      /* number of the first chunk of each sequence */
} LA_FN(chunk_fwd_ctx);

/* Forward of one (sequence, value head); polls once per chunk. */
static void LA_FN(chunk_fwd_item)(void *ctx, ptrdiff_t n, ptrdiff_t hv, real_t *buf, int *status)
{
  const LA_FN(chunk_fwd_ctx) *x = (const LA_FN(chunk_fwd_ctx) *)ctx;
  const la_problem *p = x->p;
  const la_chunk_aux *aux = x->aux;
  const LA_FN(la_item) it = LA_FN(la_item_fwd)(p, x->pp, x->io, n, hv);
  const ptrdiff_t K = p->K, V = p->V, C = p->chunk, GD = la_gate_dim(p);
  LA_FN(chunk_ws) ws;
  LA_FN(chunk_fwd_ws) fw, *w = &fw;
  ptrdiff_t t0;
  /* the scratch of aux->cond (C x C), only when asked for */
  real_t *inv = aux && aux->cond ? la_alloc(C * C, sizeof(real_t)) : NULL;

  if (aux && aux->cond && !inv) {
    la_stop(status, LA_ENOMEM);
    return;
  }
  LA_FN(chunk_fwd_carve)(p, buf, &ws, w);
  LA_FN(la_state_load)(p, it.h0, w->S);
  for (t0 = 0; t0 < it.s.len; t0 += C) {
    const ptrdiff_t c = it.s.len - t0 < C ? it.s.len - t0 : C;
    if (la_poll(p, status)) break;
    LA_FN(chunk_intra)(p, c, it.q + K * t0, it.k + K * t0, it.v + V * t0, it.g + GD * t0,
                       it.beta + t0, LA_CI_AQK | LA_CI_WU, &ws);
    if (aux && aux->h)
      memcpy((real_t *)aux->h + K * V * (hv + p->HV * (x->first[n] + t0 / C)), w->S,
             sizeof(real_t) * (size_t)(K * V));
    LA_FN(chunk_vnew)(K, V, c, w->S, &ws, w->vnew);
    LA_FN(chunk_output)(p, c, w->S, &ws, w->vnew, it.o + V * t0);
    LA_FN(chunk_state_next)(K, V, c, &ws, w->vnew, w->S, w->S);
    if (aux) LA_FN(chunk_aux_store)(p, aux, it.s, hv, t0, c, it.g, &ws, w->vnew);
    if (inv)
      ((real_t *)aux->cond)[x->first[n] + t0 / C + x->first[p->N] * hv] =
          LA_FN(la_chunk_cond1)(c, C, ws.Araw, inv);
  }
  free(inv);
  LA_FN(la_state_store)(p, w->S, it.ht);
}

/* first[n]: number of the first chunk of sequence n (N + 1 entries), and
 * the chunk table of aux. */
static void LA_FN(chunk_number)(const la_problem *p, const la_chunk_aux *aux, ptrdiff_t *first)
{
  const ptrdiff_t C = p->chunk;
  ptrdiff_t n, j;
  first[0] = 0;
  for (n = 0; n < p->N; n++) {
    const la_seq s = la_seq_of(p, n);
    const ptrdiff_t nc = (s.len + C - 1) / C;
    for (j = 0; aux && aux->chunk_seq && j < nc; j++) {
      aux->chunk_seq[first[n] + j] = n;
      aux->chunk_t0[first[n] + j] = s.t0 + j * C;
      aux->chunk_len[first[n] + j] = s.len - j * C < C ? s.len - j * C : C;
    }
    first[n + 1] = first[n] + nc;
  }
}

int LA_FN(la_chunk_fwd)(const la_problem *p0, const la_fwd_io *io, const la_chunk_aux *aux)
{
  LA_ENTRY_CHECK(p0, pc);
  const la_problem *p = &pc;
  LA_FN(la_prep) pp;
  LA_FN(chunk_fwd_ctx) x;
  ptrdiff_t *first, nfirst;
  int rc;

  if (io->gk || io->gv) return LA_EARG; /* GK, GV: the recurrent paths only */
  if (!la_add(p->N, 1, &nfirst) || !(first = la_alloc(nfirst, sizeof(ptrdiff_t))))
    return LA_ENOMEM;
  LA_FN(chunk_number)(p, aux, first);
  rc = LA_FN(la_prep_fwd)(p, io->q, io->k, io->g, io->beta, io->A_log, io->dt_bias, &pp);
  if (rc == LA_OK) {
    x.p = p;
    x.pp = &pp;
    x.io = io;
    x.aux = aux;
    x.first = first;
    rc = LA_FN(la_for_items)(p, LA_FN(chunk_ws_size)(p, 0, 0), 0, LA_FN(chunk_fwd_item), &x);
    LA_FN(la_prep_free)(&pp);
  }
  free(first);
  return rc;
}
