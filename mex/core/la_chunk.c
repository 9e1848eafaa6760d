/* TEMPORARY stub: replaced by the chunked forward. */
#include "la_internal.h"
int la_chunk_fwd_s(const la_problem *p, const la_fwd_io *io, const la_chunk_aux *aux) { (void)p; (void)io; (void)aux; return LA_EARG; }
int la_chunk_fwd_d(const la_problem *p, const la_fwd_io *io, const la_chunk_aux *aux) { (void)p; (void)io; (void)aux; return LA_EARG; }
