/*
 * la_chunk_impl.h -- template: the chunked forward.  Per (sequence, value
 * head), chunk after chunk (docs/chunk_forward.md):
 *   intra-chunk:  A_raw, Aqk, w, u                    (la_chunk_common_impl.h)
 *   v_new = u - w S                                   (the delta of each step)
 *   o     = scale (exp(G) .* q) S + Aqk v_new         (inter + intra chunk)
 *   S     = Diag(exp(G_last)) S + (exp(G_last - G) .* k)^T v_new
 * In the stored layouts (columns are steps) these are three GEMMs of the state
 * and one of Aqk.  OpenBLAS runs single-threaded inside the OpenMP loop over
 * (sequence, head) pairs.
 */
#include "la_chunk_common_impl.h"
#include "la_tmpl.h"

/* Copy a c x c chunk matrix M (ld C) into the aux layout: column i of dst
 * (C rows) holds row i of M, zeros past c. */
static void LA_FN(aux_rows)(const real_t *M, ptrdiff_t C, ptrdiff_t c, real_t *dst)
{
  ptrdiff_t i, j;
  for (i = 0; i < c; i++)
    for (j = 0; j < C; j++) dst[j + C * i] = j < c ? M[i + C * j] : 0;
}

static void LA_FN(chunk_fwd_item)(const la_problem *p, const LA_FN(la_prep) *pp,
                                  const la_fwd_io *io, const la_chunk_aux *aux,
                                  ptrdiff_t first_chunk, ptrdiff_t n, ptrdiff_t hv,
                                  LA_FN(chunk_ws) *ws, real_t *S, real_t *vnew)
{
  const LA_FN(la_item) it = LA_FN(la_item_fwd)(p, pp, io, n, hv);
  const la_seq s = it.s;
  const ptrdiff_t K = p->K, V = p->V, C = p->chunk, GD = la_gate_dim(p);
  const real_t *q = it.q, *k = it.k, *v = it.v, *g = it.g, *beta = it.beta;
  real_t *o = it.o;
  const real_t scale = (real_t)p->scale;
  ptrdiff_t t0, i, x;

  LA_FN(la_state_load)(p, it.h0, S);
  for (t0 = 0; t0 < s.len; t0 += C) {
    const ptrdiff_t c = s.len - t0 < C ? s.len - t0 : C;
    const ptrdiff_t chunk_id = first_chunk + t0 / C;
    LA_FN(chunk_intra)(p, c, q + K * t0, k + K * t0, v + V * t0, g + GD * t0, beta + t0,
                       LA_CI_AQK | LA_CI_WU, ws);
    if (aux && aux->h)
      memcpy((real_t *)aux->h + K * V * (hv + p->HV * chunk_id), S, sizeof(real_t) * (size_t)(K * V));

    /* v_new = u - S^T w */
    memcpy(vnew, ws->u, sizeof(real_t) * (size_t)(V * c));
    LA_GEMM(CblasColMajor, CblasTrans, CblasNoTrans, (int)V, (int)c, (int)K, -1, S, (int)K, ws->w,
            (int)K, 1, vnew, (int)V);
    /* o = scale S^T QG + v_new Aqk^T */
    LA_GEMM(CblasColMajor, CblasTrans, CblasNoTrans, (int)V, (int)c, (int)K, scale, S, (int)K,
            ws->QG, (int)K, 0, o + V * t0, (int)V);
    LA_GEMM(CblasColMajor, CblasNoTrans, CblasTrans, (int)V, (int)c, (int)c, 1, vnew, (int)V,
            ws->Aqk, (int)C, 1, o + V * t0, (int)V);
    /* S = Diag(exp(G_last)) S + KC v_new^T */
    {
      const real_t *gam = ws->eG + K * (c - 1);
      ptrdiff_t j;
      for (j = 0; j < V; j++)
        for (x = 0; x < K; x++) S[x + K * j] *= gam[x];
    }
    LA_GEMM(CblasColMajor, CblasNoTrans, CblasTrans, (int)K, (int)V, (int)c, 1, ws->KC, (int)K,
            vnew, (int)V, 1, S, (int)K);

    if (aux) { /* the chunk's intermediates, in the layouts of la_core.h */
      const ptrdiff_t tg = la_off_beta(p, s, hv) + t0; /* global step index */
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
  }
  LA_FN(la_state_store)(p, S, it.ht);
}

int LA_FN(la_chunk_fwd)(const la_problem *p, const la_fwd_io *io, const la_chunk_aux *aux)
{
  LA_FN(la_prep) pp;
  const ptrdiff_t items = p->N * p->HV, K = p->K, V = p->V, C = p->chunk;
  ptrdiff_t *first;
  ptrdiff_t it, n;
  int rc, fail = 0, saved;

  if (!la_workspace_ok(items, (double)sizeof(real_t) *
                                 ((double)LA_FN(chunk_ws_size)(K, V, C) + (double)(K * V + V * C))))
    return LA_ENOMEM;
  first = la_alloc(p->N + 1, sizeof(ptrdiff_t));
  if (!first) return LA_ENOMEM;
  first[0] = 0; /* number of the first chunk of every sequence */
  for (n = 0; n < p->N; n++) {
    const la_seq s = la_seq_of(p, n);
    ptrdiff_t j, nc = (s.len + C - 1) / C;
    if (aux && aux->chunk_seq)
      for (j = 0; j < nc; j++) {
        aux->chunk_seq[first[n] + j] = n;
        aux->chunk_t0[first[n] + j] = s.t0 + j * C;
        aux->chunk_len[first[n] + j] = s.len - j * C < C ? s.len - j * C : C;
      }
    first[n + 1] = first[n] + nc;
  }
  rc = LA_FN(la_prep_fwd)(p, io->q, io->k, io->g, io->beta, io->A_log, io->dt_bias, &pp);
  if (rc) {
    free(first);
    return rc;
  }
  saved = la_blas_threads_begin();
#pragma omp parallel
  {
    const size_t nws = LA_FN(chunk_ws_size)(K, V, C);
    real_t *buf = la_alloc((ptrdiff_t)(nws + (size_t)(K * V + V * C)), sizeof(real_t));
    LA_FN(chunk_ws) ws;
    memset(&ws, 0, sizeof ws);
    if (!buf) {
#pragma omp atomic write
      fail = 1;
    } else {
      LA_FN(chunk_ws_init)(&ws, buf, K, V, C);
    }
#pragma omp for schedule(dynamic, 1)
    for (it = 0; it < items; it++)
      if (buf)
        LA_FN(chunk_fwd_item)(p, &pp, io, aux, first[it / p->HV], it / p->HV, it % p->HV, &ws,
                              buf + nws, buf + nws + K * V);
    free(buf);
  }
  la_blas_threads_end(saved);
  LA_FN(la_prep_free)(&pp);
  free(first);
  return fail ? LA_ENOMEM : LA_OK;
}

#include "la_tmpl_end.h"
