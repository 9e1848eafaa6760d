/*
 * la_mex.c -- the one MEX gateway behind the eight public functions.
 *
 *   [...] = la_mex('kda_recurrent', q, k, v, g, beta, Name, Value, ...)
 *           (the state maps too: la_mex('kda_state_map', ...))
 *   s     = la_mex('options')     the option table (la_mex_opts.h)
 *   tf    = la_mex('poll_interrupt', seconds)
 *   [a, b] = la_mex('outputs_like', x, y)   (the bench: the host's own cost)
 *
 * The first argument names the public function (the octave/ wrappers pass
 * their own name); the rest are that function's arguments.  Built also
 * as octave/kda_recurrent.mex and octave/gdn_recurrent.mex (copies of this
 * file), it serves those functions directly: the MEX file's own name
 * (mexFunctionName) is then the function, and every argument is its own
 * (a decode step skips the .m wrapper; the .m files keep the help text).  The gateway
 * checks them (la_mex_args.c, la_mex_opts.c), sizes everything it will
 * create (la_mex_mem.c), calls the core and builds the outputs; nothing
 * else.  'poll_interrupt' waits for Ctrl-C through the same callback the
 * core polls, so a test can check the interrupt path on its own.
 */
#include "la_mex_args.h"
#include "la_mex_emulate.h"
#include "la_mex_decode.h"
#include "la_mex_intr.h"
#include "la_mex_mem.h"
#include "la_mex_opts.h"
#include "la_options.h"

#include <string.h>
#include <time.h>

/* Outputs in the working class.  The core writes every element of o, S and
 * of every gradient (mex/tests/test_core.c checks it with NaN-filled
 * buffers), so they need no zero fill; the Intermediates are zeroed (their
 * rows past a chunk's length are not all written). */
static mxArray *new_array(const la_call *c, ptrdiff_t d0, ptrdiff_t d1, ptrdiff_t d2, ptrdiff_t d3,
                          int zero)
{
  mwSize d[4];
  d[0] = (mwSize)d0; d[1] = (mwSize)d1; d[2] = (mwSize)d2; d[3] = (mwSize)d3;
  return zero ? mxCreateNumericArray(4, d, c->dbl ? mxDOUBLE_CLASS : mxSINGLE_CLASS, mxREAL)
              : mxCreateUninitNumericArray(4, d, c->dbl ? mxDOUBLE_CLASS : mxSINGLE_CLASS, mxREAL);
}

static mxArray *like(const la_call *c, const mxArray *a, int zero)
{
  const mwSize cls = c->dbl ? mxDOUBLE_CLASS : mxSINGLE_CLASS;
  return zero ? mxCreateNumericArray(mxGetNumberOfDimensions(a), mxGetDimensions(a), cls, mxREAL)
              : mxCreateUninitNumericArray(mxGetNumberOfDimensions(a),
                                           (mwSize *)mxGetDimensions(a), cls, mxREAL);
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
  if (rc == LA_ENOMEM)
    la_fail(c, "outOfMemory", "out of memory: the workspace of this call (for T = %td, "
            "K = %td, V = %td, HV = %td, ChunkSize = %td) exceeds the memory available; for "
            "the backward, ChunkSize sets its size", c->p.T, c->p.K, c->p.V, c->p.HV, c->p.chunk);
  if (rc == LA_EINTR) {
    la_mex_interrupt_consume();
    la_fail(c, "interrupted", "interrupted (Ctrl-C); nothing was returned");
  }
  if (rc == LA_EARG && la_problem_check(&again, &why) != LA_OK) la_fail(c, why.id, "%s", why.text);
  if (rc) la_fail(c, "internal", "the core returned error %d", rc);
}

/* ---- the 'Intermediates' struct of the chunked forward ------------------- */

static const char *const k_aux_fields[] = {"G", "A_raw", "A", "w", "u", "Aqk", "h", "v_new",
                                           "chunks", "ChunkSize", "cond"};

