/*
 * la_emulate.c -- 'Emulate' (docs/emulation.md) at the chunked entry points
 * (la_emulate.h), and la_emulate_round (la_core.h).
 *
 * What the caller passes are the kernel's inputs at full precision; the
 * kernel reads them stored in the format.  So an emulated call takes float
 * copies of q, k, v, g, beta (and do) rounded to the format (tf32 rounds
 * the dot operands only: g and beta stay exact), converts h0, dht, A_log,
 * dt_bias to float when they are double (a kernel keeps them in fp32), and
 * runs the float driver, which rounds what a kernel stores between its
 * stages (la_emu.tmpl.h).  The double entry points write the float
 * results back in double: the results for double inputs are exactly those
 * for the same inputs converted to single.
 */
#include "la_emulate.h"
#include "la_internal.h"
#include "la_round.h"

void la_emulate_round(int emulate, float *x, ptrdiff_t n)
{
  la_round_array(emulate, x, n);
}

/* The float copies of one call: each freed at the end; an output's copy is
 * written back to its double array (back) when the call succeeds. */
#define EMU_MAX 32

typedef struct emu_copies {
  float *buf[EMU_MAX];
  double *back[EMU_MAX];
  ptrdiff_t n[EMU_MAX];
  int count, ok;
} emu_copies;

/* n zeroed floats, recorded in e (NULL and e->ok = 0 when it fails) */
static float *emu_take(emu_copies *e, ptrdiff_t n, double *back)
{
  float *f = NULL;
  ptrdiff_t bytes;
  if (e->ok && e->count < EMU_MAX && la_bytes(n, sizeof(float), &bytes))
    f = (float *)calloc((size_t)n, sizeof(float));
  if (!f) {
    e->ok = 0;
    return NULL;
  }
  e->buf[e->count] = f;
  e->back[e->count] = back;
  e->n[e->count++] = n;
  return f;
}

/* An input of n elements as the float driver reads it: x itself (float,
 * nothing to round), or a float copy rounded to fmt. */
static const void *emu_in(emu_copies *e, const void *x, ptrdiff_t n, int fmt, int dbl)
{
  float *f;
  ptrdiff_t i;
  if (!x || n < 1 || (!dbl && fmt == LA_EMULATE_NONE)) return x;
  if (!(f = emu_take(e, n, NULL))) return NULL;
  if (dbl)
    for (i = 0; i < n; i++) f[i] = (float)((const double *)x)[i];
  else
    memcpy(f, x, (size_t)n * sizeof(float));
  la_round_array(fmt, f, n);
  return f;
}

/* An output of n elements: x itself (float), or a zeroed float copy
 * written back to the double x at the end (entries the driver leaves
 * unwritten, such as aux rows past a chunk's length, come back as 0). */
static void *emu_out(emu_copies *e, void *x, ptrdiff_t n, int dbl)
{
  if (!x || n < 1 || !dbl) return x;
  return emu_take(e, n, (double *)x);
}

/* Write the outputs back (rc == LA_OK) and free every copy; rc, or
 * LA_ENOMEM when a copy could not be made. */
static int emu_end(emu_copies *e, int rc)
{
  int j;
  ptrdiff_t i;
  if (!e->ok) rc = LA_ENOMEM;
  for (j = 0; j < e->count; j++) {
    if (rc == LA_OK && e->back[j])
      for (i = 0; i < e->n[j]; i++) e->back[j][i] = e->buf[j][i];
    free(e->buf[j]);
  }
  return rc;
}

/* Element counts of the arrays of a checked problem (la_core.h's layouts). */
typedef struct emu_sizes {
  ptrdiff_t qk, v, g, beta, state, alog, dtb;
  ptrdiff_t rows_c, rows_k, chunk_states, cond; /* aux: C, K x T x HV x B; per chunk */
} emu_sizes;

static int emu_sizes_of(const la_problem *p, emu_sizes *s)
{
  const ptrdiff_t NC = la_chunk_count(p), gd = p->kda ? p->K : 1;
  s->alog = p->HV;
  return la_mul4(p->K, p->T, p->H, p->B, &s->qk) && la_mul4(p->V, p->T, p->HV, p->B, &s->v) &&
         la_mul4(gd, p->T, p->HV, p->B, &s->g) && la_mul4(1, p->T, p->HV, p->B, &s->beta) &&
         la_mul4(p->K, p->V, p->HV, p->N, &s->state) && la_mul(gd, p->HV, &s->dtb) &&
         la_mul4(p->chunk, p->T, p->HV, p->B, &s->rows_c) &&
         la_mul4(p->K, p->T, p->HV, p->B, &s->rows_k) &&
         la_mul4(p->K, p->V, p->HV, NC, &s->chunk_states) && la_mul(NC, p->HV, &s->cond);
}

/* The inputs forward and backward share, into f: q, k, v, g, beta rounded
 * (g, beta exact under tf32), h0 and the gate's parameters in float. */
