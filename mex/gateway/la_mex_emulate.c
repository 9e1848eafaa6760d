/*
 * la_mex_emulate.c -- option 'Emulate' in the gateway (la_mex_emulate.h).
 * The rounding itself is the core's (la_round.h); the work runs in the
 * float entry points whatever the input class.
 */
#include "la_mex_emulate.h"
#include "../core/la_round.h"

#include <ctype.h>
#include <string.h>

int la_emulate_value(const la_call *c, const mxArray *a)
{
  static const char *const names[] = {"none", "bf16", "fp16", "tf32"};
  char s[8];
  int i;
  if (!a) return LA_EMULATE_NONE;
  if (mxGetNumberOfElements(a) < sizeof s && !mxGetString(a, s, sizeof s)) {
    for (i = 0; s[i]; i++) s[i] = (char)tolower((unsigned char)s[i]);
    for (i = 0; i < 4; i++)
      if (!strcmp(s, names[i])) return i; /* the order of LA_EMULATE_* */
  }
  la_fail(c, "badOption", "option 'Emulate' must be 'none', 'bf16', 'fp16' or 'tf32'");
  return LA_EMULATE_NONE;
}

/* a single copy of a float array, rounded to the format fmt (LA_EMULATE_*) */
static const mxArray *rounded_copy(int fmt, const mxArray *a)
{
  const size_t n = mxGetNumberOfElements(a);
  mxArray *r = mxCreateUninitNumericArray(mxGetNumberOfDimensions(a),
                                          (mwSize *)mxGetDimensions(a), mxSINGLE_CLASS, mxREAL);
  float *d = (float *)mxGetData(r);
  size_t i;
  if (mxIsDouble(a)) {
    const double *s = mxGetPr(a);
    for (i = 0; i < n; i++) d[i] = (float)s[i];
  } else if (n) {
    memcpy(d, mxGetData(a), n * sizeof(float));
  }
  la_round_array(fmt, d, (ptrdiff_t)n);
  return r;
}

/* the copies, destroyed by la_emulate_outputs (one call at a time) */
static const mxArray *g_copies[6];
static int g_out_double;

void la_emulate_inputs(la_call *c)
{
  const mxArray **args[6];
  int i;
  memset(g_copies, 0, sizeof g_copies);
  g_out_double = 0;
  if (!c->p.emulate) return;
  args[0] = &c->q; args[1] = &c->k; args[2] = &c->v; args[3] = &c->g; args[4] = &c->beta;
  args[5] = &c->dout;
  for (i = 0; i < 6; i++) /* tf32 rounds dot operands only: g, beta stay exact */
    if (*args[i])
      *args[i] = g_copies[i] = rounded_copy(
          c->p.emulate == LA_EMULATE_TF32 && (i == 3 || i == 4) ? LA_EMULATE_NONE : c->p.emulate,
          *args[i]);
  g_out_double = c->dbl;
  c->dbl = 0;
}

static mxArray *as_double(mxArray *a)
{
  mxArray *d;
  size_t n, i;
  int f;
  if (mxIsStruct(a)) {
    for (f = 0; f < mxGetNumberOfFields(a); f++)
      mxSetFieldByNumber(a, 0, f, as_double(mxGetFieldByNumber(a, 0, f)));
    return a;
  }
  if (!mxIsSingle(a)) return a;
  n = mxGetNumberOfElements(a);
  d = mxCreateNumericArray(mxGetNumberOfDimensions(a), mxGetDimensions(a), mxDOUBLE_CLASS, mxREAL);
  for (i = 0; i < n; i++) mxGetPr(d)[i] = ((const float *)mxGetData(a))[i];
  mxDestroyArray(a);
  return d;
}

void la_emulate_outputs(int nlhs, mxArray *plhs[])
{
  int i;
  for (i = 0; i < 6; i++)
    if (g_copies[i]) mxDestroyArray((mxArray *)g_copies[i]);
  memset(g_copies, 0, sizeof g_copies);
  if (!g_out_double) return;
  for (i = 0; i < (nlhs > 0 ? nlhs : 1); i++)
    if (plhs[i]) plhs[i] = as_double(plhs[i]);
}
