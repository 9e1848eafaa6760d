/*
 * la_mex_opts.h -- the Name/Value options of a call, read through the one
 * option table (la_options.h).
 *
 * After the fixed arguments a call may pass, in any order and mixed,
 * Name, Value pairs and structs whose fields are option names; a later
 * occurrence of an option overrides an earlier one.  Names are matched
 * case-insensitively over their full length; an unambiguous prefix of an
 * option of the function called is accepted.  Every value is checked by
 * its row (kind, choices); ranges that la_problem_check owns (Scale > 0,
 * LowerBound < 0, ...) are left to it, and its messages come back here to
 * be told in option names.
 */
#ifndef LA_MEX_OPTS_H
#define LA_MEX_OPTS_H

#include "la_mex_base.h"

/* Parse args[0 .. nargs-1] (the arguments after the fixed ones; argno0 is
 * the 1-based position of args[0] in the call, for messages) and store
 * every option of the function where its row says, given or default
 * (after c->p.K is known: a default may depend on it).  Errors never
 * return. */
void la_parse_options(la_call *c, int nargs, const mxArray *args[], int argno0);

/* The core's text (la_check.text) with each `field` of la_problem that an
 * option sets written as that option's name, 'Name', into buf. */
const char *la_option_text(const char *text, char *buf, size_t size);

/* la_mex('options'): the table as a struct array with fields name, kind,
 * default, choices (cellstr), functions (cellstr), description. */
mxArray *la_options_struct(void);

#endif
