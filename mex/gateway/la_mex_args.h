/*
 * la_mex_args.h -- argument checking for the MEX gateway.
 *
 * Turns the mxArray arguments of one public call into an la_problem plus
 * pointers in the working class, raising an identified Octave/MATLAB error
 * ("kda:badShape", "gdn:badOption", ...) for anything the SPEC calls bad.
 * Only the MATLAB-compatible mex.h API is used.
 */
#ifndef LA_MEX_ARGS_H
#define LA_MEX_ARGS_H

#include "mex.h"
#include "../core/la_core.h"

typedef struct la_call {
  /* which function */
  const char *fname;   /* "kda_recurrent", ...              */
  const char *op;      /* "kda" or "gdn": identifier prefix  */
  int chunked, backward;
  /* the problem and its data in the working class */
  la_problem p;
  int dbl;             /* working class: 1 double, 0 single  */
  const mxArray *q, *k, *v, *g, *beta, *dout;   /* the fixed arguments */
  const mxArray *h0_arr, *dht_arr, *alog_arr, *dtb_arr;
  const void *h0, *dht, *A_log, *dt_bias;        /* converted, or NULL  */
  int intermediates;
} la_call;

/* Parse prhs[0 .. nrhs-1] (function name already removed) for function
 * fname; errors never return. */
void la_parse_call(la_call *c, const char *fname, int nrhs, const mxArray *prhs[]);

/* Raise error "<op>:<id>" with a formatted "<fname>: ..." message. */
void la_fail(const la_call *c, const char *id, const char *fmt, ...);

/* Raise <op>:outOfMemory if `bytes` (of `what`) exceed
 * half the physical memory: better an error than the process killed by the
 * system when the pages are touched. */
void la_check_bytes(const la_call *c, double bytes, const char *what);

/* "8x10x2" for an array's dimensions, into buf. */
const char *la_dims_str(const mxArray *a, char *buf, size_t n);

#endif
