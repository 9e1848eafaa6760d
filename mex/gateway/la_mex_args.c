/*
 * la_mex_args.c -- see la_mex_args.h.  Error identifiers (prefix kda: or gdn:
 * after the function called):
 *   nargin        wrong number of arguments
 *   badClass      not single/double, complex, sparse, or classes mixed
 *   badShape      a size that does not fit the others
 *   badOption     bad option value (names and kinds: la_mex_opts.c)
 *   badCuSeqlens  CuSeqlens not [0, ..., T] non-decreasing integers, or B > 1
 *   and the identifiers of la_problem_check (la_core.h).
 */
#include "la_mex_args.h"
#include "la_mex_mem.h"
#include "la_mex_opts.h"
#include "la_mex_intr.h"
#include "la_mex_decode.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* size along dimension i (0-based), 1 past the last */
static mwSize dim_of(const mxArray *a, mwSize i)
{
  return i < mxGetNumberOfDimensions(a) ? mxGetDimensions(a)[i] : 1;
}

/* the array has exactly dims d[0..n-1] (trailing singletons ignored) */
static int has_dims(const mxArray *a, const mwSize *d, mwSize n)
{
  const mwSize nd = mxGetNumberOfDimensions(a);
  mwSize i;
  for (i = 0; i < (nd > n ? nd : n); i++) {
    const mwSize want = i < n ? d[i] : 1;
    if (dim_of(a, i) != want) return 0;
  }
  return 1;
}

/* a vector (row or column) of n elements */
static int is_vector_of(const mxArray *a, mwSize n)
{
  return mxGetNumberOfDimensions(a) == 2 && (mxGetM(a) == 1 || mxGetN(a) == 1) &&
         (mwSize)mxGetNumberOfElements(a) == n;
}

/* a float, real, dense, numeric array */
static void check_float(const la_call *c, const mxArray *a, const char *name)
{
  if (mxIsSparse(a)) la_fail(c, "badClass", "%s must be a full (not sparse) array", name);
  if (!mxIsSingle(a) && !mxIsDouble(a))
    la_fail(c, "badClass", "%s must be a single or double array, got %s", name, mxGetClassName(a));
  if (mxIsComplex(a)) la_fail(c, "badClass", "%s must be real, got a complex array", name);
}

/* ---- PyTorch order: a hint for the shape errors ---------------------------- */

/* q, k, v, g, beta fit a layout in which K, T, H (HV), B sit in
 * dimensions at[0..3] of q, k, v and the KDA g, and T, HV, B in at3[0..2]
 * of beta and the GDN g */
static int fits_layout(const la_call *c, const mwSize at[4], const mwSize at3[3])
{
  const mxArray *q = c->q, *v = c->v, *g = c->g;
  const mwSize T = dim_of(q, at[1]), HV = dim_of(v, at[2]), B = dim_of(q, at[3]);
  if (mxGetNumberOfDimensions(q) > 4 ||
      !has_dims(c->k, mxGetDimensions(q), mxGetNumberOfDimensions(q)) ||
      dim_of(v, at[1]) != T || dim_of(v, at[3]) != B)
    return 0;
  if (mxGetNumberOfDimensions(c->beta) > 3 || dim_of(c->beta, at3[0]) != T ||
      dim_of(c->beta, at3[1]) != HV || dim_of(c->beta, at3[2]) != B)
    return 0;
  if (strcmp(c->op, "kda") == 0)
    return dim_of(g, at[0]) == dim_of(q, at[0]) && dim_of(g, at[1]) == T &&
           dim_of(g, at[2]) == HV && dim_of(g, at[3]) == B;
  return mxGetNumberOfDimensions(g) <= 3 && dim_of(g, at3[0]) == T && dim_of(g, at3[1]) == HV &&
         dim_of(g, at3[2]) == B;
}

/* q, k, v, g, beta fit PyTorch's [B,T,H,K] order as stored (1), or read
 * in reverse, K x H x T x B (2), and not this library's; 0 otherwise. */
