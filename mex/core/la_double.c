/* la_double.c -- the core compiled in double precision (entry points *_d). */
#define LA_DOUBLE 1
#include "la_all.tmpl.h"
