/* la_chunk_bwd.c -- instantiates la_chunk_bwd_impl.h for float and double. */
#include "la_internal.h"
#include <cblas.h>

#define LA_DOUBLE 0
#include "la_chunk_bwd_impl.h"
#undef LA_DOUBLE
#define LA_DOUBLE 1
#include "la_chunk_bwd_impl.h"
#undef LA_DOUBLE
