/*
 * la_mex.c -- the one MEX gateway behind the eight public functions.
 *
 *   [...] = la_mex('kda_recurrent', q, k, v, g, beta, Name, Value, ...)
 *           (the state maps too: la_mex('kda_state_map', ...))
 *   [...] = la_mex('file', op, ...)  tensor files (mex/files/la_files_mex.c;
 *           la_load, la_save and the verifiers call it)
 *
 * Built with -DLA_TESTING (build/testing/la_mex_testing.mex, which the
 * test tiers and the benches put on their path; never shipped) it also
 * answers the instruments of the tests and the benches:
 *   s     = la_mex_testing('options')     the option table (la_mex_opts.h)
 *   tf    = la_mex_testing('poll_interrupt', seconds)
 *   was   = la_mex_testing('tuning', name, value)   one switch of la_tuning
 *   [a, b] = la_mex_testing('outputs_like', x, y)   the host's own cost
 *   t     = la_mex_testing('last_call')   the last call's time inside
 *           (la_mex_clock.h: the call clock exists in that build only)
 *
 * The first argument names the public function (the octave/ wrappers pass
 * their own name); the rest are that function's arguments.  Built also
 * as octave/kda_recurrent.mex and octave/gdn_recurrent.mex (copies of this
 * file), it serves those functions directly: the MEX file's own name
 * (mexFunctionName) is then the function, and every argument is its own
 * (a decode step skips the .m wrapper; the .m files keep the help text).
 * The table la_funcs names each function's family, path, outputs and the
 * run_* that serves it; the gateway checks the arguments (la_mex_args.c,
 * la_mex_opts.c with the option table la_options.c), sizes everything it
 * will create (la_mex_mem.c), calls the core and builds the outputs (the
 * aux structs from their field tables); nothing else.  'poll_interrupt'
 * waits for Ctrl-C through the same callback the core polls, so a test can
 * check the interrupt path on its own.
 */