static void emu_inputs(emu_copies *e, const la_problem *p, const emu_sizes *s, int dbl,
                       const void **q, const void **k, const void **v, const void **g,
                       const void **beta, const void **A_log, const void **dt_bias,
                       const void **h0)
{
  const int fmt = p->emulate, fgb = fmt == LA_EMULATE_TF32 ? LA_EMULATE_NONE : fmt;
  *q = emu_in(e, *q, s->qk, fmt, dbl);
  *k = emu_in(e, *k, s->qk, fmt, dbl);
  *v = emu_in(e, *v, s->v, fmt, dbl);
  *g = emu_in(e, *g, s->g, fgb, dbl);
  *beta = emu_in(e, *beta, s->beta, fgb, dbl);
  *h0 = emu_in(e, *h0, s->state, LA_EMULATE_NONE, dbl);
  if (p->gate_in_kernel) {
    *A_log = emu_in(e, *A_log, s->alog, LA_EMULATE_NONE, dbl);
    *dt_bias = emu_in(e, *dt_bias, s->dtb, LA_EMULATE_NONE, dbl);
  }
}

/* Check p0 into p, size its arrays, start e, and copy the caller's aux
 * struct (aux_size bytes; zeros without one) into aux: LA_OK, or what to
 * answer. */
static int emu_begin(const la_problem *p0, la_problem *p, emu_sizes *s, emu_copies *e,
                     const void *aux0, void *aux, size_t aux_size)
{
  *p = *p0;
  memset(e, 0, sizeof *e);
  e->ok = 1;
  if (aux0) memcpy(aux, aux0, aux_size);
  else memset(aux, 0, aux_size);
  if (la_problem_check(p, NULL) != LA_OK) return LA_EARG;
  return emu_sizes_of(p, s) ? LA_OK : LA_ENOMEM;
}

/* The outputs *at[i] of n[i] elements replaced by their copies (emu_out). */
static void emu_outs(emu_copies *e, int dbl, void **const *at, const ptrdiff_t *n, int count)
{
  int i;
  for (i = 0; i < count; i++) *at[i] = emu_out(e, *at[i], n[i], dbl);
}

/* Before the driver runs: a failed copy, or an interrupt meanwhile. */
static int emu_ready(const emu_copies *e, const la_problem *p)
{
  if (!e->ok) return LA_ENOMEM;
  return p->interrupted && p->interrupted(p->interrupt_ctx) ? LA_EINTR : LA_OK;
}

int la_emu_chunk_fwd(const la_problem *p0, const la_fwd_io *io, const la_chunk_aux *aux, int dbl)
{
  la_problem p;
  emu_copies e;
  emu_sizes s;
  la_fwd_io f = *io;
  la_chunk_aux a;
  int rc = emu_begin(p0, &p, &s, &e, aux, &a, sizeof a);
  if (rc != LA_OK) return rc;
  {
    void **const at[11] = {&f.o, &f.ht, &a.G, &a.A_raw, &a.A, &a.Aqk, &a.w, &a.u, &a.v_new,
                           &a.h, &a.cond};
    const ptrdiff_t n[11] = {s.v, s.state, s.g, s.rows_c, s.rows_c, s.rows_c, s.rows_k, s.v,
                             s.v, s.chunk_states, s.cond};
    emu_inputs(&e, &p, &s, dbl, &f.q, &f.k, &f.v, &f.g, &f.beta, &f.A_log, &f.dt_bias, &f.h0);
    emu_outs(&e, dbl, at, n, aux ? 11 : 2);
  }
  rc = emu_ready(&e, &p);
  return emu_end(&e, rc != LA_OK ? rc : la_chunk_fwd_run_s(p0, &f, aux ? &a : NULL));
}

int la_emu_chunk_bwd(const la_problem *p0, const la_bwd_io *io, int dbl)
{
  la_problem p;
  emu_copies e;
  emu_sizes s;
  la_bwd_io b = *io;
  la_chunk_bwd_aux a;
  int rc = emu_begin(p0, &p, &s, &e, io->aux, &a, sizeof a);
  if (rc != LA_OK) return rc;
  {
    /* dA_log, ddt_bias: written only with gate_in_kernel (dA_log with A_log) */
    const int gik = p.gate_in_kernel;
    void **const at[16] = {&b.dq, &b.dk, &b.dv, &b.dg, &b.dbeta, &b.dh0, &b.dA_log,
                           &b.ddt_bias, &a.dh, &a.dv_new, &a.du, &a.dw, &a.dAqk, &a.dA,
                           &a.dA_raw, &a.dG};
    const ptrdiff_t n[16] = {s.qk, s.qk, s.v, s.g, s.beta, s.state,
                             gik && io->A_log ? s.alog : 0, gik ? s.dtb : 0,
                             s.chunk_states, s.v, s.v, s.rows_k, s.rows_c, s.rows_c,
                             s.rows_c, s.g};
    emu_inputs(&e, &p, &s, dbl, &b.q, &b.k, &b.v, &b.g, &b.beta, &b.A_log, &b.dt_bias, &b.h0);
    b.dout = emu_in(&e, io->dout, s.v, p.emulate, dbl);
    b.dht = emu_in(&e, io->dht, s.state, LA_EMULATE_NONE, dbl);
    emu_outs(&e, dbl, at, n, io->aux ? 16 : 8);
    if (io->aux) b.aux = &a;
  }
  rc = emu_ready(&e, &p);
  return emu_end(&e, rc != LA_OK ? rc : la_chunk_bwd_run_s(p0, &b));
}
