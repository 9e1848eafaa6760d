/*
 * la_mex_emulate.c -- option 'Emulate' in the gateway (la_mex_emulate.h).
 * The rounding itself is the core's (la_emulate_round); the work runs in the
 * float entry points whatever the input class.
 */
#include "la_mex_emulate.h"
#include "la_mex_mem.h"

#include <string.h>

/* a single copy of a float array, rounded to the format fmt (LA_EMULATE_*) */
static mxArray *rounded_copy(const la_call *c, int fmt, const mxArray *a)
{
  const size_t n = mxGetNumberOfElements(a);
  mxArray *r = la_mx_numeric(c, mxGetNumberOfDimensions(a), mxGetDimensions(a), mxSINGLE_CLASS, 0);
  float *d = (float *)mxGetData(r);
  size_t i;
  if (mxIsDouble(a)) {
    const double *s = mxGetPr(a);
    for (i = 0; i < n; i++) d[i] = (float)s[i];
  } else if (n) {
    memcpy(d, mxGetData(a), n * sizeof(float));
  }
  la_emulate_round(fmt, d, (ptrdiff_t)n);
  return r;
}

void la_emulate_inputs(la_call *c)
{
  const mxArray **args[LA_EMULATE_COPIES];
  int i;
  if (!c->p.emulate) return;
  args[0] = &c->q; args[1] = &c->k; args[2] = &c->v; args[3] = &c->g; args[4] = &c->beta;
  args[5] = &c->dout;
  for (i = 0; i < LA_EMULATE_COPIES; i++) /* tf32 rounds dot operands only: g, beta stay exact */
    if (*args[i])
      *args[i] = c->emulate_copy[i] = rounded_copy(
          c, c->p.emulate == LA_EMULATE_TF32 && (i == 3 || i == 4) ? LA_EMULATE_NONE : c->p.emulate,
          *args[i]);
  c->emulate_double = c->dbl;
  c->dbl = 0;
}

static mxArray *as_double(const la_call *c, mxArray *a)
{
  mxArray *d;
  size_t n, i;
  int f;
  if (mxIsStruct(a)) {
    for (f = 0; f < mxGetNumberOfFields(a); f++)
      mxSetFieldByNumber(a, 0, f, as_double(c, mxGetFieldByNumber(a, 0, f)));
    return a;
  }
  if (!mxIsSingle(a)) return a;
  n = mxGetNumberOfElements(a);
  d = la_mx_numeric(c, mxGetNumberOfDimensions(a), mxGetDimensions(a), mxDOUBLE_CLASS, 0);
  for (i = 0; i < n; i++) mxGetPr(d)[i] = ((const float *)mxGetData(a))[i];
  mxDestroyArray(a);
  return d;
}

void la_emulate_outputs(la_call *c, int nlhs, mxArray *plhs[])
{
  int i;
  for (i = 0; i < LA_EMULATE_COPIES; i++)
    if (c->emulate_copy[i]) mxDestroyArray(c->emulate_copy[i]);
  memset(c->emulate_copy, 0, sizeof c->emulate_copy);
  if (!c->emulate_double) return;
  for (i = 0; i < (nlhs > 0 ? nlhs : 1); i++)
    if (plhs[i]) plhs[i] = as_double(c, plhs[i]);
}
