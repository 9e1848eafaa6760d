/*
 * la_files_mat.h -- level-5 MAT-files read as data (plain C; the MEX part
 * is in la_files_mex.c).  See la_files_mat.c.
 */
#ifndef LA_FILES_MAT_H
#define LA_FILES_MAT_H

#include <stddef.h>

#include "la_files_io.h"

enum {
  LA_MAT_NOMEM = -3,       /* a result beside LA_FILE_OK / _BAD / _INTR */
  LA_MAT_MAX_DIMS = 64,    /* dimensions of one variable */
  LA_MAT_MAX_VARS = 4096,  /* variables of one file */
  LA_MAT_HEADER = 128      /* bytes of the header */
};

/* MAT-file classes read (the mxClassID numbers). */
enum { LA_MAT_CHAR = 4, LA_MAT_DOUBLE = 6, LA_MAT_SINGLE, LA_MAT_INT8, LA_MAT_UINT8, LA_MAT_INT16,
       LA_MAT_UINT16, LA_MAT_INT32, LA_MAT_UINT32, LA_MAT_INT64, LA_MAT_UINT64 };

/* One variable, as its matrix states it. */
typedef struct la_mat_var {
  const char *name;               /* NUL-terminated, valid during alloc */
  int cls;                        /* LA_MAT_CHAR or LA_MAT_DOUBLE..UINT64 */
  int logical, complex;
  int ndims;
  size_t dims[LA_MAT_MAX_DIMS];
  size_t count;                   /* elements: the product of dims */
} la_mat_var;

/* Where the values go.  alloc gives room for count values of the class's
 * C type (double, float, int8_t ... uint64_t; logical: uint8_t 0 or 1;
 * char: uint16_t code units) in *re (and *im when complex); nonzero: no
 * memory.  The reader fills them; what alloc made is the caller's. */
typedef struct la_mat_sink {
  int (*alloc)(void *ctx, const la_mat_var *v, void **re, void **im);
  la_file_interrupt intr;
  void *ctx;
  double avail;                   /* bytes of memory available; < 0: unknown */
} la_mat_sink;

/* Check the first n bytes of a file of `size` bytes (n = min(size, 512)):
 * a level-5 header, or what else the file is (HDF5 / v7.3, version 4,
 * text), so that a file of another kind is refused before it is read
 * whole.  LA_FILE_OK or LA_FILE_BAD with the reason in err. */
int la_mat_header(const unsigned char *head, size_t n, size_t size, char *err, size_t errlen);

/* Read every variable of the whole file (bytes, n), header checked again.
 * Returns LA_FILE_OK, LA_FILE_BAD (reason in err), LA_FILE_INTR or
 * LA_MAT_NOMEM. */
int la_mat_read(const unsigned char *bytes, size_t n, const la_mat_sink *sink, char *err, size_t errlen);

#endif
