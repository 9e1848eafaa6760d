/* la_pool.c -- workspaces kept across calls (see la_internal.h).
 *
 * A chunked call needs tens to hundreds of MB of scratch; malloc hands
 * blocks that large out as fresh mmaps, so every call paid a page fault per
 * 4 kB touched (82k faults, ~10% of the time of a backward at T = 65536).
 * The pool keeps one buffer per OpenMP thread number (of the team of the
 * call that holds the pool), one for buffers shared by a call's threads and
 * one for the call's frame (its transformed inputs: q, k normalised, the
 * gates of GateInKernel, ...), each with its capacity, grown when a call
 * needs more.
 *
 * One call at a time holds the pool (a C11 atomic flag, taken by
 * la_pool_enter); calls made meanwhile from other threads, and thread
 * numbers beyond LA_POOL_THREADS, malloc and free as before.  The thread
 * holding the pool may enter again (nested: the chunked forward around its
 * la_for_phases), so the depth is per thread.  A buffer larger than
 * LA_POOL_KEEP is freed when its call ends.  la_release frees everything.
 *
 * The flop-counting build (-DLA_COUNT_FLOPS), whose driver checks that a
 * call leaves nothing allocated, has no pool: every workspace is malloc'd
 * and freed by its call.
 *
 * Under AddressSanitizer a kept buffer would hide overruns: a call that
 * needs less than the capacity could write past its own size unseen, and a
 * pointer kept after the call could still read the buffer.  So the pool
 * poisons what a call may not touch: the tail beyond the size it asked for,
 * and the whole buffer between calls (pool_poison).
 */
#include "la_internal.h"

#ifndef LA_COUNT_FLOPS
#include <stdatomic.h>
#ifdef _OPENMP
#include <omp.h>
#endif

typedef struct {
  void *buf;
  size_t cap; /* bytes */
} la_pool_buf;

#if defined(__SANITIZE_ADDRESS__)
#define LA_POOL_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LA_POOL_ASAN 1
#endif
#endif
#ifdef LA_POOL_ASAN
#include <sanitizer/asan_interface.h>
/* Bytes [0, used) of b's buffer open to the call, [used, cap) poisoned. */
static void pool_poison(const la_pool_buf *b, size_t used)
{
  if (!b->buf) return;
  ASAN_UNPOISON_MEMORY_REGION(b->buf, used);
  ASAN_POISON_MEMORY_REGION((char *)b->buf + used, b->cap - used);
}
#else
static void pool_poison(const la_pool_buf *b, size_t used) { (void)b; (void)used; }
#endif

/* [0, LA_POOL_THREADS): per thread number; then the shared one, the frame */
#define LA_POOL_SLOTS (LA_POOL_THREADS + 2)
static la_pool_buf pool[LA_POOL_SLOTS];
static atomic_flag pool_taken = ATOMIC_FLAG_INIT;
static _Thread_local int pool_depth; /* > 0: this thread holds the pool */

int la_pool_enter(void)
{
  if (pool_depth == 0 && atomic_flag_test_and_set(&pool_taken)) return 0;
  pool_depth++;
  return 1;
}

void la_pool_leave(int held)
{
  if (held && --pool_depth == 0) atomic_flag_clear(&pool_taken);
}

static la_pool_buf *pool_slot(int held, int kind)
{
  int t = 0;
  if (!held) return NULL;
  if (kind == LA_POOL_SHARED) return &pool[LA_POOL_THREADS];
  if (kind == LA_POOL_FRAME) return &pool[LA_POOL_THREADS + 1];
#ifdef _OPENMP
  t = omp_get_thread_num();
#endif
  return t < LA_POOL_THREADS ? &pool[t] : NULL;
}

void *la_pool_get(int held, int kind, ptrdiff_t count, size_t size)
{
  la_pool_buf *b = pool_slot(held, kind);
  ptrdiff_t bytes;
  if (!b) return la_alloc(count, size);
  if (count < 1 || !la_bytes(count, size, &bytes)) return NULL;
  if ((size_t)bytes > b->cap) { /* grow: the old contents are not needed */
    pool_poison(b, b->cap);
    free(b->buf);
    b->cap = 0;
    if (!(b->buf = malloc((size_t)bytes))) return NULL;
    b->cap = (size_t)bytes;
  }
  pool_poison(b, (size_t)bytes);
  return b->buf;
}

void la_pool_put(int held, int kind, void *buf)
{
  la_pool_buf *b = pool_slot(held, kind);
  if (!b || buf != b->buf) {
    free(buf);
    return;
  }
  if (b->cap > LA_POOL_KEEP) {
    pool_poison(b, b->cap);
    free(b->buf);
    b->buf = NULL;
    b->cap = 0;
  } else {
    pool_poison(b, 0); /* kept: nothing of it is open until the next call */
  }
}

size_t la_pool_bytes(void)
{
  size_t total = 0;
  int i;
  const int held = la_pool_enter();
  for (i = 0; held && i < LA_POOL_SLOTS; i++) total += pool[i].cap;
  la_pool_leave(held);
  return total;
}

void la_release(void)
{
  int i;
  if (pool_depth > 0) return; /* called from inside a call: nothing to free safely */
  while (atomic_flag_test_and_set(&pool_taken)) { /* wait for the call holding it */
  }
  for (i = 0; i < LA_POOL_SLOTS; i++) {
    pool_poison(&pool[i], pool[i].cap);
    free(pool[i].buf);
    pool[i].buf = NULL;
    pool[i].cap = 0;
  }
  atomic_flag_clear(&pool_taken);
}

#else /* LA_COUNT_FLOPS: every call allocates and frees its own */

int la_pool_enter(void) { return 0; }
void la_pool_leave(int held) { (void)held; }
void *la_pool_get(int held, int kind, ptrdiff_t count, size_t size)
{
  (void)held; (void)kind;
  return la_alloc(count, size);
}
void la_pool_put(int held, int kind, void *buf)
{
  (void)held; (void)kind;
  free(buf);
}
size_t la_pool_bytes(void) { return 0; }
void la_release(void) {}

#endif
