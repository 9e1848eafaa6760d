/*
 * la_mex_mem.h -- sizes of what the gateway creates, in checked arithmetic,
 * and the memory guard.
 *
 * Before any output is created the gateway adds up every array it will
 * make (outputs, aux, converted copies) with la_need_add; a count or a total
 * that overflows, or a total above the memory available, is
 * <op>:outOfMemory with the size in the message.  Better an identified
 * error than an allocation failure without one, or the process killed
 * when the pages are touched.
 */
#ifndef LA_MEX_MEM_H
#define LA_MEX_MEM_H

#include "la_mex_base.h"

/* Add `what`, d0 x d1 x d2 x d3 elements of elem bytes, to *total (bytes). */
void la_need_add(const la_call *c, ptrdiff_t *total, const char *what, ptrdiff_t d0, ptrdiff_t d1,
                 ptrdiff_t d2, ptrdiff_t d3, size_t elem);

/* outOfMemory if total bytes exceed la_mem_available() (not read for a
 * total up to LA_GUARD_MIN). */
void la_need_check(const la_call *c, ptrdiff_t total);

/* outOfMemory unless `bytes` can be allocated now (a trial malloc, for
 * sizes from LA_ROOM_MIN on): every array or buffer the gateway makes
 * asks first, since the host's own allocation failure ("failed to
 * allocate ...") carries no identifier. */
#define LA_ROOM_MIN ((size_t)1 << 20)
void la_mx_room(const la_call *c, size_t bytes, const char *what);

/* mxCreate(Uninit)NumericArray, after la_mx_room. */
mxArray *la_mx_numeric(const la_call *c, mwSize nd, const mwSize *dims, mxClassID cls, int zero);

/* An uninitialised output the core writes step by step (the recurrent
 * forward's state): a, or, while its data is off a 32-byte boundary, up to
 * two more arrays of its shape and class asked of the host, the last one
 * kept and the others destroyed.  The decode step is about a third slower
 * when its state output lies 16 or 48 bytes off a 64-byte boundary
 * (docs/performance.md, "Decode"); the results do not depend on it. */
mxArray *la_mx_prefer_aligned(const la_call *c, mxArray *a);

/* mxMalloc, after la_mx_room. */
void *la_mx_malloc(const la_call *c, size_t bytes);

#endif
