/*
 * la_aux.tmpl.h -- template: the chunked drivers' intermediates for
 * 'Intermediates' (la_chunk_aux, la_chunk_bwd_aux in la_core.h give the
 * layouts): the forward's per-chunk G, A_raw, A, Aqk, w, u and the
 * backward's gradients of them.  Copies only: nothing here changes a result.
 */

/* Copy a c x c chunk matrix M (ld C) into the aux layout: column i of dst
 * (C rows) holds row i of M, zeros past c. */
static void LA_FN(aux_rows)(const real_t *M, ptrdiff_t C, ptrdiff_t c, real_t *dst)
{
  ptrdiff_t i, j;
  for (i = 0; i < c; i++)
    for (j = 0; j < C; j++) dst[j + C * i] = j < c ? M[i + C * j] : 0;
}

/* The intermediates of the intra-chunk phase of the chunk of c steps at
 * step t0 of item (s, hv) into aux (la_core.h gives the layouts); g: the
 * item's used gate. */
static void LA_FN(chunk_aux_intra)(const la_problem *p, const la_chunk_aux *aux, la_seq s,
                                   ptrdiff_t hv, ptrdiff_t t0, ptrdiff_t c, const real_t *g,
                                   const LA_FN(chunk_ws) *ws)
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
}

/* Where one chunk's backward intermediates go: the aux, the chunk's first
 * global step tg (la_chunk_aux layouts) and number nci, and keep (dA and
 * dA_raw of cbwd_wy, 2 C x C). */
typedef struct {
  const la_chunk_bwd_aux *aux;
  ptrdiff_t tg, nci, hv;
  real_t *keep;
} LA_FN(cbwd_aux_at);

/* Where chunk ci of item (sequence n, value head hv) puts its backward
 * intermediates: aux NULL without aux; first: the number of each
 * sequence's first chunk (chunk_first); keep: cbwd_wy's 2 C x C. */
static LA_FN(cbwd_aux_at) LA_FN(cbwd_aux_of)(const la_problem *p, const la_chunk_bwd_aux *aux,
                                             const ptrdiff_t *first, ptrdiff_t n, ptrdiff_t hv,
                                             ptrdiff_t ci, real_t *keep)
{
  LA_FN(cbwd_aux_at) at;
  memset(&at, 0, sizeof at);
  if (!aux) return at;
  at.aux = aux;
  at.hv = hv;
  at.keep = keep;
  at.tg = la_off_beta(p, la_seq_of(p, n), hv) + ci * p->chunk;
  at.nci = first[n] + ci;
  return at;
}

/* Copy the chunk's gradients into the aux (la_core.h gives the layouts);
 * S: the state entering the chunk; dg: the chunk's finished gate gradient;
 * b->dS is already that of the state entering the chunk.  dw = -dv_new S^T
 * (44), which only the WY form forms for itself (b->dW). */
static void LA_FN(cbwd_aux_store)(const la_problem *p, ptrdiff_t c, const LA_FN(cbwd_aux_at) *at,
                                  const LA_FN(cbwd_ws) *b, const real_t *S, const real_t *dg)
{
  const la_chunk_bwd_aux *aux = at->aux;
  const ptrdiff_t K = p->K, V = p->V, C = p->chunk, GD = la_gate_dim(p), tg = at->tg;
  const size_t vbytes = sizeof(real_t) * (size_t)(V * c);
  ptrdiff_t i, x;
  if (aux->dh)
    memcpy((real_t *)aux->dh + K * V * (at->hv + p->HV * at->nci), b->dS,
           sizeof(real_t) * (size_t)(K * V));
  if (aux->dv_new) memcpy((real_t *)aux->dv_new + V * tg, b->dvn, vbytes);
  if (aux->du) memcpy((real_t *)aux->du + V * tg, b->dvn, vbytes); /* (44) */
  if (aux->dw && b->X)
    LA_GEMM('N', 'N', K, c, V, -1, S, K, b->dvn, V, 0, (real_t *)aux->dw + K * tg, K);
  else if (aux->dw)
    memcpy((real_t *)aux->dw + K * tg, b->dW, sizeof(real_t) * (size_t)(K * c));
  if (aux->dAqk) LA_FN(aux_rows)(b->dAqk, C, c, (real_t *)aux->dAqk + C * tg);
  if (aux->dA) LA_FN(aux_rows)(at->keep, C, c, (real_t *)aux->dA + C * tg);
  if (aux->dA_raw) LA_FN(aux_rows)(at->keep + C * C, C, c, (real_t *)aux->dA_raw + C * tg);
  if (aux->dG) { /* dg_t = sum_{i >= t} dG_i  <=>  dG_i = dg_i - dg_{i+1} */
    real_t *dG = (real_t *)aux->dG + GD * tg;
    for (i = 0; i < c; i++)
      for (x = 0; x < GD; x++)
        dG[x + GD * i] = i + 1 < c ? dg[x + GD * i] - dg[x + GD * (i + 1)] : dg[x + GD * i];
  }
}

/* first[n]: number of the first chunk of sequence n (N + 1 entries), in a
 * new array (the caller frees it; NULL if refused), and the chunk table of
 * aux (NULL: none). */
static ptrdiff_t *LA_FN(chunk_first)(const la_problem *p, const la_chunk_aux *aux)
{
  const ptrdiff_t C = p->chunk;
  ptrdiff_t n, j, nfirst, *first;
  if (!la_add(p->N, 1, &nfirst) || !(first = la_alloc(nfirst, sizeof(ptrdiff_t)))) return NULL;
  first[0] = 0;
  for (n = 0; n < p->N; n++) {
    const la_seq s = la_seq_of(p, n);
    const ptrdiff_t nc = la_chunks(s.len, C);
    for (j = 0; aux && aux->chunk_seq && j < nc; j++) {
      aux->chunk_seq[first[n] + j] = n;
      aux->chunk_t0[first[n] + j] = s.t0 + j * C;
      aux->chunk_len[first[n] + j] = la_chunk_steps(s, j, C);
    }
    first[n + 1] = first[n] + nc;
  }
  return first;
}

/* aux.cond: cond_1 (I + A_raw) of a chunk of c steps into entry `at`
 * (la_chunk_cond1); 0 if out of memory. */
static int LA_FN(chunk_aux_cond)(const la_problem *p, const la_chunk_aux *aux, ptrdiff_t at,
                                 ptrdiff_t c, const real_t *Araw)
{
  const ptrdiff_t C = p->chunk;
  real_t *inv = la_alloc(C * C, sizeof(real_t));
  if (!inv) return 0;
  ((real_t *)aux->cond)[at] = LA_FN(la_chunk_cond1)(c, C, Araw, inv);
  free(inv);
  return 1;
}
