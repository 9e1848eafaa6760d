/*
 * la_mex_args.c -- see la_mex_args.h.  Error identifiers (prefix kda: or gdn:
 * after the function called):
 *   nargin        wrong number of arguments, options not in Name, Value pairs
 *   badClass      not single/double, complex, sparse, or classes mixed
 *   badShape      a size that does not fit the others
 *   badOption     unknown option name, bad option value
 *   badCuSeqlens  CuSeqlens not [0, ..., T] increasing integers, or B > 1
 */
#include "la_mex_args.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif

void la_fail(const la_call *c, const char *id, const char *fmt, ...)
{
  char ident[64], msg[1024];
  int n;
  va_list ap;
  snprintf(ident, sizeof ident, "%s:%s", c->op, id);
  n = snprintf(msg, sizeof msg, "%s: ", c->fname);
  va_start(ap, fmt);
  vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
  va_end(ap);
  mexErrMsgIdAndTxt(ident, "%s", msg);
}

void la_check_bytes(const la_call *c, double bytes, const char *what)
{
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
  const double phys = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
  if (phys > 0 && bytes > phys / 2)
    la_fail(c, "outOfMemory", "%s would take %.3g GB, more than half of this machine's %.3g GB", what,
            bytes / 1e9, phys / 1e9);
#else
  (void)c;
  (void)bytes;
  (void)what;
#endif
}

const char *la_dims_str(const mxArray *a, char *buf, size_t n)
{
  const mwSize nd = mxGetNumberOfDimensions(a);
  const mwSize *d = mxGetDimensions(a);
  size_t used = 0;
  mwSize i;
  buf[0] = 0;
  for (i = 0; i < nd && used + 24 < n; i++)
    used += (size_t)snprintf(buf + used, n - used, i ? "x%lu" : "%lu", (unsigned long)d[i]);
  return buf;
}

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

static const char *want_str(const mwSize *d, mwSize n, char *buf, size_t sz)
{
  size_t used = 0;
  mwSize i;
  buf[0] = 0;
  for (i = 0; i < n && used + 24 < sz; i++)
    used += (size_t)snprintf(buf + used, sz - used, i ? "x%lu" : "%lu", (unsigned long)d[i]);
  return buf;
}

/* a float, real, dense, numeric array */
static void check_float(const la_call *c, const mxArray *a, const char *name)
{
  if (mxIsSparse(a)) la_fail(c, "badClass", "%s must be a full (not sparse) array", name);
  if (!mxIsSingle(a) && !mxIsDouble(a))
    la_fail(c, "badClass", "%s must be a single or double array, got %s", name, mxGetClassName(a));
  if (mxIsComplex(a)) la_fail(c, "badClass", "%s must be real, got a complex array", name);
}

/* An optional float array converted to the working class (mxMalloc'd copy
 * when the class differs).  Returns NULL for []. */
static const void *as_working(const la_call *c, const mxArray *a)
{
  const mwSize n = mxGetNumberOfElements(a);
  mwSize i;
  if (mxIsDouble(a) == (c->dbl != 0)) return mxGetData(a);
  if (c->dbl) {
    const float *s = (const float *)mxGetData(a);
    double *d = (double *)mxMalloc((n ? n : 1) * sizeof(double));
    for (i = 0; i < n; i++) d[i] = s[i];
    return d;
  } else {
    const double *s = (const double *)mxGetData(a);
    float *d = (float *)mxMalloc((n ? n : 1) * sizeof(float));
    for (i = 0; i < n; i++) d[i] = (float)s[i];
    return d;
  }
}

/* a real numeric or logical scalar, as double */
static double scalar_opt(const la_call *c, const mxArray *a, const char *name)
{
  if (mxIsSparse(a) || mxIsComplex(a) || !(mxIsNumeric(a) || mxIsLogical(a)) ||
      mxGetNumberOfElements(a) != 1) {
    char b[64];
    la_fail(c, "badOption", "option '%s' must be a real scalar, got a %s %s", name,
            la_dims_str(a, b, sizeof b), mxGetClassName(a));
  }
  return mxGetScalar(a);
}

static int flag_opt(const la_call *c, const mxArray *a, const char *name)
{
  const double x = scalar_opt(c, a, name);
  if (x != x) la_fail(c, "badOption", "option '%s' must be true or false, got NaN", name);
  return x != 0;
}

