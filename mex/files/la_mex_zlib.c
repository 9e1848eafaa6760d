/*
 * la_mex_zlib.c -- the byte work of the tensor-file readers and writers.
 *
 *   crc = la_mex('file', 'crc32', bytes [, prev])  CRC-32 of zip and gzip
 *                                      (continuing from prev's bytes)
 *   [z, err] = la_mex('file', 'deflate', bytes)   raw deflate stream (level 6)
 *   [x, err] = la_mex('file', 'inflate', z, cap)  at most cap bytes out
 *   [v, err] = la_mex('file', 'json', bytes, depth)  parse one JSON text
 *   [h, err] = la_mex('file', 'safetensors', header, buffer_bytes)
 *                                  a safetensors header, checked
 *   y = la_mex('file', 'reverse', bytes, shape, esz)  row-major -> column-major
 *   tf = la_mex('file', 'zlib')                   built with zlib?
 *   n = la_mex('file', 'mem_available')           bytes (-1: unknown)
 *   [s, err] = la_mex('file', 'mat', name, avail)  a level-5 MAT-file's
 *                                  variables (la_files_mex.c, la_files_mat.c)
 *   [b, err] = la_mex('file', 'read', name)     a regular file's bytes, from
 *                                  one open descriptor (la_files_io.c)
 *   err = la_mex('file', 'write', name, pieces)  written whole or not at all
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
 *
 * safetensors: the JSON header checked as the safetensors library checks
 * it (entries with an exact dtype, a shape of integers, two integer
 * data_offsets spanning shape x dtype bytes, the entries tiling the
 * buffer in offset order; "__metadata__" an object of strings), returned
 * as a struct of arrays (names, dtype, shape, offsets): one Octave value
 * per tensor name and shape, not one per JSON value, so a header of 200k
 * entries takes seconds, not minutes.
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

/* The parse builds a tree of plain C nodes first (children linked in
 * order); only then are Octave values made, or, for a safetensors
 * header, only the few arrays the reader needs. */
enum { J_NULL, J_FALSE, J_TRUE, J_NUM, J_STR, J_ARR, J_OBJ };

typedef struct {
  int type;
  double num;
  size_t str, len;         /* J_STR: bytes in the text arena */
  size_t key, klen;        /* member of an object: its key, NUL-terminated */
  size_t first, last, next, count;   /* children (index + 1; 0 = none) */
} jnode;

typedef struct {
  jnode *node;
  size_t n, cap;
  char *text;              /* decoded strings and keys */
  size_t tn, tcap;
} jtree;

static void jtree_free(jtree *t)
{
  free(t->node);
  free(t->text);
  memset(t, 0, sizeof *t);
}

static size_t jtree_node(jtree *t, int type)
{
  if (t->n == t->cap) {
    size_t cap = t->cap ? 2 * t->cap : 64;
    jnode *node = realloc(t->node, cap * sizeof *node);
    if (!node) return 0;
    t->node = node;
    t->cap = cap;
  }
  memset(&t->node[t->n], 0, sizeof *t->node);
  t->node[t->n].type = type;
  return ++t->n; /* index + 1 */
}

