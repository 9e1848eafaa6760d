/*
 * la_status.h -- the status of a call, shared by its threads: an error
 * or an interrupt stops every thread at its next poll.
 * Not part of the public interface.
 */
#ifndef LA_STATUS_H
#define LA_STATUS_H

#include "la_core.h"
#include <string.h>

/* LA_OK until an error or an interrupt sets it; every thread then skips its
 * remaining work.  Interrupts are polled (la_poll) once per chunk, checkpoint
 * segment, or la_poll_steps recurrent steps, and every LA_POLL_ELEMS
 * elements of the set-up loops (L2 norm, copies, zero fills), from
 * whichever thread runs. */
#define LA_POLL_STEPS 4096

static inline int la_stopped(int *status)
{
  int s;
#pragma omp atomic read
  s = *status;
  return s != LA_OK;
}

static inline void la_stop(int *status, int why)
{
#pragma omp atomic write
  *status = why;
  (void)why; /* GCC's -Wunused-but-set-parameter misses the atomic write */
}

/* 1 if the call must stop: an earlier error or interrupt, or the caller's
 * interrupt callback answers nonzero now (then *status = LA_EINTR). */
static inline int la_poll(const la_problem *p, int *status)
{
  if (la_stopped(status)) return 1;
  if (p->interrupted && p->interrupted(p->interrupt_ctx)) {
    la_stop(status, LA_EINTR);
    return 1;
  }
  return 0;
}

/* Long set-up loops (copies, zero fills, transforms) poll every this many
 * elements: well under the half second Ctrl-C may take. */
#define LA_POLL_ELEMS ((ptrdiff_t)1 << 22)

/* Recurrent steps between polls: LA_POLL_STEPS, fewer for large states
 * (about LA_POLL_ELEMS state elements between polls). */
static inline ptrdiff_t la_poll_steps(const la_problem *p)
{
  const ptrdiff_t n = LA_POLL_ELEMS / (p->K * p->V + 1) + 1;
  return n < LA_POLL_STEPS ? n : LA_POLL_STEPS;
}

/* memset(x, 0, bytes), polling between blocks; 0 if the call must stop. */
static inline int la_zero_polled(const la_problem *p, void *x, size_t bytes, int *status)
{
  const size_t block = (size_t)LA_POLL_ELEMS * sizeof(double);
  size_t off;
  for (off = 0; off < bytes; off += block) {
    if (la_poll(p, status)) return 0;
    memset((char *)x + off, 0, bytes - off < block ? bytes - off : block);
  }
  return 1;
}

#endif