static void need_aux(const la_call *c, ptrdiff_t *total, ptrdiff_t NC)
{
  const la_problem *p = &c->p;
  need_like(c, total, "aux.G", c->g);
  la_need_add(c, total, "aux.A_raw, aux.A, aux.Aqk", 3 * p->chunk, p->T, p->HV, p->B, elem(c));
  la_need_add(c, total, "aux.w", p->K, p->T, p->HV, p->B, elem(c));
  la_need_add(c, total, "aux.u, aux.v_new", 2 * p->V, p->T, p->HV, p->B, elem(c));
  la_need_add(c, total, "aux.h", p->K, p->V, p->HV, NC, elem(c));
  la_need_add(c, total, "aux.cond", NC, p->HV, 1, 1, elem(c));
  la_need_add(c, total, "aux.chunks", NC, 3, 2, 1, sizeof(double)); /* and its int64 copy */
}

/* the fields' arrays, pointed to by aux; s owns them */
static mxArray *make_aux(const la_call *c, la_chunk_aux *aux, ptrdiff_t NC)
{
  const la_problem *p = &c->p;
  mxArray *s = mxCreateStructMatrix(1, 1, 11, (const char **)k_aux_fields), *a;
  a = like(c, c->g, 1); mxSetField(s, 0, "G", a); aux->G = mxGetData(a);
  a = new_array(c, p->chunk, p->T, p->HV, p->B, 1); mxSetField(s, 0, "A_raw", a); aux->A_raw = mxGetData(a);
  a = new_array(c, p->chunk, p->T, p->HV, p->B, 1); mxSetField(s, 0, "A", a); aux->A = mxGetData(a);
  a = new_array(c, p->chunk, p->T, p->HV, p->B, 1); mxSetField(s, 0, "Aqk", a); aux->Aqk = mxGetData(a);
  a = new_array(c, p->K, p->T, p->HV, p->B, 1); mxSetField(s, 0, "w", a); aux->w = mxGetData(a);
  a = like(c, c->v, 1); mxSetField(s, 0, "u", a); aux->u = mxGetData(a);
  a = like(c, c->v, 1); mxSetField(s, 0, "v_new", a); aux->v_new = mxGetData(a);
  a = new_array(c, p->K, p->V, p->HV, NC, 1); mxSetField(s, 0, "h", a); aux->h = mxGetData(a);
  a = new_array(c, NC, p->HV, 1, 1, 1); mxSetField(s, 0, "cond", a); aux->cond = mxGetData(a);
  aux->chunk_seq = (int64_t *)mxMalloc((size_t)(NC ? NC : 1) * 3 * sizeof(int64_t));
  aux->chunk_t0 = aux->chunk_seq + NC;
  aux->chunk_len = aux->chunk_seq + 2 * NC;
  mxSetField(s, 0, "chunks", mxCreateDoubleMatrix((mwSize)NC, 3, mxREAL));
  mxSetField(s, 0, "ChunkSize", mxCreateDoubleScalar((double)p->chunk));
  return s;
}

static void fill_aux_chunks(const mxArray *s, const la_chunk_aux *aux, ptrdiff_t NC)
{
  double *ch = mxGetPr(mxGetField(s, 0, "chunks"));
  ptrdiff_t i;
  for (i = 0; i < NC; i++) { /* 1-based, as Octave indexes */
    ch[i] = (double)aux->chunk_seq[i] + 1;
    ch[i + NC] = (double)aux->chunk_t0[i] + 1;
    ch[i + 2 * NC] = (double)aux->chunk_len[i];
  }
  mxFree(aux->chunk_seq);
}

/* ---- the 'Intermediates' struct of the chunked backward ------------------ */

static const char *const k_bwd_aux_fields[] = {"dh", "dv_new", "du", "dw", "dAqk", "dA",
                                               "dA_raw", "dG", "chunks", "ChunkSize"};

static void need_bwd_aux(const la_call *c, ptrdiff_t *total, ptrdiff_t NC)
{
  const la_problem *p = &c->p;
  need_like(c, total, "aux.dG", c->g);
  la_need_add(c, total, "aux.dAqk, aux.dA, aux.dA_raw", 3 * p->chunk, p->T, p->HV, p->B, elem(c));
  la_need_add(c, total, "aux.dw", p->K, p->T, p->HV, p->B, elem(c));
  la_need_add(c, total, "aux.dv_new, aux.du", 2 * p->V, p->T, p->HV, p->B, elem(c));
  la_need_add(c, total, "aux.dh", p->K, p->V, p->HV, NC, elem(c));
  la_need_add(c, total, "aux.chunks", NC, 3, 1, 1, sizeof(double));
}

