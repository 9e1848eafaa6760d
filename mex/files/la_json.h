/*
 * la_json.h -- one JSON text parsed into a tree of plain C nodes, with
 * bounds (see la_json.c), then made into Octave values.
 */
#ifndef LA_JSON_H
#define LA_JSON_H

#include <stddef.h>

#include "mex.h"

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

/* Parse text[0..n) into t, nesting at most max_depth; 0, or -1 with the
 * reason in la_files_err (t is then freed). */
int la_json_parse(jtree *t, const unsigned char *text, size_t n, int max_depth);
void la_json_free(jtree *t);

/* the Octave value of node i (1: the root) */
mxArray *la_json_value(const jtree *t, size_t i);

#endif
