/*
 * la_chunk_bwd.tmpl.h -- template: the driver of the chunked backward
 * (docs/chunk_backward.md).  Per (sequence, value head), two sweeps over
 * its chunks, each chunk's steps named after what they form:
 *   forward sweep, chunks 0 .. nc-1 from H = h0, keeping each chunk's H, M,
 *   Aqk, A, X (WY form: w) and v_new in the store (54):
 *     fwd_local  decays, gated q, k, M, Aqk, A (WY: w, u)  (24)-(30), (34)
 *     fwd_chain  v_new = A (v - KG H), the next H          (31), (36)
 *   reverse sweep, chunks nc-1 .. 0 from dS = dht, to dh0 = dS:
 *     rev_pre    decays, gated q, k, A_raw again; dAqk, dO's dv_new (40), (41)
 *     rev_chain  the rest of dv_new, dX, dH = the dS before (40), (42), (45b)
 *     rev_post   dQG, dKG, dKC, dgamma; back through WY, the inverse, the
 *                gated products and inputs: dq, dk, dv, dg, dbeta  (43)-(51b)
 * The chain steps carry H or dS from chunk to chunk; the rest is each
 * chunk's own, which la_sweep (la_sched.tmpl.h) lets an idle thread take.
 * 'Emulate' (docs/emulation.md) rounds what a kernel stores: the forward
 * sweep's h, Aqk, A, w, v_new, the reverse sweep's gated q, k, dv_new and
 * the dh a chunk reads (the carried dh stays single), the gradients last.
 * With io->aux, each chunk's gradients of the forward's intermediates are
 * copied out (cbwd_aux_store).
 */

/* What every item reads: the call, the size of its store (maxnc chunks)
 * and ring (la_ring_size), the form of v_new (la_direct_form); with aux
 * the number of each sequence's first chunk (chunk_first). */
typedef struct {
  const la_problem *p;
  const LA_FN(la_bwd_frame) *f;
  const la_bwd_io *io;
  const ptrdiff_t *first;
  ptrdiff_t maxnc;
  int ring, direct;
} LA_FN(chunk_bwd_ctx);

/* One item (sequence n, value head hv) in progress: its arrays, its store,
 * its ring of chunk workspaces and the aux's keep (cbwd_wy) after them. */
typedef struct {
  const LA_FN(chunk_bwd_ctx) *x;
  const la_problem *p;
  LA_FN(la_item) it;
  ptrdiff_t n, hv;
  LA_FN(cbwd_store) st;
  LA_FN(cbwd_ring) ring;
  real_t *keep;
} LA_FN(cbwd_item);

/* Forward sweep, chunk ci's own part: M, Aqk, A (27)-(29), (34) (and in
 * the WY form w, u (30)) into the store, the decays and gated q, k into
 * workspace r.  M and Aqk come from one pass, as in the forward. */
static void LA_FN(cbwd_fwd_local)(void *item, ptrdiff_t ci, int r)
{
  LA_FN(cbwd_item) *I = (LA_FN(cbwd_item) *)item;
  const la_problem *p = I->p;
  const LA_FN(la_item) *it = &I->it;
  const ptrdiff_t K = p->K, V = p->V, C = p->chunk, GD = la_gate_dim(p);
  const ptrdiff_t t0 = ci * C, c = la_chunk_steps(it->s, ci, C);
  LA_FN(chunk_ws) *ws = &I->ring.ws[r];
  LA_FN(cbwd_use_chunk)(&I->st, ci, c, ws, &I->ring.b[r]);
  LA_FN(chunk_intra)(p, c, it->q + K * t0, it->k + K * t0, it->v + V * t0, it->g + GD * t0,
                     it->beta + t0, LA_CI_AQK | (I->st.direct ? LA_CI_A : LA_CI_WU), ws);
  LA_FN(chunk_emu_intra)(p, c, 1, ws);
}

/* Forward sweep, the chain: v_new (31) of chunk ci and the state H
 * entering the next one (36) (none after the last).  b->dS: scratch for
 * the rounded H ('Emulate'; free until the reverse sweep). */
