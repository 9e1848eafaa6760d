/*
 * la_mex_opts.h -- the Name/Value options of a call, parsed from the one
 * option table (la_options.h).
 *
 * After the fixed arguments a call may pass, in any order and mixed,
 * Name, Value pairs and structs whose fields are option names; a later
 * occurrence of an option overrides an earlier one.  Names are matched
 * case-insensitively over their full length; an unambiguous prefix of an
 * option of the function called is accepted.  Every value is checked by
 * the KIND of its row (class, shape); ranges that la_problem_check owns
 * (Scale > 0, LowerBound < 0) are left to it.
 */
#ifndef LA_MEX_OPTS_H
#define LA_MEX_OPTS_H

#include "la_mex_args.h"

/* The public function names, in the order of the LA_F_* bits. */
#define LA_NFUNCS 12
extern const char *const la_function_names[LA_NFUNCS];

/* 1 if a is exactly [] (a real, full, double 0 x 0 array): "not given". */
int la_not_given(const mxArray *a);

/* Parse args[0 .. nargs-1] (the arguments after the fixed ones; argno0 is
 * the 1-based position of args[0] in the call, for messages) into val:
 * val[LA_OPT_x] is the value given last for option x, NULL if none, and
 * also NULL when the option's kind allows [] and [] was given.  Errors
 * never return. */
void la_parse_options(const la_call *c, int nargs, const mxArray *args[], int argno0,
                      const mxArray *val[]);

/* la_mex('options'): the table as a struct array with fields name, kind,
 * default, functions (cellstr), description. */
mxArray *la_options_struct(void);

#endif
