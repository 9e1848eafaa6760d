/*
 * la_mex_mem.c -- see la_mex_mem.h.
 */
#include "la_mex_mem.h"
#include "../core/la_size.h"

#include <stdio.h>
#include <string.h>
#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif

void la_need_add(const la_call *c, ptrdiff_t *total, const char *what, ptrdiff_t d0, ptrdiff_t d1,
                 ptrdiff_t d2, ptrdiff_t d3, size_t elem)
{
  ptrdiff_t count, bytes;
  if (!la_mul4(d0, d1, d2, d3, &count) || !la_bytes(count, elem, &bytes) ||
      !la_add(*total, bytes, total))
    la_fail(c, "outOfMemory", "out of memory: %s would be %td x %td x %td x %td elements of %zu "
            "bytes, more than this machine can address", what, d0, d1, d2, d3, elem);
}

void la_need_check(const la_call *c, ptrdiff_t total)
{
  double avail;
  if (total <= LA_GUARD_MIN) return;
  avail = (double)la_mem_available();
  if (avail >= 0 && (double)total > avail)
    la_fail(c, "outOfMemory", "out of memory: the outputs of this call need %td bytes (%.3g GB), "
            "more than the %.3g GB of memory available", total, (double)total / 1e9, avail / 1e9);
}

