/*
 * la_files_mat.c -- a level-5 MAT-file read as data, never handed to a
 * host's load (which runs code from function handles and crashes on
 * hostile sparse matrices or structs).
 *
 * The file: a 128-byte header (text; bytes 116-123 the subsystem offset;
 * version 0x0100; endian mark "IM" or "MI"), then one tagged element per
 * variable: miMATRIX (14), padded to 8 bytes, or miCOMPRESSED (15), whose
 * zlib stream holds one miMATRIX element and nothing after it.  A tag is
 * (type, byte count), or a "small" element with the count in the type's
 * upper half and up to 4 data bytes in the tag.  A matrix holds its array
 * flags (class; complex 0x08, global 0x04, logical 0x02), its dimensions
 * (int32), its name (int8) and then, for the classes read here, its real
 * and imaginary values, stored in the class's type or a smaller one
 * (MATLAB and Octave store integer-valued doubles as uint8 and so on).
 *
 * Read: numeric arrays of every class (complex too), logical arrays, and
 * char arrays of ASCII text.  Refused, naming what was found and before
 * anything is allocated for it: cells, structs, objects, sparse matrices,
 * function handles, opaque (class 17) and unknown classes; a header whose
 * subsystem offset points anywhere (the subsystem holds function handles
 * and objects); v7.3 (HDF5), version 4 and text files; empty, duplicate or
 * NUL-holding names; an element that runs past its parent; values whose
 * count is not the one the dimensions need; integer classes given
 * fractional or out-of-range values; bytes left after a matrix's values or
 * after a compressed stream's end; more than 4,096 variables or 64
 * dimensions.  Bounds: the values of an uncompressed variable are in the
 * file (at most 8 bytes out per byte in); a compressed one may claim at most
 * 1,032 bytes per compressed byte (deflate's ceiling) and all together no
 * more than the memory available, and its stream is inflated into a buffer
 * grown as output arrives, so a stream that stops short never costs its
 * claim.  Without zlib (build_mex.m: MATLAB links none) compressed
 * variables are refused, saying so: save with -v6 there.
 */
#include "la_files_mat.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef LA_HAVE_ZLIB
#include <zlib.h>
#endif

enum { MI_INT8 = 1, MI_UINT8, MI_INT16, MI_UINT16, MI_INT32, MI_UINT32, MI_SINGLE,
       MI_DOUBLE = 9, MI_INT64 = 12, MI_UINT64, MI_MATRIX, MI_COMPRESSED, MI_UTF8, MI_UTF16, MI_UTF32 };
enum { STEP = 1 << 20 };  /* values converted, bytes inflated between polls */

typedef struct {
  const la_mat_sink *sink;
  char *err;
  size_t errlen;
  int swap;                 /* a big-endian file */
  double claimed;           /* bytes of values given out so far */
  char **names;             /* the names read so far */
  size_t nvars;
} reader;

/* a byte range read front to back */
typedef struct {
  const unsigned char *p;
  size_t left;
} range;

/* an element: its type, its byte count and its data */
typedef struct {
  uint32_t type, nbytes;
  const unsigned char *data;
} elem;

static int fail(reader *r, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->err, r->errlen, fmt, ap);
  va_end(ap);
  return LA_FILE_BAD;
}

