/*
 * la_options.h -- the one table of the public functions' options
 * (la_options.c).
 *
 * Each row says everything about one option: its name, how its value is
 * checked (the kind and, for a choice, the values allowed), its default,
 * the functions that take it, where the value goes in the call (la_call,
 * with its la_problem inside) and a one-line description.  The parser
 * (la_mex_opts.c) matches names against the rows, checks each value by its
 * row, stores it where the row says and fills every option not given with
 * the row's default; the core's range checks name the la_problem field,
 * which the row maps back to the option's name; la_mex_testing ('options')
 * (the test build) answers the rows, and the help texts and docs/api.md
 * are written from that answer (make sync-options; validation/tests/test_help_options.m checks
 * them).  Adding an option is one row here plus the code that uses its
 * value.
 */
#ifndef LA_OPTIONS_H
#define LA_OPTIONS_H

#include "la_mex_base.h"

#include <stddef.h>

/* The public functions, one bit each, in the order of la_funcs[]: the
 * eight paths, then the state maps (LA_F_PATHS: the eight). */
enum {
  LA_F_KDA_RECURRENT = 1 << 0,
  LA_F_KDA_RECURRENT_BWD = 1 << 1,
  LA_F_KDA_CHUNK = 1 << 2,
  LA_F_KDA_CHUNK_BWD = 1 << 3,
  LA_F_GDN_RECURRENT = 1 << 4,
  LA_F_GDN_RECURRENT_BWD = 1 << 5,
  LA_F_GDN_CHUNK = 1 << 6,
  LA_F_GDN_CHUNK_BWD = 1 << 7,
  LA_F_KDA_STATE_MAP = 1 << 8,
  LA_F_KDA_STATE_MAP_BWD = 1 << 9,
  LA_F_GDN_STATE_MAP = 1 << 10,
  LA_F_GDN_STATE_MAP_BWD = 1 << 11,
  LA_F_PATHS = 0xff,
  LA_F_ALL = 0xfff,
  LA_F_CHUNK_FWD = LA_F_KDA_CHUNK | LA_F_GDN_CHUNK,
  LA_F_CHUNK_BWD = LA_F_KDA_CHUNK_BWD | LA_F_GDN_CHUNK_BWD,
  LA_F_CHUNK = LA_F_CHUNK_FWD | LA_F_CHUNK_BWD,
  LA_F_RECURRENT_FWD = LA_F_KDA_RECURRENT | LA_F_GDN_RECURRENT,
  LA_F_GDN = LA_F_GDN_RECURRENT | LA_F_GDN_RECURRENT_BWD | LA_F_GDN_CHUNK | LA_F_GDN_CHUNK_BWD
};

/* How an option's value is checked, and the C type it is stored as. */
typedef enum la_opt_kind {
  LA_KIND_POSITIVE,   /* double: real scalar; finite and > 0 is the core's  */
  LA_KIND_NEGATIVE,   /* double: real scalar; finite and < 0 is the core's;
                         [] = not given                                     */
  LA_KIND_NONNEG,     /* double: real scalar; finite and >= 0 is the core's */
  LA_KIND_POSINT,     /* ptrdiff_t: positive integer scalar                 */
  LA_KIND_FLAG,       /* int: logical or numeric scalar, true / false       */
  LA_KIND_CHOICE,     /* int: one of the row's choices (any case), stored as
                         its index in the list                              */
  LA_KIND_ARRAY,      /* const mxArray *: real float array; [] = not given  */
  LA_KIND_CUSEQLENS,  /* const mxArray *: real vector 0, ..., T; [] = none  */
  LA_KIND_INTEGERS    /* const mxArray *: real numeric array (any class) of
                         integers; [] = not given                           */
} la_opt_kind;

typedef struct la_option {
  const char *name;            /* matched case-insensitively; an unambiguous
                                  prefix is accepted                        */
  la_opt_kind kind;
  unsigned funcs;              /* the functions that take it (LA_F_*)       */
  double def;                  /* the default: a number, a flag (0 / 1) or
                                  the index of a choice                     */
  double (*def_of)(const la_problem *p);  /* or a default computed from the
                                  problem's sizes (NULL: def)               */
  const char *def_text;        /* the default as help shows it, when it is
                                  not def itself ("1/sqrt(K)", "zeros")     */
  const char *const *choices;  /* LA_KIND_CHOICE: the values, NULL-ended   */
  size_t at;                   /* where the value goes: offset in la_call   */
  size_t given_at;             /* an int set to 1 when given (0: none)      */
  const char *field;           /* the la_problem field, as the core's
                                  messages name it (NULL: not the core's)   */
  const char *desc;            /* one line for help and docs                */
} la_option;

extern const la_option la_options[];
extern const int la_noptions;

#endif
