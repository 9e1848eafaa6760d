/*
 * la_mex_watch.h -- watching a long call: progress lines ('Verbose') and
 * the stateGrowth warning.
 *
 * 'Verbose' (chunked paths): the core's periodic interrupt poll
 * (la_problem.interrupted) also prints, on the calling thread, one line a
 * second while the call runs, and one at its end when it took a second or
 * more.  Calls shorter than that print nothing.
 *
 * stateGrowth: a forward's final state is compared with the largest norm a
 * contractive recurrence can reach from the same inputs,
 *   ||S_0||_F + sum_t |beta_t| ||k_t|| ||v_t||        (per sequence and head)
 * (each step S' = (I - beta k k') Diag(exp g) S + beta k v' with a
 * transition of norm <= 1 adds at most |beta| ||k|| ||v||).  A state past
 * LA_GROWTH_FACTOR times that, or not finite, cannot come from gates <= 0
 * and beta ||k||^2 in [0, 2]: <family>:stateGrowth says which sequence and
 * head, and what usually causes it (unnormalised keys).  The chunked
 * forwards are always checked, the recurrent ones as LA_GROWTH_MIN_STEPS
 * says.
 */
#ifndef LA_MEX_WATCH_H
#define LA_MEX_WATCH_H

#include "la_mex_base.h"

#define LA_GROWTH_FACTOR 1e4

/* The recurrent forward is checked from this many steps on (and only when
 * it returns S): a decode step would pay as much for the check as for the
 * step. */
#define LA_GROWTH_MIN_STEPS 16

/* Before the core runs: with c->verbose, the core's poll also reports
 * progress (sets c->p.interrupted and interrupt_ctx). */
void la_watch_begin(la_call *c);

/* After the core returned (whatever its status): the closing line. */
void la_watch_end(la_call *c);

/* The stateGrowth warning for the final states S (in the state layout,
 * working class) of this forward call, if any grew past the bound. */
void la_warn_state_growth(const la_call *c, const void *S);

#endif
