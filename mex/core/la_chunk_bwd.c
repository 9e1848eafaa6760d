/* TEMPORARY stub: replaced by the chunked backward. */
#include "la_internal.h"
int la_chunk_bwd_s(const la_problem *p, const la_bwd_io *io) { (void)p; (void)io; return LA_EARG; }
int la_chunk_bwd_d(const la_problem *p, const la_bwd_io *io) { (void)p; (void)io; return LA_EARG; }