static void LA_FN(cbwd_fwd_chain)(void *item, ptrdiff_t ci, int r)
{
  LA_FN(cbwd_item) *I = (LA_FN(cbwd_item) *)item;
  const la_problem *p = I->p;
  const ptrdiff_t K = p->K, V = p->V, KV = p->K * p->V, C = p->chunk;
  const ptrdiff_t nc = la_chunks(I->it.s.len, C), c = la_chunk_steps(I->it.s, ci, C);
  const LA_FN(chunk_ws) *ws = &I->ring.ws[r];
  LA_FN(cbwd_ws) *b = &I->ring.b[r];
  real_t *H = I->st.h + KV * ci;
  const real_t *Hr = LA_FN(chunk_emu_state)(p, H, b->dS, KV); /* H, or its rounded copy */
  if (b->X) /* the direct form: X = v - KG H kept for the reverse sweep's dA */
    LA_FN(chunk_vnew_direct_cols)(K, V, c, Hr, ws->KG, ws->Am, C, I->it.v + V * ci * C, V, b->X,
                                  b->vnew, V);
  else
    LA_FN(chunk_vnew)(K, V, c, Hr, ws, b->vnew);
  LA_FN(la_emu)(p, b->vnew, V * c);
  if (ci + 1 < nc) LA_FN(chunk_state_next)(K, V, c, ws, b->vnew, H, H + KV);
  if (Hr != H) memcpy(H, Hr, sizeof(real_t) * (size_t)KV);
}

/* Reverse sweep, chunk ci's part before the chain: the decays and gated
 * q, k recomputed (Aqk is the forward sweep's), A_raw rebuilt from M, the
 * output stage's backward: dO's part of dv_new and dAqk (40), (41). */
static void LA_FN(cbwd_rev_pre)(void *item, ptrdiff_t ci, int r)
{
  LA_FN(cbwd_item) *I = (LA_FN(cbwd_item) *)item;
  const la_problem *p = I->p;
  const LA_FN(la_item) *it = &I->it;
  const ptrdiff_t K = p->K, V = p->V, C = p->chunk, GD = la_gate_dim(p);
  const ptrdiff_t t0 = ci * C, c = la_chunk_steps(it->s, ci, C);
  LA_FN(chunk_ws) *ws = &I->ring.ws[r];
  LA_FN(cbwd_ws) *b = &I->ring.b[r];
  LA_FN(cbwd_use_chunk)(&I->st, ci, c, ws, b);
  LA_FN(chunk_intra)(p, c, it->q + K * t0, it->k + K * t0, it->v + V * t0, it->g + GD * t0,
                     it->beta + t0, LA_CI_DECAYS, ws);
  LA_FN(chunk_emu_intra)(p, c, 0, ws);
  LA_FN(chunk_araw)(c, ws->M, it->beta + t0, ws);
  LA_FN(cbwd_output)(p, c, it->dout + V * t0, ws, b);
  LA_FN(la_emu)(p, b->dvn, V * c);
}

/* Reverse sweep, the chain: dH (42); b->dS holds the gradient of the state
 * after chunk ci on entry and of the state entering it on return. */
static void LA_FN(cbwd_rev_chain)(void *item, ptrdiff_t ci, int r)
{
  LA_FN(cbwd_item) *I = (LA_FN(cbwd_item) *)item;
  const la_problem *p = I->p;
  const ptrdiff_t t0 = ci * p->chunk, c = la_chunk_steps(I->it.s, ci, p->chunk);
  const LA_FN(chunk_ws) *ws = &I->ring.ws[r];
  LA_FN(cbwd_ws) *b = &I->ring.b[r];
  LA_FN(cbwd_emu_dh)(p, c, ws, b, 0);
  LA_FN(cbwd_state_chain)(p, c, I->it.dout + p->V * t0, ws, b);
  LA_FN(cbwd_emu_dh)(p, c, ws, b, 1);
}

/* Reverse sweep, chunk ci's part after the chain: the rest of the state
 * stage (43), WY and the inverse (44)-(47), gated products (48), (49),
 * gated inputs and dg (50)-(51b): dq, dk, dv, dg, dbeta of its steps (and
 * with the aux its intermediates). */
static void LA_FN(cbwd_rev_post)(void *item, ptrdiff_t ci, int r)
{
  LA_FN(cbwd_item) *I = (LA_FN(cbwd_item) *)item;
  const la_problem *p = I->p;
  const LA_FN(la_item) *it = &I->it;
  const ptrdiff_t K = p->K, V = p->V, KV = p->K * p->V, C = p->chunk, GD = la_gate_dim(p);
  const ptrdiff_t t0 = ci * C, c = la_chunk_steps(it->s, ci, C);
  const real_t *qc = it->q + K * t0, *kc = it->k + K * t0, *bc = it->beta + t0;
  const real_t *H = I->st.h + KV * ci;
  const LA_FN(cbwd_aux_at) at =
      LA_FN(cbwd_aux_of)(p, I->x->io->aux, I->x->first, I->n, I->hv, ci, I->keep);
  LA_FN(chunk_ws) *ws = &I->ring.ws[r];
  LA_FN(cbwd_ws) *b = &I->ring.b[r];
  LA_STAGE(LA_ST_B_STATE, LA_FN(cbwd_state_local)(p, c, H, b));
  LA_FN(la_emu)(p, b->dvn, V * c);
  LA_STAGE(LA_ST_B_WY, LA_FN(cbwd_wy)(K, V, c, it->v + V * t0, bc, it->dv + V * t0,
                                      it->dbeta + t0, ws, b, at.keep));
  LA_STAGE(LA_ST_B_GATED, LA_FN(cbwd_gated_products)(p, c, qc, kc, b->dAqk, b->dL, ws, b));
  LA_STAGE(LA_ST_B_DECAYS, LA_FN(chunk_decays_bwd)(p, c, qc, kc, it->dq + K * t0,
                                                   it->dk + K * t0, it->dg + GD * t0, ws, b));
  if (at.aux) LA_FN(cbwd_aux_store)(p, c, &at, b, H, it->dg + GD * t0);
}