static int torch_order(const la_call *c)
{
  static const mwSize stored[4] = {3, 1, 2, 0}, stored3[3] = {1, 2, 0};
  static const mwSize reversed[4] = {0, 2, 1, 3}, reversed3[3] = {1, 0, 2};
  static const mwSize ours[4] = {0, 1, 2, 3}, ours3[3] = {0, 1, 2};
  /* all five consistent in this library's order: the error is elsewhere
   * (e.g. the states; with H = HV the reversed order would fit too) */
  if (fits_layout(c, ours, ours3)) return 0;
  return fits_layout(c, stored, stored3) ? 1 : fits_layout(c, reversed, reversed3) ? 2 : 0;
}

/* badShape, the message followed by the PyTorch hint when it applies */
static void shape_fail(const la_call *c, const char *fmt, ...)
{
  static const char *const hint[3] = {
      "",
      " (q, k, v, g look like PyTorch's [B,T,H,K] order: permute (x, [4 2 3 1]) gives "
      "K x T x H x B for q, k, v and the KDA g; permute (x, [2 3 1]) for beta and the GDN g)",
      " (q, k, v, g look like PyTorch's [B,T,H,K] order read in reverse, K x H x T x B: "
      "permute (x, [1 3 2 4]) gives K x T x H x B for q, k, v and the KDA g; "
      "permute (x, [2 1 3]) for beta and the GDN g)"};
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  la_fail(c, "badShape", "%s%s", msg, hint[torch_order(c)]);
}

/* ---- the fixed arguments ------------------------------------------------- */

static const char *const k_fixed[] = {"q", "k", "v", "g", "beta", "do", "dS"};
static const char *const k_fixed_map[] = {"q", "k", "v", "g", "beta", "dP", "dR"};

/* counts and classes of q, k, v, g, beta (, do) */
static void check_fixed(la_call *c, int nrhs, const mxArray *prhs[])
{
  const int nfixed = c->backward ? 7 : 5, nsame = c->map ? 5 : 6; /* dP: any float class */
  const char *const *name = c->map ? k_fixed_map : k_fixed;
  int i;
  if (nrhs < nfixed)
    la_fail(c, "nargin", "needs at least %d arguments (%s), got %d", nfixed,
            !c->backward ? "q, k, v, g, beta"
                         : c->map ? "q, k, v, g, beta, dP, dR" : "q, k, v, g, beta, do, dS", nrhs);
  for (i = 0; i < nfixed && i < nsame; i++) check_float(c, prhs[i], name[i]);
  c->dbl = mxIsDouble(prhs[0]);
  for (i = 1; i < nfixed && i < nsame; i++)
    if (mxIsDouble(prhs[i]) != (c->dbl != 0))
      la_fail(c, "badClass", "%s is %s but q is %s: q, k, v, g, beta%s must all be single or "
              "all double", k_fixed[i], mxGetClassName(prhs[i]), mxGetClassName(prhs[0]),
              c->backward ? ", do" : "");
  c->q = prhs[0];
  c->k = prhs[1];
  c->v = prhs[2];
  c->g = prhs[3];
  c->beta = prhs[4];
  c->dout = c->backward && !c->map ? prhs[5] : NULL;
}

