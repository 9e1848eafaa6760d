/*
 * la_mex_zlib.c -- the byte work of the tensor-file readers and writers.
 *
 *   crc = la_mex('file', 'crc32', bytes [, prev])  CRC-32 of zip and gzip
 *                                      (continuing from prev's bytes)
 *   [z, err] = la_mex('file', 'deflate', bytes)   raw deflate stream (level 6)
 *   [x, err] = la_mex('file', 'inflate', z, cap)  at most cap bytes out
 *   [v, err] = la_mex('file', 'json', bytes, depth)  parse one JSON text
 *   tf = la_mex('file', 'zlib')                   built with zlib?
 *   n = la_mex('file', 'mem_available')           bytes (-1: unknown)
 *
 * bytes are uint8 rows.  err is '' on success, else the reason (the .m
 * caller raises la:badFile naming the file), so nothing here throws on a
 * hostile file.  inflate never writes past cap: a stream that would give
 * more is an error, so a zip member cannot inflate past the size its
 * directory claims.  Built without LA_HAVE_ZLIB (build_mex.m does that:
 * MATLAB has no zlib to link), crc32 is a table in C and deflate /
 * inflate return the error "built without zlib".
 *
 * json: objects become 1 x 1 structs whose field names are the keys exactly
 * as written (any string: Octave takes it as a dynamic field name), arrays
 * 1 x n cells, numbers doubles, strings char rows (UTF-8 bytes), true /
 * false logical scalars, null a 0 x 0 double.  Iterative, with nesting at
 * most `depth`; a duplicate key, a NUL in a key, invalid UTF-8, a control
 * character in a string, a malformed literal or number, or anything after
 * the value is an error.
 */
#include "la_mex_zlib.h"
#include "../core/la_core.h"

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef LA_HAVE_ZLIB
#include <zlib.h>
#endif

static char file_err[256];

static int fail(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(file_err, sizeof file_err, fmt, ap);
  va_end(ap);
  return -1;
}

static const unsigned char *bytes_of(const mxArray *a, size_t *n)
{
  if (!mxIsUint8(a) || mxIsComplex(a))
    mexErrMsgIdAndTxt("kda:internal", "la_mex: 'file' takes uint8 bytes");
  *n = mxGetNumberOfElements(a);
  return (const unsigned char *)mxGetData(a);
}

/* ---- CRC-32, deflate, inflate ------------------------------------------ */

/* the CRC of the bytes that follow those whose CRC is prev */
static double crc32_of(const unsigned char *p, size_t n, double prev)
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

static mxArray *uint8_row(size_t n)
{
  return mxCreateUninitNumericMatrix(1, n, mxUINT8_CLASS, mxREAL);
}

#ifdef LA_HAVE_ZLIB
static int deflate_to(const unsigned char *in, size_t n, mxArray **out)
{
  z_stream z;
  size_t cap = n + n / 1000 + 64 + 6 * (n / 16000 + 1), done;
  int rc;
  memset(&z, 0, sizeof z);
  if (deflateInit2(&z, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    return fail("deflate: %s", z.msg ? z.msg : "cannot start");
  *out = uint8_row(cap);
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
    return fail("deflate failed (%d)", rc);
  }
  mxSetN(*out, done);
  return 0;
}

static int inflate_to(const unsigned char *in, size_t n, size_t cap, mxArray **out)
{
  z_stream z;
  unsigned char spare;
  size_t done;
  int rc = Z_OK;
  memset(&z, 0, sizeof z);
  if (inflateInit2(&z, -15) != Z_OK) return fail("inflate: %s", z.msg ? z.msg : "cannot start");
  *out = uint8_row(cap);
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
    if (rc == -100) return fail("inflates to more than the %zu bytes claimed", cap);
    if (rc == Z_BUF_ERROR) return fail("the deflate stream is cut short");
    return fail("not a valid deflate stream (%s)", z.msg ? z.msg : "error");
  }
  mxSetN(*out, done);
  return 0;
}
#endif

/* ---- JSON -------------------------------------------------------------- */

typedef struct {
  mxArray **kids;  /* values so far */
  char **keys;     /* object keys (NULL for an array) */
  char *pending;   /* the key whose value is being read */
  size_t n, cap;
  int is_obj;
} frame;

static void frame_free(frame *f)
{
  size_t i;
  for (i = 0; i < f->n; i++) {
    if (f->kids[i]) mxDestroyArray(f->kids[i]);
    if (f->keys) free(f->keys[i]);
  }
  free(f->kids);
  free(f->keys);
  free(f->pending);
  memset(f, 0, sizeof *f);
}

