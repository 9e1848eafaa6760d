/*
 * la_mex_emulate.h -- the gateway's part of option 'Emulate' (chunked
 * functions): the rounded single copies of the inputs, and the
 * outputs back in the input's class (docs/emulation.md).
 */
#ifndef LA_MEX_EMULATE_H
#define LA_MEX_EMULATE_H

#include "la_mex_base.h"

/* With 'Emulate': replace q, k, v, g, beta (and do) by single copies
 * rounded to the format and make single the working class; the arrays of
 * the caller are not touched.  Without it: nothing. */
void la_emulate_inputs(la_call *c);

/* With 'Emulate' on double inputs: every single output (and every single
 * field of a struct output) becomes double.  Frees the input copies. */
void la_emulate_outputs(la_call *c, int nlhs, mxArray *plhs[]);

#endif
