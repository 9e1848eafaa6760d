/*
 * la_mex_args.h -- argument checking for the MEX gateway.
 *
 * Turns the mxArray arguments of one public call into an la_problem plus
 * pointers in the working class, raising an identified Octave/MATLAB error
 * ("kda:badShape", "gdn:badOption", ...) for anything docs/api.md calls a bad call.
 * What can be said of the problem alone (sizes, heads, CuSeqlens, Scale,
 * LowerBound, ChunkSize) is la_problem_check's; the gateway checks the
 * arrays (classes, shapes against each other) and the option values' kinds.
 * Only the MATLAB-compatible mex.h API is used.
 */
#ifndef LA_MEX_ARGS_H
#define LA_MEX_ARGS_H

#include "mex.h"
#include "../core/la_core.h"

typedef struct la_call {
  /* which function */
  const char *fname;   /* "kda_recurrent", ...              */
  int named;           /* 1: called as the MEX file of that name (Octave
                          then prefixes its messages with the name itself) */
  const char *op;      /* "kda" or "gdn": identifier prefix  */
  unsigned fbit;       /* its LA_F_* bit (la_options.h)     */
  int chunked, backward;
  int map;             /* a state map: the backward's fixed arguments end in
                          dP, dR instead of do, dS                        */
  /* the problem and its data in the working class */
  la_problem p;
  int dbl;             /* working class: 1 double, 0 single  */
  const mxArray *q, *k, *v, *g, *beta, *dout;   /* the fixed arguments */
  const mxArray *h0_arr, *dht_arr, *alog_arr, *dtb_arr, *dp_arr;   /* or NULL */
  const mxArray *gk_arr, *gv_arr;                /* GDN's GK, GV, or NULL */
  const void *h0, *dht, *A_log, *dt_bias, *dp;   /* converted, or NULL  */
  const void *gk, *gv;                           /* converted, or NULL  */
  int intermediates;
} la_call;

/* Parse prhs[0 .. nrhs-1] (function name already removed) for function
 * fname; errors never return.  Creates nothing but the CuSeqlens copy. */
void la_parse_call(la_call *c, const char *fname, int nrhs, const mxArray *prhs[]);

/* Add the bytes of the working-class copies la_convert_inputs will make. */
void la_need_inputs(const la_call *c, ptrdiff_t *total);

/* Set h0, dht, A_log, dt_bias: the arrays themselves, or copies in the
 * working class. */
void la_convert_inputs(la_call *c);

/* Raise error "<op>:<id>" with a formatted "<fname>: ..." message. */
void la_fail(const la_call *c, const char *id, const char *fmt, ...);

/* "8x10x2" for an array's dimensions, into buf. */
const char *la_dims_str(const mxArray *a, char *buf, size_t n);

#endif
