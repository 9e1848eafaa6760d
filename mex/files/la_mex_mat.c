/*
 * la_mex_mat.c -- the structure of a level-5 MAT-file, checked before
 * Octave's or MATLAB's load reads it (la_mex('file', 'mat', bytes, avail)).
 *
 * A level-5 MAT-file is a 128-byte header (text, subsystem offset,
 * version 0x0100, endian mark "IM" or "MI") and then tagged data elements
 * (type, byte count, data padded to 8 bytes; a "small" element packs a
 * count of at most 4 into the tag's upper half).  Each variable is one
 * miMATRIX element (14), or one miCOMPRESSED element (15) whose zlib
 * stream holds one miMATRIX element.  An miMATRIX holds array flags
 * (class, complex, nzmax), dimensions, a name, and then by class: the real
 * (and imaginary) data; a sparse's ir, jc and data; a cell's or struct's
 * miMATRIX elements.
 *
 * Refused, with the reason: a file that is no level-5 MAT-file (HDF5,
 * v7.3, version 4, text); an element whose size runs past its file or its
 * parent; a compressed variable whose matrix claims more than deflate can
 * give from its bytes (1032 per byte, the ceiling la_zip_read uses for
 * .npz) or whose stream inflates to more or fewer bytes than the matrix
 * claims (inflated in 64 KiB steps that are parsed and dropped: nothing
 * of the claimed size is ever allocated, and inflating stops at the
 * claim); dimensions that need more bytes than their data element holds
 * (or, for a cell or struct, more elements than its bytes can hold);
 * nesting deeper than 32; variables that claim more bytes in all than
 * the memory available.  Without zlib (build_mex.m), a compressed
 * variable's outer element is checked and its contents are left to load.
 */
#include "la_mex_mat.h"

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
enum { MX_CELL = 1, MX_STRUCT, MX_OBJECT, MX_CHAR, MX_SPARSE, MX_DOUBLE, MX_UINT64 = 15 };
enum { MAX_DEPTH = 32, CHUNK = 65536 };

/* bytes of one element of a numeric data type (0: not a numeric type) */
static unsigned type_size(uint32_t type)
{
  static const unsigned size[19] = {0, 1, 1, 2, 2, 4, 4, 4, 0, 8, 0, 0, 8, 8, 0, 0, 1, 2, 4};
  return type < 19 ? size[type] : 0;
}

/* the bytes a matrix is read from: the file itself, or the output of one
 * compressed element's zlib stream (inflated a chunk at a time) */
typedef struct {
  const unsigned char *p;     /* plain: the next byte */
  size_t left;                /* plain: bytes left */
  int swap;                   /* big-endian file */
  char *err;
  size_t errlen;
#ifdef LA_HAVE_ZLIB
  z_stream *z;                /* non-NULL: read from this stream */
  unsigned char *buf;         /* its output chunk */
  size_t at, have;            /* next byte in buf, bytes in buf */
  uint64_t out, cap;          /* bytes inflated so far, the most allowed */
  int ended;
#endif
} msrc;

static int fail(msrc *s, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(s->err, s->errlen, fmt, ap);
  va_end(ap);
  return -1;
}

