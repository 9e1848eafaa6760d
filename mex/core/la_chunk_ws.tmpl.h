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

#define LA_CHUNK_WS(W_)                                                          \
  W_(a, K, C, 1) W_(eG, K, C, 1) W_(eGc, K, C, 1)   /* decays (la_stage_decay)   */ \
  W_(QG, K, C, 1) W_(KG, K, C, 1) W_(KC, K, C, 1)   /* gated q, k (KG: see cbwd_use_chunk) */ \
  W_(XX, K, 2 * LA_SUB, 1) W_(Y, K, C, 1)  /* a block row's scaled [q, k]; k   */ \
  W_(R, 2 * LA_SUB, C, 1)  /* its [Aqk; M] rows left of it (backward: their cotangents) */ \
  W_(E, K, C, 1) W_(F, K, C, 1)   /* their factors exp(G_i - G_r), exp(G_r - G_j) */ \
  W_(M, C, C, 1) W_(Araw, C, C, 1)  /* M: A_raw before the beta rows */         \
  W_(Am, C, C, 1)                                                              \
  W_(w, K, C, 1) W_(u, V, C, 1)                                                   \
  W_(f, K, 2, 1)                                  /* two running products     */

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
 * what its state pass reads of the intra-chunk phase: QG, KC, Aqk, gamma =
 * exp(G_last), and for v_new in the direct form KG (in kw) and A, in the WY
 * form ('Emulate') w (in kw) and u.  vn: u, then v_new formed in its place
 * (WY), or v_new (direct). */
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

/* The chunked backward: the buffers of the chain, one per item -- the
 * gradient dS of the state that the reverse sweep carries from chunk to
 * chunk, and dSr ('Emulate': dS before rounding, la_chunk_bwd) -- and the
 * gradient buffers of one chunk.  dQG holds dQG then dw (dW = dQG + K c);
 * Z = [scale dO, -dv_new], QGw = [QG, w]. */
#define LA_CBWD_CHAIN(W_) W_(dS, K, V, 1) W_(dSr, K, V, 1)

#define LA_CBWD_WS(W_)                                                              \
  W_(vnew, V, C, 1) W_(dvn, V, C, 1)                                                  \
  W_(dAqk, C, C, 1) W_(Y, C, C, 1) W_(dL, C, C, 1)                                    \
  W_(Ys, LA_STRIP, C, 1)   /* a strip of Y transposed (tri_solve_lower_t) */         \
  W_(dQG, K, C, 2) W_(Z, V, C, 2) W_(QGw, K, C, 2)                                    \
  W_(dKC, K, C, 1) W_(dKG, K, C, 1)                                                  \
  W_(dQr, K, C, 1) W_(dKr, K, C, 1) W_(dKc, K, C, 1) W_(tmp, K, C, 1) W_(dG, K, C, 1)   \
  W_(dGp, K, C, 1) W_(dGc, K, C, 1) W_(rowt, K, C, 1) W_(bsum, K, C, 1) W_(pass, K, C, 1) \
  W_(dgam, K, 1, 1) W_(e, K, 1, 1)                                                    \
  W_(dSc, K, V, 1)  /* dS' of the chunk (cbwd_state_chain) */

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
