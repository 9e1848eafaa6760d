/*
 * la_stage_state.tmpl.h -- template: state passing between chunks, forward
 * and backward (docs/chunk_forward.md, docs/chunk_backward.md).  With S the
 * state entering the chunk and gamma = exp(G_last):
 *   v_new = u - w S                          (the delta of each step)
 *   S'    = Diag(gamma) S + KC^T v_new       (the state after the chunk)
 * or in the direct form (both chunked paths, but with 'Emulate'), the same
 * v_new as
 *   v_new = A (v - KG S)                     (no w, u: one GEMM less)
 * Stored forms: v_new is V x c (column i = step i), S is K x V.
 */

/* The forward works on a block of vw value columns: S (K x vw, ld K), the
 * matching rows of v_new / u (vw x c, ld ldv); the full state is vw = V. */

/* vnew = vnew - S^T w in place (vnew holds u on entry). */
static inline void LA_FN(chunk_vnew_cols)(ptrdiff_t K, ptrdiff_t vw, ptrdiff_t c, const real_t *S,
                                          const real_t *w, real_t *vnew, ptrdiff_t ldv)
{
  LA_GEMM('T', 'N', vw, c, K, -1, S, K, w, K, 1, vnew, ldv);
}

/* The direct form: vnew = (v - S^T KG) A^T, for v (vw x c, ld ldvin) and
 * A (c x c lower, ld C); X: scratch of vw x c.  Same flops as u - S^T w
 * but for the GEMM of w = A KG, which it does not need (docs/chunk_forward.md,
 * (31)). */
static inline void LA_FN(chunk_vnew_direct_cols)(ptrdiff_t K, ptrdiff_t vw, ptrdiff_t c,
                                                 const real_t *S, const real_t *KG,
                                                 const real_t *A, ptrdiff_t C, const real_t *v,
                                                 ptrdiff_t ldvin, real_t *X, real_t *vnew,
                                                 ptrdiff_t ldv)
{
  ptrdiff_t i;
  for (i = 0; i < c; i++) memcpy(X + vw * i, v + ldvin * i, sizeof(real_t) * (size_t)vw);
  LA_GEMM('T', 'N', vw, c, K, -1, S, K, KG, K, 1, X, vw);
  LA_FN(gemm_xlt)(vw, c, X, vw, A, C, 0, vnew, ldv);
}

/* The direct form's vnew and the output o (vw x c, ld ldo) of a chunk
 * whose KG and QG lie side by side (KGQG: K x 2c, ld K): T = S^T [KG, QG]
 * in one GEMM, so S is packed once for both; then X = v - T(:, 0:c),
 * vnew = X A^T and o = scale T(:, c:2c) + vnew Aqk^T.  The same terms as
 * chunk_vnew_direct_cols and chunk_output_cols (a GEMM too applies alpha
 * and beta after its sum), but OpenBLAS may sum the wider product in
 * another order: single results can move by a rounding.  T: scratch of vw x 2c. */
static inline void LA_FN(chunk_vnew_output_direct_cols)(
    const la_problem *p, ptrdiff_t vw, ptrdiff_t c, const real_t *S, const real_t *KGQG,
    const real_t *A, const real_t *Aqk, ptrdiff_t C, const real_t *v, ptrdiff_t ldvin,
    real_t *T, real_t *vnew, ptrdiff_t ldv, real_t *o, ptrdiff_t ldo)
{
  const real_t scale = (real_t)p->scale;
  ptrdiff_t i, j;
  LA_GEMM('T', 'N', vw, 2 * c, p->K, 1, S, p->K, KGQG, p->K, 0, T, vw);
  for (i = 0; i < c; i++) {
    real_t *restrict x = T + vw * i, *restrict oi = o + ldo * i;
    const real_t *restrict vi = v + ldvin * i, *restrict t = T + vw * (c + i);
#pragma omp simd
    for (j = 0; j < vw; j++) {
      x[j] = vi[j] - x[j];
      oi[j] = scale * t[j];
    }
  }
  LA_FN(gemm_xlt)(vw, c, T, vw, A, C, 0, vnew, ldv);
  LA_FN(gemm_xlt)(vw, c, vnew, ldv, Aqk, C, 1, o, ldo);
}

/* Sn = Diag(gam) S + KC vnew^T (Sn may be S). */
static inline void LA_FN(chunk_state_cols)(ptrdiff_t K, ptrdiff_t vw, ptrdiff_t c,
                                           const real_t *gam, const real_t *KC,
                                           const real_t *vnew, ptrdiff_t ldv, const real_t *S,
                                           real_t *Sn)
{
  ptrdiff_t j, x;
  for (j = 0; j < vw; j++)
#pragma omp simd
    for (x = 0; x < K; x++) Sn[x + K * j] = gam[x] * S[x + K * j];
  LA_GEMM('N', 'T', K, vw, c, 1, KC, K, vnew, ldv, 1, Sn, K);
}

/* vnew = u - S^T w (in place when vnew is ws->u), all V columns. */
static inline void LA_FN(chunk_vnew)(ptrdiff_t K, ptrdiff_t V, ptrdiff_t c, const real_t *S,
                                     const LA_FN(chunk_ws) *ws, real_t *vnew)
{
  if (vnew != ws->u) memcpy(vnew, ws->u, sizeof(real_t) * (size_t)(V * c));
  LA_FN(chunk_vnew_cols)(K, V, c, S, ws->w, vnew, V);
}

