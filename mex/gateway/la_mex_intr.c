/*
 * la_mex_intr.c -- see la_mex_intr.h.
 *
 * Octave: its SIGINT handler increments octave_interrupt_state (> 0: an
 * interrupt is pending; quit.h of liboctave, C linkage), read here as a
 * volatile sig_atomic_t since the handler writes it asynchronously.
 * MATLAB: utIsInterruptPending / utSetInterruptPending of libut (the MEX
 * is linked with -lut there).  Other hosts: never interrupted.
 */
#include "la_mex_intr.h"

#include <signal.h>

#if defined(MATLAB_MEX_FILE)
#include <stdbool.h>
extern bool utIsInterruptPending(void);
extern bool utSetInterruptPending(bool);

int la_mex_interrupted(void *ctx)
{
  (void)ctx;
  return utIsInterruptPending() ? 1 : 0;
}

void la_mex_interrupt_consume(void) { utSetInterruptPending(false); }

#elif defined(LA_NO_HOST_INTERRUPT)
int la_mex_interrupted(void *ctx)
{
  (void)ctx;
  return 0;
}

void la_mex_interrupt_consume(void) {}

#else /* Octave */
extern sig_atomic_t octave_interrupt_state;

int la_mex_interrupted(void *ctx)
{
  (void)ctx;
  return *(volatile sig_atomic_t *)&octave_interrupt_state > 0;
}

void la_mex_interrupt_consume(void)
{
  volatile sig_atomic_t *state = &octave_interrupt_state;
  if (*state > 0) *state = 0;
}
#endif