/* the sizes of q, k, v, g, beta, do against each other; fills K..B */
static void check_shapes(la_call *c)
{
  la_problem *p = &c->p;
  char b1[96], b2[96];
  mwSize d[4];
  if (mxGetNumberOfDimensions(c->q) > 4)
    shape_fail(c, "q must be K x T x H x B, got %s", la_dims_str(c->q, b1, sizeof b1));
  p->K = (ptrdiff_t)dim_of(c->q, 0);
  p->T = (ptrdiff_t)dim_of(c->q, 1);
  p->H = (ptrdiff_t)dim_of(c->q, 2);
  p->B = (ptrdiff_t)dim_of(c->q, 3);
  if (!has_dims(c->k, mxGetDimensions(c->q), mxGetNumberOfDimensions(c->q)))
    shape_fail(c, "k must be the size of q (%s), got %s", la_dims_str(c->q, b1, sizeof b1),
               la_dims_str(c->k, b2, sizeof b2));
  if (mxGetNumberOfDimensions(c->v) > 4 || dim_of(c->v, 1) != (mwSize)p->T ||
      dim_of(c->v, 3) != (mwSize)p->B)
    shape_fail(c, "v must be V x T x HV x B with T = %td, B = %td (from q), got %s", p->T, p->B,
               la_dims_str(c->v, b1, sizeof b1));
  p->V = (ptrdiff_t)dim_of(c->v, 0);
  p->HV = (ptrdiff_t)dim_of(c->v, 2);
  d[0] = (mwSize)p->K; d[1] = (mwSize)p->T; d[2] = (mwSize)p->HV; d[3] = (mwSize)p->B;
  if (p->kda && !has_dims(c->g, d, 4))
    shape_fail(c, "g must be K x T x HV x B = %s, got %s", la_dims_text(d, 4, b1, sizeof b1),
               la_dims_str(c->g, b2, sizeof b2));
  if (!p->kda && !has_dims(c->g, d + 1, 3))
    shape_fail(c, "g must be T x HV x B = %s, got %s", la_dims_text(d + 1, 3, b1, sizeof b1),
               la_dims_str(c->g, b2, sizeof b2));
  d[0] = (mwSize)p->V; /* a per-channel beta: the shape of v, recurrent paths only */
  p->beta_per_channel = !has_dims(c->beta, d + 1, 3) && has_dims(c->beta, d, 4);
  if (p->beta_per_channel && (c->chunked || c->map))
    la_fail(c, "badShape", "beta must be T x HV x B = %s, got %s: a per-channel beta (the shape "
            "of v) is taken by the recurrent paths only", la_dims_text(d + 1, 3, b1, sizeof b1),
            la_dims_str(c->beta, b2, sizeof b2));
  if (!p->beta_per_channel && !has_dims(c->beta, d + 1, 3))
    shape_fail(c, "beta must be T x HV x B = %s, got %s%s", la_dims_text(d + 1, 3, b1, sizeof b1),
               la_dims_str(c->beta, b2, sizeof b2),
               c->chunked || c->map ? "" : " (or V x T x HV x B: one per value channel)");
  if (c->dout && !has_dims(c->dout, mxGetDimensions(c->v), mxGetNumberOfDimensions(c->v)))
    shape_fail(c, "do must be the size of v (%s), got %s", la_dims_str(c->v, b1, sizeof b1),
               la_dims_str(c->dout, b2, sizeof b2));
}

/* ---- options ------------------------------------------------------------- */

/* CuSeqlens (a real vector, la_mex_opts.c) as N+1 int64 offsets; the
 * order, the ends and B == 1 are la_problem_check's */
static void convert_cu(la_call *c, const mxArray *a)
{
  const mwSize n = mxGetNumberOfElements(a);
  mxArray *as_double = NULL;
  const double *x;
  int64_t *cu;
  mwSize i;
  if (mxGetClassID(a) != mxDOUBLE_CLASS) { /* every numeric class, through MATLAB's converter */
    mxArray *in = (mxArray *)a;
    if (mexCallMATLAB(1, &as_double, 1, &in, "double"))
      la_fail(c, "badCuSeqlens", "CuSeqlens could not be converted to double");
    a = as_double;
  }
  x = mxGetPr(a);
  cu = (int64_t *)la_mx_malloc(c, n * sizeof(int64_t)); /* n <= numel: no overflow */
  for (i = 0; i < n; i++) {
    /* 0x1p62: far past any T, and exactly convertible */
    if (!(x[i] == floor(x[i]) && fabs(x[i]) < 0x1p62))
      la_fail(c, "badCuSeqlens", "CuSeqlens(%lu) = %g is not an integer", (unsigned long)i + 1,
              x[i]);
    cu[i] = (int64_t)x[i];
  }
  if (as_double) mxDestroyArray(as_double);
  c->p.cu_seqlens = cu;
  c->p.N = (ptrdiff_t)n - 1;
}

