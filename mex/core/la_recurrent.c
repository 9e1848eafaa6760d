/* la_recurrent.c -- instantiates la_recurrent_impl.h for float and double. */
#include "la_internal.h"
#include <cblas.h>

#define LA_DOUBLE 0
#include "la_recurrent_impl.h"
#undef LA_DOUBLE
#define LA_DOUBLE 1
#include "la_recurrent_impl.h"
#undef LA_DOUBLE
