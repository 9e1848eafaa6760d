/*
 * la_files_mex.c -- la_mex ('file', ...): the MEX side of the tensor-file
 * module.
 *
 *   crc = la_mex('file', 'crc32', bytes [, prev])  CRC-32 of zip and gzip
 *                                      (continuing from prev's bytes)
 *   [z, err] = la_mex('file', 'deflate', bytes)   raw deflate stream (level 6)
 *   [x, err] = la_mex('file', 'inflate', z, cap)  at most cap bytes out
 *                                  (la_files_zlib.c)
 *   [v, err] = la_mex('file', 'json', bytes, depth)  parse one JSON text
 *                                  (la_json.c)
 *   [h, err] = la_mex('file', 'safetensors', header, buffer_bytes)
 *                                  a safetensors header, checked
 *                                  (la_files_safetensors.c)
 *   y = la_mex('file', 'reverse', bytes, shape, esz)  row-major -> column-major
 *                                  (la_files_axes.c)
 *   x = la_mex('file', 'bf16', bytes)  bfloat16 values (host byte order)
 *                                  as a single column, exactly
 *   tf = la_mex('file', 'zlib')                   built with zlib?
 *   n = la_mex('file', 'mem_available')           bytes (-1: unknown)
 *   [b, err] = la_mex('file', 'read', name)       a regular file's bytes,
 *                                  from one open descriptor (la_files_io.c)
 *   [s, err] = la_mex('file', 'mat', name, avail) a level-5 MAT-file's
 *                                  variables, a struct (la_files_mat.c)
 *   err = la_mex('file', 'write', name, pieces)   uint8 rows (a cell of
 *                       them) written as the file, whole or not at all
 *
 * bytes are uint8 rows.  err is '' on success, else the reason (the .m
 * caller raises la:badFile naming the file), so nothing here throws on a
 * hostile file.  Ctrl-C while reading or writing raises la:interrupted
 * here (polled between 1 MiB steps), with nothing returned.
 */
#include "la_files_mex.h"
#include "la_files_axes.h"
#include "la_files_io.h"
#include "la_files_mat.h"
#include "la_files_safetensors.h"
#include "la_files_zlib.h"
#include "la_json.h"
#include "../gateway/la_mex_base.h"
#include "../gateway/la_mex_intr.h"
#include "../core/la_core.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char la_files_err[256];

int la_files_fail(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(la_files_err, sizeof la_files_err, fmt, ap);
  va_end(ap);
  return -1;
}

const unsigned char *la_files_bytes(const mxArray *a, size_t *n)
{
  if (!mxIsUint8(a) || mxIsComplex(a))
    mexErrMsgIdAndTxt("kda:internal", "la_mex: 'file' takes uint8 bytes");
  *n = mxGetNumberOfElements(a);
  return (const unsigned char *)mxGetData(a);
}

mxArray *la_files_row(size_t n)
{
  return mxCreateUninitNumericMatrix(1, n, mxUINT8_CLASS, mxREAL);
}

static char read_err[320];

/* la:interrupted, its message starting with the public function's name
 * (la_fail: mexErrMsgIdAndTxt would put "la_mex: " first) */
static void interrupted(const char *fname, const char *name, const char *what)
{
  const la_call c = {.fname = fname, .op = "la"};
  la_mex_interrupt_consume();
  la_fail(&c, "interrupted", "%s: interrupted (Ctrl-C) %s", name, what);
}

static char *name_arg(int nrhs, const mxArray *prhs[])
{
  char *name = nrhs > 2 && mxIsChar(prhs[2]) ? mxArrayToString(prhs[2]) : NULL;
  if (!name) mexErrMsgIdAndTxt("kda:internal", "la_mex: 'file' 'read' and 'mat' need a file name");
  return name;
}

