/*
 * la_json.c -- a bounded JSON parser for meta.json and safetensors headers.
 *
 * Values: objects become 1 x 1 structs whose field names are the keys
 * exactly as written (any string: Octave takes it as a dynamic field
 * name), arrays 1 x n cells, numbers doubles, strings char rows (UTF-8
 * bytes), true / false logical scalars, null a 0 x 0 double.  Iterative,
 * with nesting at most `depth`; a duplicate key, a NUL in a key, invalid
 * UTF-8, a control character in a string, a malformed literal or number,
 * or anything after the value is an error.
 */
#include "la_json.h"
#include "la_files_mex.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void la_json_free(jtree *t)
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
  if (q >= end) return la_files_fail("a string is not closed");
  s = w = jtree_room(t, (size_t)(q - p) + 1);
  if (!s) return la_files_fail("out of memory");
  while (p < q) {
    if (*p < 0x20) return la_files_fail("a control character in a string");
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
        if (hex4(p + 1, q, &cp)) return la_files_fail("a bad escape in a string");
        p += 5;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          unsigned lo;
          if (q - p < 6 || p[0] != '\\' || p[1] != 'u' || hex4(p + 2, q, &lo) || lo < 0xDC00 ||
              lo > 0xDFFF)
            return la_files_fail("a bad escape in a string");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          p += 6;
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) return la_files_fail("a bad escape in a string");
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
        return la_files_fail("a bad escape in a string");
      }
    } else {
      size_t n = utf8_len(p, q);
      if (!n) return la_files_fail("a string is not valid UTF-8");
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
  else return la_files_fail("a malformed number");
  if (p < end && *p == '.') {
    p++;
    if (!(p < end && *p >= '0' && *p <= '9')) return la_files_fail("a malformed number");
    while (p < end && *p >= '0' && *p <= '9') p++;
  }
  if (p < end && (*p == 'e' || *p == 'E')) {
    p++;
    if (p < end && (*p == '+' || *p == '-')) p++;
    if (!(p < end && *p >= '0' && *p <= '9')) return la_files_fail("a malformed number");
    while (p < end && *p >= '0' && *p <= '9') p++;
  }
  if ((size_t)(p - *pp) >= sizeof buf) return la_files_fail("a number of more than %zu characters", sizeof buf - 1);
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
  if (p >= end || *p != '"') return la_files_fail("an object key is not a string");
  p++;
  if (json_string(t, &p, end, key, klen)) return -1;
  if (strlen(t->text + *key) != *klen) return la_files_fail("a key holds a NUL character");
  p = skip_ws(p, end);
  if (p >= end || *p != ':') return la_files_fail("no ':' after a key");
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
  if (!kid) return la_files_fail("out of memory");
  for (k = o->first; k; k = t->node[k - 1].next) kid[i++] = k;
  sort_tree = t;
  qsort(kid, o->count, sizeof *kid, key_cmp);
  for (i = 1; i < o->count; i++)
    if (!key_cmp(&kid[i], &kid[i - 1])) {
      la_files_fail("duplicate key \"%.60s\"", t->text + t->node[kid[i] - 1].key);
      free(kid);
      return -1;
    }
  free(kid);
  return 0;
}

/* Parse text into t; the root is node 1.  Iterative: the stack holds the
 * open containers, at most max_depth. */
int la_json_parse(jtree *t, const unsigned char *text, size_t n, int max_depth)
{
  const unsigned char *p = text, *end = text + n;
  size_t *stack = malloc(((size_t)max_depth + 1) * sizeof *stack), key = 0, klen = 0;
  int depth = 0, rc = 0;
  memset(t, 0, sizeof *t);
  if (!stack) return la_files_fail("out of memory");
  for (;;) {
    /* a value is expected here (after '[', ',', ':' or at the start) */
    size_t v;
    int closed = 0;
    p = skip_ws(p, end);
    if (p >= end) { rc = la_files_fail("the text ends where a value is expected"); break; }
    if (*p == '{' || *p == '[') {
      if (depth == max_depth) { rc = la_files_fail("nested deeper than %d levels", max_depth); break; }
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
      rc = la_files_fail("an unexpected character '%c' at byte %td", *p >= 0x20 && *p < 0x7F ? *p : '?', p - text);
      break;
    }
    if (!v) { rc = la_files_fail("out of memory"); break; }
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
      rc = la_files_fail("a '%c' is missing at byte %td", c->type == J_OBJ ? '}' : ']', p - text);
      break;
    }
    if (rc || depth == 0) break;
  }
  free(stack);
  if (!rc && skip_ws(p, end) != end)
    rc = la_files_fail("text after the JSON value at byte %td", skip_ws(p, end) - text);
  if (rc) la_json_free(t);
  return rc;
}

/* the Octave value of node i (depth bounded by the parse: recursion is safe) */
mxArray *la_json_value(const jtree *t, size_t i)
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
    for (k = x->first; k; k = t->node[k - 1].next) mxSetCell(v, j++, la_json_value(t, k));
    return v;
  default: {
    const char **names = malloc((x->count + 1) * sizeof *names);
    if (!names) mexErrMsgIdAndTxt("kda:outOfMemory", "la_mex: out of memory");
    for (k = x->first; k; k = t->node[k - 1].next) names[j++] = t->text + t->node[k - 1].key;
    v = mxCreateStructMatrix(1, 1, (int)x->count, names);
    free(names);
    j = 0;
    for (k = x->first; k; k = t->node[k - 1].next) mxSetFieldByNumber(v, 0, (int)j++, la_json_value(t, k));
    return v;
  }
  }
}
