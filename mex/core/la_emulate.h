/*
 * la_emulate.h -- 'Emulate' at the chunked entry points (la_emulate.c).
 * Not part of the public interface.
 *
 * la_chunk_fwd_s/_d and la_chunk_bwd_s/_d hand a problem with p->emulate
 * set to la_emu_chunk_fwd / la_emu_chunk_bwd, which take float copies of
 * the inputs rounded to the format, run the float drivers on them (which
 * round the stored intermediates: la_emu.tmpl.h) and, for the double entry
 * points, write the float results back in double.  The drivers themselves
 * are la_chunk_fwd_run_* / la_chunk_bwd_run_*.
 */
#ifndef LA_EMULATE_H
#define LA_EMULATE_H

#include "la_core.h"

/* The chunked drivers, without the emulation's copies (the double ones
 * refuse p->emulate: LA_EARG). */
int la_chunk_fwd_run_s(const la_problem *p, const la_fwd_io *io, const la_chunk_aux *aux);
int la_chunk_fwd_run_d(const la_problem *p, const la_fwd_io *io, const la_chunk_aux *aux);
int la_chunk_bwd_run_s(const la_problem *p, const la_bwd_io *io);
int la_chunk_bwd_run_d(const la_problem *p, const la_bwd_io *io);

/* An emulated call of the entry point of class dbl (1: every pointer of io
 * and aux is to double, 0: to float). */
int la_emu_chunk_fwd(const la_problem *p, const la_fwd_io *io, const la_chunk_aux *aux, int dbl);
int la_emu_chunk_bwd(const la_problem *p, const la_bwd_io *io, int dbl);

#endif