static char *jtree_room(jtree *t, size_t need)
{
  if (t->tn + need > t->tcap) {
    size_t cap = t->tcap ? 2 * t->tcap : 4096;
    char *text;
    while (cap < t->tn + need) cap *= 2;
    text = realloc(t->text, cap);
    if (!text) return NULL;
    t->text = text;
    t->tcap = cap;
  }
  return t->text + t->tn;
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
  if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
      (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
    return 0;
  return len;
}

static int hex4(const unsigned char *p, const unsigned char *end, unsigned *v)
{
  int i;
  *v = 0;
  if (end - p < 4) return -1;
  for (i = 0; i < 4; i++) {
    int c = p[i], d = c >= '0' && c <= '9'   ? c - '0'
                      : c >= 'a' && c <= 'f' ? c - 'a' + 10
                      : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (d < 0) return -1;
    *v = *v * 16 + (unsigned)d;
  }
  return 0;
}

/* The string at *pp (after its opening quote), decoded into the tree's
 * text arena and NUL-terminated; *at its offset, *len its length (it may
 * hold NULs from \u0000). */
static int json_string(jtree *t, const unsigned char **pp, const unsigned char *end, size_t *at,
                       size_t *len)
{
  const unsigned char *p = *pp, *q;
  char *s, *w;
  for (q = p; q < end && *q != '"'; q++)
    if (*q == '\\' && q + 1 < end) q++;
  if (q >= end) return fail("a string is not closed");
  s = w = jtree_room(t, (size_t)(q - p) + 1);
  if (!s) return fail("out of memory");
  while (p < q) {
    if (*p < 0x20) return fail("a control character in a string");
    if (*p == '\\') {
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
        if (hex4(p + 1, q, &cp)) return fail("a bad escape in a string");
        p += 5;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          unsigned lo;
          if (q - p < 6 || p[0] != '\\' || p[1] != 'u' || hex4(p + 2, q, &lo) || lo < 0xDC00 ||
              lo > 0xDFFF)
            return fail("a bad escape in a string");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          p += 6;
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) return fail("a bad escape in a string");
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
        return fail("a bad escape in a string");
      }
    } else {
      size_t n = utf8_len(p, q);
      if (!n) return fail("a string is not valid UTF-8");
      memcpy(w, p, n);
      w += n;
      p += n;
    }
  }
  *w++ = '\0';
  *at = t->tn;
  *len = (size_t)(w - s) - 1;
  t->tn += (size_t)(w - s);
  *pp = q + 1;
  return 0;
}

static int json_number(const unsigned char **pp, const unsigned char *end, double *v)
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
  *v = strtod(buf, NULL);
  *pp = p;
  return 0;
}

static const unsigned char *skip_ws(const unsigned char *p, const unsigned char *end)
{
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
  return p;
}

/* `"key" :` at *pp, kept for the next value of the object */
static int json_key(jtree *t, const unsigned char **pp, const unsigned char *end, size_t *key,
                    size_t *klen)
{
  const unsigned char *p = *pp;
  if (p >= end || *p != '"') return fail("an object key is not a string");
  p++;
  if (json_string(t, &p, end, key, klen)) return -1;
  if (strlen(t->text + *key) != *klen) return fail("a key holds a NUL character");
  p = skip_ws(p, end);
  if (p >= end || *p != ':') return fail("no ':' after a key");
  *pp = p + 1;
  return 0;
}

static const jtree *sort_tree; /* for key_cmp (qsort has no context) */

static int key_cmp(const void *a, const void *b)
{
  const jnode *x = &sort_tree->node[*(const size_t *)a - 1], *y = &sort_tree->node[*(const size_t *)b - 1];
  return strcmp(sort_tree->text + x->key, sort_tree->text + y->key);
}

/* an object's keys must differ */
static int check_keys(const jtree *t, size_t obj)
{
  const jnode *o = &t->node[obj - 1];
  size_t *kid = malloc((o->count + 1) * sizeof *kid), k, i = 0;
  if (!kid) return fail("out of memory");
  for (k = o->first; k; k = t->node[k - 1].next) kid[i++] = k;
  sort_tree = t;
  qsort(kid, o->count, sizeof *kid, key_cmp);
  for (i = 1; i < o->count; i++)
    if (!key_cmp(&kid[i], &kid[i - 1])) {
      fail("duplicate key \"%.60s\"", t->text + t->node[kid[i] - 1].key);
      free(kid);
      return -1;
    }
  free(kid);
  return 0;
}

/* Parse text into t; the root is node 1.  Iterative: the stack holds the
 * open containers, at most max_depth. */