/* ---- what needs the checked problem -------------------------------------- */

/* The fix for a state a of the wrong shape d, when one is known: the
 * other StateLayout (K x V and V x K swapped), or FLA's [N, HV, K, V]
 * order as stored. */
static const char *state_hint(const la_call *c, const mxArray *a, const mwSize d[4], char *buf,
                              size_t size)
{
  const la_problem *p = &c->p;
  const mwSize swapped[4] = {d[1], d[0], d[2], d[3]};
  const mwSize torch[4] = {(mwSize)p->N, (mwSize)p->HV, (mwSize)p->K, (mwSize)p->V};
  buf[0] = 0;
  if (d[0] != d[1] && has_dims(a, swapped, 4))
    snprintf(buf, size, " (a %s state: pass 'StateLayout', '%s')", p->state_vk ? "K x V" : "V x K",
             p->state_vk ? "KV" : "VK");
  else if (has_dims(a, torch, 4))
    snprintf(buf, size, " (it looks like PyTorch's [N, HV, K, V] order: permute (S, %s) gives "
             "%s x HV x N)", p->state_vk ? "[4 3 2 1]" : "[3 4 2 1]", p->state_vk ? "V x K" : "K x V");
  return buf;
}

/* InitialState and dS: K x V x HV x N, or V x K x HV x N */
static void check_states(la_call *c, const mxArray *ds)
{
  const la_problem *p = &c->p;
  const char *layout = p->state_vk ? "V x K" : "K x V";
  char b1[96], b2[96], hint[160];
  mwSize d[4];
  d[0] = (mwSize)(p->state_vk ? p->V : p->K);
  d[1] = (mwSize)(p->state_vk ? p->K : p->V);
  d[2] = (mwSize)p->HV;
  d[3] = (mwSize)la_decode_states(c); /* N, or a pool's slots */
  if (c->h0_arr && !has_dims(c->h0_arr, d, 4))
    la_fail(c, "badShape", "InitialState must be %s x HV x %s = %s, got %s%s", layout,
            p->slots ? "slots" : "N", la_dims_text(d, 4, b1, sizeof b1),
            la_dims_str(c->h0_arr, b2, sizeof b2), state_hint(c, c->h0_arr, d, hint, sizeof hint));
  d[3] = (mwSize)p->N;
  if (ds && !la_not_given(ds)) {
    const char *name = c->map ? "dR" : "dS";
    check_float(c, ds, name);
    if (!has_dims(ds, d, 4))
      la_fail(c, "badShape", "%s must be [] or %s x HV x N = %s, got %s%s", name, layout,
              la_dims_text(d, 4, b1, sizeof b1), la_dims_str(ds, b2, sizeof b2),
              state_hint(c, ds, d, hint, sizeof hint));
    c->dht_arr = ds;
  }
}

/* dP of a state map's backward: [] or K x K x HV x N, whatever the layout */
static void check_dp(la_call *c, const mxArray *dp)
{
  const la_problem *p = &c->p;
  char b1[96], b2[96];
  mwSize d[4];
  d[0] = (mwSize)p->K; d[1] = (mwSize)p->K; d[2] = (mwSize)p->HV; d[3] = (mwSize)p->N;
  if (la_not_given(dp)) return;
  check_float(c, dp, "dP");
  if (!has_dims(dp, d, 4))
    la_fail(c, "badShape", "dP must be [] or K x K x HV x N = %s, got %s",
            la_dims_text(d, 4, b1, sizeof b1), la_dims_str(dp, b2, sizeof b2));
  c->dp_arr = dp;
}