/* the outputs: value (or []) and the reason ('' when none) */
static void answer(int nlhs, mxArray *plhs[], mxArray *value, int rc)
{
  if (rc && nlhs < 2) mexErrMsgIdAndTxt("la:badFile", "la_mex: %s", read_err);
  plhs[0] = value ? value : mxCreateDoubleMatrix(0, 0, mxREAL);
  if (nlhs > 1) plhs[1] = mxCreateString(rc ? read_err : "");
}

static int too_big(double bytes, double avail)
{
  if (avail >= 0 && bytes > avail) {
    snprintf(read_err, sizeof read_err, "a file of %.0f bytes, more than the %.0f bytes of memory available",
             bytes, avail);
    return 1;
  }
  return 0;
}

static void file_read(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  char *name = name_arg(nrhs, prhs);
  mxArray *out = NULL;
  size_t size = 0;
  int fd = -1, rc;
  read_err[0] = '\0';
  rc = la_file_open(name, &fd, &size, read_err, sizeof read_err);
  if (!rc && too_big((double)size, (double)la_mem_available())) rc = LA_FILE_BAD;
  if (!rc) {
    out = mxCreateUninitNumericMatrix(1, size, mxUINT8_CLASS, mxREAL);
    rc = la_file_read(fd, mxGetData(out), size, 1, la_mex_interrupted, NULL, read_err, sizeof read_err);
  }
  la_file_close(fd);
  if (rc && out) mxDestroyArray(out), out = NULL;
  if (rc == LA_FILE_INTR) interrupted("la_load", name, "while reading; nothing was returned");
  mxFree(name);
  answer(nlhs, plhs, out, rc);
}

static void file_write(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  char *name = name_arg(nrhs, prhs);
  const mxArray *c = nrhs > 3 ? prhs[3] : NULL;
  const size_t n = c && mxIsCell(c) ? mxGetNumberOfElements(c) : 1;
  const void **piece = mxMalloc((n ? n : 1) * sizeof *piece);
  size_t *len = mxMalloc((n ? n : 1) * sizeof *len), i;
  int rc;
  (void)nlhs;
  for (i = 0; i < n; i++) {
    const mxArray *a = c && mxIsCell(c) ? mxGetCell(c, i) : c;
    if (!a || !mxIsUint8(a) || mxIsComplex(a))
      mexErrMsgIdAndTxt("kda:internal", "la_mex: 'write' takes a file name and uint8 rows (a cell of them)");
    piece[i] = mxGetData(a);
    len[i] = mxGetNumberOfElements(a);
  }
  read_err[0] = '\0';
  rc = la_file_write(name, piece, len, n, la_mex_interrupted, NULL, read_err, sizeof read_err);
  mxFree(piece);
  mxFree(len);
  if (rc == LA_FILE_INTR) interrupted("la_save", name, "while writing; the file was left as it was");
  mxFree(name);
  plhs[0] = mxCreateString(rc ? read_err : "");
}

/* ---- .mat ---------------------------------------------------------------- */

typedef struct {
  mxArray **arr;     /* one per variable read so far */
  char **names;
  uint16_t **text;   /* a char array's code units, until it is made */
  size_t n;
} mat_out;

static int mat_alloc(void *ctx, const la_mat_var *v, void **re, void **im)
{
  static const mxClassID id[16] = {mxUNKNOWN_CLASS, mxUNKNOWN_CLASS, mxUNKNOWN_CLASS, mxUNKNOWN_CLASS,
                                   mxCHAR_CLASS, mxUNKNOWN_CLASS, mxDOUBLE_CLASS, mxSINGLE_CLASS,
                                   mxINT8_CLASS, mxUINT8_CLASS, mxINT16_CLASS, mxUINT16_CLASS,
                                   mxINT32_CLASS, mxUINT32_CLASS, mxINT64_CLASS, mxUINT64_CLASS};
  mat_out *o = ctx;
  mwSize dims[LA_MAT_MAX_DIMS];
  mxArray *a;
  int k;
  for (k = 0; k < v->ndims; k++) dims[k] = (mwSize)v->dims[k];
  if (!(o->names[o->n] = malloc(strlen(v->name) + 1))) return -1;
  strcpy(o->names[o->n], v->name);
  o->text[o->n] = NULL;
  if (v->cls == LA_MAT_CHAR) {
    if (!(o->text[o->n] = malloc(v->count ? v->count * sizeof(uint16_t) : 1))) return free(o->names[o->n]), -1;
    a = mxCreateCharArray(v->ndims, dims);
    *re = o->text[o->n];
  } else if (v->logical) {
    a = mxCreateLogicalArray(v->ndims, dims);
    *re = mxGetData(a);
  } else {
    a = mxCreateUninitNumericArray(v->ndims, dims, id[v->cls], v->complex ? mxCOMPLEX : mxREAL);
    *re = mxGetData(a);
    if (im) *im = mxGetImagData(a);
  }
  o->arr[o->n++] = a;
  return 0;
}

