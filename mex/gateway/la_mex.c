/*
 * la_mex.c -- the one MEX gateway behind the eight public functions.
 *
 *   [...] = la_mex('kda_recurrent', q, k, v, g, beta, Name, Value, ...)
 *
 * The first argument names the public function (the octave/ wrappers pass their own
 * name); the rest are that function's arguments.  The gateway checks them
 * (la_mex_args.c), calls the core and builds the outputs; nothing else.
 */
#include "la_mex_args.h"

#include <string.h>

static const char *const k_names[] = {"kda_recurrent", "kda_recurrent_bwd", "kda_chunk",
                                      "kda_chunk_bwd", "gdn_recurrent",     "gdn_recurrent_bwd",
                                      "gdn_chunk",     "gdn_chunk_bwd"};

/* Outputs in the working class.  The core writes every element of o, S and
 * of every gradient (mex/tests/test_core.c checks it with NaN-filled
 * buffers), so they need no zero fill; the Intermediates are zeroed (their
 * rows past a chunk's length are not all written). */
static mxArray *new_array(const la_call *c, mwSize nd, const mwSize *d)
{
  return mxCreateUninitNumericArray(nd, (mwSize *)d, c->dbl ? mxDOUBLE_CLASS : mxSINGLE_CLASS,
                                    mxREAL);
}

static mxArray *new_zeros(const la_call *c, mwSize nd, const mwSize *d)
{
  return mxCreateNumericArray(nd, d, c->dbl ? mxDOUBLE_CLASS : mxSINGLE_CLASS, mxREAL);
}

static mxArray *zeros_like(const la_call *c, const mxArray *a)
{
  return new_zeros(c, mxGetNumberOfDimensions(a), mxGetDimensions(a));
}

static mxArray *like(const la_call *c, const mxArray *a)
{
  return new_array(c, mxGetNumberOfDimensions(a), mxGetDimensions(a));
}

static mxArray *state_array(const la_call *c, ptrdiff_t last)
{
  const la_problem *p = &c->p;
  mwSize d[4];
  d[0] = (mwSize)(p->state_vk ? p->V : p->K);
  d[1] = (mwSize)(p->state_vk ? p->K : p->V);
  d[2] = (mwSize)p->HV;
  d[3] = (mwSize)last;
  return new_array(c, 4, d);
}

static void fail_status(const la_call *c, int rc)
{
  if (rc == LA_ENOMEM)
    la_fail(c, "outOfMemory", "out of memory: the workspace of this call (for T = %ld, "
            "K = %ld, V = %ld, ChunkSize = %ld) exceeds the memory this machine can give "
            "(half of it at most); for the backward, ChunkSize sets its size",
            (long)c->p.T, (long)c->p.K, (long)c->p.V, (long)c->p.chunk);
  if (rc) la_fail(c, "internal", "the core returned error %d", rc);
}

/* The 'Intermediates' struct of the chunked forward. */
static mxArray *make_aux(la_call *c, la_chunk_aux *aux)
{
  static const char *fields[] = {"G", "A_raw", "A", "w", "u", "Aqk", "h", "v_new", "chunks",
                                 "ChunkSize"};
  const la_problem *p = &c->p;
  const ptrdiff_t NC = la_chunk_count(p);
  mxArray *s = mxCreateStructMatrix(1, 1, 10, fields), *a;
  mwSize d[4];

  a = zeros_like(c, c->g);
  mxSetField(s, 0, "G", a);
  aux->G = mxGetData(a);
  la_check_bytes(c, (3.0 * (double)p->chunk + 2.0 * (double)(p->K + p->V)) * (double)p->T *
                       (double)(p->HV * p->B) * (c->dbl ? 8 : 4) +
                       (double)(p->K * p->V * p->HV) * (double)NC * (c->dbl ? 8 : 4),
                 "the 'Intermediates'");
  d[0] = (mwSize)p->chunk; d[1] = (mwSize)p->T; d[2] = (mwSize)p->HV; d[3] = (mwSize)p->B;
  a = new_zeros(c, 4, d); mxSetField(s, 0, "A_raw", a); aux->A_raw = mxGetData(a);
  a = new_zeros(c, 4, d); mxSetField(s, 0, "A", a); aux->A = mxGetData(a);
  a = new_zeros(c, 4, d); mxSetField(s, 0, "Aqk", a); aux->Aqk = mxGetData(a);
  d[0] = (mwSize)p->K;
  a = new_zeros(c, 4, d); mxSetField(s, 0, "w", a); aux->w = mxGetData(a);
  a = zeros_like(c, c->v); mxSetField(s, 0, "u", a); aux->u = mxGetData(a);
  a = zeros_like(c, c->v); mxSetField(s, 0, "v_new", a); aux->v_new = mxGetData(a);
  d[0] = (mwSize)p->K; d[1] = (mwSize)p->V; d[2] = (mwSize)p->HV; d[3] = (mwSize)NC;
  a = new_zeros(c, 4, d); mxSetField(s, 0, "h", a); aux->h = mxGetData(a);
  aux->chunk_seq = (int64_t *)mxMalloc((size_t)(NC ? NC : 1) * sizeof(int64_t));
  aux->chunk_t0 = (int64_t *)mxMalloc((size_t)(NC ? NC : 1) * sizeof(int64_t));
  aux->chunk_len = (int64_t *)mxMalloc((size_t)(NC ? NC : 1) * sizeof(int64_t));
  a = mxCreateDoubleMatrix((mwSize)NC, 3, mxREAL);
  mxSetField(s, 0, "chunks", a);
  mxSetField(s, 0, "ChunkSize", mxCreateDoubleScalar((double)p->chunk));
  return s;
}