/* ALog (HV values) and DtBias (K x HV, GDN: HV values) of 'GateInKernel' */
static void check_gate_params(la_call *c)
{
  const la_problem *p = &c->p;
  char b1[96], b2[96];
  mwSize d[2];
  if (!p->gate_in_kernel) return;
  if (!c->alog_arr && !p->has_lower_bound)
    la_fail(c, "badOption", "GateInKernel needs 'ALog' (HV = %td values) or 'LowerBound'",
            p->HV);
  if (c->alog_arr && !is_vector_of(c->alog_arr, (mwSize)p->HV))
    la_fail(c, "badShape", "ALog must be a vector of HV = %td values, got %s", p->HV,
            la_dims_str(c->alog_arr, b1, sizeof b1));
  d[0] = (mwSize)p->K;
  d[1] = (mwSize)p->HV;
  if (c->dtb_arr && p->kda && !has_dims(c->dtb_arr, d, 2))
    la_fail(c, "badShape", "DtBias must be K x HV = %s, got %s", la_dims_text(d, 2, b1, sizeof b1),
            la_dims_str(c->dtb_arr, b2, sizeof b2));
  if (c->dtb_arr && !p->kda && !is_vector_of(c->dtb_arr, (mwSize)p->HV))
    la_fail(c, "badShape", "DtBias must be a vector of HV = %td values, got %s", p->HV,
            la_dims_str(c->dtb_arr, b2, sizeof b2));
}

/* GK (K x T x HV x B) and GV (V x T x HV x B) of GDN: the recurrent
 * paths only (docs/recurrence.md (2b)) */
static void check_extra_gates(la_call *c)
{
  const la_problem *p = &c->p;
  const mxArray *a[2];
  const char *name[2] = {"GK", "GV"};
  char b1[96], b2[96];
  mwSize d[4];
  int i;
  a[0] = c->gk_arr;
  a[1] = c->gv_arr;
  if ((a[0] || a[1]) && c->chunked)
    la_fail(c, "badOption", "'GK' and 'GV' are supported by gdn_recurrent and "
            "gdn_recurrent_bwd only, not by the chunked paths (GK alone: kda_chunk with "
            "the per-key gate g + GK computes the same)");
  d[1] = (mwSize)p->T;
  d[2] = (mwSize)p->HV;
  d[3] = (mwSize)p->B;
  for (i = 0; i < 2; i++) {
    d[0] = (mwSize)(i == 0 ? p->K : p->V);
    if (a[i] && !has_dims(a[i], d, 4))
      la_fail(c, "badShape", "%s must be %s x T x HV x B = %s, got %s", name[i],
              i == 0 ? "K" : "V", la_dims_text(d, 4, b1, sizeof b1),
              la_dims_str(a[i], b2, sizeof b2));
  }
}

/* 'SafeGate' without 'GateInKernel': the gate is used as given, so it must
 * already lie in [LowerBound, 0) (FLA clamps; a value outside is an error
 * here, never silently changed). */
static void check_safe_gate(const la_call *c)
{
  const size_t n = mxGetNumberOfElements(c->g);
  const double lb = c->p.lower_bound;
  size_t i;
  double gi = 0;
  if (!c->p.safe_gate || c->p.gate_in_kernel) return;
  for (i = 0; i < n; i++) {
    gi = c->dbl ? mxGetPr(c->g)[i] : (double)((const float *)mxGetData(c->g))[i];
    if (!(gi >= lb && gi < 0)) break;
  }
  if (i < n)
    la_fail(c, "badOption", "with 'SafeGate' every g must lie in [LowerBound, 0) = [%g, 0), "
            "got g(%lu) = %g", lb, (unsigned long)i + 1, gi);
}

/* A gate in log space above 0 makes the state grow: legal, but almost
 * always a sign mistake.  Once per call; not for a raw 'GateInKernel' g. */
static void warn_positive_gate(const la_call *c)
{
  const size_t n = mxGetNumberOfElements(c->g);
  size_t i;
  int any = 0;
  if (c->p.gate_in_kernel) return;
  /* whether there is one, in a loop without an exit (it vectorises), then
   * where */
  if (c->dbl) {
    const double *g = mxGetPr(c->g);
    for (i = 0; i < n; i++) any |= g[i] > 0;
    for (i = 0; any && !(g[i] > 0); i++) {}
  } else {
    const float *g = (const float *)mxGetData(c->g);
    for (i = 0; i < n; i++) any |= g[i] > 0;
    for (i = 0; any && !(g[i] > 0); i++) {}
  }
  if (any)
    la_warn(c, "positiveGate", "the gate g has positive entries (g(%lu) > 0): the state grows "
            "there; a decay needs g <= 0", (unsigned long)i + 1);
}

