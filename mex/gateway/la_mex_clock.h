/*
 * la_mex_clock.h -- where the last call's time went inside the gateway.
 *
 * Every call of a public function reads a monotonic clock five times: at
 * entry to mexFunction, when its arguments are parsed and checked (the
 * outputs are made next), when the core starts, when it returns, and when
 * mexFunction returns.  la_mex_testing('last_call') (the test build,
 * -DLA_TESTING) reports the last completed call of this MEX file and the
 * mean over the calls since the previous query (the bench's "inside the
 * MEX", bench_decode.m); a call that fails is not
 * counted.  Nothing else reads the clock.  Only the test build has the
 * clock (-DLA_TESTING: build/testing/la_mex_testing.mex); in the shipped
 * MEX the marks below are nothing.
 */
#ifndef LA_MEX_CLOCK_H
#define LA_MEX_CLOCK_H

#include "la_mex_base.h"

#ifdef LA_TESTING
typedef enum la_mark {
  LA_MARK_ENTRY,      /* mexFunction entered                          */
  LA_MARK_PARSED,     /* arguments parsed, checked and converted      */
  LA_MARK_CORE,       /* outputs made, the core starts                */
  LA_MARK_CORE_DONE,  /* the core returned                            */
  LA_NMARKS
} la_mark;

/* Read the clock into mark `which` of the call in progress. */
void la_clock_mark(la_mark which);

/* The call's state output, when it makes one: its address modulo 64 sorts
 * the calls (the decode step is slower when its output lies 16 or 48 bytes
 * off a 64-byte boundary; docs/performance.md, "Decode"). */
void la_clock_state(const void *state);

/* The call of function `name` returns: read the clock, keep the record. */
void la_clock_done(const char *name);

/* The last completed call as a struct (microseconds): function, inside
 * (entry to return) = parse + outputs + core, where outputs counts the
 * outputs' creation before the core and everything after it; calls: the
 * calls since the previous query, mean: their mean inside, parse, outputs,
 * core; by_alignment: a 4 x 3 matrix, per offset of the state output from
 * a 64-byte boundary (0, 16, 32, 48: the rows), the offset, the calls and
 * their mean core time (then the counts restart).  [] before any call. */
mxArray *la_clock_last_call(void);

#else
#define la_clock_mark(which) ((void)0)
#define la_clock_state(state) ((void)(state))
#define la_clock_done(name) ((void)0)
#endif

#endif
