/*
 * la_mex_decode.h -- the decode options of kda_recurrent / gdn_recurrent
 * (docs/decode.md): 'Slots', 'AcceptedTokens', 'UpdatePool' into the
 * la_problem's state pool, and the second output of a pooled call.  The
 * per-channel beta is a shape (la_mex_args.c, check_shapes).
 */
#ifndef LA_MEX_DECODE_H
#define LA_MEX_DECODE_H

#include "la_mex_args.h"

/* Slots (a vector of N, or Tmax x N integers, numbered from 1; 0 and below:
 * padding), AcceptedTokens (N integers), UpdatePool (default true with Slots)
 * from the call's option values (la_options.c) into c->p.  Needs p->N (CuSeqlens
 * converted) and c->h0_arr: the pool's slots are InitialState's fourth
 * dimension.  Errors never return. */
void la_decode_options(la_call *c);

/* The fourth dimension InitialState must have: the pool's slots, or N. */
ptrdiff_t la_decode_states(const la_call *c);

/* Add the bytes of the pooled call's second output to *total. */
void la_decode_need(const la_call *c, ptrdiff_t *total);

/* The pooled call's second output: in place, a copy of the pool h0 (the
 * working-class InitialState) whose slots the core then writes; else the
 * per-token states, state layout x HV x T x B. */
mxArray *la_decode_state_out(const la_call *c, const void *h0);

#endif
