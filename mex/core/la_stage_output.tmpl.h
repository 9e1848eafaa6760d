/*
 * la_stage_output.tmpl.h -- template: the output of one chunk, forward and
 * backward (docs/chunk_forward.md):
 *   o = scale (exp(G) .* q) S + Aqk v_new     (inter + intra chunk)
 * stored V x c: o = scale S^T QG + v_new Aqk^T.
 */

/* The output rows of a block of vw value columns of S (K x vw, ld K): o
 * and vnew are vw x c with leading dimensions ldo, ldv; Aqk has ld C. */
static inline void LA_FN(chunk_output_cols)(const la_problem *p, ptrdiff_t vw, ptrdiff_t c,
                                            const real_t *S, const real_t *QG,
                                            const real_t *Aqk, ptrdiff_t C, const real_t *vnew,
                                            ptrdiff_t ldv, real_t *o, ptrdiff_t ldo)
{
  LA_GEMM('T', 'N', vw, c, p->K, (real_t)p->scale, S, p->K, QG, p->K, 0, o, ldo);
  LA_FN(gemm_xlt)(vw, c, vnew, ldv, Aqk, C, 1, o, ldo);
}

/* Backward, the intra-chunk part: b->dvn = Aqk^T dO (stored dO Aqk; the
 * state's part is added by cbwd_state_chain) and b->dAqk = tril(dO v_new^T).
 * The inter-chunk part (through S and QG) is in cbwd_state_chain and
 * cbwd_state_local (la_stage_state). */
static void LA_FN(cbwd_output)(const la_problem *p, ptrdiff_t c, const real_t *dO,
                               const LA_FN(chunk_ws) *ws, LA_FN(cbwd_ws) *b)
{
  const ptrdiff_t V = p->V, C = ws->C;
  ptrdiff_t i, j;
  LA_FN(gemm_xl)(V, c, dO, V, ws->Aqk, C, 0, b->dvn, V);
  LA_GEMM('T', 'N', c, c, V, 1, dO, V, b->vnew, V, 0, b->dAqk, C);
  for (j = 1; j < c; j++)
    for (i = 0; i < j; i++) b->dAqk[i + C * j] = 0;
}
