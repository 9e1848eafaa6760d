/*
 * la_files_safetensors.h -- a safetensors header checked (see
 * la_files_safetensors.c).
 */
#ifndef LA_FILES_SAFETENSORS_H
#define LA_FILES_SAFETENSORS_H

#include "la_json.h"

/* The header t (parsed) against a buffer of buffer_bytes; 0 with *out the
 * struct of arrays, or -1 with the reason in la_files_err. */
int la_safetensors_header(const jtree *t, double buffer_bytes, mxArray **out);

#endif