static int json_parse(jtree *t, const unsigned char *text, size_t n, int max_depth)
{
  const unsigned char *p = text, *end = text + n;
  size_t *stack = malloc(((size_t)max_depth + 1) * sizeof *stack), key = 0, klen = 0;
  int depth = 0, rc = 0;
  memset(t, 0, sizeof *t);
  if (!stack) return fail("out of memory");
  for (;;) {
    /* a value is expected here (after '[', ',', ':' or at the start) */
    size_t v;
    int closed = 0;
    p = skip_ws(p, end);
    if (p >= end) { rc = fail("the text ends where a value is expected"); break; }
    if (*p == '{' || *p == '[') {
      if (depth == max_depth) { rc = fail("nested deeper than %d levels", max_depth); break; }
      v = jtree_node(t, *p == '{' ? J_OBJ : J_ARR);
    } else if (*p == '"') {
      v = jtree_node(t, J_STR);
    } else if (*p == '-' || (*p >= '0' && *p <= '9')) {
      v = jtree_node(t, J_NUM);
    } else if (end - p >= 4 && !memcmp(p, "true", 4)) {
      v = jtree_node(t, J_TRUE); p += 4;
    } else if (end - p >= 5 && !memcmp(p, "false", 5)) {
      v = jtree_node(t, J_FALSE); p += 5;
    } else if (end - p >= 4 && !memcmp(p, "null", 4)) {
      v = jtree_node(t, J_NULL); p += 4;
    } else {
      rc = fail("an unexpected character '%c' at byte %td", *p >= 0x20 && *p < 0x7F ? *p : '?', p - text);
      break;
    }
    if (!v) { rc = fail("out of memory"); break; }
    /* link v into its container, with the key read for it */
    if (depth > 0) {
      jnode *c = &t->node[stack[depth - 1] - 1];
      if (c->last) t->node[c->last - 1].next = v;
      else c->first = v;
      c->last = v;
      c->count++;
      t->node[v - 1].key = key;
      t->node[v - 1].klen = klen;
    }
    if (t->node[v - 1].type == J_STR) {
      size_t at, len;
      p++;
      if ((rc = json_string(t, &p, end, &at, &len))) break;
      t->node[v - 1].str = at;
      t->node[v - 1].len = len;
    } else if (t->node[v - 1].type == J_NUM) {
      if ((rc = json_number(&p, end, &t->node[v - 1].num))) break;
    } else if (t->node[v - 1].type >= J_ARR) {
      const int obj = t->node[v - 1].type == J_OBJ;
      stack[depth++] = v;
      p = skip_ws(p + 1, end);
      if (p < end && *p == (obj ? '}' : ']')) {
        p++;
        depth--;
        closed = 1;
      } else if (obj) {
        if ((rc = json_key(t, &p, end, &key, &klen))) break;
        continue;
      } else continue;
    }
    (void)closed;
    /* after a complete value: ',' for the next, or close containers */
    for (;;) {
      jnode *c;
      if (depth == 0) break;
      c = &t->node[stack[depth - 1] - 1];
      p = skip_ws(p, end);
      if (p < end && *p == ',') {
        p = skip_ws(p + 1, end);
        if (c->type == J_OBJ && (rc = json_key(t, &p, end, &key, &klen))) break;
        break;
      }
      if (p < end && *p == (c->type == J_OBJ ? '}' : ']')) {
        p++;
        if (c->type == J_OBJ && (rc = check_keys(t, stack[depth - 1]))) break;
        depth--;
        continue;
      }
      rc = fail("a '%c' is missing at byte %td", c->type == J_OBJ ? '}' : ']', p - text);
      break;
    }
    if (rc || depth == 0) break;
  }
  free(stack);
  if (!rc && skip_ws(p, end) != end)
    rc = fail("text after the JSON value at byte %td", skip_ws(p, end) - text);
  if (rc) jtree_free(t);
  return rc;
}