static void fill_aux_chunks(const la_call *c, const mxArray *s, const la_chunk_aux *aux)
{
  const ptrdiff_t NC = la_chunk_count(&c->p);
  double *ch = mxGetPr(mxGetField(s, 0, "chunks"));
  ptrdiff_t i;
  for (i = 0; i < NC; i++) { /* 1-based, as Octave indexes */
    ch[i] = (double)aux->chunk_seq[i] + 1;
    ch[i + NC] = (double)aux->chunk_t0[i] + 1;
    ch[i + 2 * NC] = (double)aux->chunk_len[i];
  }
}

static void run_forward(la_call *c, int nlhs, mxArray *plhs[])
{
  la_fwd_io io;
  la_chunk_aux aux;
  mxArray *o = like(c, c->v), *S = state_array(c, c->p.N), *s = NULL;
  int rc;
  memset(&io, 0, sizeof io);
  memset(&aux, 0, sizeof aux);
  io.q = mxGetData(c->q);
  io.k = mxGetData(c->k);
  io.v = mxGetData(c->v);
  io.g = mxGetData(c->g);
  io.beta = mxGetData(c->beta);
  io.A_log = c->A_log;
  io.dt_bias = c->dt_bias;
  io.h0 = c->h0;
  io.o = mxGetData(o);
  io.ht = mxGetData(S);
  if (c->chunked) {
    if (c->intermediates && nlhs > 2) s = make_aux(c, &aux);
    rc = c->dbl ? la_chunk_fwd_d(&c->p, &io, s ? &aux : NULL)
                : la_chunk_fwd_s(&c->p, &io, s ? &aux : NULL);
    if (!s) s = mxCreateStructMatrix(1, 1, 0, NULL);
    else if (!rc) fill_aux_chunks(c, s, &aux);
  } else {
    rc = c->dbl ? la_recurrent_fwd_d(&c->p, &io) : la_recurrent_fwd_s(&c->p, &io);
  }
  fail_status(c, rc);
  plhs[0] = o;
  if (nlhs > 1) plhs[1] = S; else mxDestroyArray(S);
  if (c->chunked && nlhs > 2) plhs[2] = s; else if (s) mxDestroyArray(s);
}

static void run_backward(la_call *c, int nlhs, mxArray *plhs[])
{
  const la_problem *p = &c->p;
  la_bwd_io io;
  mxArray *out[8];
  int rc, i;
  memset(&io, 0, sizeof io);
  out[0] = like(c, c->q);
  out[1] = like(c, c->k);
  out[2] = like(c, c->v);
  out[3] = like(c, c->g);
  out[4] = like(c, c->beta);
  out[5] = c->h0_arr ? like(c, c->h0_arr) : state_array(c, p->N);
  if (p->gate_in_kernel) {
    mwSize d[2];
    d[0] = (mwSize)(p->kda ? p->K : p->HV);
    d[1] = (mwSize)(p->kda ? p->HV : 1);
    out[6] = like(c, c->alog_arr);
    out[7] = c->dtb_arr ? like(c, c->dtb_arr) : new_array(c, 2, d);
  } else {
    out[6] = mxCreateDoubleMatrix(0, 0, mxREAL);
    out[7] = mxCreateDoubleMatrix(0, 0, mxREAL);
  }
  io.q = mxGetData(c->q);
  io.k = mxGetData(c->k);
  io.v = mxGetData(c->v);
  io.g = mxGetData(c->g);
  io.beta = mxGetData(c->beta);
  io.A_log = c->A_log;
  io.dt_bias = c->dt_bias;
  io.h0 = c->h0;
  io.dout = mxGetData(c->dout);
  io.dht = c->dht;
  io.dq = mxGetData(out[0]);
  io.dk = mxGetData(out[1]);
  io.dv = mxGetData(out[2]);
  io.dg = mxGetData(out[3]);
  io.dbeta = mxGetData(out[4]);
  io.dh0 = mxGetData(out[5]);
  io.dA_log = p->gate_in_kernel ? mxGetData(out[6]) : NULL;
  io.ddt_bias = p->gate_in_kernel ? mxGetData(out[7]) : NULL;
  if (c->chunked)
    rc = c->dbl ? la_chunk_bwd_d(p, &io) : la_chunk_bwd_s(p, &io);
  else
    rc = c->dbl ? la_recurrent_bwd_d(p, &io) : la_recurrent_bwd_s(p, &io);
  fail_status(c, rc);
  for (i = 0; i < 8; i++) {
    if (i < (nlhs > 0 ? nlhs : 1)) plhs[i] = out[i];
    else mxDestroyArray(out[i]);
  }
}

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  la_call c;
  char fname[32];
  int which = -1, i;
  memset(&c, 0, sizeof c);
  if (nrhs < 1 || !mxIsChar(prhs[0]) || mxGetNumberOfElements(prhs[0]) >= sizeof fname ||
      mxGetString(prhs[0], fname, sizeof fname))
    mexErrMsgIdAndTxt("kda:internal", "la_mex: the first argument must name the function");
  for (i = 0; i < 8; i++)
    if (!strcmp(fname, k_names[i])) which = i;
  if (which < 0) mexErrMsgIdAndTxt("kda:internal", "la_mex: unknown function '%s'", fname);
  c.op = which < 4 ? "kda" : "gdn";
  c.backward = which % 2;
  c.chunked = (which % 4) >= 2;
  if (nlhs > (c.backward ? 8 : (c.chunked ? 3 : 2)))
    la_fail(&(la_call){.fname = fname, .op = c.op}, "nargout", "at most %d outputs",
            c.backward ? 8 : (c.chunked ? 3 : 2));
  la_parse_call(&c, k_names[which], nrhs - 1, prhs + 1);
  if (c.backward) run_backward(&c, nlhs, plhs);
  else run_forward(&c, nlhs, plhs);
}
