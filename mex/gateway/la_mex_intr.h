/*
 * la_mex_intr.h -- Ctrl-C while the core runs.
 *
 * The core polls la_problem.interrupted between chunks / checkpoint
 * segments, from any thread, and returns LA_EINTR when it answers nonzero.
 * The gateway then frees what it made and raises <op>:interrupted after
 * la_mex_interrupt_consume, so the interrupt ends this call only and
 * Octave (or MATLAB) stays usable.
 */
#ifndef LA_MEX_INTR_H
#define LA_MEX_INTR_H

/* Nonzero when the user has pressed Ctrl-C (ctx unused). */
int la_mex_interrupted(void *ctx);

/* Clear the pending interrupt: the identified error raised instead reports
 * it, and a pending count left behind would turn that error into a bare
 * interrupt or, at the third, end Octave. */
void la_mex_interrupt_consume(void);

#endif