/* the Octave value of node i (depth bounded by the parse: recursion is safe) */
static mxArray *json_value(const jtree *t, size_t i)
{
  const jnode *x = &t->node[i - 1];
  size_t k, j = 0;
  mxArray *v;
  switch (x->type) {
  case J_NULL: return mxCreateDoubleMatrix(0, 0, mxREAL);
  case J_FALSE: return mxCreateLogicalScalar(0);
  case J_TRUE: return mxCreateLogicalScalar(1);
  case J_NUM: return mxCreateDoubleScalar(x->num);
  case J_STR: {
    mwSize d[2];
    mxChar *c;
    d[0] = 1; d[1] = x->len;
    v = mxCreateCharArray(2, d);
    c = mxGetChars(v);  /* Octave's mxChar is one byte: the UTF-8 bytes as they are */
    for (k = 0; k < x->len; k++) c[k] = (mxChar)(unsigned char)t->text[x->str + k];
    return v;
  }
  case J_ARR:
    v = mxCreateCellMatrix(1, x->count);
    for (k = x->first; k; k = t->node[k - 1].next) mxSetCell(v, j++, json_value(t, k));
    return v;
  default: {
    const char **names = malloc((x->count + 1) * sizeof *names);
    if (!names) mexErrMsgIdAndTxt("kda:outOfMemory", "la_mex: out of memory");
    for (k = x->first; k; k = t->node[k - 1].next) names[j++] = t->text + t->node[k - 1].key;
    v = mxCreateStructMatrix(1, 1, (int)x->count, names);
    free(names);
    j = 0;
    for (k = x->first; k; k = t->node[k - 1].next) mxSetFieldByNumber(v, 0, (int)j++, json_value(t, k));
    return v;
  }
  }
}

/* ---- safetensors header ------------------------------------------------ */

/* The dtypes in the order of la_safetensors_decode's table, with sizes. */
static const char *const st_dtype[] = {"F16", "BF16", "F32", "F64", "I8", "U8", "I16",
                                       "U16", "I32", "U32", "I64", "U64", "BOOL"};
static const int st_size[] = {2, 2, 4, 8, 1, 1, 2, 2, 4, 4, 8, 8, 1};

static int is_count(const jnode *x) { return x->type == J_NUM && x->num >= 0 && x->num < 9007199254740992.0 && x->num == (double)(int64_t)x->num; }

static const jnode *member(const jtree *t, const jnode *obj, const char *key)
{
  size_t k;
  for (k = obj->first; k; k = t->node[k - 1].next)
    if (!strcmp(t->text + t->node[k - 1].key, key)) return &t->node[k - 1];
  return NULL;
}

typedef struct { double begin, end; size_t i; } span;

static int span_cmp(const void *a, const void *b)
{
  const span *x = a, *y = b;
  return x->begin < y->begin ? -1 : x->begin > y->begin ? 1 : x->end < y->end ? -1 : x->end > y->end;
}

/* The header of a safetensors file, checked as the safetensors library
 * checks it; out: a struct of flat arrays, in header order (few Octave
 * values, however many tensors): name (1 x bytes uint8, the names one
 * after another) and name_len (n x 1), dtype (n x 1, 1-based in st_dtype),
 * ndims (n x 1) and dims (1 x sum (ndims)), offsets (n x 2). */