/* Sn = Diag(gamma) S + KC vnew^T (Sn may be S), all V columns. */
static inline void LA_FN(chunk_state_next)(ptrdiff_t K, ptrdiff_t V, ptrdiff_t c,
                                           const LA_FN(chunk_ws) *ws, const real_t *vnew,
                                           const real_t *S, real_t *Sn)
{
  LA_FN(chunk_state_cols)(K, V, c, ws->eG + K * (c - 1), ws->KC, vnew, V, S, Sn);
}

/* Backward of the chunk's state passing and of the state's part of the
 * output, in two parts so that the reverse sweep can run the chunks' own
 * work beside the chain of dS (la_chunk_bwd).  On entry b->dS = dS' (the
 * gradient of the state after the chunk), b->dvn = Aqk^T dO
 * (la_stage_output).  cbwd_state_chain, the part that carries dS: b->dvn
 * becomes the whole dv_new, b->dSc a copy of dS', b->dS the gradient of
 * the state entering the chunk, and b->Z = [scale dO, -dv_new] (the WY form,
 * v_new = u - w S) or [scale dO, -dX] with dX = A^T dv_new (the direct form,
 * v_new = A X, X = v - KG S: the gradient of X, which is dv).
 * cbwd_state_local, the chunk's own part (any time after): b->dQG the
 * gradient of QG, b->dW that of w (WY) or of KG (direct), b->dKC of KC,
 * b->dgam of gamma.  Each entry gets the same operations as in one
 * function.  dO: the chunk's output gradient (V x c). */
static void LA_FN(cbwd_state_chain)(const la_problem *p, ptrdiff_t c, const real_t *dO,
                                    const LA_FN(chunk_ws) *ws, LA_FN(cbwd_ws) *b)
{
  const ptrdiff_t K = p->K, V = p->V;
  const real_t scale = (real_t)p->scale, *gam = ws->eG + K * (c - 1);
  const int direct = b->X != NULL;
  real_t *dS = b->dS, *Z2 = b->Z + V * c;
  const real_t *dZ = direct ? Z2 : b->dvn; /* Z's second half, negated: dX or dv_new */
  ptrdiff_t i, j, x;

  /* one pass over dS': dSc = dS' (kept for cbwd_state_local) and
   * dS = Diag(gamma) dS', the first term of the previous chunk's state
   * gradient (below) */
  for (j = 0; j < V; j++) {
    real_t *restrict dSj = dS + K * j, *restrict dScj = b->dSc + K * j;
#pragma omp simd
    for (x = 0; x < K; x++) {
      dScj[x] = dSj[x];
      dSj[x] *= gam[x];
    }
  }
  /* dv_new += KC dS'   (stored: dS'^T KC) */
  LA_GEMM('T', 'N', V, c, K, 1, b->dSc, K, ws->KC, K, 1, b->dvn, V);
  if (direct) /* dX = A^T dv_new   (stored: dv_new A) */
    LA_FN(gemm_xl)(V, c, b->dvn, V, ws->Am, ws->C, 0, Z2, V);
  for (i = 0; i < V * c; i++) {
    b->Z[i] = scale * dO[i];
    Z2[i] = -dZ[i];
  }
  /* the state gradient for the previous chunk:
   * dS = Diag(gamma) dS' + scale QG^T dO - w^T dv_new = Diag(gamma) dS' + [QG, w] Z^T,
   * in the direct form - KG^T dX in place of - w^T dv_new: [QG, KG] Z^T */
  if (direct) { /* [QG, KG] side by side already (cbwd_use_chunk) */
    LA_GEMM('N', 'T', K, V, 2 * c, 1, ws->QG, K, b->Z, V, 1, dS, K);
    return;
  }
  memcpy(b->QGw, ws->QG, sizeof(real_t) * (size_t)(K * c));
  memcpy(b->QGw + K * c, ws->w, sizeof(real_t) * (size_t)(K * c));
  LA_GEMM('N', 'T', K, V, 2 * c, 1, b->QGw, K, b->Z, V, 1, dS, K);
}

/* S: the state entering the chunk (stored by the forward sweep). */
static void LA_FN(cbwd_state_local)(const la_problem *p, ptrdiff_t c, const real_t *S,
                                    LA_FN(cbwd_ws) *b)
{
  const ptrdiff_t K = p->K, V = p->V;
  const real_t *dS = b->dSc;
  ptrdiff_t j, x;

  /* dQG = scale dO S^T and dw = -dv_new S^T share S: [dQG, dw] = S Z is
   * one GEMM (direct: dKG = -dX S^T in place of dw) */
  b->dW = b->dQG + K * c;
  LA_GEMM('N', 'N', K, 2 * c, V, 1, S, K, b->Z, V, 0, b->dQG, K);
  /* dKC = v_new dS'^T,  dgamma = rowsum(dS' .* S) */
  LA_GEMM('N', 'N', K, c, V, 1, dS, K, b->vnew, V, 0, b->dKC, K);
  for (x = 0; x < K; x++) b->dgam[x] = 0;
  for (j = 0; j < V; j++)
    for (x = 0; x < K; x++) b->dgam[x] += dS[x + K * j] * S[x + K * j];
}
