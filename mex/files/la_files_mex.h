/*
 * la_files_mex.h -- la_mex ('file', ...): the MEX side of the tensor-file
 * module (mex/files), for the readers and writers of octave/ (la_load,
 * la_save and their private la_*.m).  See la_files_mex.c.
 */
#ifndef LA_FILES_MEX_H
#define LA_FILES_MEX_H

#include <stddef.h>

#include "mex.h"

void la_mex_file(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]);

/* Shared by the module's MEX parts: the reason of the last failure, set
 * by la_files_fail (which returns -1); a uint8 argument's bytes; a new
 * uninitialised 1 x n uint8 row. */
extern char la_files_err[256];
int la_files_fail(const char *fmt, ...);
const unsigned char *la_files_bytes(const mxArray *a, size_t *n);
mxArray *la_files_row(size_t n);

#endif