static uint32_t u32(int swap, const unsigned char *b)
{
  return swap ? (uint32_t)b[3] | (uint32_t)b[2] << 8 | (uint32_t)b[1] << 16 | (uint32_t)b[0] << 24
              : (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* bytes of one value of a numeric data type (0: not one) */
static unsigned type_size(uint32_t type)
{
  static const unsigned size[19] = {0, 1, 1, 2, 2, 4, 4, 4, 0, 8, 0, 0, 8, 8, 0, 0, 1, 2, 4};
  return type < 19 ? size[type] : 0;
}

static const char *class_name(uint32_t cls)
{
  static const char *const name[] = {"unknown", "cell array", "struct", "object", "char array",
                                     "sparse matrix", "double", "single", "int8", "uint8", "int16",
                                     "uint16", "int32", "uint32", "int64", "uint64", "function handle",
                                     "opaque object (class 17)"};
  return cls < sizeof name / sizeof *name ? name[cls] : "unknown";
}

/* the next element of rg (padded to 8 bytes; a small one takes its tag's 8) */
static int next(reader *r, range *rg, elem *e, const char *what)
{
  uint64_t body;
  if (rg->left < 8) return fail(r, "truncated: no room for its %s", what);
  e->type = u32(r->swap, rg->p);
  e->nbytes = u32(r->swap, rg->p + 4);
  if (e->type >> 16) { /* small: count in the upper half, data in bytes 4 to 7 */
    e->nbytes = e->type >> 16;
    e->type &= 0xFFFF;
    if (e->nbytes > 4) return fail(r, "its %s is a small element of %u bytes (at most 4)", what, (unsigned)e->nbytes);
    e->data = rg->p + 4;
    rg->p += 8;
    rg->left -= 8;
    return LA_FILE_OK;
  }
  body = ((uint64_t)e->nbytes + 7) / 8 * 8;
  if (body > rg->left - 8)
    return fail(r, "truncated: its %s of %.0f bytes runs past the end of its matrix", what, (double)e->nbytes);
  e->data = rg->p + 8;
  rg->p += 8 + body;
  rg->left -= 8 + (size_t)body;
  return LA_FILE_OK;
}

/* one value of type t at p, into the class's type at dst[i]; 0 or -1 (an
 * integer class given a fraction or a value out of its range) */
static int put(int cls, void *dst, size_t i, uint32_t t, const unsigned char *p, int swap)
{
  unsigned char b[8];
  const unsigned n = type_size(t);
  unsigned k;
  double d = 0;
  int64_t s = 0;
  uint64_t u = 0;
  int is_float = 0, is_u64 = 0;
  for (k = 0; k < n; k++) b[k] = swap ? p[n - 1 - k] : p[k];
  switch (t) {
  case MI_INT8: s = (int8_t)b[0]; break;
  case MI_UINT8: case MI_UTF8: s = b[0]; break;
  case MI_INT16: { int16_t v; memcpy(&v, b, 2); s = v; break; }
  case MI_UINT16: case MI_UTF16: { uint16_t v; memcpy(&v, b, 2); s = v; break; }
  case MI_INT32: { int32_t v; memcpy(&v, b, 4); s = v; break; }
  case MI_UINT32: case MI_UTF32: { uint32_t v; memcpy(&v, b, 4); s = v; break; }
  case MI_INT64: memcpy(&s, b, 8); break;
  case MI_UINT64: memcpy(&u, b, 8); is_u64 = 1; break;
  case MI_SINGLE: { float v; memcpy(&v, b, 4); d = v; is_float = 1; break; }
  default: memcpy(&d, b, 8); is_float = 1; break;
  }
  if (cls == LA_MAT_DOUBLE || cls == LA_MAT_SINGLE) {
    if (!is_float) d = is_u64 ? (double)u : (double)s;
    if (cls == LA_MAT_DOUBLE) ((double *)dst)[i] = d;
    else ((float *)dst)[i] = (float)d;
    return 0;
  }
  if (is_float) { /* an integer class given a float: exact integers only */
    if (!(d == floor(d)) || d < -9223372036854775808.0 || d >= 18446744073709551616.0) return -1;
    if (d >= 9223372036854775808.0) u = (uint64_t)d, is_u64 = 1;
    else s = (int64_t)d;
  }
  if (is_u64 && u <= (uint64_t)INT64_MAX) s = (int64_t)u, is_u64 = 0;
  switch (cls) {
#define INT_CASE(C, T, LO, HI)                                                      \
  case C:                                                                           \
    if (is_u64 || s < (LO) || s > (HI)) return -1;                                  \
    ((T *)dst)[i] = (T)s;                                                           \
    return 0;
    INT_CASE(LA_MAT_INT8, int8_t, INT8_MIN, INT8_MAX)
    INT_CASE(LA_MAT_UINT8, uint8_t, 0, UINT8_MAX)
    INT_CASE(LA_MAT_INT16, int16_t, INT16_MIN, INT16_MAX)
    INT_CASE(LA_MAT_UINT16, uint16_t, 0, UINT16_MAX)
    INT_CASE(LA_MAT_INT32, int32_t, INT32_MIN, INT32_MAX)
    INT_CASE(LA_MAT_UINT32, uint32_t, 0, UINT32_MAX)
    INT_CASE(LA_MAT_INT64, int64_t, INT64_MIN, INT64_MAX)
    INT_CASE(LA_MAT_CHAR, uint16_t, 0, 127) /* ASCII text */
#undef INT_CASE
  case LA_MAT_UINT64:
    if (!is_u64 && s < 0) return -1;
    ((uint64_t *)dst)[i] = is_u64 ? u : (uint64_t)s;
    return 0;
  default:
    return -1;
  }
}

/* bytes of one value of a class in memory (logical: 1) */
static size_t class_size(int cls, int logical)
{
  static const size_t size[16] = {0, 0, 0, 0, 2, 0, 8, 4, 1, 1, 2, 2, 4, 4, 8, 8};
  return logical ? 1 : size[cls];
}

/* the type a class is stored in when no conversion is needed */
static uint32_t own_type(int cls)
{
  static const uint32_t type[16] = {0, 0, 0, 0, 0, 0, MI_DOUBLE, MI_SINGLE, MI_INT8, MI_UINT8, MI_INT16,
                                    MI_UINT16, MI_INT32, MI_UINT32, MI_INT64, MI_UINT64};
  return type[cls];
}

/* the values of one part (real or imaginary) into dst */
static int values(reader *r, range *rg, const la_mat_var *v, void *dst, const char *part)
{
  elem e;
  unsigned size;
  size_t i;
  const int cls = v->logical ? LA_MAT_UINT8 : v->cls;
  if (next(r, rg, &e, part)) return LA_FILE_BAD;
  size = type_size(e.type);
  if (!size || (e.type >= MI_UTF8 && v->cls != LA_MAT_CHAR))
    return fail(r, "variable '%s': its %s are of data type %u, not a numeric type", v->name, part, (unsigned)e.type);
  if ((uint64_t)e.nbytes != (uint64_t)v->count * size)
    return fail(r, "variable '%s': its dimensions need %.0f values, its %s hold %.0f bytes of %u-byte values",
                v->name, (double)v->count, part, (double)e.nbytes, size);
  if (!r->swap && !v->logical && e.type == own_type(cls)) { /* stored as it is held */
    for (i = 0; i < v->count; i += STEP / 8) {
      const size_t k = v->count - i < STEP / 8 ? v->count - i : STEP / 8;
      if (r->sink->intr && r->sink->intr(r->sink->ctx)) return LA_FILE_INTR;
      memcpy((unsigned char *)dst + i * size, e.data + i * size, k * size);
    }
    return LA_FILE_OK;
  }
  for (i = 0; i < v->count; i++) {
    if (i % STEP == 0 && r->sink->intr && r->sink->intr(r->sink->ctx)) return LA_FILE_INTR;
    if (v->logical) {
      uint64_t nz = 0;
      unsigned k;
      for (k = 0; k < size; k++) nz |= e.data[i * size + k];
      if (e.type == MI_SINGLE || e.type == MI_DOUBLE)
        return fail(r, "variable '%s': a logical array stored as data type %u", v->name, (unsigned)e.type);
      ((uint8_t *)dst)[i] = nz != 0;
    } else if (put(cls, dst, i, e.type, e.data + i * size, r->swap))
      return fail(r, "variable '%s': value %.0f of its %s does not fit its class %s%s", v->name, (double)i + 1,
                  part, class_name((uint32_t)v->cls), v->cls == LA_MAT_CHAR ? " (ASCII text only)" : "");
  }
  return LA_FILE_OK;
}

/* the contents of one miMATRIX element: a variable */
static int matrix(reader *r, const unsigned char *p, size_t size)
{
  range rg = {p, size};
  elem e;
  la_mat_var v;
  uint32_t cls, flags;
  size_t i;
  char *name;
  void *re = NULL, *im = NULL;
  int rc;
  uint64_t count = 1;
  memset(&v, 0, sizeof v);
  v.name = "";
  if (next(r, &rg, &e, "array flags")) return LA_FILE_BAD;
  if (e.type != MI_UINT32 || e.nbytes != 8) return fail(r, "a variable without its array flags");
  cls = u32(r->swap, e.data) & 0xFF;
  flags = u32(r->swap, e.data) >> 8 & 0xFF;
  if (!(cls == LA_MAT_CHAR || (cls >= LA_MAT_DOUBLE && cls <= LA_MAT_UINT64))) {
    /* named when its name can be read; nothing more of it is looked at */
    elem d, n;
    if (!next(r, &rg, &d, "dimensions") && !next(r, &rg, &n, "name") && n.nbytes > 0 && n.nbytes < 64 &&
        !memchr(n.data, 0, n.nbytes))
      return fail(r, "variable '%.*s' is a %s (class %u): la_load reads numeric, logical and char arrays only",
                  (int)n.nbytes, (const char *)n.data, class_name(cls), (unsigned)cls);
    return fail(r, "a variable of class %s (%u): la_load reads numeric, logical and char arrays only",
                class_name(cls), (unsigned)cls);
  }
  v.cls = (int)cls;
  v.complex = (flags & 0x08) != 0;
  v.logical = (flags & 0x02) != 0;
  if (next(r, &rg, &e, "dimensions")) return LA_FILE_BAD;
  if (e.type != MI_INT32 || e.nbytes % 4 || e.nbytes < 8)
    return fail(r, "a variable whose dimensions are not 2 or more int32 values");
  v.ndims = (int)(e.nbytes / 4);
  if (v.ndims > LA_MAT_MAX_DIMS) return fail(r, "a variable of %d dimensions (at most %d)", v.ndims, LA_MAT_MAX_DIMS);
  for (i = 0; i < (size_t)v.ndims; i++) {
    const int32_t d = (int32_t)u32(r->swap, e.data + 4 * i);
    if (d < 0) return fail(r, "a variable with a negative dimension (%d)", (int)d);
    v.dims[i] = (size_t)d;
    if (count && d && count > (UINT64_C(1) << 53) / (uint64_t)d)
      return fail(r, "a variable whose dimensions claim more than 2^53 values");
    count *= (uint64_t)d;
  }
  v.count = (size_t)count;
  if (next(r, &rg, &e, "name")) return LA_FILE_BAD;
  if (e.type != MI_INT8 && e.type != MI_UINT8) return fail(r, "a variable whose name is of data type %u", (unsigned)e.type);
  if (e.nbytes == 0) return fail(r, "a variable with an empty name");
  if (memchr(e.data, 0, e.nbytes))
    return fail(r, "variable '%s...' has a NUL byte in its name", (const char *)e.data);
  for (i = 0; i < r->nvars; i++)
    if (strlen(r->names[i]) == e.nbytes && !memcmp(r->names[i], e.data, e.nbytes))
      return fail(r, "variable '%s' is in the file twice", r->names[i]);
  if (r->nvars == LA_MAT_MAX_VARS) return fail(r, "more than %d variables", LA_MAT_MAX_VARS);
  if (!(name = malloc((size_t)e.nbytes + 1))) return LA_MAT_NOMEM;
  memcpy(name, e.data, e.nbytes);
  name[e.nbytes] = '\0';
  r->names[r->nvars++] = name;
  v.name = name;
  if (v.complex && (v.logical || v.cls == LA_MAT_CHAR))
    return fail(r, "variable '%s': a complex %s", v.name, v.logical ? "logical array" : "char array");
  if (v.logical && v.cls == LA_MAT_CHAR) return fail(r, "variable '%s': a logical char array", v.name);
  /* the value elements' sizes first: nothing is allocated for a count the file does not hold */
  {
    range look = rg;
    elem a, b;
    if (next(r, &look, &a, "values")) return LA_FILE_BAD;
    if (type_size(a.type) && (uint64_t)a.nbytes != (uint64_t)v.count * type_size(a.type))
      return fail(r, "variable '%s': its dimensions need %.0f values, its values hold %.0f bytes of %u-byte values",
                  v.name, (double)v.count, (double)a.nbytes, type_size(a.type));
    if (v.complex && next(r, &look, &b, "imaginary values")) return LA_FILE_BAD;
    if (look.left > 0) return fail(r, "variable '%s': %.0f bytes after its values", v.name, (double)look.left);
  }
  {
    const double bytes = (double)v.count * (double)class_size(v.cls, v.logical) * (v.complex ? 2 : 1);
    r->claimed += bytes;
    if (r->sink->avail >= 0 && r->claimed > r->sink->avail)
      return fail(r, "its variables need %.0f bytes, more than the %.0f bytes of memory available",
                  r->claimed, r->sink->avail);
  }
  if (r->sink->alloc(r->sink->ctx, &v, &re, v.complex ? &im : NULL)) return LA_MAT_NOMEM;
  rc = values(r, &rg, &v, re, "values");
  if (!rc && v.complex) rc = values(r, &rg, &v, im, "imaginary values");
  return rc;
}

#ifdef LA_HAVE_ZLIB
/* one miCOMPRESSED element's zlib stream: exactly one miMATRIX element */
static int compressed(reader *r, const unsigned char *in, size_t n)
{
  z_stream z;
  unsigned char tag[8], *buf = NULL, extra;
  uint64_t size;
  size_t have = 0, room = 0;
  int rc = LA_FILE_OK, zrc;
  memset(&z, 0, sizeof z);
  if (inflateInit(&z) != Z_OK) return fail(r, "inflate: cannot start");
  z.next_in = (Bytef *)in;
  z.avail_in = (uInt)n; /* n < 4 GiB: an element's size is 32 bits */
  z.next_out = tag;
  z.avail_out = 8;
  zrc = inflate(&z, Z_SYNC_FLUSH);
  if (z.avail_out != 0) {
    rc = fail(r, "a compressed variable's zlib stream %s before its matrix's tag",
              zrc == Z_OK || zrc == Z_BUF_ERROR || zrc == Z_STREAM_END ? "ends" : "is not valid");
    goto done;
  }
  if (u32(r->swap, tag) != MI_MATRIX) {
    rc = fail(r, "a compressed element holds data type %u, not a variable", (unsigned)u32(r->swap, tag));
    goto done;
  }
  size = u32(r->swap, tag + 4);
  if ((double)size > 1032.0 * (double)n + 64) {
    rc = fail(r, "a compressed variable claims %.0f bytes from %.0f, more than deflate can give",
              (double)size, (double)n);
    goto done;
  }
  if (r->sink->avail >= 0 && r->claimed + (double)size > r->sink->avail) {
    rc = fail(r, "a compressed variable claims %.0f bytes, more than the %.0f bytes of memory available",
              (double)size, r->sink->avail - r->claimed);
    goto done;
  }
  /* grown as output comes, a step at a time, so a stream that stops
   * early never costs the whole claim */
  while (have < size) {
    if (have == room) {
      const size_t want = room == 0 ? (size < STEP ? (size_t)size : STEP)
                                    : (size - room < room ? (size_t)size : 2 * room);
      unsigned char *grown = realloc(buf, want);
      if (!grown) { rc = LA_MAT_NOMEM; goto done; }
      buf = grown;
      room = want;
    }
    if (r->sink->intr && r->sink->intr(r->sink->ctx)) { rc = LA_FILE_INTR; goto done; }
    z.next_out = buf + have;
    z.avail_out = (uInt)((room - have) < STEP ? room - have : STEP);
    {
      const uInt asked = z.avail_out;
      zrc = inflate(&z, Z_SYNC_FLUSH);
      have += asked - z.avail_out;
    }
    if (zrc == Z_STREAM_END) break;
    if (zrc == Z_BUF_ERROR && z.avail_in == 0) break; /* no more input: cut short */
    if (zrc != Z_OK && zrc != Z_BUF_ERROR) {
      rc = fail(r, "a compressed variable is not a valid zlib stream (%s)", z.msg ? z.msg : "error");
      goto done;
    }
  }
  if (have < size && zrc != Z_STREAM_END) {
    rc = fail(r, "a compressed variable's stream is cut short: it inflates to %.0f of the %.0f bytes its matrix claims",
              (double)have, (double)size);
    goto done;
  }
  /* a stream that ends before the claim is read as far as it goes (Octave
   * 7's save -v7 claims 4 bytes more than it writes for a char array) */
  if (zrc != Z_STREAM_END) { /* the claim is met: the stream must end here, with no byte more */
    z.next_out = &extra;
    z.avail_out = 1;
    zrc = inflate(&z, Z_FINISH);
    if (z.avail_out == 0) {
      rc = fail(r, "a compressed variable inflates to more than the %.0f bytes its matrix claims", (double)size);
      goto done;
    }
    if (zrc != Z_STREAM_END) {
      rc = fail(r, "a compressed variable's zlib stream %s", zrc == Z_BUF_ERROR ? "is cut short" : "is not valid");
      goto done;
    }
  }
  if (z.avail_in != 0) {
    rc = fail(r, "%.0f bytes after a compressed variable's zlib stream", (double)z.avail_in);
    goto done;
  }
  rc = matrix(r, buf, have);
done:
  inflateEnd(&z);
  free(buf);
  return rc;
}
#endif

static int is_text(const unsigned char *p, size_t n)
{
  size_t i;
  for (i = 0; i < n; i++)
    if (p[i] < 9 || (p[i] > 13 && p[i] < 32) || p[i] == 127) return 0;
  return 1;
}

int la_mat_header(const unsigned char *b, size_t n, size_t size, char *err, size_t errlen)
{
  static const unsigned char hdf5[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1A, '\n'};
  reader r;
  unsigned version;
  size_t i;
  int blank = 1, zero = 1;
  memset(&r, 0, sizeof r);
  r.err = err;
  r.errlen = errlen;
  err[0] = '\0';
  if (n >= 8 && !memcmp(b, hdf5, 8))
    return fail(&r, "an HDF5 file (Octave's save -hdf5), not a level-5 MAT-file: save with -v7 or -v6");
  if (size < LA_MAT_HEADER || n < LA_MAT_HEADER ||
      !((b[126] == 'I' && b[127] == 'M') || (b[126] == 'M' && b[127] == 'I'))) {
    if (n >= 19 && !memcmp(b, "MATLAB 5.0 MAT-file", 19) && size < LA_MAT_HEADER)
      return fail(&r, "truncated: shorter than a MAT-file's 128-byte header");
    if (is_text(b, n))
      return fail(&r, "a text file (save -text?), not a level-5 MAT-file: save with -v7 or -v6");
    if (n >= 20 && b[2] == 0 && b[3] == 0 && b[0] < 100 && b[1] < 10)
      return fail(&r, "a version 4 MAT-file (save -v4), not level 5: save with -v7 or -v6");
    return fail(&r, "not a level-5 MAT-file (no MAT-file header)");
  }
  r.swap = b[126] == 'M';
  version = r.swap ? (unsigned)(b[124] << 8 | b[125]) : (unsigned)(b[125] << 8 | b[124]);
  if (version == 0x0200)
    return fail(&r, "a MAT-file v7.3 (HDF5), which la_load does not read: save with -v7 or -v6");
  if (version != 0x0100) return fail(&r, "a MAT-file header of an unknown version (0x%04x)", version);
  for (i = 116; i < 124; i++) {
    blank &= b[i] == ' ';
    zero &= b[i] == 0;
  }
  if (!blank && !zero) {
    uint64_t off = 0;
    for (i = 0; i < 8; i++) off |= (uint64_t)b[r.swap ? 123 - i : 116 + i] << (8 * i);
    return fail(&r, "its header points at subsystem data (bytes 116-123: offset %.0f), which holds function "
                "handles and objects: la_load reads numeric, logical and char arrays only", (double)off);
  }
  return LA_FILE_OK;
}

int la_mat_read(const unsigned char *bytes, size_t n, const la_mat_sink *sink, char *err, size_t errlen)
{
  reader r;
  range rg;
  int rc;
  size_t i;
  memset(&r, 0, sizeof r);
  r.sink = sink;
  r.err = err;
  r.errlen = errlen;
  rc = la_mat_header(bytes, n < 512 ? n : 512, n, err, errlen);
  if (rc) return rc;
  r.swap = bytes[126] == 'M';
  if (!(r.names = malloc(LA_MAT_MAX_VARS * sizeof *r.names))) return LA_MAT_NOMEM;
  rg.p = bytes + LA_MAT_HEADER;
  rg.left = n - LA_MAT_HEADER;
  while (!rc && rg.left > 0) {
    uint32_t type, nbytes;
    if (rg.left < 8) { /* padding after the last variable, else a tag cut short */
      for (i = 0; i < rg.left; i++)
        if (rg.p[i]) rc = fail(&r, "truncated: %u stray bytes after the last variable", (unsigned)rg.left);
      break;
    }
    type = u32(r.swap, rg.p);
    nbytes = u32(r.swap, rg.p + 4);
    rg.p += 8;
    rg.left -= 8;
    if (nbytes > rg.left) {
      rc = fail(&r, "truncated: a variable's element of %.0f bytes runs past the end of the file (%.0f left)",
                (double)nbytes, (double)rg.left);
    } else if (type == MI_COMPRESSED) {
#ifdef LA_HAVE_ZLIB
      rc = compressed(&r, rg.p, nbytes);
#else
      rc = fail(&r, "a compressed variable (save -v7), and this MEX file was built without zlib "
                "(build_mex.m): save with -v6, or build with make");
#endif
      rg.p += nbytes;
      rg.left -= nbytes;
    } else if (type == MI_MATRIX) {
      const size_t pad = (8 - nbytes % 8) % 8;
      if (nbytes == 0) rc = fail(&r, "an empty variable element");
      else rc = matrix(&r, rg.p, nbytes);
      rg.p += nbytes;
      rg.left -= nbytes;
      for (i = 0; !rc && i < pad && i < rg.left; i++)
        if (rg.p[i]) rc = fail(&r, "a variable's padding holds data");
      rg.p += pad < rg.left ? pad : rg.left;
      rg.left -= pad < rg.left ? pad : rg.left;
    } else rc = fail(&r, "an element of data type %u at the top level, not a variable", (unsigned)type);
  }
  for (i = 0; i < r.nvars; i++) free(r.names[i]);
  free(r.names);
  return rc;
}