static int frame_push(frame *f, mxArray *v)
{
  if (f->n == f->cap) {
    size_t cap = f->cap ? 2 * f->cap : 8;
    mxArray **kids = realloc(f->kids, cap * sizeof *kids);
    if (!kids) return fail("out of memory");
    f->kids = kids;
    if (f->is_obj) {
      char **keys = realloc(f->keys, cap * sizeof *keys);
      if (!keys) return fail("out of memory");
      f->keys = keys;
    }
    f->cap = cap;
  }
  f->kids[f->n] = v;
  if (f->is_obj) f->keys[f->n] = f->pending;
  f->pending = NULL;
  f->n++;
  return 0;
}

static int key_cmp(const void *a, const void *b)
{
  return strcmp(**(char *const *const *)a, **(char *const *const *)b);
}

/* the finished container of a frame; the frame gives up its values */
static int frame_close(frame *f, mxArray **out)
{
  size_t i;
  if (f->is_obj) {
    char ***order = malloc((f->n + 1) * sizeof *order);
    if (!order) return fail("out of memory");
    for (i = 0; i < f->n; i++) order[i] = &f->keys[i];
    qsort(order, f->n, sizeof *order, key_cmp);
    for (i = 1; i < f->n; i++)
      if (!strcmp(*order[i], *order[i - 1])) {
        fail("duplicate key \"%.60s\"", *order[i]);
        free(order);
        return -1;
      }
    free(order);
    *out = mxCreateStructMatrix(1, 1, (int)f->n, (const char **)f->keys);
    for (i = 0; i < f->n; i++) {
      mxSetFieldByNumber(*out, 0, (int)i, f->kids[i]);
      f->kids[i] = NULL;
    }
  } else {
    *out = mxCreateCellMatrix(1, f->n);
    for (i = 0; i < f->n; i++) {
      mxSetCell(*out, i, f->kids[i]);
      f->kids[i] = NULL;
    }
  }
  frame_free(f);
  return 0;
}

