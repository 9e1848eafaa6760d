/*
 * la_files_axes.h -- a row-major array's axes reversed (plain C; see
 * la_files_axes.c).
 */
#ifndef LA_FILES_AXES_H
#define LA_FILES_AXES_H

#include <stddef.h>

void la_reverse_axes(const unsigned char *in, unsigned char *out, const size_t *s, int n, size_t esz);

#endif
