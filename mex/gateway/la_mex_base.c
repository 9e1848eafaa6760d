/*
 * la_mex_base.c -- see la_mex_base.h.
 *
 * Errors and warnings go through the host's own error () and warning ()
 * (mexCallMATLAB): mexErrMsgIdAndTxt would put the MEX file's name
 * ("la_mex: ") before the public function's.
 */
#include "la_mex_base.h"

#include <stdarg.h>
#include <stdio.h>

/* error (id, '%s', msg) or warning (id, '%s', msg) */
static void raise(const char *what, const la_call *c, const char *id, const char *fmt, va_list ap)
{
  char ident[64], msg[1024];
  mxArray *args[3];
  int n;
  snprintf(ident, sizeof ident, "%s:%s", c->op, id);
  n = snprintf(msg, sizeof msg, "%s: ", c->fname);
  vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
  args[0] = mxCreateString(ident);
  args[1] = mxCreateString("%s");
  args[2] = mxCreateString(msg);
  if (!args[0] || !args[1] || !args[2] || mexCallMATLAB(0, NULL, 3, args, what))
    mexErrMsgIdAndTxt(ident, "%s", msg); /* error () did not stop the call */
  mxDestroyArray(args[0]);
  mxDestroyArray(args[1]);
  mxDestroyArray(args[2]);
}

void la_fail(const la_call *c, const char *id, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  raise("error", c, id, fmt, ap);
  va_end(ap);
  mexErrMsgIdAndTxt("kda:internal", "error () returned"); /* not reached */
}

void la_warn(const la_call *c, const char *id, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  raise("warning", c, id, fmt, ap);
  va_end(ap);
}

const char *la_dims_text(const mwSize *d, mwSize n, char *buf, size_t size)
{
  size_t used = 0;
  mwSize i;
  buf[0] = 0;
  for (i = 0; i < n && used + 24 < size; i++)
    used += (size_t)snprintf(buf + used, size - used, i ? "x%lu" : "%lu", (unsigned long)d[i]);
  return buf;
}

const char *la_dims_str(const mxArray *a, char *buf, size_t n)
{
  return la_dims_text(mxGetDimensions(a), mxGetNumberOfDimensions(a), buf, n);
}

int la_not_given(const mxArray *a)
{
  /* empty first: Octave allocates the dimensions of an array asked for them */
  return mxGetNumberOfElements(a) == 0 && mxIsDouble(a) && !mxIsComplex(a) && !mxIsSparse(a) &&
         mxGetNumberOfDimensions(a) == 2 && mxGetM(a) == 0 && mxGetN(a) == 0;
}
