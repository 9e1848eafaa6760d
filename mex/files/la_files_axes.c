/*
 * la_files_axes.c -- C order to Fortran order: a numpy array's bytes as
 * Octave holds them (la_bytes_to_array.m, la_array_to_bytes.m).
 */
#include "la_files_axes.h"

#include <stdlib.h>
#include <string.h>

/* in: a row-major array of shape s[0..n-1] (s[n-1] fastest), elements of
 * esz bytes; out: the same array column-major (s[0] fastest), i.e. the
 * axes reversed.  For each index of the middle axes, a tiled transpose of
 * the first axis against the last, so that reads and writes stay in
 * cache whatever the shape. */
void la_reverse_axes(const unsigned char *in, unsigned char *out, const size_t *s, int n, size_t esz)
{
  size_t A = s[0], C = n > 1 ? s[n - 1] : 1, M = 1, mid_in = 0, mid_out = 0, m, idx[64] = {0};
  int k;
  if (n > 0 && s[0] == 1) { la_reverse_axes(in, out, s + 1, n - 1, esz); return; } /* a unit axis moves nothing */
  if (n > 0 && s[n - 1] == 1) { la_reverse_axes(in, out, s, n - 1, esz); return; }
  if (n < 2) { memcpy(out, in, (n ? A : 1) * esz); return; }
  for (k = 1; k < n - 1; k++) M *= s[k];
  if (A < 16 && n > 2) {
    /* a short first axis (a batch of 2): each of its slices reversed on
     * its own, then interleaved with stride A */
    const size_t sub = M * C;
    unsigned char *tmp = malloc(sub * esz);
    size_t i, j;
    if (tmp) {
      for (i = 0; i < A; i++) {
        la_reverse_axes(in + i * sub * esz, tmp, s + 1, n - 1, esz);
        for (j = 0; j < sub; j++) memcpy(out + (i + A * j) * esz, tmp + j * esz, esz);
      }
      free(tmp);
      return;
    }
  }
  for (m = 0; m < M; m++) {
    size_t i0, c0, i, c;
    /* offsets of this middle index: in row-major (s[n-2] fastest), out column-major (s[1] fastest) */
    mid_in = 0; mid_out = 0;
    for (k = 1; k < n - 1; k++) mid_in = mid_in * s[k] + idx[k];
    for (k = n - 2; k >= 1; k--) mid_out = mid_out * s[k] + idx[k];
    for (i0 = 0; i0 < A; i0 += 32)
      for (c0 = 0; c0 < C; c0 += 32) {
        const size_t i1 = i0 + 32 < A ? i0 + 32 : A, c1 = c0 + 32 < C ? c0 + 32 : C;
        for (c = c0; c < c1; c++)
          for (i = i0; i < i1; i++) {
            const unsigned char *src = in + ((i * M + mid_in) * C + c) * esz;
            unsigned char *dst = out + (i + A * (mid_out + M * c)) * esz;
            switch (esz) {
            case 8: memcpy(dst, src, 8); break;
            case 4: memcpy(dst, src, 4); break;
            case 2: memcpy(dst, src, 2); break;
            default: *dst = *src;
            }
          }
      }
    for (k = n - 2; k >= 1; k--) { /* next middle index, last middle axis fastest */
      if (++idx[k] < s[k]) break;
      idx[k] = 0;
    }
  }
}
