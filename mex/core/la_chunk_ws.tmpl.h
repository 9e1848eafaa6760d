/*
 * la_chunk_ws.tmpl.h -- template: the per-thread workspace of one chunk
 * (C steps) of the chunked paths, as a table (la_ws.h).  Stored forms: a
 * K x c (V x c) block holds one step per column; C x C matrices have
 * leading dimension C.
 */

/* Rows of the sub-blocks of the gated products (la_stage_gated). */
#define LA_SUB 16

/* Entries of a strip of the triangular solves, held in registers
 * (la_stage_wy). */
#define LA_STRIP 16

/* One chunk's intra-chunk quantities (docs/chunk_forward.md; column i is
 * step i of the chunk, G the cumulative gate (24), gamma = exp(G_c)):
 *   a      exp(g_i), the per-step decays                      (la_stage_decay)
 *   eG     exp(G_i) (the forward keeps only its last column, gamma)
 *   eGc    exp(G_c - G_i), the decay to the chunk's end
 *   QG     Q_G = exp(G) .* q (35);  KG  K_G = exp(G) .* k (28);
 *   KC     K_C = exp(G_c - G) .* k (36)
 *   XXk    [X, Xk]: a block row's s q and k scaled by E     (la_stage_gated)
 *   KF     k_j .* exp(G_r - G_j), the columns left of the block row
 *   R      the backward's stacked cotangents D of a block row (gated_bwd_stack)
 *   E, F   the factors exp(G_i - G_r), exp(G_r - G_j) (kept for the backward)
 *   M      M_ij = k_i' Diag(exp(G_i - G_j)) k_j (27);  Araw  A_raw = Diag(beta) M
 *   Am     A = (I + A_raw)^{-1} Diag(beta) (29)             (la_stage_wy)
 *   w, u   w = A K_G, u = A v (30): the WY form only
 *   f      two running products of decays (K each)
 *   Aqk    Aqk (34): not carved, the caller's (below) */
#define LA_CHUNK_WS(W_)                                                          \
  W_(a, K, C, 1) W_(eG, K, C, 1) W_(eGc, K, C, 1)                                 \
  W_(QG, K, C, 1) W_(KG, K, C, 1) W_(KC, K, C, 1)                                 \
  W_(XXk, K, 2 * LA_SUB, 1) W_(KF, K, C, 1) W_(R, 2 * LA_SUB, C, 1)              \
  W_(E, K, C, 1) W_(F, K, C, 1)                                                   \
  W_(M, C, C, 1) W_(Araw, C, C, 1) W_(Am, C, C, 1)                                \
  W_(w, K, C, 1) W_(u, V, C, 1)                                                   \
  W_(f, K, 2, 1)

typedef struct {
  ptrdiff_t K, V, C;
  LA_CHUNK_WS(LA_WS_FIELD)
  real_t *Aqk; /* C x C, always the caller's: the forward's slot or the
                  backward's store (its forward sweep forms it, its reverse
                  sweep reads it) */
} LA_FN(chunk_ws);

/* Point *w into buf (advanced past it) for the sizes of p. */
static void LA_FN(chunk_ws_carve)(const la_problem *p, real_t **bufp, LA_FN(chunk_ws) *w)
{
  const ptrdiff_t K = p->K, V = p->V, C = p->chunk;
  real_t *buf = *bufp;
  w->K = K; w->V = V; w->C = C;
  LA_WS_CARVE_ALL(LA_CHUNK_WS, buf);
  w->Aqk = NULL; /* the caller points it at its own C x C (above) */
  *bufp = buf;
}

/* The chunked forward keeps, per chunk of a window (la_chunk_fwd.tmpl.h),
 * what its state step reads of the intra-chunk work:
 *   kw     K_G (the direct form) or w (the WY form, 'Emulate'), K x c
 *   QG     Q_G; fwd_slot points it right after kw's c columns, so that
 *          [K_G, Q_G] is one K x 2c block (one GEMM with S)
 *   KC     K_C (36);  Aqk (34);  Am  A (29);  gam  gamma = exp(G_c)
 *   vn     v_new (31) (the WY form: u, then v_new formed in its place) */
#define LA_CFWD_SLOT(W_)                                                           \
  W_(kw, K, C, 1) W_(QG, K, C, 1) /* QG moved up to kw's c columns: fwd_slot */  \
  W_(KC, K, C, 1) W_(vn, V, C, 1) W_(Aqk, C, C, 1)                                 \
  W_(Am, C, C, 1) W_(gam, K, 1, 1)

typedef struct {
  LA_CFWD_SLOT(LA_WS_FIELD)
} LA_FN(cfwd_slot);

/* static ptrdiff_t NAME(p, nc): the elements of the table LIST for the
 * sizes of p (nc: chunks, where LIST counts per chunk; else unused), -1 on
 * overflow. */