static uint32_t u32(const msrc *s, const unsigned char *b)
{
  return s->swap ? (uint32_t)b[3] | (uint32_t)b[2] << 8 | (uint32_t)b[1] << 16 | (uint32_t)b[0] << 24
                 : (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* n bytes of the source into dst (NULL: skipped) */
static int take(msrc *s, unsigned char *dst, uint64_t n)
{
#ifdef LA_HAVE_ZLIB
  if (s->z) {
    while (n > 0) {
      size_t k;
      if (s->at == s->have) {
        int rc;
        if (s->ended) return fail(s, "its compressed matrix ends before its contents do");
        s->z->next_out = s->buf;
        s->z->avail_out = CHUNK;
        rc = inflate(s->z, Z_NO_FLUSH);
        s->at = 0;
        s->have = CHUNK - s->z->avail_out;
        s->out += s->have;
        if (s->out > s->cap)
          return fail(s, "a compressed variable inflates to more than the %.0f bytes its matrix claims",
                      (double)s->cap);
        if (rc == Z_STREAM_END) s->ended = 1;
        else if (rc == Z_BUF_ERROR && s->have == 0)
          return fail(s, "a compressed variable's zlib stream is cut short");
        else if (rc != Z_OK && rc != Z_BUF_ERROR)
          return fail(s, "a compressed variable is not a valid zlib stream (%s)",
                      s->z->msg ? s->z->msg : "error");
        continue;
      }
      k = s->have - s->at < n ? s->have - s->at : (size_t)n;
      if (dst) memcpy(dst, s->buf + s->at, k), dst += k;
      s->at += k;
      n -= k;
    }
    return 0;
  }
#endif
  if (n > s->left) return fail(s, "truncated: an element runs past the end of the file");
  if (dst) memcpy(dst, s->p, (size_t)n);
  s->p += n;
  s->left -= (size_t)n;
  return 0;
}

typedef struct {
  uint32_t type, nbytes;
  uint64_t body;      /* bytes after the tag's 8: data and padding */
  unsigned char small[4];  /* a small element's data */
} mtag;

/* one element's tag, its body checked against the room left in its parent */
static int tag(msrc *s, uint64_t *room, mtag *t, const char *what)
{
  unsigned char b[8];
  memset(t, 0, sizeof *t);
  if (*room < 8) return fail(s, "%s: no room for its element in its matrix", what);
  if (take(s, b, 8)) return -1;
  *room -= 8;
  t->type = u32(s, b);
  t->nbytes = u32(s, b + 4);
  if (t->type >> 16) { /* small element: count in the upper half, data in bytes 4 to 7 */
    t->nbytes = t->type >> 16;
    t->type &= 0xFFFF;
    if (t->nbytes > 4) return fail(s, "%s: a small element of %u bytes (at most 4)", what, (unsigned)t->nbytes);
    memcpy(t->small, b + 4, 4);
    t->body = 0;
  } else t->body = ((uint64_t)t->nbytes + 7) / 8 * 8;
  if (t->body > *room)
    return fail(s, "%s: its element of %.0f bytes runs past the end of its matrix", what, (double)t->nbytes);
  *room -= t->body;
  return 0;
}

/* a data element of numeric type that must hold at least `count` values */
static int data(msrc *s, uint64_t *room, double count, int exact, const char *what)
{
  mtag t;
  unsigned size;
  if (tag(s, room, &t, what)) return -1;
  size = type_size(t.type);
  if (!size) return fail(s, "%s: data of type %u, not a numeric type", what, (unsigned)t.type);
  if (count * size > (double)t.nbytes)
    return fail(s, "its dimensions need %.0f values, its %s element holds %.0f",
                count, what, (double)(t.nbytes / size));
  if (exact && count * size < (double)t.nbytes)
    return fail(s, "its %s element holds %.0f values, its dimensions need %.0f",
                what, (double)(t.nbytes / size), count);
  return take(s, NULL, t.body);
}

/* the contents of one miMATRIX element of `size` bytes */
static int matrix(msrc *s, uint64_t size, int depth)
{
  unsigned char b[8];
  mtag t;
  uint64_t room = size, k;
  double count = 1, dim[2] = {0, 0};
  uint32_t cls, flags, nzmax, i, ndims;
  if (size == 0) return 0; /* an empty cell element */
  if (depth > MAX_DEPTH) return fail(s, "matrices nested deeper than %d", MAX_DEPTH);
  if (tag(s, &room, &t, "array flags")) return -1;
  if (t.type != MI_UINT32 || t.nbytes != 8) return fail(s, "a matrix without its array flags");
  if (take(s, b, 8)) return -1;
  cls = u32(s, b) & 0xFF;
  flags = u32(s, b) >> 8 & 0xFF;
  nzmax = u32(s, b + 4);
  if (tag(s, &room, &t, "dimensions")) return -1;
  ndims = t.nbytes / 4;
  if (t.type != MI_INT32 || t.nbytes % 4 || ndims < 2 || t.body == 0)
    return fail(s, "a matrix's dimensions are not 2 or more int32 values");
  for (i = 0; i < ndims; i++) {
    int32_t d;
    if (take(s, b, 4)) return -1;
    d = (int32_t)u32(s, b);
    if (d < 0) return fail(s, "a matrix has a negative dimension (%d)", (int)d);
    if (i < 2) dim[i] = d;
    count *= d;
  }
  if (take(s, NULL, t.body - 4 * (uint64_t)ndims)) return -1;
  if (tag(s, &room, &t, "array name") || take(s, NULL, t.body)) return -1;
  switch (cls) {
  case MX_CELL:
    if (count * 8 > (double)room)
      return fail(s, "a cell's dimensions need %.0f elements, its %.0f bytes hold at most %.0f",
                  count, (double)room, (double)(room / 8));
    for (k = 0; k < (uint64_t)count; k++) {
      if (tag(s, &room, &t, "cell element")) return -1;
      if (t.type != MI_MATRIX) return fail(s, "a cell element of type %u, not a matrix", (unsigned)t.type);
      if (matrix(s, t.nbytes, depth + 1) || take(s, NULL, t.body - t.nbytes)) return -1;
    }
    break;
  case MX_OBJECT:
  case MX_STRUCT: {
    uint64_t nfields = 0, len;
    if (cls == MX_OBJECT && (tag(s, &room, &t, "class name") || take(s, NULL, t.body))) return -1;
    if (tag(s, &room, &t, "field name length")) return -1;
    if (t.type != MI_INT32 || t.nbytes != 4) return fail(s, "a struct without its field name length");
    if (t.body == 0) memcpy(b, t.small, 4);
    else if (take(s, b, 4) || take(s, NULL, t.body - 4)) return -1;
    len = u32(s, b);
    if (tag(s, &room, &t, "field names")) return -1;
    if (len > 0) nfields = t.nbytes / len;
    if (take(s, NULL, t.body)) return -1;
    if (count * (double)nfields * 8 > (double)room)
      return fail(s, "a struct's dimensions need %.0f fields, its %.0f bytes hold at most %.0f",
                  count * (double)nfields, (double)room, (double)(room / 8));
    for (k = 0; k < (uint64_t)count * nfields; k++) {
      if (tag(s, &room, &t, "struct field")) return -1;
      if (t.type != MI_MATRIX) return fail(s, "a struct field of type %u, not a matrix", (unsigned)t.type);
      if (matrix(s, t.nbytes, depth + 1) || take(s, NULL, t.body - t.nbytes)) return -1;
    }
    break;
  }
  case MX_SPARSE:
    if (data(s, &room, nzmax > 1 ? nzmax : 0, 0, "sparse row index") ||
        data(s, &room, dim[1] + 1, 0, "sparse column index") ||
        data(s, &room, 0, 0, "sparse data") || (flags & 0x08 && data(s, &room, 0, 0, "sparse imaginary part")))
      return -1;
    break;
  default:
    if (cls == MX_CHAR || (cls >= MX_DOUBLE && cls <= MX_UINT64)) {
      const int exact = cls != MX_CHAR; /* UTF-8 text may take more bytes than characters */
      if (data(s, &room, count, exact, "data") || (flags & 0x08 && data(s, &room, count, exact, "imaginary part")))
        return -1;
    }
    break; /* function handles, opaque objects: their bytes are checked as a whole */
  }
  return take(s, NULL, room); /* whatever the class leaves */
}

#ifdef LA_HAVE_ZLIB
/* one miCOMPRESSED element's zlib stream of n bytes */
static int compressed(msrc *file, const unsigned char *in, size_t n, double *claimed, double avail)
{
  z_stream z;
  unsigned char buf[CHUNK], b[8];
  msrc s = *file;
  uint32_t type, size;
  int rc;
  memset(&z, 0, sizeof z);
  if (inflateInit(&z) != Z_OK) return fail(file, "inflate: cannot start");
  z.next_in = (Bytef *)in;
  z.avail_in = (uInt)n; /* n < 4 GiB: an element's size is 32 bits */
  s.z = &z;
  s.buf = buf;
  s.at = s.have = 0;
  s.out = 0;
  s.cap = 8 + (uint64_t)UINT32_MAX; /* the most any matrix can claim */
  s.ended = 0;
  rc = take(&s, b, 8);
  if (!rc) {
    type = u32(&s, b);
    size = u32(&s, b + 4);
    s.cap = 8 + (uint64_t)size;
    *claimed += (double)s.cap;
    if (type != MI_MATRIX) rc = fail(&s, "a compressed element holds type %u, not a matrix", (unsigned)type);
    else if ((double)s.cap > 1032.0 * (double)n + 64)
      rc = fail(&s, "a compressed variable claims %.0f bytes from %.0f, more than deflate can give",
                (double)s.cap, (double)n);
    else if (s.out > s.cap)
      rc = fail(&s, "a compressed variable inflates to more than the %.0f bytes its matrix claims", (double)s.cap);
    else if (avail >= 0 && *claimed > avail)
      rc = fail(&s, "its variables claim %.0f bytes, more than the %.0f bytes of memory available",
                *claimed, avail);
    else rc = matrix(&s, size, 1);
  }
  if (!rc && s.at < s.have)
    rc = fail(&s, "a compressed variable inflates to more than the %.0f bytes its matrix claims", (double)s.cap);
  if (!rc && !s.ended) { /* the claim is met: the stream must end here, with no byte more */
    s.z->next_out = buf;
    s.z->avail_out = 1;
    rc = inflate(s.z, Z_FINISH);
    if (s.z->avail_out == 0)
      rc = fail(&s, "a compressed variable inflates to more than the %.0f bytes its matrix claims", (double)s.cap);
    else if (rc != Z_STREAM_END)
      rc = fail(&s, "a compressed variable's zlib stream %s",
                rc == Z_BUF_ERROR ? "is cut short" : "is not valid");
    else rc = 0;
  }
  inflateEnd(&z);
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

int la_mat_check(const unsigned char *bytes, size_t n, double avail, char *err, size_t errlen)
{
  static const unsigned char hdf5[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1A, '\n'};
  msrc s;
  double claimed = 0;
  memset(&s, 0, sizeof s);
  s.err = err;
  s.errlen = errlen;
  err[0] = '\0';
  if (n >= 8 && !memcmp(bytes, hdf5, 8))
    return fail(&s, "an HDF5 file (Octave's save -hdf5), not a level-5 MAT-file: save with -v7 or -v6");
  if (n >= 520 && !memcmp(bytes + 512, hdf5, 8))
    return fail(&s, "a MAT-file v7.3 (HDF5), which load cannot read here: save with -v7 or -v6");
  if (n < 128 || !((bytes[126] == 'I' && bytes[127] == 'M') || (bytes[126] == 'M' && bytes[127] == 'I'))) {
    if (n >= 20 && !memcmp(bytes, "MATLAB 5.0 MAT-file", 19))
      return fail(&s, "truncated: shorter than a MAT-file's 128-byte header");
    if (is_text(bytes, n < 512 ? n : 512))
      return fail(&s, "a text file (save -text?), not a level-5 MAT-file: save with -v7 or -v6");
    if (n >= 20 && bytes[2] == 0 && bytes[3] == 0 && bytes[0] < 100 && bytes[1] < 10)
      return fail(&s, "a version 4 MAT-file (save -v4), not level 5: save with -v7 or -v6");
    return fail(&s, "not a level-5 MAT-file (no MAT-file header)");
  }
  s.swap = bytes[126] == 'M';
  if ((s.swap ? bytes[124] << 8 | bytes[125] : bytes[125] << 8 | bytes[124]) != 0x0100)
    return fail(&s, "a MAT-file header of an unknown version");
  s.p = bytes + 128;
  s.left = n - 128;
  while (s.left > 0) {
    /* a variable's tag (never small; no padding after a compressed one) */
    uint32_t type, nbytes;
    if (s.left < 8) { /* padding after the last variable, or a tag cut short */
      size_t i;
      for (i = 0; i < s.left; i++)
        if (s.p[i]) return fail(&s, "truncated: %u stray bytes after the last variable", (unsigned)s.left);
      break;
    }
    type = u32(&s, s.p);
    nbytes = u32(&s, s.p + 4);
    s.p += 8;
    s.left -= 8;
    if (nbytes > s.left)
      return fail(&s, "truncated: a variable's element of %.0f bytes runs past the end of the file (%.0f left)",
                  (double)nbytes, (double)s.left);
    if (type == MI_COMPRESSED) {
      const unsigned char *in = s.p;
      s.p += nbytes;
      s.left -= nbytes;
#ifdef LA_HAVE_ZLIB
      if (compressed(&s, in, nbytes, &claimed, avail)) return -1;
#else
      (void)in;
#endif
    } else if (type == MI_MATRIX) {
      claimed += nbytes;
      if (avail >= 0 && claimed > avail)
        return fail(&s, "its variables claim %.0f bytes, more than the %.0f bytes of memory available",
                    claimed, avail);
      if (matrix(&s, nbytes, 1)) return -1;
      if (take(&s, NULL, (8 - nbytes % 8) % 8 < s.left ? (8 - nbytes % 8) % 8 : s.left)) return -1;
    } else return fail(&s, "an element of type %u at the top level, not a variable", (unsigned)type);
  }
  return 0;
}

int la_mat_check_file(const char *name, double avail, char *err, size_t errlen)
{
  FILE *f = fopen(name, "rb");
  unsigned char *bytes = NULL;
  long n = -1;
  int rc = -1;
  if (f && !fseek(f, 0, SEEK_END)) n = ftell(f);
  if (n < 0 || fseek(f, 0, SEEK_SET)) snprintf(err, errlen, "cannot open");
  else if (!(bytes = malloc(n ? (size_t)n : 1))) snprintf(err, errlen, "no memory to read its %ld bytes", n);
  else if (fread(bytes, 1, (size_t)n, f) != (size_t)n || fgetc(f) != EOF)
    snprintf(err, errlen, "its size changed while it was read");
  else rc = la_mat_check(bytes, (size_t)n, avail, err, errlen);
  free(bytes);
  if (f) fclose(f);
  return rc;
}
