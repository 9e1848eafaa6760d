/*
 * la_mex_mat.h -- a level-5 MAT-file's structure checked before load
 * reads it (la_mex ('file', 'mat', file, avail)).  See la_mex_mat.c.
 */
#ifndef LA_MEX_MAT_H
#define LA_MEX_MAT_H

#include <stddef.h>

/* 0 if bytes are a level-5 MAT-file whose every size is consistent; else
 * -1 with the reason in err.  avail: bytes of memory available (< 0:
 * unknown), the most all variables together may claim. */
int la_mat_check(const unsigned char *bytes, size_t n, double avail, char *err, size_t errlen);

/* the same for the named file, read whole (a regular file: the caller
 * refuses special files before) */
int la_mat_check_file(const char *name, double avail, char *err, size_t errlen);

#endif