static int safetensors_header(const jtree *t, double buffer_bytes, mxArray **out)
{
  static const char *fields[] = {"name", "name_len", "dtype", "ndims", "dims", "offsets"};
  const jnode *root = &t->node[0], *meta;
  size_t k, n = 0, i = 0, nbytes = 0, ndims = 0, at = 0, m = 0;
  span *sp;
  mxArray *a[6];
  double pos = 0;
  if (root->type != J_OBJ) return fail("not a JSON object");
  meta = member(t, root, "__metadata__");
  if (meta) {
    if (meta->type != J_OBJ) return fail("__metadata__ is not an object of strings");
    for (k = meta->first; k; k = t->node[k - 1].next)
      if (t->node[k - 1].type != J_STR) return fail("__metadata__ is not an object of strings");
  }
  for (k = root->first; k; k = t->node[k - 1].next) {
    const jnode *e = &t->node[k - 1], *sh;
    if (e == meta) continue;
    n++;
    nbytes += e->klen;
    if (e->type == J_OBJ && (sh = member(t, e, "shape")) && sh->type == J_ARR) ndims += sh->count;
  }
  sp = malloc((n + 1) * sizeof *sp);
  if (!sp) return fail("out of memory");
  a[0] = mxCreateNumericMatrix(1, nbytes, mxUINT8_CLASS, mxREAL);
  a[1] = mxCreateDoubleMatrix(n, 1, mxREAL);
  a[2] = mxCreateDoubleMatrix(n, 1, mxREAL);
  a[3] = mxCreateDoubleMatrix(n, 1, mxREAL);
  a[4] = mxCreateDoubleMatrix(1, ndims, mxREAL);
  a[5] = mxCreateDoubleMatrix(n, 2, mxREAL);
  for (k = root->first; k; k = t->node[k - 1].next) {
    const jnode *e = &t->node[k - 1], *dt, *sh, *off, *d;
    const char *name = t->text + e->key;
    double count = 1;
    int j, type = -1;
    if (e == meta) continue;
    if (e->type != J_OBJ || !(dt = member(t, e, "dtype")) || !(sh = member(t, e, "shape")) ||
        !(off = member(t, e, "data_offsets"))) {
      fail("entry \"%.60s\" lacks dtype, shape or data_offsets", name);
      goto bad;
    }
    if (dt->type == J_STR)
      for (j = 0; j < (int)(sizeof st_size / sizeof *st_size); j++)
        if (!strcmp(t->text + dt->str, st_dtype[j]) && strlen(st_dtype[j]) == dt->len) type = j;
    if (type < 0) {
      fail("entry \"%.60s\": dtype %s%.20s%s is not supported (F16, BF16, F32, F64, I8, U8, I16, "
           "U16, I32, U32, I64, U64, BOOL)", name, dt->type == J_STR ? "\"" : "",
           dt->type == J_STR ? t->text + dt->str : "(not a string)", dt->type == J_STR ? "\"" : "");
      goto bad;
    }
    if (sh->type != J_ARR) { fail("entry \"%.60s\": shape is not a list of integers", name); goto bad; }
    for (d = sh->first ? &t->node[sh->first - 1] : NULL; d; d = d->next ? &t->node[d->next - 1] : NULL) {
      if (!is_count(d)) { fail("entry \"%.60s\": shape is not a list of integers", name); goto bad; }
      mxGetPr(a[4])[m++] = d->num;
      count *= d->num;
    }
    if (off->type != J_ARR || off->count != 2 || !is_count(&t->node[off->first - 1]) ||
        !is_count(&t->node[off->last - 1])) {
      fail("entry \"%.60s\": data_offsets is not two integers", name);
      goto bad;
    }
    sp[i].begin = t->node[off->first - 1].num;
    sp[i].end = t->node[off->last - 1].num;
    sp[i].i = k;
    if (sp[i].end < sp[i].begin || sp[i].end - sp[i].begin != count * st_size[type]) {
      fail("entry \"%.60s\": data_offsets [%.0f, %.0f] hold %.0f bytes, shape and dtype need %.0f",
           name, sp[i].begin, sp[i].end, sp[i].end - sp[i].begin, count * st_size[type]);
      goto bad;
    }
    memcpy((char *)mxGetData(a[0]) + at, name, e->klen);
    at += e->klen;
    mxGetPr(a[1])[i] = (double)e->klen;
    mxGetPr(a[2])[i] = type + 1;
    mxGetPr(a[3])[i] = (double)sh->count;
    mxGetPr(a[5])[i] = sp[i].begin;
    mxGetPr(a[5])[i + n] = sp[i].end;
    i++;
  }
  /* in offset order the tensors tile the buffer: no gap, no overlap */
  qsort(sp, n, sizeof *sp, span_cmp);
  for (i = 0; i < n; i++) {
    const char *name = t->text + t->node[sp[i].i - 1].key;
    if (sp[i].begin != pos) {
      fail("entry \"%.60s\": data_offsets [%.0f, %.0f] %s", name, sp[i].begin, sp[i].end,
           sp[i].begin < pos ? "overlap another tensor" : "leave a gap before them");
      goto bad;
    }
    if (sp[i].end > buffer_bytes) {
      fail("entry \"%.60s\": data_offsets [%.0f, %.0f] outside the %.0f-byte buffer", name,
           sp[i].begin, sp[i].end, buffer_bytes);
      goto bad;
    }
    pos = sp[i].end;
  }
  if (pos != buffer_bytes) {
    fail("the tensors end at byte %.0f of the %.0f-byte buffer", pos, buffer_bytes);
    goto bad;
  }
  free(sp);
  *out = mxCreateStructMatrix(1, 1, 6, fields);
  for (i = 0; i < 6; i++) mxSetFieldByNumber(*out, 0, (int)i, a[i]);
  return 0;
bad:
  free(sp);
  for (i = 0; i < 6; i++) mxDestroyArray(a[i]);
  return -1;
}

