/*
 * la_files_zlib.c -- CRC-32, deflate and inflate for .npz members.
 *
 * inflate never writes past cap: a stream that would give more is an
 * error, so a zip member cannot inflate past the size its directory
 * claims.  Built without LA_HAVE_ZLIB (build_mex.m does that: MATLAB has
 * no zlib to link), the CRC is a table in C and the dispatch answers
 * deflate / inflate with "built without zlib".
 */
#include "la_files_zlib.h"
#include "la_files_mex.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef LA_HAVE_ZLIB
#include <zlib.h>
#endif

/* ---- CRC-32, deflate, inflate ------------------------------------------ */

/* the CRC of the bytes that follow those whose CRC is prev */
double la_crc32(const unsigned char *p, size_t n, double prev)
{
#ifdef LA_HAVE_ZLIB
  uLong c = (uLong)prev;
  while (n > 0) {
    const uInt step = n > (1u << 30) ? (1u << 30) : (uInt)n;
    c = crc32(c, p, step);
    p += step;
    n -= step;
  }
  return (double)c;
#else
  static uint32_t table[256];
  uint32_t c = (uint32_t)prev ^ 0xFFFFFFFFu;
  size_t i;
  if (!table[1])
    for (i = 0; i < 256; i++) {
      uint32_t t = (uint32_t)i;
      int j;
      for (j = 0; j < 8; j++) t = t & 1 ? 0xEDB88320u ^ (t >> 1) : t >> 1;
      table[i] = t;
    }
  for (i = 0; i < n; i++) c = table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
  return (double)(c ^ 0xFFFFFFFFu);
#endif
}

#ifdef LA_HAVE_ZLIB
int la_deflate(const unsigned char *in, size_t n, mxArray **out)
{
  z_stream z;
  size_t cap = n + n / 1000 + 64 + 6 * (n / 16000 + 1), done;
  int rc;
  memset(&z, 0, sizeof z);
  if (deflateInit2(&z, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    return la_files_fail("deflate: %s", z.msg ? z.msg : "cannot start");
  *out = la_files_row(cap);
  z.next_in = (Bytef *)in;
  z.next_out = (Bytef *)mxGetData(*out);
  do {
    size_t in_left = n - (size_t)((const unsigned char *)z.next_in - in);
    size_t out_left = cap - (size_t)((unsigned char *)z.next_out - (unsigned char *)mxGetData(*out));
    z.avail_in = in_left > UINT_MAX ? UINT_MAX : (uInt)in_left;
    z.avail_out = out_left > UINT_MAX ? UINT_MAX : (uInt)out_left;
    rc = deflate(&z, in_left > UINT_MAX ? Z_NO_FLUSH : Z_FINISH);
  } while (rc == Z_OK && z.avail_out > 0);
  done = (size_t)((unsigned char *)z.next_out - (unsigned char *)mxGetData(*out));
  deflateEnd(&z);
  if (rc != Z_STREAM_END) {
    mxDestroyArray(*out);
    *out = NULL;
    return la_files_fail("deflate failed (%d)", rc);
  }
  mxSetN(*out, done);
  return 0;
}

int la_inflate(const unsigned char *in, size_t n, size_t cap, mxArray **out)
{
  z_stream z;
  unsigned char spare;
  size_t done;
  int rc = Z_OK;
  memset(&z, 0, sizeof z);
  if (inflateInit2(&z, -15) != Z_OK) return la_files_fail("inflate: %s", z.msg ? z.msg : "cannot start");
  *out = la_files_row(cap);
  z.next_in = (Bytef *)in;
  z.next_out = (Bytef *)mxGetData(*out);
  for (;;) {
    size_t in_left = n - (size_t)((const unsigned char *)z.next_in - in);
    size_t out_left = cap - (size_t)((unsigned char *)z.next_out - (unsigned char *)mxGetData(*out));
    if (out_left == 0) break;
    z.avail_in = in_left > UINT_MAX ? UINT_MAX : (uInt)in_left;
    z.avail_out = out_left > UINT_MAX ? UINT_MAX : (uInt)out_left;
    rc = inflate(&z, Z_NO_FLUSH);
    if (rc != Z_OK) break;
    if (z.avail_in == 0 && in_left <= UINT_MAX && z.avail_out > 0) {
      rc = Z_BUF_ERROR; /* all input used, the stream not ended */
      break;
    }
  }
  done = (size_t)((unsigned char *)z.next_out - (unsigned char *)mxGetData(*out));
  if (rc == Z_OK) {
    /* cap reached: the stream must end here, with no byte more */
    z.next_out = &spare;
    z.avail_out = 1;
    rc = inflate(&z, Z_NO_FLUSH);
    if (z.avail_out == 0) rc = -100;
  }
  inflateEnd(&z);
  if (rc != Z_STREAM_END) {
    mxDestroyArray(*out);
    *out = NULL;
    if (rc == -100) return la_files_fail("inflates to more than the %zu bytes claimed", cap);
    if (rc == Z_BUF_ERROR) return la_files_fail("the deflate stream is cut short");
    return la_files_fail("not a valid deflate stream (%s)", z.msg ? z.msg : "error");
  }
  mxSetN(*out, done);
  return 0;
}
#endif
