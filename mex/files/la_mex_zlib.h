/*
 * la_mex_zlib.h -- la_mex ('file', ...): CRC-32, deflate, inflate with a
 * cap and a bounded JSON parser for the tensor-file readers and writers
 * (octave/private/la_*.m).  See la_mex_zlib.c.
 */
#ifndef LA_MEX_ZLIB_H
#define LA_MEX_ZLIB_H

#include "mex.h"

void la_mex_file(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]);

/* its 'read', 'mat' and 'write' operations (la_files_mex.c) */
void la_mex_file_read(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]);
void la_mex_file_mat(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]);
void la_mex_file_write(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]);

#endif
