/*
 * la_pool.h -- memory: checked allocation, the memory guard and the
 * workspaces kept across calls (la_pool.c, la_platform.c).
 * Not part of the public interface.
 */
#ifndef LA_POOL_H
#define LA_POOL_H

#include "la_size.h"
#include <stdlib.h>

/* malloc for count elements of size bytes; NULL when count < 1 (callers do
 * not allocate for empty sizes), when count * size overflows, or when malloc
 * fails. */
static inline void *la_alloc(ptrdiff_t count, size_t size)
{
  ptrdiff_t bytes;
  if (count < 1 || !la_bytes(count, size, &bytes)) return NULL;
  return malloc((size_t)bytes);
}

/* Whether `items` work items, each needing `bytes_per_thread` of workspace
 * on the threads that run them (at most one per item), fit in the memory
 * available now, with BLAS's buffers when `blas` (the work calls BLAS
 * products: la_platform.c counts a buffer per thread not yet seen return
 * from one).  Entry points answer LA_ENOMEM otherwise: with overcommit a
 * huge malloc succeeds and the process is killed when the pages are
 * touched; OpenBLAS retries a failed buffer without end.  A negative
 * bytes_per_thread (an overflowed size) never fits. */
int la_workspace_ok(ptrdiff_t items, ptrdiff_t bytes_per_thread, int blas);

/* Workspaces kept across calls (la_pool.c).
 * la_pool_enter at the start of a call (before its parallel region): 1 if
 * the call holds the pool (also when this thread holds it already), 0 if
 * another call does (then get and put malloc and free).  la_pool_leave(held)
 * at its end.  la_pool_get: count elements of size bytes, NULL as la_alloc
 * (the contents are garbage: zero them where needed); kind LA_POOL_THREAD:
 * the buffer of the calling OpenMP thread's number, LA_POOL_SHARED: the
 * call's buffer its threads share, LA_POOL_FRAME: the call's transformed
 * inputs and per-head gradients (la_frame.tmpl.h).  la_pool_put gives it
 * back (frees it if it is not the pool's, or larger than LA_POOL_KEEP).
 * la_pool_bytes: bytes the pool holds (0 while another call holds it);
 * la_release (la_core.h) frees them. */
#define LA_POOL_THREADS 64                  /* thread numbers with a buffer */
#define LA_POOL_KEEP ((size_t)256 << 20)    /* larger buffers end with their call */
enum { LA_POOL_THREAD, LA_POOL_SHARED, LA_POOL_FRAME };
int la_pool_enter(void);
void la_pool_leave(int held);
void *la_pool_get(int held, int kind, ptrdiff_t count, size_t size);
void la_pool_put(int held, int kind, void *buf);
size_t la_pool_bytes(void);

#endif