#include "la_mex_args.h"
#include "la_mex_base.h"
#include "la_mex_clock.h"
#include "la_mex_decode.h"
#include "la_mex_intr.h"
#include "la_mex_mem.h"
#include "la_mex_opts.h"
#include "la_mex_watch.h"
#include "../files/la_files_mex.h"
#include "la_options.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* Outputs in the working class.  The core writes every element of o, S and
 * of every gradient (validation/tests/c/test_core.c checks it with NaN-filled
 * buffers), so they need no zero fill; the Intermediates are zeroed (their
 * rows past a chunk's length are not all written). */
static mxArray *new_array(const la_call *c, ptrdiff_t d0, ptrdiff_t d1, ptrdiff_t d2, ptrdiff_t d3,
                          int zero)
{
  mwSize d[4];
  d[0] = (mwSize)d0; d[1] = (mwSize)d1; d[2] = (mwSize)d2; d[3] = (mwSize)d3;
  return la_mx_numeric(c, 4, d, c->dbl ? mxDOUBLE_CLASS : mxSINGLE_CLASS, zero);
}

static mxArray *like(const la_call *c, const mxArray *a, int zero)
{
  return la_mx_numeric(c, mxGetNumberOfDimensions(a), mxGetDimensions(a),
                       c->dbl ? mxDOUBLE_CLASS : mxSINGLE_CLASS, zero);
}

static size_t elem(const la_call *c) { return c->dbl ? sizeof(double) : sizeof(float); }

/* bytes of an array shaped like a, in the working class */
static void need_like(const la_call *c, ptrdiff_t *total, const char *what, const mxArray *a)
{
  la_need_add(c, total, what, (ptrdiff_t)mxGetNumberOfElements(a), 1, 1, 1, elem(c));
}

static void need_state(const la_call *c, ptrdiff_t *total, const char *what)
{
  la_need_add(c, total, what, c->p.K, c->p.V, c->p.HV, c->p.N, elem(c));
}

static mxArray *state_array(const la_call *c)
{
  const la_problem *p = &c->p;
  return new_array(c, p->state_vk ? p->V : p->K, p->state_vk ? p->K : p->V, p->HV, p->N, 0);
}

static void destroy_all(mxArray **a, int n)
{
  int i;
  for (i = 0; i < n; i++)
    if (a[i]) mxDestroyArray(a[i]);
}

/* The core's status as an identified error (after the outputs are freed). */
static void fail_status(const la_call *c, int rc)
{
  la_problem again = c->p;
  la_check why;
  char text[512];
  if (rc == LA_ENOMEM)
    la_fail(c, "outOfMemory", "out of memory: the workspace of this call (for T = %td, "
            "K = %td, V = %td, HV = %td, ChunkSize = %td) exceeds the memory available; for "
            "the backward, ChunkSize sets its size", c->p.T, c->p.K, c->p.V, c->p.HV, c->p.chunk);
  if (rc == LA_EINTR) {
    la_mex_interrupt_consume();
    la_fail(c, "interrupted", "interrupted (Ctrl-C); nothing was returned");
  }
  if (rc == LA_EARG && la_problem_check(&again, &why) != LA_OK)
    la_fail(c, why.id, "%s", la_option_text(why.text, text, sizeof text));
  if (rc) la_fail(c, "internal", "the core returned error %d", rc);
}

/* ---- the 'Intermediates' structs of the chunked forward and backward ---- */

/* The shape of an aux field (C: ChunkSize, NC: the number of chunks). */
typedef enum aux_shape {
  AUX_LIKE_G,     /* the gate's shape                                   */
  AUX_LIKE_V,     /* V x T x HV x B                                     */
  AUX_ROWS_C,     /* C x T x HV x B: a row of the chunk's C x C matrix  */
  AUX_ROWS_K,     /* K x T x HV x B                                     */
  AUX_STATES,     /* K x V x HV x NC: one state per chunk               */
  AUX_COND,       /* NC x HV                                            */
  AUX_CHUNKS,     /* NC x 3 double: (sequence, first step, length)      */
  AUX_CHUNK_SIZE  /* the scalar C                                       */
} aux_shape;

/* One field: its name, shape and the core's pointer to it (an offset in
 * la_chunk_aux or la_chunk_bwd_aux; the last two shapes have none). */
typedef struct aux_field {
  const char *name;
  aux_shape shape;
  size_t at;
} aux_field;

#define FWD(f) offsetof(la_chunk_aux, f)
#define BWD(f) offsetof(la_chunk_bwd_aux, f)

static const aux_field k_fwd_aux[] = {
    {"G", AUX_LIKE_G, FWD(G)},        {"A_raw", AUX_ROWS_C, FWD(A_raw)},
    {"A", AUX_ROWS_C, FWD(A)},        {"w", AUX_ROWS_K, FWD(w)},
    {"u", AUX_LIKE_V, FWD(u)},        {"Aqk", AUX_ROWS_C, FWD(Aqk)},
    {"h", AUX_STATES, FWD(h)},        {"v_new", AUX_LIKE_V, FWD(v_new)},
    {"chunks", AUX_CHUNKS, 0},        {"ChunkSize", AUX_CHUNK_SIZE, 0},
    {"cond", AUX_COND, FWD(cond)}};

static const aux_field k_bwd_aux[] = {
    {"dh", AUX_STATES, BWD(dh)},      {"dv_new", AUX_LIKE_V, BWD(dv_new)},
    {"du", AUX_LIKE_V, BWD(du)},      {"dw", AUX_ROWS_K, BWD(dw)},
    {"dAqk", AUX_ROWS_C, BWD(dAqk)},  {"dA", AUX_ROWS_C, BWD(dA)},
    {"dA_raw", AUX_ROWS_C, BWD(dA_raw)}, {"dG", AUX_LIKE_G, BWD(dG)},
    {"chunks", AUX_CHUNKS, 0},        {"ChunkSize", AUX_CHUNK_SIZE, 0}};

#define NFIELDS(t) ((int)(sizeof(t) / sizeof((t)[0])))

/* the dimensions of a field of shape `shape` */
static void aux_dims(const la_call *c, aux_shape shape, ptrdiff_t NC, ptrdiff_t d[4])
{
  const la_problem *p = &c->p;
  const mxArray *like_of = shape == AUX_LIKE_G ? c->g : c->v;
  d[0] = d[1] = d[2] = d[3] = 1;
  switch (shape) {
  case AUX_LIKE_G:
  case AUX_LIKE_V: d[0] = (ptrdiff_t)mxGetNumberOfElements(like_of); break;
  case AUX_ROWS_C: d[0] = p->chunk; d[1] = p->T; d[2] = p->HV; d[3] = p->B; break;
  case AUX_ROWS_K: d[0] = p->K; d[1] = p->T; d[2] = p->HV; d[3] = p->B; break;
  case AUX_STATES: d[0] = p->K; d[1] = p->V; d[2] = p->HV; d[3] = NC; break;
  case AUX_COND: d[0] = NC; d[1] = p->HV; break;
  case AUX_CHUNKS: d[0] = NC; d[1] = 3; break;
  case AUX_CHUNK_SIZE: break;
  }
}

static void need_aux(const la_call *c, ptrdiff_t *total, const aux_field *f, int nf, ptrdiff_t NC)
{
  char what[32];
  int i;
  for (i = 0; i < nf; i++) {
    ptrdiff_t d[4];
    aux_dims(c, f[i].shape, NC, d);
    snprintf(what, sizeof what, "aux.%s", f[i].name);
    la_need_add(c, total, what, d[0], d[1], d[2], d[3],
                f[i].shape >= AUX_CHUNKS ? sizeof(double) : elem(c));
  }
}

/* NC x 3, 1-based: (sequence, first step, length) of every chunk, numbered
 * as the core numbers them: sequence by sequence */
static mxArray *chunk_table(const la_call *c, ptrdiff_t NC)
{
  const la_problem *p = &c->p;
  mxArray *a = mxCreateDoubleMatrix((mwSize)NC, 3, mxREAL);
  double *ch = mxGetPr(a);
  ptrdiff_t n, j, i = 0;
  for (n = 0; n < p->N; n++) {
    const ptrdiff_t t0 = p->cu_seqlens ? (ptrdiff_t)p->cu_seqlens[n] : 0;
    const ptrdiff_t len = p->cu_seqlens ? (ptrdiff_t)p->cu_seqlens[n + 1] - t0 : p->T;
    for (j = 0; j < len && i < NC; j += p->chunk, i++) {
      ch[i] = (double)n + 1;
      ch[i + NC] = (double)(t0 + j) + 1;
      ch[i + 2 * NC] = (double)(len - j < p->chunk ? len - j : p->chunk);
    }
  }
  return a;
}

/* The struct of fields f (zero-filled: rows past a chunk's length are not
 * all written), each array's data pointed to from the core's struct aux. */
static mxArray *make_aux(const la_call *c, const aux_field *f, int nf, void *aux, ptrdiff_t NC)
{
  const char *names[16];
  mxArray *s, *a;
  int i;
  for (i = 0; i < nf; i++) names[i] = f[i].name;
  s = mxCreateStructMatrix(1, 1, nf, names);
  for (i = 0; i < nf; i++) {
    ptrdiff_t d[4];
    aux_dims(c, f[i].shape, NC, d);
    if (f[i].shape == AUX_CHUNKS) a = chunk_table(c, NC);
    else if (f[i].shape == AUX_CHUNK_SIZE) a = mxCreateDoubleScalar((double)c->p.chunk);
    else if (f[i].shape == AUX_LIKE_G) a = like(c, c->g, 1);
    else if (f[i].shape == AUX_LIKE_V) a = like(c, c->v, 1);
    else a = new_array(c, d[0], d[1], d[2], d[3], 1);
    mxSetFieldByNumber(s, 0, i, a);
    if (f[i].shape < AUX_CHUNKS) *(void **)((char *)aux + f[i].at) = mxGetData(a);
  }
  return s;
}

/* ---- the calls ----------------------------------------------------------- */

/* The final state is made only when asked for (nargout >= 2): a decode
 * step o = kda_recurrent (...) then creates no state it would discard. */
static void run_forward(la_call *c, int nlhs, mxArray *plhs[])
{
  const int want_state = nlhs > 1;
  const int want_aux = c->chunked && c->intermediates && nlhs > 2;
  const ptrdiff_t NC = want_aux ? la_chunk_count(&c->p) : 0;
  ptrdiff_t total = 0;
  mxArray *out[3] = {NULL, NULL, NULL};
  la_fwd_io io;
  la_chunk_aux aux;
  int rc, i;
  need_like(c, &total, "o", c->v);
  need_state(c, &total, "S"); /* even when not made: the core works in states this size */
  if (want_state && c->p.slots) la_decode_need(c, &total);
  if (want_aux) need_aux(c, &total, k_fwd_aux, NFIELDS(k_fwd_aux), NC);
  la_need_inputs(c, &total);
  la_need_check(c, total);
  la_convert_inputs(c);
  la_clock_mark(LA_MARK_PARSED);
  memset(&io, 0, sizeof io);
  memset(&aux, 0, sizeof aux);
  out[0] = like(c, c->v, 0);
  if (want_state && c->p.slots) out[1] = la_decode_state_out(c, c->h0);
  else if (want_state || c->chunked) out[1] = state_array(c); /* the chunked: for stateGrowth */
  if (out[1] && !c->chunked && !c->p.inplace) out[1] = la_mx_prefer_aligned(c, out[1]);
  if (want_aux) out[2] = make_aux(c, k_fwd_aux, NFIELDS(k_fwd_aux), &aux, NC);
  io.q = mxGetData(c->q); io.k = mxGetData(c->k); io.v = mxGetData(c->v);
  io.g = mxGetData(c->g); io.beta = mxGetData(c->beta);
  io.A_log = c->A_log; io.dt_bias = c->dt_bias; io.h0 = c->h0;
  io.gk = c->gk; io.gv = c->gv;
  io.o = mxGetData(out[0]);
  io.ht = out[1] ? mxGetData(out[1]) : NULL;
  la_clock_state(io.ht);
  la_watch_begin(c);
  la_clock_mark(LA_MARK_CORE);
  if (c->chunked)
    rc = c->dbl ? la_chunk_fwd_d(&c->p, &io, want_aux ? &aux : NULL)
                : la_chunk_fwd_s(&c->p, &io, want_aux ? &aux : NULL);
  else
    rc = c->dbl ? la_recurrent_fwd_d(&c->p, &io) : la_recurrent_fwd_s(&c->p, &io);
  la_clock_mark(LA_MARK_CORE_DONE);
  la_watch_end(c);
  if (rc) {
    destroy_all(out, 3);
    fail_status(c, rc);
  }
  /* not for a pool's states nor a per-channel beta (la_mex_watch.c reads
   * N states and one beta per step) */
  if (!c->p.slots && !c->p.beta_per_channel && (c->chunked || c->p.T >= LA_GROWTH_MIN_STEPS))
    la_warn_state_growth(c, io.ht);
  if (c->chunked && !want_aux && nlhs > 2) out[2] = mxCreateStructMatrix(1, 1, 0, NULL);
  for (i = 0; i < 3; i++) {
    if (i < (nlhs > 0 ? nlhs : 1)) plhs[i] = out[i];
    else if (out[i]) mxDestroyArray(out[i]);
  }
}

/* dALog and dDtBias: the shapes of ALog and DtBias (of DtBias's default
 * when not given) with 'GateInKernel', else [] */
static void gate_grad_arrays(const la_call *c, mxArray **dalog, mxArray **ddtb)
{
  const la_problem *p = &c->p;
  const int gik = p->gate_in_kernel;
  *dalog = gik && c->alog_arr ? like(c, c->alog_arr, 0) : mxCreateDoubleMatrix(0, 0, mxREAL);
  *ddtb = !gik ? mxCreateDoubleMatrix(0, 0, mxREAL)
          : c->dtb_arr ? like(c, c->dtb_arr, 0)
                       : new_array(c, p->kda ? p->K : p->HV, p->kda ? p->HV : 1, 1, 1, 0);
}

/* bytes of dv, dg, dbeta and (with 'GateInKernel') dALog, dDtBias */
static void need_grads(const la_call *c, ptrdiff_t *total)
{
  need_like(c, total, "dv", c->v);
  need_like(c, total, "dg", c->g);
  need_like(c, total, "dbeta", c->beta);
  if (c->p.gate_in_kernel)
    la_need_add(c, total, "dALog and dDtBias", c->p.K + 1, c->p.HV, 1, 1, elem(c));
}

static void run_backward(la_call *c, int nlhs, mxArray *plhs[])
{
  const la_problem *p = &c->p;
  const int gik = p->gate_in_kernel;
  const int want_aux = c->chunked && c->intermediates && nlhs > 8;
  const ptrdiff_t NC = want_aux ? la_chunk_count(p) : 0;
  ptrdiff_t total = 0;
  mxArray *out[10] = {NULL};
  la_bwd_io io;
  la_chunk_bwd_aux aux;
  int rc, i;
  need_like(c, &total, "dq and dk", c->q);
  need_like(c, &total, "dq and dk", c->k);
  need_grads(c, &total);
  need_state(c, &total, "dS0");
  if (want_aux) need_aux(c, &total, k_bwd_aux, NFIELDS(k_bwd_aux), NC);
  if (c->gk_arr) need_like(c, &total, "dGK", c->gk_arr);
  if (c->gv_arr) need_like(c, &total, "dGV", c->gv_arr);
  la_need_inputs(c, &total);
  la_need_check(c, total);
  la_convert_inputs(c);
  la_clock_mark(LA_MARK_PARSED);
  out[0] = like(c, c->q, 0);
  out[1] = like(c, c->k, 0);
  out[2] = like(c, c->v, 0);
  out[3] = like(c, c->g, 0);
  out[4] = like(c, c->beta, 0);
  out[5] = c->h0_arr ? like(c, c->h0_arr, 0) : state_array(c);
  gate_grad_arrays(c, &out[6], &out[7]);
  memset(&io, 0, sizeof io);
  memset(&aux, 0, sizeof aux);
  if (c->chunked) {
    out[8] = want_aux ? make_aux(c, k_bwd_aux, NFIELDS(k_bwd_aux), &aux, NC) : mxCreateStructMatrix(1, 1, 0, NULL);
  } else {
    out[8] = c->gk_arr ? like(c, c->gk_arr, 0) : mxCreateDoubleMatrix(0, 0, mxREAL);
    out[9] = c->gv_arr ? like(c, c->gv_arr, 0) : mxCreateDoubleMatrix(0, 0, mxREAL);
  }
  io.aux = want_aux ? &aux : NULL;
  io.q = mxGetData(c->q); io.k = mxGetData(c->k); io.v = mxGetData(c->v);
  io.g = mxGetData(c->g); io.beta = mxGetData(c->beta);
  io.A_log = c->A_log; io.dt_bias = c->dt_bias; io.h0 = c->h0;
  io.dout = mxGetData(c->dout);
  io.dht = c->dht;
  io.dq = mxGetData(out[0]); io.dk = mxGetData(out[1]); io.dv = mxGetData(out[2]);
  io.dg = mxGetData(out[3]); io.dbeta = mxGetData(out[4]); io.dh0 = mxGetData(out[5]);
  io.dA_log = gik && c->alog_arr ? mxGetData(out[6]) : NULL;
  io.ddt_bias = gik ? mxGetData(out[7]) : NULL;
  io.gk = c->gk; io.gv = c->gv;
  io.dgk = c->gk_arr && !c->chunked ? mxGetData(out[8]) : NULL;
  io.dgv = c->gv_arr && !c->chunked ? mxGetData(out[9]) : NULL;
  la_watch_begin(c);
  la_clock_mark(LA_MARK_CORE);
  if (c->chunked)
    rc = c->dbl ? la_chunk_bwd_d(p, &io) : la_chunk_bwd_s(p, &io);
  else
    rc = c->dbl ? la_recurrent_bwd_d(p, &io) : la_recurrent_bwd_s(p, &io);
  la_clock_mark(LA_MARK_CORE_DONE);
  la_watch_end(c);
  if (rc) {
    destroy_all(out, 10);
    fail_status(c, rc);
  }
  for (i = 0; i < 10; i++) {
    if (i < (nlhs > 0 ? nlhs : 1)) plhs[i] = out[i];
    else if (out[i]) mxDestroyArray(out[i]);
  }
}

/* ---- the state maps: [P, R] and [dk, dv, dg, dbeta, dALog, dDtBias] ------ */

static void run_map_forward(la_call *c, int nlhs, mxArray *plhs[])
{
  const la_problem *p = &c->p;
  ptrdiff_t total = 0;
  mxArray *out[2];
  la_map_fwd_io io;
  int rc;
  la_need_add(c, &total, "P", p->K, p->K, p->HV, p->N, elem(c));
  need_state(c, &total, "R");
  /* the core's augmented copies: value, output, two states at width V + K */
  la_need_add(c, &total, "the state map's work", 2 * (p->V + p->K), p->T, p->HV, p->B, elem(c));
  la_need_add(c, &total, "the state map's work", 2 * p->K, p->V + p->K, p->HV, p->N, elem(c));
  la_need_inputs(c, &total);
  la_need_check(c, total);
  la_convert_inputs(c);
  la_clock_mark(LA_MARK_PARSED);
  out[0] = new_array(c, p->K, p->K, p->HV, p->N, 0);
  out[1] = state_array(c);
  memset(&io, 0, sizeof io);
  io.q = mxGetData(c->q); io.k = mxGetData(c->k); io.v = mxGetData(c->v);
  io.g = mxGetData(c->g); io.beta = mxGetData(c->beta);
  io.A_log = c->A_log; io.dt_bias = c->dt_bias;
  io.P = mxGetData(out[0]); io.R = mxGetData(out[1]);
  la_clock_mark(LA_MARK_CORE);
  rc = c->dbl ? la_state_map_fwd_d(p, &io) : la_state_map_fwd_s(p, &io);
  la_clock_mark(LA_MARK_CORE_DONE);
  if (rc) {
    destroy_all(out, 2);
    fail_status(c, rc);
  }
  plhs[0] = out[0];
  if (nlhs > 1) plhs[1] = out[1];
  else mxDestroyArray(out[1]);
}

static void run_map_backward(la_call *c, int nlhs, mxArray *plhs[])
{
  const la_problem *p = &c->p;
  const int gik = p->gate_in_kernel;
  ptrdiff_t total = 0;
  mxArray *out[6];
  la_map_bwd_io io;
  int rc, i;
  need_like(c, &total, "dk", c->k);
  need_grads(c, &total);
  la_need_add(c, &total, "the state map's work", 3 * (p->V + p->K), p->T, p->HV, p->B, elem(c));
  la_need_add(c, &total, "the state map's work", 3 * p->K, p->V + p->K, p->HV, p->N, elem(c));
  need_like(c, &total, "the state map's work", c->q);
  la_need_inputs(c, &total);
  la_need_check(c, total);
  la_convert_inputs(c);
  la_clock_mark(LA_MARK_PARSED);
  out[0] = like(c, c->k, 0);
  out[1] = like(c, c->v, 0);
  out[2] = like(c, c->g, 0);
  out[3] = like(c, c->beta, 0);
  gate_grad_arrays(c, &out[4], &out[5]);
  memset(&io, 0, sizeof io);
  io.q = mxGetData(c->q); io.k = mxGetData(c->k); io.v = mxGetData(c->v);
  io.g = mxGetData(c->g); io.beta = mxGetData(c->beta);
  io.A_log = c->A_log; io.dt_bias = c->dt_bias;
  io.dP = c->dp; io.dR = c->dht;
  io.dk = mxGetData(out[0]); io.dv = mxGetData(out[1]);
  io.dg = mxGetData(out[2]); io.dbeta = mxGetData(out[3]);
  io.dA_log = gik && c->alog_arr ? mxGetData(out[4]) : NULL;
  io.ddt_bias = gik ? mxGetData(out[5]) : NULL;
  la_clock_mark(LA_MARK_CORE);
  rc = c->dbl ? la_state_map_bwd_d(p, &io) : la_state_map_bwd_s(p, &io);
  la_clock_mark(LA_MARK_CORE_DONE);
  if (rc) {
    destroy_all(out, 6);
    fail_status(c, rc);
  }
  for (i = 0; i < 6; i++) {
    if (i < (nlhs > 0 ? nlhs : 1)) plhs[i] = out[i];
    else mxDestroyArray(out[i]);
  }
}

/* ---- the public functions ------------------------------------------------ */

/* In the order of the LA_F_* bits of the option table (la_options.h). */
const la_func la_funcs[LA_NFUNCS] = {
    {"kda_recurrent", "kda", LA_PATH_RECURRENT, 0, 2, run_forward},
    {"kda_recurrent_bwd", "kda", LA_PATH_RECURRENT, 1, 8, run_backward},
    {"kda_chunk", "kda", LA_PATH_CHUNK, 0, 3, run_forward},             /* o, S, aux */
    {"kda_chunk_bwd", "kda", LA_PATH_CHUNK, 1, 9, run_backward},        /* ..., aux */
    {"gdn_recurrent", "gdn", LA_PATH_RECURRENT, 0, 2, run_forward},
    {"gdn_recurrent_bwd", "gdn", LA_PATH_RECURRENT, 1, 10, run_backward}, /* ..., dGK, dGV */
    {"gdn_chunk", "gdn", LA_PATH_CHUNK, 0, 3, run_forward},
    {"gdn_chunk_bwd", "gdn", LA_PATH_CHUNK, 1, 9, run_backward},
    {"kda_state_map", "kda", LA_PATH_MAP, 0, 2, run_map_forward},       /* P, R */
    {"kda_state_map_bwd", "kda", LA_PATH_MAP, 1, 6, run_map_backward},
    {"gdn_state_map", "gdn", LA_PATH_MAP, 0, 2, run_map_forward},
    {"gdn_state_map_bwd", "gdn", LA_PATH_MAP, 1, 6, run_map_backward}};

#ifdef LA_TESTING
/* 'poll_interrupt': true when Ctrl-C came within `seconds` (then the
 * same identified error as an interrupted call), false otherwise. */
static void poll_interrupt(int nrhs, const mxArray *prhs[], mxArray *plhs[])
{
  const la_call c = {.fname = "la_mex", .op = "kda"};
  const double seconds = nrhs > 1 ? mxGetScalar(prhs[1]) : 0;
  const clock_t start = clock();
  while ((double)(clock() - start) < seconds * CLOCKS_PER_SEC)
    if (la_mex_interrupted(NULL)) fail_status(&c, LA_EINTR);
  plhs[0] = mxCreateLogicalScalar(0);
}

/* 'outputs_like': one uninitialised array per output, shaped and classed
 * like the argument in its place, made as the calls make theirs, and
 * nothing else.  [o, S] = la_mex ('outputs_like', v, S) costs what the host
 * spends on a MEX call returning such outputs (Octave 7 without PMR copies
 * each output after the call): the bench's "Octave's own cost" of a decode
 * call (validation/bench/bench_decode.m). */
static void outputs_like(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  int i;
  if (nlhs > nrhs - 1)
    mexErrMsgIdAndTxt("kda:internal", "la_mex: 'outputs_like' makes one output per argument");
  for (i = 0; i < nlhs; i++) {
    const mxArray *a = prhs[i + 1];
    if (!(mxIsSingle(a) || mxIsDouble(a)) || mxIsComplex(a) || mxIsSparse(a))
      mexErrMsgIdAndTxt("kda:internal", "la_mex: 'outputs_like' takes real full float arrays");
    plhs[i] = mxCreateUninitNumericArray(mxGetNumberOfDimensions(a), (mwSize *)mxGetDimensions(a),
                                         mxGetClassID(a), mxREAL);
  }
}

/* was = la_mex('tuning', name[, value]): one switch of the core's tuning
 * (la_tune, la_core.h), set to value (0 or 1) if given; its old value.  The
 * lab's checks run the other schedule or form of v_new through it. */
static void tuning(int nrhs, const mxArray *prhs[], mxArray *plhs[])
{
  char name[32];
  int value = -1, was;
  if (nrhs < 2 || nrhs > 3 || !mxIsChar(prhs[1]) || mxGetString(prhs[1], name, sizeof name))
    mexErrMsgIdAndTxt("kda:internal", "la_mex: 'tuning' takes a switch's name and a value");
  if (nrhs == 3) {
    if (!(mxIsNumeric(prhs[2]) || mxIsLogical(prhs[2])) || mxGetNumberOfElements(prhs[2]) != 1)
      mexErrMsgIdAndTxt("kda:internal", "la_mex: a tuning value is a scalar");
    value = mxGetScalar(prhs[2]) != 0;
  }
  if ((was = la_tune(name, value)) < 0)
    mexErrMsgIdAndTxt("kda:internal", "la_mex: no tuning switch '%s'", name);
  plhs[0] = mxCreateDoubleScalar(was);
}

/* The instruments of the test build: 1 when fname is one (answered). */
static int instrument(const char *fname, int nlhs, mxArray *plhs[], int nrhs,
                      const mxArray *prhs[])
{
  if (!strcmp(fname, "options"))
    plhs[0] = la_options_struct();
  else if (!strcmp(fname, "poll_interrupt"))
    poll_interrupt(nrhs, prhs, plhs);
  else if (!strcmp(fname, "tuning"))
    tuning(nrhs, prhs, plhs);
  else if (!strcmp(fname, "last_call"))
    plhs[0] = la_clock_last_call();
  else if (!strcmp(fname, "outputs_like"))
    outputs_like(nlhs, plhs, nrhs, prhs);
  else
    return 0;
  return 1;
}
#endif

/* Bytes of numeric data in a (a struct's or cell's members counted). */
static size_t data_bytes(const mxArray *a)
{
  size_t n = 0, i, j, nf;
  if (!a) return 0;
  if (mxIsStruct(a)) {
    nf = (size_t)mxGetNumberOfFields(a);
    for (i = 0; i < mxGetNumberOfElements(a); i++)
      for (j = 0; j < nf; j++) n += data_bytes(mxGetFieldByNumber(a, (mwIndex)i, (int)j));
    return n;
  }
  if (mxIsCell(a)) {
    for (i = 0; i < mxGetNumberOfElements(a); i++) n += data_bytes(mxGetCell(a, (mwIndex)i));
    return n;
  }
  return mxGetNumberOfElements(a) * mxGetElementSize(a);
}

/* The function a call is for: the MEX file's own name when it is one of
 * the public functions (kda_recurrent.mex, gdn_recurrent.mex: the decode
 * path, no .m wrapper in between; *skip = 0), else the name in the first
 * argument (la_mex; *skip = 1).  NULL: a subcommand in fname. */
static const la_func *which_function(int nrhs, const mxArray *prhs[], char *fname, size_t size,
                                     int *skip)
{
  static const la_func *own;   /* the MEX file's own function: a name that */
  static int own_known;        /* never changes, so asked of the host once  */
  const char *self;
  int i;
  if (!own_known) {
    self = mexFunctionName();
    for (i = 0; i < LA_NFUNCS && !own; i++)
      if (self && !strcmp(self, la_funcs[i].name)) own = &la_funcs[i];
    own_known = 1;
  }
  if (own) {
    *skip = 0;
    return own;
  }
  *skip = 1;
  /* a char row whose every character is part of the name (a NUL inside it
   * would end the C string early and let "kda_chunk\0x" pass as kda_chunk) */
  if (nrhs < 1 || !mxIsChar(prhs[0]) || mxGetM(prhs[0]) != 1 ||
      mxGetNumberOfElements(prhs[0]) >= size || mxGetString(prhs[0], fname, size) ||
      strlen(fname) != mxGetNumberOfElements(prhs[0]))
    mexErrMsgIdAndTxt("kda:internal", "la_mex: the first argument must name the function");
  for (i = 0; i < LA_NFUNCS; i++)
    if (!strcmp(fname, la_funcs[i].name)) return &la_funcs[i];
  return NULL;
}

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  la_call c;
  const la_func *fn;
  char fname[32] = "";
  int skip;
  static int release_registered; /* `clear functions`, `clear all`, exit: free the core's pool */
  la_clock_mark(LA_MARK_ENTRY);
  if (!release_registered) release_registered = mexAtExit(la_release) == 0;
  fn = which_function(nrhs, prhs, fname, sizeof fname, &skip);
  if (!fn && !strcmp(fname, "file")) { /* the tensor files' byte work */
    la_mex_file(nlhs, plhs, nrhs, prhs);
    return;
  }
#ifdef LA_TESTING
  if (!fn && instrument(fname, nlhs, plhs, nrhs, prhs)) return;
#endif
  if (!fn) mexErrMsgIdAndTxt("kda:internal", "la_mex: unknown function '%s'", fname);
  memset(&c, 0, sizeof c);
  c.fn = fn;
  c.fname = fn->name;
  c.op = fn->family;
  c.fbit = 1u << (fn - la_funcs);
  c.backward = fn->backward;
  c.map = fn->path == LA_PATH_MAP;
  c.chunked = fn->path != LA_PATH_RECURRENT; /* the maps run on the chunked path */
  if (nlhs > fn->outputs) la_fail(&c, "nargout", "at most %d outputs", fn->outputs);
  la_parse_call(&c, nrhs - skip, prhs + skip);
  fn->run(&c, nlhs, plhs);
  /* Ctrl-C after the core's last poll (building outputs, the stateGrowth
   * check): the same identified error, rather than Octave's own interrupt
   * when the call returns, which no try/catch takes */
  if (la_mex_interrupted(NULL)) {
    destroy_all(plhs, nlhs > 0 ? nlhs : 1);
    memset(plhs, 0, sizeof(mxArray *) * (size_t)(nlhs > 0 ? nlhs : 1));
    fail_status(&c, LA_EINTR);
  }
  /* Octave copies every output as it takes it (mex.cc): room for that
   * copy now, or the identified error rather than the host's bad_alloc */
  {
    size_t total = 0;
    int i;
    void *trial;
    for (i = 0; i < (nlhs > 0 ? nlhs : 1); i++) total += data_bytes(plhs[i]);
    if (total >= LA_ROOM_MIN) {
      if (!(trial = malloc(total))) {
        destroy_all(plhs, nlhs > 0 ? nlhs : 1);
        memset(plhs, 0, sizeof(mxArray *) * (size_t)(nlhs > 0 ? nlhs : 1));
        la_fail(&c, "outOfMemory", "out of memory: no room for the host's copy of the "
                "outputs (%zu bytes, %.3g GB)", total, (double)total / 1e9);
      }
      free(trial);
    }
  }
  la_clock_done(fn->name);
}