static void mat_free(mat_out *o, int arrays)
{
  size_t i;
  for (i = 0; i < o->n; i++) {
    if (arrays) mxDestroyArray(o->arr[i]);
    free(o->names[i]);
    free(o->text[i]);
  }
  free(o->arr);
  free(o->names);
  free(o->text);
}

static void file_mat(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  char *name = name_arg(nrhs, prhs);
  const double avail = nrhs > 3 ? mxGetScalar(prhs[3]) : -1;
  unsigned char head[512], *bytes = NULL;
  size_t size = 0, nhead;
  mat_out o = {NULL, NULL, NULL, 0};
  la_mat_sink sink;
  mxArray *s = NULL;
  int fd = -1, rc;
  read_err[0] = '\0';
  rc = la_file_open(name, &fd, &size, read_err, sizeof read_err);
  nhead = size < sizeof head ? size : sizeof head;
  /* what the file is, from its first bytes: a v7.3 or other file is never read whole */
  if (!rc) rc = la_file_read(fd, head, nhead, 0, la_mex_interrupted, NULL, read_err, sizeof read_err);
  if (!rc) rc = la_mat_header(head, nhead, size, read_err, sizeof read_err);
  if (!rc && too_big((double)size, avail)) rc = LA_FILE_BAD;
  if (!rc && !(bytes = malloc(size))) rc = LA_MAT_NOMEM;
  if (!rc) {
    memcpy(bytes, head, nhead);
    rc = la_file_read(fd, bytes + nhead, size - nhead, 1, la_mex_interrupted, NULL, read_err, sizeof read_err);
  }
  la_file_close(fd);
  if (!rc) {
    o.arr = malloc(LA_MAT_MAX_VARS * sizeof *o.arr);
    o.names = malloc(LA_MAT_MAX_VARS * sizeof *o.names);
    o.text = malloc(LA_MAT_MAX_VARS * sizeof *o.text);
    if (!o.arr || !o.names || !o.text) rc = LA_MAT_NOMEM;
  }
  if (!rc) {
    sink.alloc = mat_alloc;
    sink.intr = la_mex_interrupted;
    sink.ctx = &o;
    sink.avail = avail < 0 ? -1 : avail - (double)size; /* the file's bytes are held meanwhile */
    rc = la_mat_read(bytes, size, &sink, read_err, sizeof read_err);
  }
  free(bytes);
  if (!rc) {
    size_t i, k;
    s = mxCreateStructMatrix(1, 1, (int)o.n, (const char **)o.names);
    for (i = 0; i < o.n; i++) {
      if (o.text[i]) { /* ASCII code units (checked) into the host's characters */
        mxChar *c = mxGetChars(o.arr[i]);
        const size_t m = mxGetNumberOfElements(o.arr[i]);
        for (k = 0; k < m; k++) c[k] = (mxChar)o.text[i][k];
      }
      mxSetFieldByNumber(s, 0, (int)i, o.arr[i]);
    }
  }
  mat_free(&o, rc != 0);
  if (rc == LA_MAT_NOMEM) {
    const la_call c = {.fname = "la_load", .op = "la"};
    la_fail(&c, "outOfMemory", "%s: out of memory while reading it", name);
  }
  if (rc == LA_FILE_INTR) interrupted("la_load", name, "while reading; nothing was returned");
  mxFree(name);
  answer(nlhs, plhs, s, rc);
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
  la_files_err[0] = '\0';
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
    file_mat(nlhs, plhs, nrhs, prhs);
    return;
  }
  if (!strcmp(op, "read")) {
    file_read(nlhs, plhs, nrhs, prhs);
    return;
  }
  if (!strcmp(op, "write")) {
    file_write(nlhs, plhs, nrhs, prhs);
    return;
  }
  if (nrhs < 3) mexErrMsgIdAndTxt("kda:internal", "la_mex: 'file' '%s' needs bytes", op);
  in = la_files_bytes(prhs[2], &n);
  if (!strcmp(op, "crc32")) {
    const double prev = nrhs > 3 ? mxGetScalar(prhs[3]) : 0;
    if (!(prev >= 0 && prev < 4294967296.0 && prev == (double)(uint32_t)prev))
      mexErrMsgIdAndTxt("kda:internal", "la_mex: 'crc32' continues from a CRC in [0, 2^32)");
    plhs[0] = mxCreateDoubleScalar(la_crc32(in, n, prev));
    return;
  }
  if (!strcmp(op, "bf16")) {   /* a bfloat16 is the high half of a float32 */
    size_t i;
    float *y;
    if (n % 2) mexErrMsgIdAndTxt("kda:internal", "la_mex: 'bf16' takes an even number of bytes");
    plhs[0] = mxCreateUninitNumericMatrix(n / 2, 1, mxSINGLE_CLASS, mxREAL);
    y = (float *)mxGetData(plhs[0]);
    for (i = 0; i < n / 2; i++) {
      uint16_t h;
      uint32_t w;
      memcpy(&h, in + 2 * i, 2);
      w = (uint32_t)h << 16;
      memcpy(y + i, &w, 4);
    }
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
    plhs[0] = la_files_row(n);
    if (n) la_reverse_axes(in, (unsigned char *)mxGetData(plhs[0]), shape, nd, (size_t)esz);
    return;
  }
  if (!strcmp(op, "json") || !strcmp(op, "safetensors")) {
    const double arg = nrhs > 3 ? mxGetScalar(prhs[3]) : 0;
    jtree t;
    rc = la_json_parse(&t, in, n, op[0] == 'j' && arg >= 1 && arg <= 1000 ? (int)arg : 64);
    if (!rc) {
      if (op[0] == 'j') out = la_json_value(&t, 1);
      else rc = la_safetensors_header(&t, arg, &out);
      la_json_free(&t);
    }
  } else if (!strcmp(op, "deflate") || !strcmp(op, "inflate")) {
#ifdef LA_HAVE_ZLIB
    if (op[0] == 'd') rc = la_deflate(in, n, &out);
    else {
      const double cap = nrhs > 3 ? mxGetScalar(prhs[3]) : -1;
      const double avail = (double)la_mem_available();
      if (!(cap >= 0 && cap < 9e15)) mexErrMsgIdAndTxt("kda:internal", "la_mex: 'inflate' needs a cap");
      if (avail >= 0 && cap > avail)
        rc = la_files_fail("claims %.0f bytes, more than the %.0f bytes of memory available", cap, avail);
      else rc = la_inflate(in, n, (size_t)cap, &out);
    }
#else
    rc = la_files_fail("deflate and inflate need zlib, and this MEX file was built without it "
              "(build_mex.m; `make` links zlib)");
#endif
  } else mexErrMsgIdAndTxt("kda:internal", "la_mex: unknown 'file' operation '%s'", op);
  if (rc && nlhs < 2) mexErrMsgIdAndTxt("la:badFile", "la_mex: %s", la_files_err);
  plhs[0] = out ? out : mxCreateDoubleMatrix(0, 0, mxREAL);
  if (nlhs > 1) plhs[1] = mxCreateString(rc ? la_files_err : "");
}
