/*
 * la_layout.h -- where things live: a sequence in the packed arrays
 * (varlen or batched), its chunks, the element offsets of an item's q, k, v,
 * gate, beta and state, and what the chunked paths' intra-chunk step forms.
 * Not part of the public interface.
 */
#ifndef LA_LAYOUT_H
#define LA_LAYOUT_H

#include "la_core.h"
#include <stdlib.h>

/* One sequence: batch b, steps [t0, t0 + len) of that batch. */
typedef struct la_seq {
  ptrdiff_t b, t0, len;
} la_seq;

static inline la_seq la_seq_of(const la_problem *p, ptrdiff_t n)
{
  la_seq s;
  if (p->cu_seqlens) {
    s.b = 0;
    s.t0 = (ptrdiff_t)p->cu_seqlens[n];
    s.len = (ptrdiff_t)p->cu_seqlens[n + 1] - s.t0;
  } else {
    s.b = n;
    s.t0 = 0;
    s.len = p->T;
  }
  return s;
}

/* Chunks of C steps in len steps (the last one shorter; none if len is 0). */
static inline ptrdiff_t la_chunks(ptrdiff_t len, ptrdiff_t C)
{
  return (len + C - 1) / C;
}

/* Steps of chunk ci (C steps each, the last one shorter) of sequence s. */
static inline ptrdiff_t la_chunk_steps(la_seq s, ptrdiff_t ci, ptrdiff_t C)
{
  return s.len - ci * C < C ? s.len - ci * C : C;
}

/* Most chunks of one sequence of p, at least 1. */
static inline ptrdiff_t la_max_chunks(const la_problem *p)
{
  ptrdiff_t n, most = 1;
  for (n = 0; n < p->N; n++) {
    const ptrdiff_t nc = la_chunks(la_seq_of(p, n).len, p->chunk);
    if (nc > most) most = nc;
  }
  return most;
}

/* Element offsets of the first step of sequence s, value head hv. */
static inline ptrdiff_t la_qk_head(const la_problem *p, ptrdiff_t hv)
{
  return hv / (p->HV / p->H);
}
static inline ptrdiff_t la_off_qk(const la_problem *p, la_seq s, ptrdiff_t hv)
{
  return p->K * (s.t0 + p->T * (la_qk_head(p, hv) + p->H * s.b));
}
static inline ptrdiff_t la_off_qk_expanded(const la_problem *p, la_seq s, ptrdiff_t hv)
{
  return p->K * (s.t0 + p->T * (hv + p->HV * s.b));
}
static inline ptrdiff_t la_off_v(const la_problem *p, la_seq s, ptrdiff_t hv)
{
  return p->V * (s.t0 + p->T * (hv + p->HV * s.b));
}
/* gate: K values per step for KDA, one for GDN */
static inline ptrdiff_t la_gate_dim(const la_problem *p) { return p->kda ? p->K : 1; }
static inline ptrdiff_t la_off_gate(const la_problem *p, la_seq s, ptrdiff_t hv)
{
  return la_gate_dim(p) * (s.t0 + p->T * (hv + p->HV * s.b));
}
/* beta: V values per step with beta_per_channel, else one */
static inline ptrdiff_t la_beta_dim(const la_problem *p) { return p->beta_per_channel ? p->V : 1; }
static inline ptrdiff_t la_off_beta(const la_problem *p, la_seq s, ptrdiff_t hv)
{
  return s.t0 + p->T * (hv + p->HV * s.b);
}
static inline ptrdiff_t la_off_state(const la_problem *p, ptrdiff_t n, ptrdiff_t hv)
{
  return p->K * p->V * (hv + p->HV * n);
}

/* What the chunked paths' chunk_intra computes besides the decays and the
 * gated q, k (la_stage_intra.tmpl.h). */
enum { LA_CI_AQK = 1,    /* Aqk                                       */
       LA_CI_WU = 2,     /* M, A_raw, A, w, u                         */
       LA_CI_DECAYS = 4, /* eG and eGc in full (else their last column) */
       LA_CI_A = 8       /* M, A_raw, A (the direct form: no w, u)    */ };

/* The chunked paths' form of v_new (docs/chunk_forward.md, (31)): direct,
 * A (v - KG S), but with 'Emulate' (which rounds w and u where FLA stores
 * them) or with the tuning's wy_form (to compare the forms); else the
 * WY form u - w S. */
static inline int la_direct_form(const la_problem *p)
{
  return !p->emulate && !la_get_tuning().wy_form;
}

/* The size of the parts when n things (n, m >= 1) are cut into parts of at
 * most m, as even as that number of parts allows (32 chunks by at most 25:
 * two parts of 16, not 25 and 7, whose phase would keep a thread waiting). */
static inline ptrdiff_t la_even_part(ptrdiff_t n, ptrdiff_t m)
{
  const ptrdiff_t parts = (n + m - 1) / m;
  return (n + parts - 1) / parts;
}

/* V rounded up to a multiple of 4 (column blocking of the recurrent kernels) */
static inline ptrdiff_t la_pad4(ptrdiff_t V) { return (V + 3) / 4 * 4; }

#endif
