/*
 * la_files_zlib.h -- CRC-32, deflate and inflate with a cap, for .npz
 * members (la_zip_read.m, la_save.m).  See la_files_zlib.c.
 */
#ifndef LA_FILES_ZLIB_H
#define LA_FILES_ZLIB_H

#include <stddef.h>

#include "mex.h"

/* the CRC-32 of p[0..n) following bytes whose CRC is prev (zlib, or a
 * table in C without it) */
double la_crc32(const unsigned char *p, size_t n, double prev);

#ifdef LA_HAVE_ZLIB
/* a raw deflate stream (level 6) of in; 0, or -1 with la_files_err */
int la_deflate(const unsigned char *in, size_t n, mxArray **out);
/* the raw deflate stream in inflated to at most cap bytes (more is an
 * error); 0, or -1 with la_files_err */
int la_inflate(const unsigned char *in, size_t n, size_t cap, mxArray **out);
#endif

#endif
