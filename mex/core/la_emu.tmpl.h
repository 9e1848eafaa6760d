/*
 * la_emu.tmpl.h -- template: 'Emulate' (docs/emulation.md) in the chunked
 * drivers.  What a GPU kernel stores between its stages in the input's
 * 16-bit format is rounded to it at the same place here: the intra-chunk
 * quantities, the state snapshot a chunk reads (the carried state stays
 * single), v_new and o in the forward, dh in the backward.  Nothing happens
 * without p->emulate; the double instantiation never emulates (the entry
 * points hand an emulated call to la_emulate.c, which rounds the inputs and
 * runs the float drivers).
 */
#include "la_emulate.h"

/* Round n values to the emulated format (nothing without 'Emulate'; the
 * double drivers never emulate: they refuse it). */
static inline void LA_FN(la_emu)(const la_problem *p, real_t *x, ptrdiff_t n)
{
#if LA_DOUBLE
  (void)p; (void)x; (void)n;
#else
  la_round_array(p->emulate, x, n);
#endif
}

/* The same for the rows [v0, v0 + vw) of c columns of leading dimension ld. */
static inline void LA_FN(la_emu_rows)(const la_problem *p, real_t *x, ptrdiff_t vw, ptrdiff_t c,
                                      ptrdiff_t ld)
{
  ptrdiff_t i;
  for (i = 0; p->emulate && i < c; i++) LA_FN(la_emu)(p, x + ld * i, vw);
}

/* The intra-chunk quantities a kernel stores (or feeds its next dot) in
 * the 16-bit format: Aqk, A, w, u, QG, KG, KC of a chunk of c steps.
 * In the backward's reverse sweep Aqk, A, w, u are the stored (already
 * rounded) ones and only the recomputed gated q, k are rounded (all = 0). */
static void LA_FN(chunk_emu_intra)(const la_problem *p, ptrdiff_t c, int all, LA_FN(chunk_ws) *ws)
{
  const ptrdiff_t K = p->K, C = ws->C;
  if (!p->emulate) return;
  LA_FN(la_emu)(p, ws->QG, K * c);
  LA_FN(la_emu)(p, ws->KG, K * c);
  LA_FN(la_emu)(p, ws->KC, K * c);
  if (!all) return;
  LA_FN(la_emu)(p, ws->Aqk, C * c);
  LA_FN(la_emu)(p, ws->Am, C * c);
  LA_FN(la_emu)(p, ws->w, K * c);
  LA_FN(la_emu)(p, ws->u, p->V * c);
}

/* The state a chunk reads: S, or with 'Emulate' its rounded copy in Sr
 * (a kernel keeps the running state in fp32 and stores h in 16 bits). */
static const real_t *LA_FN(chunk_emu_state)(const la_problem *p, const real_t *S, real_t *Sr,
                                            ptrdiff_t n)
{
  if (!p->emulate) return S;
  memcpy(Sr, S, sizeof(real_t) * (size_t)n);
  LA_FN(la_emu)(p, Sr, n);
  return Sr;
}

/* 'Emulate': the state stage reads dh rounded while the carried dh stays
 * single.  Before the stage (after = 0) keep dh in b->dSr and round b->dS;
 * after it (after = 1) add back the part the rounding took from the
 * carried term, gamma .* (dh - round(dh)). */
static void LA_FN(cbwd_emu_dh)(const la_problem *p, ptrdiff_t c, const LA_FN(chunk_ws) *ws,
                               LA_FN(cbwd_ws) *b, int after)
{
  const ptrdiff_t K = p->K, KV = p->K * p->V;
  const real_t *gam = ws->eG + K * (c - 1);
  ptrdiff_t i;
  if (!p->emulate) return;
  if (!after) {
    memcpy(b->dSr, b->dS, sizeof(real_t) * (size_t)KV);
    LA_FN(la_emu)(p, b->dS, KV);
    return;
  }
  for (i = 0; i < KV; i++) {
    real_t r = b->dSr[i];
    LA_FN(la_emu)(p, &r, 1);
    b->dS[i] += gam[i % K] * (b->dSr[i] - r);
  }
}

/* The chunked backward's gradients dq, dk, dv, dg, dbeta, stored in the
 * input's format (last, after the transforms' backward). */
static void LA_FN(chunk_emu_grads)(const la_problem *p, const la_bwd_io *io)
{
  const ptrdiff_t nqk = p->K * p->T * p->H * p->B, nsteps = p->T * p->HV * p->B;
  if (!p->emulate) return;
  LA_FN(la_emu)(p, (real_t *)io->dq, nqk);
  LA_FN(la_emu)(p, (real_t *)io->dk, nqk);
  LA_FN(la_emu)(p, (real_t *)io->dv, p->V * nsteps);
  LA_FN(la_emu)(p, (real_t *)io->dg, la_gate_dim(p) * nsteps);
  LA_FN(la_emu)(p, (real_t *)io->dbeta, nsteps);
}
