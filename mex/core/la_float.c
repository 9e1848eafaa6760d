/* la_float.c -- the core compiled in single precision (entry points *_s). */
#define LA_DOUBLE 0
#include "la_all.tmpl.h"