/* The core's refusal, told in option names. */
static void fail_check(const la_call *c, const la_check *why)
{
  char text[512];
  la_fail(c, why->id, "%s", la_option_text(why->text, text, sizeof text));
}

void la_parse_call(la_call *c, int nrhs, const mxArray *prhs[])
{
  la_check why;
  const int nfixed = c->backward ? 7 : 5;
  check_fixed(c, nrhs, prhs);
  memset(&c->p, 0, sizeof c->p);
  c->p.kda = strcmp(c->op, "kda") == 0;
  check_shapes(c);
  la_parse_options(c, nrhs - nfixed, prhs + nfixed, nfixed + 1);
  c->p.N = c->p.B;
  if (c->cu_arr) convert_cu(c, c->cu_arr);
  la_decode_options(c);
  c->p.interrupted = la_mex_interrupted;
  if (la_problem_check(&c->p, &why) != LA_OK) fail_check(c, &why);
  check_states(c, c->backward ? prhs[6] : NULL);
  if (c->map && c->backward) check_dp(c, prhs[5]);
  check_gate_params(c);
  check_extra_gates(c);
  check_safe_gate(c);
  warn_positive_gate(c);
}

/* ---- working-class copies ------------------------------------------------ */

static void need_copy(const la_call *c, ptrdiff_t *total, const mxArray *a, const char *what)
{
  if (a && mxIsDouble(a) != (c->dbl != 0))
    la_need_add(c, total, what, (ptrdiff_t)mxGetNumberOfElements(a), 1, 1, 1,
                c->dbl ? sizeof(double) : sizeof(float));
}

void la_need_inputs(const la_call *c, ptrdiff_t *total)
{
  const int gik = c->p.gate_in_kernel;
  need_copy(c, total, c->h0_arr, "the working-class copy of InitialState");
  need_copy(c, total, c->dht_arr, "the working-class copy of dS");
  need_copy(c, total, c->dp_arr, "the working-class copy of dP");
  need_copy(c, total, gik ? c->alog_arr : NULL, "the working-class copy of ALog");
  need_copy(c, total, gik ? c->dtb_arr : NULL, "the working-class copy of DtBias");
  need_copy(c, total, c->gk_arr, "the working-class copy of GK");
  need_copy(c, total, c->gv_arr, "the working-class copy of GV");
}

/* a, or an mxMalloc'd copy of it in the working class (sized by need_copy) */
static const void *as_working(const la_call *c, const mxArray *a)
{
  size_t n, i;
  if (!a) return NULL;
  n = mxGetNumberOfElements(a);
  if (mxIsDouble(a) == (c->dbl != 0)) return mxGetData(a);
  if (c->dbl) {
    const float *s = (const float *)mxGetData(a);
    double *d = (double *)la_mx_malloc(c, (n ? n : 1) * sizeof(double));
    for (i = 0; i < n; i++) d[i] = s[i];
    return d;
  } else {
    const double *s = (const double *)mxGetData(a);
    float *d = (float *)la_mx_malloc(c, (n ? n : 1) * sizeof(float));
    for (i = 0; i < n; i++) d[i] = (float)s[i];
    return d;
  }
}

void la_convert_inputs(la_call *c)
{
  c->h0 = as_working(c, c->h0_arr);
  c->dht = as_working(c, c->dht_arr);
  c->dp = as_working(c, c->dp_arr);
  c->A_log = c->p.gate_in_kernel ? as_working(c, c->alog_arr) : NULL;
  c->dt_bias = c->p.gate_in_kernel ? as_working(c, c->dtb_arr) : NULL;
  c->gk = as_working(c, c->gk_arr);
  c->gv = as_working(c, c->gv_arr);
}