#define LA_WS_SIZE_FN(NAME, LIST)                                      \
  static ptrdiff_t LA_FN(NAME)(const la_problem *p, ptrdiff_t nc)      \
  {                                                                    \
    const ptrdiff_t K = p->K, V = p->V, C = p->chunk;                  \
    ptrdiff_t total;                                                   \
    (void)K, (void)V, (void)C, (void)nc; /* not every table uses all */ \
    LA_WS_TOTAL(LIST, &total);                                         \
    return total;                                                      \
  }

/* Elements of one slot, and the slot at buf. */
LA_WS_SIZE_FN(cfwd_slot_size, LA_CFWD_SLOT)

static LA_FN(cfwd_slot) LA_FN(cfwd_slot_at)(const la_problem *p, real_t *buf)
{
  const ptrdiff_t K = p->K, V = p->V, C = p->chunk;
  LA_FN(cfwd_slot) slot, *w = &slot;
  LA_WS_CARVE_ALL(LA_CFWD_SLOT, buf);
  return slot;
}

/* The chunked backward (docs/chunk_backward.md; a leading d: the gradient
 * of the loss with respect to that quantity).  The chain's buffers, one per
 * item:
 *   dS     dH, the state's gradient the reverse sweep carries (42)
 *   dSr    'Emulate': dS before its rounding (cbwd_emu_dh)
 * and one chunk's gradient buffers:
 *   vnew   v_new of the chunk (the store's);  dvn  dv_new (40)
 *   dAqk   dAqk (41);  Y  dA (45)/(45b), then L^-T dA in place (46)
 *   dL     dL, then dM = Diag(beta) dA_raw (46), (47);  Ys  a strip of Y'
 *   dQG    dQ_G (43), then dw after it (dW = dQG + K c) (44)
 *   Z      [s dO, -dv_new] (V x 2c);  QGw  [Q_G, w] (the WY form's GEMM)
 *   dKC    dK_C (43);  dKG  dK_G (45)/(45b)
 *   dQr, dKr, dKc  the gated products' gradients of q and k as rows (i)
 *          and as columns (j) of M and Aqk (48)
 *   tmp    the off-diagonal GEMMs' K x 2 LA_SUB products (gated_bwd_rows/cols)
 *   dG     dG_i (50);  dGp  M's and Aqk's part of dg_t (49), (51b)
 *   dGc    the column terms k_j .* dKc_j of dGp
 *   rowt   the row terms of a block row;  bsum  the column terms' block sums;
 *   pass   what those sums pass to the blocks in between (51b)
 *   dgam   dgamma (43);  e  a running sum (K)
 *   dSc    dS' of the chunk before it is scaled (cbwd_state_chain) */
#define LA_CBWD_CHAIN(W_) W_(dS, K, V, 1) W_(dSr, K, V, 1)

#define LA_CBWD_WS(W_)                                                              \
  W_(vnew, V, C, 1) W_(dvn, V, C, 1)                                                  \
  W_(dAqk, C, C, 1) W_(Y, C, C, 1) W_(dL, C, C, 1)                                    \
  W_(Ys, LA_STRIP, C, 1)                                                              \
  W_(dQG, K, C, 2) W_(Z, V, C, 2) W_(QGw, K, C, 2)                                    \
  W_(dKC, K, C, 1) W_(dKG, K, C, 1)                                                  \
  W_(dQr, K, C, 1) W_(dKr, K, C, 1) W_(dKc, K, C, 1) W_(tmp, K, C, 1) W_(dG, K, C, 1)   \
  W_(dGp, K, C, 1) W_(dGc, K, C, 1) W_(rowt, K, C, 1) W_(bsum, K, C, 1) W_(pass, K, C, 1) \
  W_(dgam, K, 1, 1) W_(e, K, 1, 1)                                                    \
  W_(dSc, K, V, 1)

typedef struct {
  LA_CBWD_CHAIN(LA_WS_FIELD)
  LA_CBWD_WS(LA_WS_FIELD)
  real_t *dW;
  real_t *X; /* the chunk's stored X = v - KG h in the direct form, NULL in the
                WY form (cbwd_use_chunk): the stages tell the form by it */
} LA_FN(cbwd_ws);

/* What the backward's forward sweep keeps of every chunk (nc of them) for
 * its reverse sweep, within O(T/C K V + T (K + V + C)): the entering state h,
 * M, A and Aqk (C x c each), in wx X = v - KG h (V x c, the direct form) or
 * w (K x c, the WY form: 'Emulate'), and v_new (V x c).  The reverse sweep
 * then only recomputes the elementwise decays and gated q, k (Aqk is
 * cheaper formed beside M in the forward sweep than formed again). */
#define LA_CBWD_STORE(W_)                                                         \
  W_(h, K, V, nc) W_(M, C, C, nc) W_(A, C, C, nc) W_(Aqk, C, C, nc)              \
  W_(wx, (K > V ? K : V), C, nc) W_(vn, V, C, nc)

