/*
 * la_files_safetensors.c -- a safetensors header, checked as the
 * safetensors library checks it: entries with an exact dtype, a shape of
 * integers, two integer data_offsets spanning shape x dtype bytes, the
 * entries tiling the buffer in offset order; "__metadata__" an object of
 * strings.  Returned as a struct of arrays (names, dtype, shape, offsets):
 * one Octave value per tensor name and shape, not one per JSON value, so
 * a header of 200k entries takes seconds, not minutes.
 */
#include "la_files_safetensors.h"
#include "la_files_mex.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
int la_safetensors_header(const jtree *t, double buffer_bytes, mxArray **out)
{
  static const char *fields[] = {"name", "name_len", "dtype", "ndims", "dims", "offsets"};
  const jnode *root = &t->node[0], *meta;
  size_t k, n = 0, i = 0, nbytes = 0, ndims = 0, at = 0, m = 0;
  span *sp;
  mxArray *a[6];
  double pos = 0;
  if (root->type != J_OBJ) return la_files_fail("not a JSON object");
  meta = member(t, root, "__metadata__");
  if (meta) {
    if (meta->type != J_OBJ) return la_files_fail("__metadata__ is not an object of strings");
    for (k = meta->first; k; k = t->node[k - 1].next)
      if (t->node[k - 1].type != J_STR) return la_files_fail("__metadata__ is not an object of strings");
  }
  for (k = root->first; k; k = t->node[k - 1].next) {
    const jnode *e = &t->node[k - 1], *sh;
    if (e == meta) continue;
    n++;
    nbytes += e->klen;
    if (e->type == J_OBJ && (sh = member(t, e, "shape")) && sh->type == J_ARR) ndims += sh->count;
  }
  sp = malloc((n + 1) * sizeof *sp);
  if (!sp) return la_files_fail("out of memory");
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
      la_files_fail("entry \"%.60s\" lacks dtype, shape or data_offsets", name);
      goto bad;
    }
    if (dt->type == J_STR)
      for (j = 0; j < (int)(sizeof st_size / sizeof *st_size); j++)
        if (!strcmp(t->text + dt->str, st_dtype[j]) && strlen(st_dtype[j]) == dt->len) type = j;
    if (type < 0) {
      la_files_fail("entry \"%.60s\": dtype %s%.20s%s is not supported (F16, BF16, F32, F64, I8, U8, I16, "
           "U16, I32, U32, I64, U64, BOOL)", name, dt->type == J_STR ? "\"" : "",
           dt->type == J_STR ? t->text + dt->str : "(not a string)", dt->type == J_STR ? "\"" : "");
      goto bad;
    }
    if (sh->type != J_ARR) { la_files_fail("entry \"%.60s\": shape is not a list of integers", name); goto bad; }
    for (d = sh->first ? &t->node[sh->first - 1] : NULL; d; d = d->next ? &t->node[d->next - 1] : NULL) {
      if (!is_count(d)) { la_files_fail("entry \"%.60s\": shape is not a list of integers", name); goto bad; }
      mxGetPr(a[4])[m++] = d->num;
      count *= d->num;
    }
    if (off->type != J_ARR || off->count != 2 || !is_count(&t->node[off->first - 1]) ||
        !is_count(&t->node[off->last - 1])) {
      la_files_fail("entry \"%.60s\": data_offsets is not two integers", name);
      goto bad;
    }
    sp[i].begin = t->node[off->first - 1].num;
    sp[i].end = t->node[off->last - 1].num;
    sp[i].i = k;
    if (sp[i].end < sp[i].begin || sp[i].end - sp[i].begin != count * st_size[type]) {
      la_files_fail("entry \"%.60s\": data_offsets [%.0f, %.0f] hold %.0f bytes, shape and dtype need %.0f",
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
      la_files_fail("entry \"%.60s\": data_offsets [%.0f, %.0f] %s", name, sp[i].begin, sp[i].end,
           sp[i].begin < pos ? "overlap another tensor" : "leave a gap before them");
      goto bad;
    }
    if (sp[i].end > buffer_bytes) {
      la_files_fail("entry \"%.60s\": data_offsets [%.0f, %.0f] outside the %.0f-byte buffer", name,
           sp[i].begin, sp[i].end, buffer_bytes);
      goto bad;
    }
    pos = sp[i].end;
  }
  if (pos != buffer_bytes) {
    la_files_fail("the tensors end at byte %.0f of the %.0f-byte buffer", pos, buffer_bytes);
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
