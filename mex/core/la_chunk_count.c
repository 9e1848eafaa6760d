/* la_chunk_count.c -- number of chunks over all sequences (see la_core.h). */
#include "la_internal.h"

ptrdiff_t la_chunk_count(const la_problem *p)
{
  ptrdiff_t n, total = 0;
  for (n = 0; n < p->N; n++) {
    const la_seq s = la_seq_of(p, n);
    total += la_chunks(s.len, p->chunk);
  }
  return total;
}