/* NC x 3, 1-based: (sequence, first step, length) of every chunk, numbered
 * as la_chunk_fwd numbers them (the forward's aux.chunks) */
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

/* the fields' arrays, pointed to by aux; s owns them */
static mxArray *make_bwd_aux(const la_call *c, la_chunk_bwd_aux *aux, ptrdiff_t NC)
{
  const la_problem *p = &c->p;
  mxArray *s = mxCreateStructMatrix(1, 1, 10, (const char **)k_bwd_aux_fields), *a;
  a = new_array(c, p->K, p->V, p->HV, NC, 1); mxSetField(s, 0, "dh", a); aux->dh = mxGetData(a);
  a = like(c, c->v, 1); mxSetField(s, 0, "dv_new", a); aux->dv_new = mxGetData(a);
  a = like(c, c->v, 1); mxSetField(s, 0, "du", a); aux->du = mxGetData(a);
  a = new_array(c, p->K, p->T, p->HV, p->B, 1); mxSetField(s, 0, "dw", a); aux->dw = mxGetData(a);
  a = new_array(c, p->chunk, p->T, p->HV, p->B, 1); mxSetField(s, 0, "dAqk", a); aux->dAqk = mxGetData(a);
  a = new_array(c, p->chunk, p->T, p->HV, p->B, 1); mxSetField(s, 0, "dA", a); aux->dA = mxGetData(a);
  a = new_array(c, p->chunk, p->T, p->HV, p->B, 1); mxSetField(s, 0, "dA_raw", a); aux->dA_raw = mxGetData(a);
  a = like(c, c->g, 1); mxSetField(s, 0, "dG", a); aux->dG = mxGetData(a);
  mxSetField(s, 0, "chunks", chunk_table(c, NC));
  mxSetField(s, 0, "ChunkSize", mxCreateDoubleScalar((double)p->chunk));
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
  if (want_aux) need_aux(c, &total, NC);
  la_need_inputs(c, &total);
  la_need_check(c, total);
  la_convert_inputs(c);
  memset(&io, 0, sizeof io);
  memset(&aux, 0, sizeof aux);
  out[0] = like(c, c->v, 0);
  if (want_state) out[1] = c->p.slots ? la_decode_state_out(c, c->h0) : state_array(c);
  if (want_aux) out[2] = make_aux(c, &aux, NC);
  io.q = mxGetData(c->q); io.k = mxGetData(c->k); io.v = mxGetData(c->v);
  io.g = mxGetData(c->g); io.beta = mxGetData(c->beta);
  io.A_log = c->A_log; io.dt_bias = c->dt_bias; io.h0 = c->h0;
  io.gk = c->gk; io.gv = c->gv;
  io.o = mxGetData(out[0]);
  io.ht = want_state ? mxGetData(out[1]) : NULL;
  if (c->chunked)
    rc = c->dbl ? la_chunk_fwd_d(&c->p, &io, want_aux ? &aux : NULL)
                : la_chunk_fwd_s(&c->p, &io, want_aux ? &aux : NULL);
  else
    rc = c->dbl ? la_recurrent_fwd_d(&c->p, &io) : la_recurrent_fwd_s(&c->p, &io);
  if (rc) {
    destroy_all(out, 3);
    fail_status(c, rc);
  }
  if (want_aux) fill_aux_chunks(out[2], &aux, NC);
  else if (c->chunked && nlhs > 2) out[2] = mxCreateStructMatrix(1, 1, 0, NULL);
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
  if (want_aux) need_bwd_aux(c, &total, NC);
  if (c->gk_arr) need_like(c, &total, "dGK", c->gk_arr);
  if (c->gv_arr) need_like(c, &total, "dGV", c->gv_arr);
  la_need_inputs(c, &total);
  la_need_check(c, total);
  la_convert_inputs(c);
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
    out[8] = want_aux ? make_bwd_aux(c, &aux, NC) : mxCreateStructMatrix(1, 1, 0, NULL);
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
  if (c->chunked)
    rc = c->dbl ? la_chunk_bwd_d(p, &io) : la_chunk_bwd_s(p, &io);
  else
    rc = c->dbl ? la_recurrent_bwd_d(p, &io) : la_recurrent_bwd_s(p, &io);
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
  out[0] = new_array(c, p->K, p->K, p->HV, p->N, 0);
  out[1] = state_array(c);
  memset(&io, 0, sizeof io);
  io.q = mxGetData(c->q); io.k = mxGetData(c->k); io.v = mxGetData(c->v);
  io.g = mxGetData(c->g); io.beta = mxGetData(c->beta);
  io.A_log = c->A_log; io.dt_bias = c->dt_bias;
  io.P = mxGetData(out[0]); io.R = mxGetData(out[1]);
  rc = c->dbl ? la_state_map_fwd_d(p, &io) : la_state_map_fwd_s(p, &io);
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
  rc = c->dbl ? la_state_map_bwd_d(p, &io) : la_state_map_bwd_s(p, &io);
  if (rc) {
    destroy_all(out, 6);
    fail_status(c, rc);
  }
  for (i = 0; i < 6; i++) {
    if (i < (nlhs > 0 ? nlhs : 1)) plhs[i] = out[i];
    else mxDestroyArray(out[i]);
  }
}

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