static int ieq(const char *a, const char *b)
{
  for (; *a && *b; a++, b++)
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
  return *a == *b;
}

static void check_cu(la_call *c, const mxArray *a)
{
  const mwSize n = mxGetNumberOfElements(a);
  int64_t *cu;
  mwSize i;
  char b[64];
  if (mxIsSparse(a) || mxIsComplex(a) || !mxIsNumeric(a) ||
      (mxGetM(a) != 1 && mxGetN(a) != 1) || mxGetNumberOfDimensions(a) > 2 || n < 2)
    la_fail(c, "badCuSeqlens",
            "CuSeqlens must be a real vector [0, t1, ..., T] of at least 2 integers, got a %s %s",
            la_dims_str(a, b, sizeof b), mxGetClassName(a));
  if (c->p.B != 1)
    la_fail(c, "badCuSeqlens", "CuSeqlens needs a batch of one (B = 1), got B = %ld",
            (long)c->p.B);
  cu = (int64_t *)mxMalloc(n * sizeof(int64_t));
  for (i = 0; i < n; i++) {
    double x;
    switch (mxGetClassID(a)) {
    case mxDOUBLE_CLASS: x = ((const double *)mxGetData(a))[i]; break;
    case mxSINGLE_CLASS: x = ((const float *)mxGetData(a))[i]; break;
    case mxINT8_CLASS: x = ((const int8_T *)mxGetData(a))[i]; break;
    case mxUINT8_CLASS: x = ((const uint8_T *)mxGetData(a))[i]; break;
    case mxINT16_CLASS: x = ((const int16_T *)mxGetData(a))[i]; break;
    case mxUINT16_CLASS: x = ((const uint16_T *)mxGetData(a))[i]; break;
    case mxINT32_CLASS: x = ((const int32_T *)mxGetData(a))[i]; break;
    case mxUINT32_CLASS: x = ((const uint32_T *)mxGetData(a))[i]; break;
    case mxINT64_CLASS: x = (double)((const int64_T *)mxGetData(a))[i]; break;
    case mxUINT64_CLASS: x = (double)((const uint64_T *)mxGetData(a))[i]; break;
    default: x = NAN;
    }
    if (!(x == floor(x)) || x < 0 || x > (double)c->p.T)
      la_fail(c, "badCuSeqlens",
              "CuSeqlens(%lu) = %g is not an integer in [0, T = %ld]", (unsigned long)i + 1, x,
              (long)c->p.T);
    cu[i] = (int64_t)x;
    if (i > 0 && cu[i] <= cu[i - 1])
      la_fail(c, "badCuSeqlens", "CuSeqlens must be strictly increasing, but CuSeqlens(%lu) = %ld "
              "follows %ld", (unsigned long)i + 1, (long)cu[i], (long)cu[i - 1]);
  }
  if (cu[0] != 0 || cu[n - 1] != c->p.T)
    la_fail(c, "badCuSeqlens", "CuSeqlens must start at 0 and end at T = %ld, got [%ld ... %ld]",
            (long)c->p.T, (long)cu[0], (long)cu[n - 1]);
  c->p.cu_seqlens = cu;
  c->p.N = (ptrdiff_t)n - 1;
}

