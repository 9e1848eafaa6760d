/*
 * la_status.h -- the status of a call, shared by its threads: an error
 * or an interrupt stops every thread at its next poll.
 * Not part of the public interface.
 */
#ifndef LA_STATUS_H
#define LA_STATUS_H

#include "la_core.h"

/* LA_OK until an error or an interrupt sets it; every thread then skips its
 * remaining work.  Interrupts are polled (la_poll) once per chunk, checkpoint
 * segment, or LA_POLL_STEPS recurrent steps, from whichever thread runs. */
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

#endif
