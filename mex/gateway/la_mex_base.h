/*
 * la_mex_base.h -- what every part of the MEX gateway shares: the public
 * functions (la_funcs), one call in progress (la_call), and its identified
 * errors and warnings (la_fail, la_warn).  Only the MATLAB-compatible
 * mex.h API is used.
 */
#ifndef LA_MEX_BASE_H
#define LA_MEX_BASE_H

#include "mex.h"
#include "../core/la_core.h"

/* Which core entry point a public function reaches. */
typedef enum la_path { LA_PATH_RECURRENT, LA_PATH_CHUNK, LA_PATH_MAP } la_path;

struct la_call;

/* One public function: the row of la_funcs[] (la_mex.c).  Its index i is
 * the bit 1 << i of the option table's function sets (la_options.h). */
typedef struct la_func {
  const char *name;       /* "kda_chunk", ...                          */
  const char *family;     /* "kda" or "gdn": the identifier prefix     */
  la_path path;
  int backward;
  int outputs;            /* at most this many outputs                 */
  void (*run)(struct la_call *c, int nlhs, mxArray *plhs[]);
} la_func;

#define LA_NFUNCS 12
extern const la_func la_funcs[LA_NFUNCS];

typedef struct la_call {
  const la_func *fn;   /* the function called (first: no option lives at
                          offset 0, see la_options.h)                  */
  const char *fname;   /* fn->name                                     */
  const char *op;      /* fn->family: the identifier prefix            */
  unsigned fbit;       /* 1 << (fn - la_funcs)                         */
  int chunked, backward;
  int map;             /* a state map: the backward's fixed arguments end
                          in dP, dR instead of do, dS                  */
  /* the problem and its data in the working class */
  la_problem p;
  int dbl;             /* working class: 1 double, 0 single            */
  const mxArray *q, *k, *v, *g, *beta, *dout;   /* the fixed arguments */
  const mxArray *h0_arr, *dht_arr, *alog_arr, *dtb_arr, *dp_arr;   /* or NULL */
  const mxArray *gk_arr, *gv_arr;                /* GDN's GK, GV, or NULL */
  const mxArray *cu_arr;                         /* CuSeqlens, or NULL */
  const mxArray *slots_arr, *accepted_arr;       /* Slots, AcceptedTokens, or NULL */
  int update_pool, update_pool_given;            /* UpdatePool (la_mex_decode.c) */
  const void *h0, *dht, *A_log, *dt_bias, *dp;   /* converted, or NULL */
  const void *gk, *gv;                           /* converted, or NULL */
  int intermediates;   /* option 'Intermediates'                       */
  int verbose;         /* option 'Verbose'                             */
  struct la_watch {    /* its clock (la_mex_watch.c)                    */
    double start, next;
    int printed;
  } watch;
} la_call;

/* Raise error "<family>:<id>" with the message "<function>: <fmt ...>";
 * never returns. */
void la_fail(const la_call *c, const char *id, const char *fmt, ...);

/* Warning "<family>:<id>", "<function>: <fmt ...>". */
void la_warn(const la_call *c, const char *id, const char *fmt, ...);

/* "8x10x2" for an array's dimensions, into buf. */
const char *la_dims_str(const mxArray *a, char *buf, size_t n);

/* "8x10x2" for n dimensions d[], into buf. */
const char *la_dims_text(const mwSize *d, mwSize n, char *buf, size_t size);

/* 1 if a is exactly [] (a real, full, double 0 x 0 array): "not given". */
int la_not_given(const mxArray *a);

#endif
