/*
 * la_mex_decode.c -- see la_mex_decode.h.  Identifiers: badOption (an
 * option without what it needs, a value that is not integers), badShape
 * (Slots or AcceptedTokens of the wrong size); the slots' own checks are
 * la_problem_check's (badSlot).
 */
#include "la_mex_decode.h"
#include "la_mex_mem.h"

#include <math.h>
#include <string.h>

/* a (any real numeric class) as mxMalloc'd int64 values; every value an
 * integer (checked in double: 0x1p62 is far past any slot count) */
static int64_t *as_int64(la_call *c, const mxArray *a, const char *name)
{
  const mwSize n = mxGetNumberOfElements(a);
  mxArray *as_double = NULL;
  const double *x;
  int64_t *r;
  mwSize i;
  if (!mxIsNumeric(a) || mxIsComplex(a) || mxIsSparse(a))
    la_fail(c, "badOption", "option '%s' must be a real numeric array of integers, got a %s",
            name, mxGetClassName(a));
  if (mxGetClassID(a) != mxDOUBLE_CLASS) {
    mxArray *in = (mxArray *)a;
    if (mexCallMATLAB(1, &as_double, 1, &in, "double"))
      la_fail(c, "badOption", "option '%s' could not be converted to double", name);
    a = as_double;
  }
  x = mxGetPr(a);
  r = (int64_t *)mxMalloc((n ? n : 1) * sizeof(int64_t));
  for (i = 0; i < n; i++) {
    if (!(x[i] == floor(x[i]) && fabs(x[i]) < 0x1p62))
      la_fail(c, "badOption", "option '%s' must hold integers, but %s(%lu) = %g", name, name,
              (unsigned long)i + 1, x[i]);
    r[i] = (int64_t)x[i];
  }
  if (as_double) mxDestroyArray(as_double);
  return r;
}

static int is_vector(const mxArray *a, mwSize n)
{
  return mxGetNumberOfDimensions(a) == 2 && (mxGetM(a) == 1 || mxGetN(a) == 1) &&
         (mwSize)mxGetNumberOfElements(a) == n;
}

void la_decode_options(la_call *c)
{
  la_problem *p = &c->p;
  const mxArray *slots = c->slots_arr, *accepted = c->accepted_arr;
  char dims[64];
  p->inplace = c->update_pool_given ? c->update_pool : slots != NULL;
  if (!slots) {
    if (accepted || c->update_pool_given)
      la_fail(c, "badOption", "'AcceptedTokens' and 'UpdatePool' need 'Slots'");
    return;
  }
  if (!c->h0_arr)
    la_fail(c, "badOption", "'Slots' needs 'InitialState': the state pool, K x V x HV x slots");
  if (is_vector(slots, (mwSize)p->N))
    p->slot_steps = 1;
  else if (mxGetNumberOfDimensions(slots) == 2 && (ptrdiff_t)mxGetN(slots) == p->N &&
           mxGetM(slots) >= 1)
    p->slot_steps = (ptrdiff_t)mxGetM(slots);
  else
    la_fail(c, "badShape", "Slots must be a vector of N = %td slots (one per sequence) or "
            "Tmax x N (one per step), got %s", p->N, la_dims_str(slots, dims, sizeof dims));
  p->slots = as_int64(c, slots, "Slots");
  p->slot_base = 1;
  p->pool_slots = (ptrdiff_t)(mxGetNumberOfDimensions(c->h0_arr) > 3
                                  ? mxGetDimensions(c->h0_arr)[3] : 1);
  if (accepted) {
    if (!is_vector(accepted, (mwSize)p->N))
      la_fail(c, "badShape", "AcceptedTokens must be a vector of N = %td counts, got %s", p->N,
              la_dims_str(accepted, dims, sizeof dims));
    p->accepted = as_int64(c, accepted, "AcceptedTokens");
  }
}

ptrdiff_t la_decode_states(const la_call *c)
{
  return c->p.slots ? c->p.pool_slots : c->p.N;
}

void la_decode_need(const la_call *c, ptrdiff_t *total)
{
  const la_problem *p = &c->p;
  const size_t e = c->dbl ? sizeof(double) : sizeof(float);
  if (p->inplace) la_need_add(c, total, "the pool S", p->K, p->V, p->HV, p->pool_slots, e);
  else la_need_add(c, total, "the per-token states S", p->K * p->V, p->HV, p->T, p->B, e);
}

mxArray *la_decode_state_out(const la_call *c, const void *h0)
{
  const la_problem *p = &c->p;
  const mxClassID cls = c->dbl ? mxDOUBLE_CLASS : mxSINGLE_CLASS;
  mxArray *a;
  if (p->inplace) {
    a = mxCreateUninitNumericArray(mxGetNumberOfDimensions(c->h0_arr),
                                   (mwSize *)mxGetDimensions(c->h0_arr), cls, mxREAL);
    memcpy(mxGetData(a), h0, mxGetNumberOfElements(a) * (c->dbl ? sizeof(double) : sizeof(float)));
  } else {
    mwSize d[5];
    d[0] = (mwSize)(p->state_vk ? p->V : p->K);
    d[1] = (mwSize)(p->state_vk ? p->K : p->V);
    d[2] = (mwSize)p->HV;
    d[3] = (mwSize)p->T;
    d[4] = (mwSize)p->B;
    a = mxCreateUninitNumericArray(5, d, cls, mxREAL); /* the core writes every token */
  }
  return a;
}