typedef struct {
  LA_CBWD_STORE(LA_WS_FIELD)
  int direct; /* the form of v_new (la_direct_form, once per call) */
} LA_FN(cbwd_store);

/* The chunk workspace and gradient buffers of one chunk of the backward
 * (one pair of its ring, la_chunk_bwd.tmpl.h). */
#define LA_CBWD_PAIR(W_) LA_CHUNK_WS(W_) LA_CBWD_WS(W_)

/* Elements of the chunked forward's per-thread workspace, of one pair of
 * the backward's ring, of its chain's buffers and of its store of nc chunks. */
LA_WS_SIZE_FN(chunk_ws_size, LA_CHUNK_WS)
LA_WS_SIZE_FN(cbwd_pair_size, LA_CBWD_PAIR)
LA_WS_SIZE_FN(cbwd_chain_size, LA_CBWD_CHAIN)
LA_WS_SIZE_FN(cbwd_store_size, LA_CBWD_STORE)

/* Point the chunk workspace at chunk ci's stored M, Aqk, A, v_new, and w
 * (the WY form; u shares v_new's memory: v_new = u - w S is formed in place)
 * or X = v - KG S (the direct form) in the same place.  KG goes right after
 * the c columns of QG (the chunk workspace carves it after QG's C), so that
 * the state chain reads [QG, KG] as one K x 2c block (cbwd_state_chain). */
static void LA_FN(cbwd_use_chunk)(const LA_FN(cbwd_store) *st, ptrdiff_t ci, ptrdiff_t c,
                                  LA_FN(chunk_ws) *ws, LA_FN(cbwd_ws) *b)
{
  const ptrdiff_t K = ws->K, V = ws->V, C = ws->C;
  real_t *wx = st->wx + (K > V ? K : V) * C * ci;
  ws->KG = ws->QG + K * c;
  ws->M = st->M + C * C * ci;
  ws->Aqk = st->Aqk + C * C * ci;
  ws->Am = st->A + C * C * ci;
  ws->w = st->direct ? NULL : wx;
  b->X = st->direct ? wx : NULL;
  ws->u = b->vnew = st->vn + V * C * ci;
}

/* The ring of chunk workspaces of one item (la_sweep): n pairs (ws, b) of
 * which chunk ci uses pair ci % n; all of them point at the item's one
 * chain buffers b->dS, b->dSr (LA_CBWD_CHAIN).  n = 1: one pair, the
 * chunks one after the other. */
typedef struct {
  LA_FN(chunk_ws) ws[LA_RING];
  LA_FN(cbwd_ws) b[LA_RING];
  ptrdiff_t n;
} LA_FN(cbwd_ring);

/* An item's store of nc chunks, its chain's buffers and the ring's n pairs
 * out of buf; buf after them. */
static real_t *LA_FN(cbwd_carve)(const la_problem *p, ptrdiff_t nc, ptrdiff_t n, real_t *buf,
                                 LA_FN(cbwd_store) *st, LA_FN(cbwd_ring) *ring)
{
  const ptrdiff_t K = p->K, V = p->V, C = p->chunk;
  LA_FN(cbwd_ws) chain;
  ptrdiff_t r;
  {
    LA_FN(cbwd_store) *w = st;
    LA_WS_CARVE_ALL(LA_CBWD_STORE, buf);
  }
  {
    LA_FN(cbwd_ws) *w = &chain;
    LA_WS_CARVE_ALL(LA_CBWD_CHAIN, buf);
  }
  ring->n = n;
  for (r = 0; r < n; r++) {
    LA_FN(cbwd_ws) *w = &ring->b[r];
    LA_FN(chunk_ws_carve)(p, &buf, &ring->ws[r]);
    LA_WS_CARVE_ALL(LA_CBWD_WS, buf);
    w->dW = w->dQG + K * C;
    w->dS = chain.dS;
    w->dSr = chain.dSr;
  }
  return buf;
}

/* Elements of a thread's workspace in the backward: an item's store of
 * maxnc chunks, its chain, a ring of n pairs, and with aux the 2 C x C
 * cbwd_wy keeps for it; -1 on overflow. */
static ptrdiff_t LA_FN(cbwd_thread_size)(const la_problem *p, ptrdiff_t maxnc, ptrdiff_t n,
                                         int aux)
{
  const ptrdiff_t pair = LA_FN(cbwd_pair_size)(p, 0), store = LA_FN(cbwd_store_size)(p, maxnc);
  const ptrdiff_t chain = LA_FN(cbwd_chain_size)(p, 0);
  ptrdiff_t total, keep = 0;
  if (pair < 0 || store < 0 || chain < 0 || !la_mul(pair, n, &total) ||
      !la_add(store, total, &total) || !la_add(chain, total, &total) ||
      (aux && !la_mul4(2, p->chunk, p->chunk, 1, &keep)) || !la_add(keep, total, &total))
    return -1;
  return total;
}
