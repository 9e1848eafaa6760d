/*
 * la_mex_mem.c -- see la_mex_mem.h.
 */
#include "la_mex_mem.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif

void la_need_add(const la_call *c, ptrdiff_t *total, const char *what, ptrdiff_t d0, ptrdiff_t d1,
                 ptrdiff_t d2, ptrdiff_t d3, size_t elem)
{
  ptrdiff_t bytes;
  if (!la_size_bytes4(d0, d1, d2, d3, elem, &bytes) || !la_size_add(*total, bytes, total))
    la_fail(c, "outOfMemory", "out of memory: %s would be %td x %td x %td x %td elements of %zu "
            "bytes, more than this machine can address", what, d0, d1, d2, d3, elem);
}

void la_need_check(const la_call *c, ptrdiff_t total)
{
  double avail;
  if (total <= LA_GUARD_MIN) return;
  avail = (double)la_mem_available();
  if (avail >= 0 && (double)total > avail)
    la_fail(c, "outOfMemory", "out of memory: the outputs of this call need %td bytes (%.3g GB), "
            "more than the %.3g GB of memory available", total, (double)total / 1e9, avail / 1e9);
}


void la_mx_room(const la_call *c, size_t bytes, const char *what)
{
  void *trial;
  if (bytes < LA_ROOM_MIN) return;
  trial = malloc(bytes);
  if (!trial)
    la_fail(c, "outOfMemory", "out of memory: %s needs %zu bytes (%.3g GB), more than can be "
            "allocated now", what, bytes, (double)bytes / 1e9);
  free(trial);
}

mxArray *la_mx_numeric(const la_call *c, mwSize nd, const mwSize *dims, mxClassID cls, int zero)
{
  size_t bytes = cls == mxDOUBLE_CLASS ? sizeof(double) : cls == mxSINGLE_CLASS ? sizeof(float) : 1;
  mwSize i;
  for (i = 0; i < nd; i++) bytes *= dims[i]; /* sized in checked arithmetic before (la_need_add) */
  la_mx_room(c, bytes, "an output");
  return zero ? mxCreateNumericArray(nd, dims, cls, mxREAL)
              : mxCreateUninitNumericArray(nd, (mwSize *)dims, cls, mxREAL);
}

mxArray *la_mx_prefer_aligned(const la_call *c, mxArray *a)
{
  mxArray *tried[2];
  int n = 0, i;
  while (((uintptr_t)mxGetData(a) & 31) && n < 2) {
    tried[n++] = a;
    a = la_mx_numeric(c, mxGetNumberOfDimensions(a), mxGetDimensions(a), mxGetClassID(a), 0);
  }
  for (i = 0; i < n; i++) mxDestroyArray(tried[i]);
  return a;
}

void *la_mx_malloc(const la_call *c, size_t bytes)
{
  la_mx_room(c, bytes, "a working copy");
  return mxMalloc(bytes);
}