void la_parse_call(la_call *c, const char *fname, int nrhs, const mxArray *prhs[])
{
  static const char *fixed_fwd[] = {"q", "k", "v", "g", "beta"};
  static const char *fixed_bwd[] = {"q", "k", "v", "g", "beta", "do", "dS"};
  const int nfixed = c->backward ? 7 : 5;
  const char **names = c->backward ? fixed_bwd : fixed_fwd;
  const mxArray *cu_arr = NULL;
  mwSize d[4];
  char b1[64], b2[64];
  int i, have_lb = 0;
  la_problem *p = &c->p;

  c->fname = fname;
  if (nrhs < nfixed)
    la_fail(c, "nargin", "needs at least %d arguments (%s), got %d", nfixed,
            c->backward ? "q, k, v, g, beta, do, dS" : "q, k, v, g, beta", nrhs);
  if ((nrhs - nfixed) % 2)
    la_fail(c, "nargin", "options must come in Name, Value pairs; got %d argument(s) after %s",
            nrhs - nfixed, names[nfixed - 1]);

  /* classes of the data arguments */
  for (i = 0; i < nfixed; i++) {
    if (i == 6) continue; /* dS: checked with the states */
    check_float(c, prhs[i], names[i]);
  }
  c->dbl = mxIsDouble(prhs[0]);
  for (i = 1; i < nfixed; i++) {
    if (i == 6) continue;
    if (mxIsDouble(prhs[i]) != (c->dbl != 0))
      la_fail(c, "badClass", "%s is %s but q is %s: q, k, v, g, beta%s must all be single or "
              "all double", names[i], mxGetClassName(prhs[i]), mxGetClassName(prhs[0]),
              c->backward ? ", do" : "");
  }
  c->q = prhs[0];
  c->k = prhs[1];
  c->v = prhs[2];
  c->g = prhs[3];
  c->beta = prhs[4];
  c->dout = c->backward ? prhs[5] : NULL;

  /* sizes */
  memset(p, 0, sizeof *p);
  p->kda = strcmp(c->op, "kda") == 0;
  if (mxGetNumberOfDimensions(c->q) > 4)
    la_fail(c, "badShape", "q must be K x T x H x B, got %s", la_dims_str(c->q, b1, sizeof b1));
  p->K = (ptrdiff_t)dim_of(c->q, 0);
  p->T = (ptrdiff_t)dim_of(c->q, 1);
  p->H = (ptrdiff_t)dim_of(c->q, 2);
  p->B = (ptrdiff_t)dim_of(c->q, 3);
  if (p->K < 1 || p->H < 1 || p->B < 1)
    la_fail(c, "badShape", "q must be K x T x H x B with K, H, B >= 1, got %s",
            la_dims_str(c->q, b1, sizeof b1));
  if (!has_dims(c->k, mxGetDimensions(c->q), mxGetNumberOfDimensions(c->q)))
    la_fail(c, "badShape", "k must be the size of q (%s), got %s",
            la_dims_str(c->q, b1, sizeof b1), la_dims_str(c->k, b2, sizeof b2));
  if (mxGetNumberOfDimensions(c->v) > 4 || dim_of(c->v, 1) != (mwSize)p->T ||
      dim_of(c->v, 3) != (mwSize)p->B || dim_of(c->v, 0) < 1 || dim_of(c->v, 2) < 1)
    la_fail(c, "badShape", "v must be V x T x HV x B with T = %ld, B = %ld, V, HV >= 1, got %s",
            (long)p->T, (long)p->B, la_dims_str(c->v, b1, sizeof b1));
  p->V = (ptrdiff_t)dim_of(c->v, 0);
  p->HV = (ptrdiff_t)dim_of(c->v, 2);
  if (p->HV % p->H)
    la_fail(c, "badShape", "v has HV = %ld value heads and q has H = %ld heads: HV must be a "
            "multiple of H", (long)p->HV, (long)p->H);
  d[0] = (mwSize)p->K; d[1] = (mwSize)p->T; d[2] = (mwSize)p->HV; d[3] = (mwSize)p->B;
  if (p->kda) {
    if (!has_dims(c->g, d, 4))
      la_fail(c, "badShape", "g must be K x T x HV x B = %s, got %s", want_str(d, 4, b1, sizeof b1),
              la_dims_str(c->g, b2, sizeof b2));
  } else if ((mwSize)mxGetNumberOfElements(c->g) != (mwSize)(p->T * p->HV * p->B)) {
    la_fail(c, "badShape", "g must have T*HV*B = %ld elements (T x HV x B = %s), got %s",
            (long)(p->T * p->HV * p->B), want_str(d + 1, 3, b1, sizeof b1),
            la_dims_str(c->g, b2, sizeof b2));
  }
  if ((mwSize)mxGetNumberOfElements(c->beta) != (mwSize)(p->T * p->HV * p->B))
    la_fail(c, "badShape", "beta must have T*HV*B = %ld elements (T x HV x B = %s), got %s",
            (long)(p->T * p->HV * p->B), want_str(d + 1, 3, b1, sizeof b1),
            la_dims_str(c->beta, b2, sizeof b2));
  if (c->backward && !has_dims(c->dout, mxGetDimensions(c->v), mxGetNumberOfDimensions(c->v)))
    la_fail(c, "badShape", "do must be the size of v (%s), got %s", la_dims_str(c->v, b1, sizeof b1),
            la_dims_str(c->dout, b2, sizeof b2));

  /* options */
  p->N = p->B;
  p->scale = 1.0 / sqrt((double)p->K);
  p->chunk = 64;
  for (i = nfixed; i < nrhs; i += 2) {
    const mxArray *val = prhs[i + 1];
    char name[32];
    if (!mxIsChar(prhs[i]))
      la_fail(c, "badOption", "argument %d must be an option name (a string), got a %s", i + 1,
              mxGetClassName(prhs[i]));
    if (mxGetNumberOfElements(prhs[i]) >= sizeof name || mxGetString(prhs[i], name, sizeof name))
      la_fail(c, "badOption", "unknown option (argument %d, a name of %lu characters)", i + 1,
              (unsigned long)mxGetNumberOfElements(prhs[i]));
    if (ieq(name, "Scale")) {
      p->scale = scalar_opt(c, val, "Scale");
      if (!(p->scale > 0) || !isfinite(p->scale))
        la_fail(c, "badOption", "option 'Scale' must be finite and positive, got %g", p->scale);
    } else if (ieq(name, "InitialState")) {
      c->h0_arr = mxIsEmpty(val) && !mxIsChar(val) ? NULL : val;
      if (c->h0_arr) check_float(c, val, "InitialState");
    } else if (ieq(name, "CuSeqlens")) {
      cu_arr = mxIsEmpty(val) && mxIsNumeric(val) ? NULL : val;
    } else if (ieq(name, "ChunkSize")) {
      const double x = scalar_opt(c, val, "ChunkSize");
      if (!(x >= 1) || x != floor(x) || x > 1e9)
        la_fail(c, "badOption", "option 'ChunkSize' must be a positive integer, got %g", x);
      p->chunk = (ptrdiff_t)x;
    } else if (ieq(name, "UseQKL2Norm")) {
      p->qk_l2norm = flag_opt(c, val, "UseQKL2Norm");
    } else if (ieq(name, "GateInKernel")) {
      p->gate_in_kernel = flag_opt(c, val, "GateInKernel");
    } else if (ieq(name, "ALog")) {
      c->alog_arr = mxIsEmpty(val) && !mxIsChar(val) ? NULL : val;
      if (c->alog_arr) check_float(c, val, "ALog");
    } else if (ieq(name, "DtBias")) {
      c->dtb_arr = mxIsEmpty(val) && !mxIsChar(val) ? NULL : val;
      if (c->dtb_arr) check_float(c, val, "DtBias");
    } else if (ieq(name, "LowerBound")) {
      if (mxIsEmpty(val) && !mxIsChar(val)) {
        have_lb = 0;
      } else {
        p->lower_bound = scalar_opt(c, val, "LowerBound");
        if (!(p->lower_bound < 0) || !isfinite(p->lower_bound))
          la_fail(c, "badOption", "option 'LowerBound' must be finite and negative, got %g",
                  p->lower_bound);
        have_lb = 1;
      }
    } else if (ieq(name, "BetaSigmoid")) {
      p->beta_sigmoid = flag_opt(c, val, "BetaSigmoid");
    } else if (ieq(name, "AllowNegEigval")) {
      p->allow_neg_eigval = flag_opt(c, val, "AllowNegEigval");
    } else if (ieq(name, "StateLayout")) {
      char lay[4];
      if (!mxIsChar(val) || mxGetNumberOfElements(val) != 2 || mxGetString(val, lay, sizeof lay) ||
          (!ieq(lay, "KV") && !ieq(lay, "VK")))
        la_fail(c, "badOption", "option 'StateLayout' must be 'KV' or 'VK'");
      p->state_vk = ieq(lay, "VK");
    } else if (ieq(name, "Intermediates")) {
      if (!c->chunked || c->backward)
        la_fail(c, "badOption", "option 'Intermediates' is only for kda_chunk and gdn_chunk");
      c->intermediates = flag_opt(c, val, "Intermediates");
    } else {
      la_fail(c, "badOption", "unknown option '%s' (options: Scale, InitialState, CuSeqlens, "
              "ChunkSize, UseQKL2Norm, GateInKernel, ALog, DtBias, LowerBound, BetaSigmoid, "
              "AllowNegEigval, StateLayout%s)", name,
              c->chunked && !c->backward ? ", Intermediates" : "");
    }
  }
  p->has_lower_bound = have_lb;
  if (cu_arr) check_cu(c, cu_arr);
  { /* a chunk (or checkpoint interval) longer than the longest sequence
     * computes the same as one exactly that long: use that, so that the
     * workspace never exceeds what the data needs */
    ptrdiff_t n, maxlen = c->p.cu_seqlens ? 0 : c->p.T;
    for (n = 0; c->p.cu_seqlens && n < c->p.N; n++)
      if (c->p.cu_seqlens[n + 1] - c->p.cu_seqlens[n] > maxlen)
        maxlen = (ptrdiff_t)(c->p.cu_seqlens[n + 1] - c->p.cu_seqlens[n]);
    if (c->p.chunk > maxlen) c->p.chunk = maxlen > 0 ? maxlen : 1;
  }

  /* states: K x V x HV x N, or V x K x HV x N */
  d[0] = (mwSize)(p->state_vk ? p->V : p->K);
  d[1] = (mwSize)(p->state_vk ? p->K : p->V);
  d[2] = (mwSize)p->HV;
  d[3] = (mwSize)p->N;
  if (c->h0_arr && !has_dims(c->h0_arr, d, 4))
    la_fail(c, "badShape", "InitialState must be %s x HV x N = %s, got %s",
            p->state_vk ? "V x K" : "K x V", want_str(d, 4, b1, sizeof b1),
            la_dims_str(c->h0_arr, b2, sizeof b2));
  if (c->backward) {
    const mxArray *ds = prhs[6];
    if (!mxIsEmpty(ds) || mxIsChar(ds)) {
      check_float(c, ds, "dS");
      if (!has_dims(ds, d, 4))
        la_fail(c, "badShape", "dS must be [] or %s x HV x N = %s, got %s",
                p->state_vk ? "V x K" : "K x V", want_str(d, 4, b1, sizeof b1),
                la_dims_str(ds, b2, sizeof b2));
      c->dht_arr = ds;
    }
  }

  /* gate parameters */
  if (p->gate_in_kernel) {
    const ptrdiff_t GD = p->kda ? p->K : 1;
    if (!c->alog_arr)
      la_fail(c, "badOption", "GateInKernel needs 'ALog' (HV = %ld values)", (long)p->HV);
    if ((mwSize)mxGetNumberOfElements(c->alog_arr) != (mwSize)p->HV ||
        (mxGetM(c->alog_arr) != 1 && mxGetN(c->alog_arr) != 1) ||
        mxGetNumberOfDimensions(c->alog_arr) > 2)
      la_fail(c, "badShape", "ALog must be a vector of HV = %ld values, got %s", (long)p->HV,
              la_dims_str(c->alog_arr, b1, sizeof b1));
    if (c->dtb_arr) {
      d[0] = (mwSize)GD;
      d[1] = (mwSize)p->HV;
      if (p->kda && !has_dims(c->dtb_arr, d, 2))
        la_fail(c, "badShape", "DtBias must be K x HV = %s, got %s", want_str(d, 2, b1, sizeof b1),
                la_dims_str(c->dtb_arr, b2, sizeof b2));
      if (!p->kda && ((mwSize)mxGetNumberOfElements(c->dtb_arr) != (mwSize)p->HV ||
                      mxGetNumberOfDimensions(c->dtb_arr) > 2 ||
                      (mxGetM(c->dtb_arr) != 1 && mxGetN(c->dtb_arr) != 1)))
        la_fail(c, "badShape", "DtBias must be a vector of HV = %ld values, got %s", (long)p->HV,
                la_dims_str(c->dtb_arr, b2, sizeof b2));
    }
  }

  /* converted copies of the arguments that may be of the other class */
  c->h0 = c->h0_arr ? as_working(c, c->h0_arr) : NULL;
  c->dht = c->dht_arr ? as_working(c, c->dht_arr) : NULL;
  c->A_log = p->gate_in_kernel ? as_working(c, c->alog_arr) : NULL;
  c->dt_bias = p->gate_in_kernel && c->dtb_arr ? as_working(c, c->dtb_arr) : NULL;
}
