/*
 * la_chunk_bwd.tmpl.h -- template: the driver of the chunked backward
 * (docs/chunk_backward.md).  Per (sequence, value head): a forward sweep
 * forms every chunk's M, A, w, v_new and keeps them with the state entering
 * each chunk (cbwd_store, la_chunk_ws.tmpl.h); a reverse sweep then, chunk by
 * chunk, recomputes only the decays and Aqk and runs the stages' backward in
 * reverse order: output, state passing, WY, gated products, decays.
 */

/* Point the chunk workspace at chunk ci's stored M, A, w, v_new (u shares
 * v_new's memory: v_new = u - w S is formed in place). */
static void LA_FN(cbwd_use_chunk)(const LA_FN(cbwd_store) *st, ptrdiff_t ci, LA_FN(chunk_ws) *ws,
                                  LA_FN(cbwd_ws) *b)
{
  const ptrdiff_t K = ws->K, V = ws->V, C = ws->C;
  ws->M = st->M + C * C * ci;
  ws->Am = st->A + C * C * ci;
  ws->w = st->w + K * C * ci;
  ws->u = b->vnew = st->vn + V * C * ci;
}

/* Forward sweep: the state entering every chunk, and M, A, w, v_new.
 * 0 if stopped (polls once per chunk). */
static int LA_FN(cbwd_forward_sweep)(const la_problem *p, const LA_FN(la_item) *it,
                                     const LA_FN(cbwd_store) *st, LA_FN(chunk_ws) *ws,
                                     LA_FN(cbwd_ws) *b, int *status)
{
  const ptrdiff_t K = p->K, V = p->V, KV = p->K * p->V, C = p->chunk, GD = la_gate_dim(p);
  const ptrdiff_t nc = (it->s.len + C - 1) / C;
  ptrdiff_t ci;

  LA_FN(la_state_load)(p, it->h0, st->h);
  for (ci = 0; ci < nc; ci++) {
    const ptrdiff_t t0 = ci * C, c = it->s.len - t0 < C ? it->s.len - t0 : C;
    const real_t *S = st->h + KV * ci;
    if (la_poll(p, status)) return 0;
    LA_FN(cbwd_use_chunk)(st, ci, ws, b);
    LA_FN(chunk_intra)(p, c, it->q + K * t0, it->k + K * t0, it->v + V * t0, it->g + GD * t0,
                       it->beta + t0, LA_CI_WU, ws);
    LA_FN(chunk_vnew)(K, V, c, S, ws, b->vnew);
    if (ci + 1 < nc) /* no state after the last chunk is needed */
      LA_FN(chunk_state_next)(K, V, c, ws, b->vnew, S, st->h + KV * (ci + 1));
  }
  return 1;
}

/* Reverse sweep, one chunk: b->dS holds the gradient of the state after
 * it on entry and of the state entering it on return. */
static void LA_FN(cbwd_chunk)(const la_problem *p, const LA_FN(la_item) *it, ptrdiff_t ci,
                              const LA_FN(cbwd_store) *st, LA_FN(chunk_ws) *ws,
                              LA_FN(cbwd_ws) *b)
{
  const ptrdiff_t K = p->K, V = p->V, KV = p->K * p->V, C = p->chunk, GD = la_gate_dim(p);
  const ptrdiff_t t0 = ci * C, c = it->s.len - t0 < C ? it->s.len - t0 : C;
  const real_t *qc = it->q + K * t0, *kc = it->k + K * t0, *bc = it->beta + t0;

  LA_FN(cbwd_use_chunk)(st, ci, ws, b);
  LA_FN(chunk_intra)(p, c, qc, kc, it->v + V * t0, it->g + GD * t0, bc, LA_CI_AQK, ws);
  LA_FN(chunk_araw)(c, ws->M, bc, ws);
  LA_FN(cbwd_output)(p, c, it->dout + V * t0, ws, b);
  LA_FN(cbwd_state)(p, c, st->h + KV * ci, it->dout + V * t0, ws, b);
  LA_FN(cbwd_wy)(K, V, c, it->v + V * t0, bc, it->dv + V * t0, it->dbeta + t0, ws, b);
  LA_FN(cbwd_gated_products)(p, c, qc, kc, b->dAqk, b->dL, ws, b);
  LA_FN(chunk_decays_bwd)(p, c, qc, kc, it->dq + K * t0, it->dk + K * t0, it->dg + GD * t0, ws,
                          b);
}

typedef struct {
  const la_problem *p;
  const LA_FN(la_bwd_frame) *f;
  const la_bwd_io *io;
  ptrdiff_t maxnc;             /* most chunks of one sequence */
} LA_FN(chunk_bwd_ctx);

static void LA_FN(chunk_bwd_item)(void *ctx, ptrdiff_t n, ptrdiff_t hv, real_t *buf, int *status)
{
  const LA_FN(chunk_bwd_ctx) *x = (const LA_FN(chunk_bwd_ctx) *)ctx;
  const la_problem *p = x->p;
  const LA_FN(la_item) it = LA_FN(la_item_bwd)(p, x->f, x->io, n, hv);
  const ptrdiff_t nc = (it.s.len + p->chunk - 1) / p->chunk;
  LA_FN(cbwd_store) st;
  LA_FN(chunk_ws) ws;
  LA_FN(cbwd_ws) b;
  ptrdiff_t ci;

  LA_FN(chunk_bwd_carve)(p, x->maxnc, buf, &st, &ws, &b);
  if (!LA_FN(cbwd_forward_sweep)(p, &it, &st, &ws, &b, status)) return;
  LA_FN(la_state_load)(p, it.dht, b.dS);
  for (ci = nc - 1; ci >= 0; ci--) {
    if (la_poll(p, status)) return;
    LA_FN(cbwd_chunk)(p, &it, ci, &st, &ws, &b);
  }
  LA_FN(la_state_store)(p, b.dS, it.dh0);
}

int LA_FN(la_chunk_bwd)(const la_problem *p0, const la_bwd_io *io)
{
  LA_ENTRY_CHECK(p0, pc);
  const la_problem *p = &pc;
  LA_FN(la_bwd_frame) f;
  LA_FN(chunk_bwd_ctx) x;
  ptrdiff_t n;
  int rc;

  if (io->gk || io->gv) return LA_EARG; /* GK, GV: the recurrent paths only */
  x.maxnc = 1;
  for (n = 0; n < p->N; n++) {
    const la_seq s = la_seq_of(p, n);
    if ((s.len + p->chunk - 1) / p->chunk > x.maxnc) x.maxnc = (s.len + p->chunk - 1) / p->chunk;
  }
  rc = LA_FN(la_bwd_start)(p, io, &f);
  if (rc) return rc;
  x.p = p;
  x.f = &f;
  x.io = io;
  rc = LA_FN(la_for_items)(p, LA_FN(chunk_ws_size)(p, 1, x.maxnc), 0, LA_FN(chunk_bwd_item), &x);
  return LA_FN(la_bwd_end)(p, io, &f, rc);
}