/* ---- axis reversal ------------------------------------------------------ */

/* in: a row-major array of shape s[0..n-1] (s[n-1] fastest), elements of
 * esz bytes; out: the same array column-major (s[0] fastest), i.e. the
 * axes reversed.  For each index of the middle axes, a tiled transpose of
 * the first axis against the last, so that reads and writes stay in
 * cache whatever the shape. */
static void reverse_axes(const unsigned char *in, unsigned char *out, const size_t *s, int n, size_t esz)
{
  size_t A = s[0], C = n > 1 ? s[n - 1] : 1, M = 1, mid_in = 0, mid_out = 0, m, idx[64] = {0};
  int k;
  if (n > 0 && s[0] == 1) { reverse_axes(in, out, s + 1, n - 1, esz); return; } /* a unit axis moves nothing */
  if (n > 0 && s[n - 1] == 1) { reverse_axes(in, out, s, n - 1, esz); return; }
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
        reverse_axes(in + i * sub * esz, tmp, s + 1, n - 1, esz);
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
  if (!strcmp(op, "mat")) {
    la_mex_file_mat(nlhs, plhs, nrhs, prhs);
    return;
  }
  if (!strcmp(op, "read")) {
    la_mex_file_read(nlhs, plhs, nrhs, prhs);
    return;
  }
  if (!strcmp(op, "write")) {
    la_mex_file_write(nlhs, plhs, nrhs, prhs);
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
  if (!strcmp(op, "reverse")) {
    size_t shape[64], total = 1;
    const double esz = nrhs > 4 ? mxGetScalar(prhs[4]) : 0;
    int k, nd = nrhs > 3 ? (int)mxGetNumberOfElements(prhs[3]) : -1;
    if (nd < 1 || nd > 64 || !mxIsDouble(prhs[3]) || !(esz == 1 || esz == 2 || esz == 4 || esz == 8))
      mexErrMsgIdAndTxt("kda:internal", "la_mex: 'reverse' takes bytes, a shape of 1 to 64 axes, 1, 2, 4 or 8");
    for (k = 0; k < nd; k++) {
      shape[k] = (size_t)mxGetPr(prhs[3])[k];
      total *= shape[k];
    }
    if (total * (size_t)esz != n)
      mexErrMsgIdAndTxt("kda:internal", "la_mex: 'reverse': the shape does not match the bytes");
    plhs[0] = uint8_row(n);
    if (n) reverse_axes(in, (unsigned char *)mxGetData(plhs[0]), shape, nd, (size_t)esz);
    return;
  }
  if (!strcmp(op, "json") || !strcmp(op, "safetensors")) {
    const double arg = nrhs > 3 ? mxGetScalar(prhs[3]) : 0;
    jtree t;
    rc = json_parse(&t, in, n, op[0] == 'j' && arg >= 1 && arg <= 1000 ? (int)arg : 64);
    if (!rc) {
      if (op[0] == 'j') out = json_value(&t, 1);
      else rc = safetensors_header(&t, arg, &out);
      jtree_free(&t);
    }
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
