/*
 * la_files_mex.c -- the MEX side of reading a tensor file from one open
 * descriptor (la_files_io.c) and of the .mat reader (la_files_mat.c):
 *
 *   [bytes, err] = la_mex('file', 'read', name)      the whole regular file
 *   [s, err] = la_mex('file', 'mat', name, avail)    its variables, a struct
 *   err = la_mex('file', 'write', name, pieces)       uint8 rows (a cell of
 *                       them) written as the file, whole or not at all
 *
 * err is '' on success, else the reason (the .m caller raises la:badFile
 * naming the file).  Ctrl-C while reading raises la:interrupted here
 * (polled between 1 MiB steps), with nothing returned.
 */
#include "la_mex_zlib.h"
#include "la_files_io.h"
#include "la_files_mat.h"
#include "../gateway/la_mex_base.h"
#include "../gateway/la_mex_intr.h"
#include "../core/la_core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void la_mex_file_read(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
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

void la_mex_file_write(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
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

void la_mex_file_mat(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
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