/* The two sweeps' steps in order: {step, carries the chain, stage timed}. */
static const la_chunk_step LA_FN(cbwd_fwd_sweep)[] = {
    {LA_FN(cbwd_fwd_local), 0, LA_ST_B_FWD_LOCAL}, {LA_FN(cbwd_fwd_chain), 1, LA_ST_B_FWD_CHAIN}};
static const la_chunk_step LA_FN(cbwd_rev_sweep)[] = {
    {LA_FN(cbwd_rev_pre), 0, LA_ST_B_REV_PRE}, {LA_FN(cbwd_rev_chain), 1, LA_ST_B_REV_CHAIN},
    {LA_FN(cbwd_rev_post), 0, LA_ST_COUNT}};

/* One item: H = h0, the forward sweep; dS = dht, the reverse sweep;
 * dh0 = dS. */
static void LA_FN(chunk_bwd_item)(void *ctx, ptrdiff_t n, ptrdiff_t hv, real_t *buf, int *status)
{
  const LA_FN(chunk_bwd_ctx) *x = (const LA_FN(chunk_bwd_ctx) *)ctx;
  const la_problem *p = x->p;
  LA_FN(cbwd_item) I = {.x = x, .p = p, .it = LA_FN(la_item_bwd)(p, x->f, x->io, n, hv), .n = n,
                        .hv = hv};
  const ptrdiff_t nc = la_chunks(I.it.s.len, p->chunk);
  I.keep = LA_FN(cbwd_carve)(p, x->maxnc, x->ring, buf, &I.st, &I.ring);
  I.st.direct = x->direct;
  LA_FN(la_state_load)(p, I.it.h0, I.st.h);
  la_sweep(p, nc, 0, x->ring, LA_FN(cbwd_fwd_sweep), 2, &I, status);
  if (la_stopped(status)) return;
  LA_FN(la_state_load)(p, I.it.dht, I.ring.b[0].dS);
  la_sweep(p, nc, 1, x->ring, LA_FN(cbwd_rev_sweep), 3, &I, status);
  if (la_stopped(status)) return;
  LA_FN(la_state_store)(p, I.ring.b[0].dS, I.it.dh0);
}

int LA_FN(la_chunk_bwd_run)(const la_problem *p0, const la_bwd_io *io)
{
  LA_ENTRY_CHECK(p0, pc);
  const la_problem *p = &pc;
  LA_FN(la_bwd_frame) f;
  LA_FN(chunk_bwd_ctx) x = {p, &f, io, NULL, la_max_chunks(p), la_ring_size(p, !io->aux),
                            la_direct_form(p)}; /* aux: one keep per item, so no ring */
  const ptrdiff_t ws_elems = LA_FN(cbwd_thread_size)(p, x.maxnc, x.ring, io->aux != NULL);
  ptrdiff_t *first = NULL;
  int rc;
  if (LA_DOUBLE && p->emulate) return LA_EARG; /* emulation works in float */
  if (io->gk || io->gv) return LA_EARG; /* GK, GV: the recurrent paths only */
  if (p->beta_per_channel || p->slots) return LA_EARG; /* so are these */
  if (ws_elems < 0) return LA_ENOMEM;
  if (io->aux && !(first = LA_FN(chunk_first)(p, NULL))) return LA_ENOMEM; /* aux.dh's numbers */
  x.first = first;
  rc = LA_FN(la_bwd_start)(p, io, &f);
  if (rc == LA_OK) {
    rc = LA_FN(la_for_items)(p, ws_elems, 0, 1, LA_FN(chunk_bwd_item), &x);
    rc = LA_FN(la_bwd_end)(p, io, &f, rc);
  }
  free(first);
  if (rc == LA_OK) LA_FN(chunk_emu_grads)(p, io);
  return rc;
}

/* The entry point: 'Emulate' rounds the inputs first (la_emulate.c). */
int LA_FN(la_chunk_bwd)(const la_problem *p, const la_bwd_io *io)
{
  return p->emulate ? la_emu_chunk_bwd(p, io, LA_DOUBLE) : LA_FN(la_chunk_bwd_run)(p, io);
}