/* The function a call is for: the MEX file's own name when it is one of
 * the public functions (kda_recurrent.mex, gdn_recurrent.mex: the decode
 * path, no .m wrapper in between; *skip = 0), else the name in the first
 * argument (la_mex; *skip = 1).  -1: a subcommand in fname or an error. */
static int which_function(int nrhs, const mxArray *prhs[], char *fname, size_t size, int *skip)
{
  const char *self = mexFunctionName();
  int i;
  for (i = 0; i < LA_NFUNCS; i++)
    if (self && !strcmp(self, la_function_names[i])) {
      *skip = 0;
      return i;
    }
  *skip = 1;
  /* a char row whose every character is part of the name (a NUL inside it
   * would end the C string early and let "kda_chunk\0x" pass as kda_chunk) */
  if (nrhs < 1 || !mxIsChar(prhs[0]) || mxGetM(prhs[0]) != 1 ||
      mxGetNumberOfElements(prhs[0]) >= size || mxGetString(prhs[0], fname, size) ||
      strlen(fname) != mxGetNumberOfElements(prhs[0]))
    mexErrMsgIdAndTxt("kda:internal", "la_mex: the first argument must name the function");
  for (i = 0; i < LA_NFUNCS; i++)
    if (!strcmp(fname, la_function_names[i])) return i;
  return -1;
}

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  la_call c;
  char fname[32] = "";
  int which, skip, max_out;
  static int release_registered; /* `clear functions`, `clear all`, exit: free the core's pool */
  if (!release_registered) release_registered = mexAtExit(la_release) == 0;
  memset(&c, 0, sizeof c);
  which = which_function(nrhs, prhs, fname, sizeof fname, &skip);
  if (which < 0 && !strcmp(fname, "options")) {
    plhs[0] = la_options_struct();
    return;
  }
  if (which < 0 && !strcmp(fname, "poll_interrupt")) {
    poll_interrupt(nrhs, prhs, plhs);
    return;
  }
  if (which < 0 && !strcmp(fname, "outputs_like")) {
    outputs_like(nlhs, plhs, nrhs, prhs);
    return;
  }
  if (which < 0) {
    mexErrMsgIdAndTxt("kda:internal", "la_mex: unknown function '%s'", fname);
    return;
  }
  c.fname = la_function_names[which];
  c.named = !skip;
  c.op = which < 4 || which == 8 || which == 9 ? "kda" : "gdn";
  c.fbit = 1u << which;
  c.backward = which % 2;
  c.map = which >= 8; /* computed on the chunked path */
  c.chunked = c.map || (which % 4) >= 2;
  /* gdn_recurrent_bwd: dGK, dGV; the chunked backwards: aux */
  max_out = c.map ? (c.backward ? 6 : 2)
                  : c.backward ? (which == 5 ? 10 : 8 + c.chunked) : 2 + c.chunked;
  if (nlhs > max_out) la_fail(&c, "nargout", "at most %d outputs", max_out);
  la_parse_call(&c, c.fname, nrhs - skip, prhs + skip);
  la_emulate_inputs(&c);
  if (c.map) {
    if (c.backward) run_map_backward(&c, nlhs, plhs);
    else run_map_forward(&c, nlhs, plhs);
  } else if (c.backward) run_backward(&c, nlhs, plhs);
  else run_forward(&c, nlhs, plhs);
  la_emulate_outputs(nlhs, plhs);
}