/* length of the valid UTF-8 sequence at p (0 if invalid) */
static size_t utf8_len(const unsigned char *p, const unsigned char *end)
{
  size_t len, i;
  unsigned cp;
  if (p[0] < 0x80) return 1;
  if (p[0] >= 0xC2 && p[0] <= 0xDF) len = 2, cp = p[0] & 0x1F;
  else if (p[0] >= 0xE0 && p[0] <= 0xEF) len = 3, cp = p[0] & 0x0F;
  else if (p[0] >= 0xF0 && p[0] <= 0xF4) len = 4, cp = p[0] & 0x07;
  else return 0;
  if ((size_t)(end - p) < len) return 0;
  for (i = 1; i < len; i++) {
    if ((p[i] & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (p[i] & 0x3F);
  }
  if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
    return 0;
  return len;
}

static int hex4(const unsigned char *p, const unsigned char *end, unsigned *v)
{
  int i;
  *v = 0;
  if (end - p < 4) return -1;
  for (i = 0; i < 4; i++) {
    int c = p[i], d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                                   : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (d < 0) return -1;
    *v = *v * 16 + (unsigned)d;
  }
  return 0;
}

/* the string at *pp (after its opening quote), decoded into a malloc'd
 * NUL-terminated buffer; *len its length (it may hold NULs from \u0000) */
static int json_string(const unsigned char **pp, const unsigned char *end, char **out, size_t *len)
{
  const unsigned char *p = *pp, *q;
  char *s, *w;
  for (q = p; q < end && *q != '"'; q++)
    if (*q == '\\' && q + 1 < end) q++;
  if (q >= end) return fail("a string is not closed");
  s = w = malloc((size_t)(q - p) + 1);
  if (!s) return fail("out of memory");
  while (p < q) {
    if (*p < 0x20) {
      free(s);
      return fail("a control character in a string");
    } else if (*p == '\\') {
      unsigned cp;
      p++;
      switch (*p) {
      case '"': case '\\': case '/': *w++ = (char)*p++; break;
      case 'b': *w++ = '\b'; p++; break;
      case 'f': *w++ = '\f'; p++; break;
      case 'n': *w++ = '\n'; p++; break;
      case 'r': *w++ = '\r'; p++; break;
      case 't': *w++ = '\t'; p++; break;
      case 'u':
        if (hex4(p + 1, q, &cp)) goto bad_escape;
        p += 5;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          unsigned lo;
          if (q - p < 6 || p[0] != '\\' || p[1] != 'u' || hex4(p + 2, q, &lo) || lo < 0xDC00 || lo > 0xDFFF)
            goto bad_escape;
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          p += 6;
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) goto bad_escape;
        if (cp < 0x80) *w++ = (char)cp;
        else if (cp < 0x800) *w++ = (char)(0xC0 | cp >> 6), *w++ = (char)(0x80 | (cp & 0x3F));
        else if (cp < 0x10000)
          *w++ = (char)(0xE0 | cp >> 12), *w++ = (char)(0x80 | ((cp >> 6) & 0x3F)),
          *w++ = (char)(0x80 | (cp & 0x3F));
        else
          *w++ = (char)(0xF0 | cp >> 18), *w++ = (char)(0x80 | ((cp >> 12) & 0x3F)),
          *w++ = (char)(0x80 | ((cp >> 6) & 0x3F)), *w++ = (char)(0x80 | (cp & 0x3F));
        break;
      default:
      bad_escape:
        free(s);
        return fail("a bad escape in a string");
      }
    } else {
      size_t n = utf8_len(p, q);
      if (!n) {
        free(s);
        return fail("a string is not valid UTF-8");
      }
      memcpy(w, p, n);
      w += n;
      p += n;
    }
  }
  *w = '\0';
  *len = (size_t)(w - s);
  *out = s;
  *pp = q + 1;
  return 0;
}

static int json_number(const unsigned char **pp, const unsigned char *end, mxArray **out)
{
  const unsigned char *p = *pp;
  char buf[64];
  if (p < end && *p == '-') p++;
  if (p < end && *p == '0') p++;
  else if (p < end && *p >= '1' && *p <= '9')
    while (p < end && *p >= '0' && *p <= '9') p++;
  else return fail("a malformed number");
  if (p < end && *p == '.') {
    p++;
    if (!(p < end && *p >= '0' && *p <= '9')) return fail("a malformed number");
    while (p < end && *p >= '0' && *p <= '9') p++;
  }
  if (p < end && (*p == 'e' || *p == 'E')) {
    p++;
    if (p < end && (*p == '+' || *p == '-')) p++;
    if (!(p < end && *p >= '0' && *p <= '9')) return fail("a malformed number");
    while (p < end && *p >= '0' && *p <= '9') p++;
  }
  if ((size_t)(p - *pp) >= sizeof buf) return fail("a number of more than %zu characters", sizeof buf - 1);
  memcpy(buf, *pp, (size_t)(p - *pp));
  buf[p - *pp] = '\0';
  *out = mxCreateDoubleScalar(strtod(buf, NULL));
  *pp = p;
  return 0;
}

static const unsigned char *skip_ws(const unsigned char *p, const unsigned char *end)
{
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
  return p;
}

/* `"key" :` at *pp into f->pending */
static int json_key(const unsigned char **pp, const unsigned char *end, frame *f)
{
  const unsigned char *p = *pp;
  size_t len;
  if (p >= end || *p != '"') return fail("an object key is not a string");
  p++;
  if (json_string(&p, end, &f->pending, &len)) return -1;
  if (strlen(f->pending) != len) return fail("a key holds a NUL character");
  p = skip_ws(p, end);
  if (p >= end || *p != ':') return fail("no ':' after a key");
  *pp = p + 1;
  return 0;
}

static int json_parse(const unsigned char *text, size_t n, int max_depth, mxArray **out)
{
  const unsigned char *p = text, *end = text + n;
  frame *stack = calloc((size_t)max_depth + 1, sizeof *stack);
  int depth = 0, rc = 0;
  *out = NULL;
  if (!stack) return fail("out of memory");
  for (;;) {
    /* a value is expected here (after '[', ',', ':' or at the start) */
    mxArray *v = NULL;
    p = skip_ws(p, end);
    if (p >= end) { rc = fail("the text ends where a value is expected"); break; }
    if (*p == '{' || *p == '[') {
      if (depth == max_depth) { rc = fail("nested deeper than %d levels", max_depth); break; }
      stack[depth].is_obj = *p == '{';
      stack[depth].n = 0;
      depth++;
      p = skip_ws(p + 1, end);
      if (p < end && *p == (stack[depth - 1].is_obj ? '}' : ']')) {
        p++;
        if ((rc = frame_close(&stack[--depth], &v))) break;
      } else if (stack[depth - 1].is_obj) {
        if ((rc = json_key(&p, end, &stack[depth - 1]))) break;
        continue;
      } else continue;
    } else if (*p == '"') {
      char *s;
      size_t len;
      p++;
      if ((rc = json_string(&p, end, &s, &len))) break;
      {
        mwSize d[2];
        d[0] = 1; d[1] = len;
        v = mxCreateCharArray(2, d);
        if (len) {
          /* Octave's mxChar is one byte; MATLAB's two (then one per byte) */
          mxChar *c = mxGetChars(v);
          size_t i;
          for (i = 0; i < len; i++) c[i] = (mxChar)(unsigned char)s[i];
        }
      }
      free(s);
    } else if (*p == '-' || (*p >= '0' && *p <= '9')) {
      if ((rc = json_number(&p, end, &v))) break;
    } else if (end - p >= 4 && !memcmp(p, "true", 4)) {
      v = mxCreateLogicalScalar(1); p += 4;
    } else if (end - p >= 5 && !memcmp(p, "false", 5)) {
      v = mxCreateLogicalScalar(0); p += 5;
    } else if (end - p >= 4 && !memcmp(p, "null", 4)) {
      v = mxCreateDoubleMatrix(0, 0, mxREAL); p += 4;
    } else { rc = fail("an unexpected character '%c' at byte %td", *p >= 0x20 && *p < 0x7F ? *p : '?', p - text); break; }
    /* v is complete: hand it to its container, closing those that end */
    for (;;) {
      frame *f;
      if (depth == 0) { *out = v; v = NULL; break; }
      f = &stack[depth - 1];
      if ((rc = frame_push(f, v))) { mxDestroyArray(v); v = NULL; break; }
      v = NULL;
      p = skip_ws(p, end);
      if (p < end && *p == ',') {
        p = skip_ws(p + 1, end);
        if (f->is_obj && (rc = json_key(&p, end, f))) break;
        break; /* next value */
      }
      if (p < end && *p == (f->is_obj ? '}' : ']')) {
        p++;
        if ((rc = frame_close(f, &v))) break;
        depth--;
        continue;
      }
      rc = fail("a '%c' is missing at byte %td", f->is_obj ? '}' : ']', p - text);
      break;
    }
    if (rc || *out) break;
  }
  while (depth > 0) frame_free(&stack[--depth]);
  free(stack);
  if (!rc && skip_ws(p, end) != end) {
    mxDestroyArray(*out);
    *out = NULL;
    rc = fail("text after the JSON value at byte %td", skip_ws(p, end) - text);
  }
  return rc;
}

/* ---- dispatch ----------------------------------------------------------- */

void la_mex_file(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  char op[16];
  const unsigned char *in = NULL;
  size_t n = 0;
  mxArray *out = NULL;
  int rc = 0;
  if (nrhs < 2 || !mxIsChar(prhs[1]) || mxGetString(prhs[1], op, sizeof op))
    mexErrMsgIdAndTxt("kda:internal", "la_mex: 'file' needs an operation");
  file_err[0] = '\0';
  if (!strcmp(op, "zlib")) {
#ifdef LA_HAVE_ZLIB
    plhs[0] = mxCreateLogicalScalar(1);
#else
    plhs[0] = mxCreateLogicalScalar(0);
#endif
    return;
  }
  if (!strcmp(op, "mem_available")) {
    plhs[0] = mxCreateDoubleScalar((double)la_mem_available());
    return;
  }
  if (nrhs < 3) mexErrMsgIdAndTxt("kda:internal", "la_mex: 'file' '%s' needs bytes", op);
  in = bytes_of(prhs[2], &n);
  if (!strcmp(op, "crc32")) {
    const double prev = nrhs > 3 ? mxGetScalar(prhs[3]) : 0;
    if (!(prev >= 0 && prev < 4294967296.0 && prev == (double)(uint32_t)prev))
      mexErrMsgIdAndTxt("kda:internal", "la_mex: 'crc32' continues from a CRC in [0, 2^32)");
    plhs[0] = mxCreateDoubleScalar(crc32_of(in, n, prev));
    return;
  }
  if (!strcmp(op, "json")) {
    const double depth = nrhs > 3 ? mxGetScalar(prhs[3]) : 64;
    rc = json_parse(in, n, depth >= 1 && depth <= 10000 ? (int)depth : 64, &out);
  } else if (!strcmp(op, "deflate") || !strcmp(op, "inflate")) {
#ifdef LA_HAVE_ZLIB
    if (op[0] == 'd') rc = deflate_to(in, n, &out);
    else {
      const double cap = nrhs > 3 ? mxGetScalar(prhs[3]) : -1;
      const double avail = (double)la_mem_available();
      if (!(cap >= 0 && cap < 9e15)) mexErrMsgIdAndTxt("kda:internal", "la_mex: 'inflate' needs a cap");
      if (avail >= 0 && cap > avail)
        rc = fail("claims %.0f bytes, more than the %.0f bytes of memory available", cap, avail);
      else rc = inflate_to(in, n, (size_t)cap, &out);
    }
#else
    rc = fail("deflate and inflate need zlib, and this MEX file was built without it "
              "(build_mex.m; `make` links zlib)");
#endif
  } else mexErrMsgIdAndTxt("kda:internal", "la_mex: unknown 'file' operation '%s'", op);
  if (rc && nlhs < 2) mexErrMsgIdAndTxt("la:badFile", "la_mex: %s", file_err);
  plhs[0] = out ? out : mxCreateDoubleMatrix(0, 0, mxREAL);
  if (nlhs > 1) plhs[1] = mxCreateString(rc ? file_err : "");
}
