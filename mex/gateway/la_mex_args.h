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

#include "la_mex_base.h"


/* Parse prhs[0 .. nrhs-1] (function name already removed) for the
 * function c->fn; errors never return.  Creates nothing but the CuSeqlens copy. */
void la_parse_call(la_call *c, int nrhs, const mxArray *prhs[]);

/* Add the bytes of the working-class copies la_convert_inputs will make. */
void la_need_inputs(const la_call *c, ptrdiff_t *total);

/* Set h0, dht, A_log, dt_bias: the arrays themselves, or copies in the
 * working class. */
void la_convert_inputs(la_call *c);

#endif
