/*
 * la_mex_opts.c -- see la_mex_opts.h.  Identifiers raised here (prefix kda:
 * or gdn: after the function called):
 *   nargin           a name without its value
 *   badOption        not a name, unknown name, an option of other functions,
 *                    a value of the wrong kind
 *   ambiguousOption  a prefix of several options of the function called
 *   badClass         an array option that is not a real full float array
 *   badCuSeqlens     CuSeqlens that is not a real vector
 */
#include "la_mex_opts.h"
#include "la_options.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

const char *const la_function_names[LA_NFUNCS] = {
    "kda_recurrent", "kda_recurrent_bwd", "kda_chunk", "kda_chunk_bwd",
    "gdn_recurrent", "gdn_recurrent_bwd", "gdn_chunk", "gdn_chunk_bwd",
    "kda_state_map", "kda_state_map_bwd", "gdn_state_map", "gdn_state_map_bwd"};

typedef struct opt_row {
  const char *name;
  la_opt_kind kind;
  const char *def;
  unsigned funcs;
  const char *desc;
} opt_row;

static const opt_row k_rows[LA_OPT_COUNT] = {
#define LA_OPT_ROW(ID, NAME, KIND, DEF, FUNCS, DESC) {NAME, KIND, DEF, FUNCS, DESC},
    LA_OPTION_TABLE(LA_OPT_ROW)
#undef LA_OPT_ROW
};

static const char *kind_name(la_opt_kind k)
{
  switch (k) {
  case LA_KIND_POSITIVE: return "positive";
  case LA_KIND_NEGATIVE: return "negative";
  case LA_KIND_NONNEG: return "nonnegative";
  case LA_KIND_POSINT: return "posint";
  case LA_KIND_FLAG: return "flag";
  case LA_KIND_ARRAY: return "array";
  case LA_KIND_CUSEQLENS: return "cuseqlens";
  case LA_KIND_INTEGERS: return "integers";
  case LA_KIND_CHOICE: return "choice";
  }
  return "?";
}

int la_not_given(const mxArray *a)
{
  return mxIsDouble(a) && !mxIsComplex(a) && !mxIsSparse(a) && mxGetNumberOfDimensions(a) == 2 &&
         mxGetM(a) == 0 && mxGetN(a) == 0;
}

/* a char row vector (1 x n, n >= 1) */
static int is_string(const mxArray *a)
{
  return mxIsChar(a) && mxGetNumberOfDimensions(a) == 2 && mxGetM(a) == 1 && mxGetN(a) >= 1;
}

/* The names (in `sep`-separated text) of the options of function bit f
 * whose name starts with s[0..n-1], or all of them when n == 0. */
static void list_names(unsigned f, const char *s, size_t n, char *buf, size_t sz)
{
  int i;
  size_t used = 0;
  buf[0] = 0;
  for (i = 0; i < LA_OPT_COUNT; i++) {
    size_t j;
    if (!(k_rows[i].funcs & f) || strlen(k_rows[i].name) < n) continue;
    for (j = 0; j < n; j++)
      if (tolower((unsigned char)s[j]) != tolower((unsigned char)k_rows[i].name[j])) break;
    if (j == n && used + 20 < sz)
      used += (size_t)snprintf(buf + used, sz - used, used ? ", %s" : "%s", k_rows[i].name);
  }
}

/* The functions that accept option i, ", "-separated. */
static void list_funcs(int i, char *buf, size_t sz)
{
  int f;
  size_t used = 0;
  buf[0] = 0;
  for (f = 0; f < LA_NFUNCS; f++)
    if ((k_rows[i].funcs >> f) & 1u)
      used += (size_t)snprintf(buf + used, sz - used, used ? ", %s" : "%s", la_function_names[f]);
}

/* s[0..n-1] is a prefix of the name of row i (case-insensitive; a NUL or a
 * non-ASCII character matches nothing); *exact: it is the whole name. */
static int is_prefix(const char *s, size_t n, int i, int *exact)
{
  const char *name = k_rows[i].name;
  size_t j;
  if (n == 0 || n > strlen(name)) return 0;
  for (j = 0; j < n; j++)
    if (s[j] == 0 || tolower((unsigned char)s[j]) != tolower((unsigned char)name[j])) return 0;
  *exact = n == strlen(name);
  return 1;
}

/* The option that name s[0..n-1] means for the function called. */
static int match_option(const la_call *c, const char *s, size_t n, const char *shown)
{
  char buf[512];
  int i, found = -1, nvalid = 0, other = -1;
  for (i = 0; i < LA_OPT_COUNT; i++) {
    int exact = 0;
    if (!is_prefix(s, n, i, &exact)) continue;
    if (!(k_rows[i].funcs & c->fbit)) {
      if (exact || other < 0) other = i;
      continue;
    }
    if (exact) return i;
    found = i;
    nvalid++;
  }
  if (nvalid == 1) return found;
  if (nvalid > 1) {
    list_names(c->fbit, s, n, buf, sizeof buf);
    la_fail(c, "ambiguousOption", "option name '%s' is ambiguous: it may mean %s", shown, buf);
  }
  if (other >= 0) {
    list_funcs(other, buf, sizeof buf);
    la_fail(c, "badOption", "option '%s' is not an option of %s (only of %s)", k_rows[other].name,
            c->fname, buf);
  }
  list_names(c->fbit, s, 0, buf, sizeof buf);
  la_fail(c, "badOption", "unknown option '%s'; the options of %s are: %s", shown, c->fname, buf);
  return -1;
}

/* The name held by char array a, as C chars (NULs kept, non-ASCII as NUL),
 * and a printable copy for messages. */
static size_t name_chars(const mxArray *a, char *s, size_t sz, char *shown, size_t shown_sz)
{
  const mxChar *m = mxGetChars(a);
  const size_t n = mxGetNumberOfElements(a);
  size_t j;
  for (j = 0; j < n && j < sz; j++) s[j] = (m[j] > 0 && (unsigned)m[j] < 128u) ? (char)m[j] : 0;
  for (j = 0; j < n && j + 4 < shown_sz; j++) shown[j] = isprint((unsigned char)s[j]) ? s[j] : '?';
  if (j < n) memcpy(shown + j, "...", 4);
  else shown[j] = 0;
  return n < sz ? n : sz; /* a longer name matches nothing: longer than every option */
}

/* a real, full, numeric (not char, not logical) scalar */
static int is_real_scalar(const mxArray *a)
{
  return mxIsNumeric(a) && !mxIsComplex(a) && !mxIsSparse(a) && mxGetNumberOfElements(a) == 1;
}

/* The value a of option i checked by its kind; NULL for [] where the kind
 * allows it ("not given"). */
static const mxArray *check_value(const la_call *c, int i, const mxArray *a)
{
  const char *name = k_rows[i].name;
  char dims[64];
  la_dims_str(a, dims, sizeof dims);
  switch (k_rows[i].kind) {
  case LA_KIND_NEGATIVE: /* the signs are la_problem_check's */
  case LA_KIND_NONNEG:
  case LA_KIND_POSITIVE:
    if (k_rows[i].kind == LA_KIND_NEGATIVE && la_not_given(a)) return NULL;
    if (!is_real_scalar(a))
      la_fail(c, "badOption", "option '%s' must be a real numeric scalar, got a %s %s", name, dims,
              mxGetClassName(a));
    return a;
  case LA_KIND_POSINT: {
    const double x = is_real_scalar(a) ? mxGetScalar(a) : NAN;
    /* 0x1p63: the first double past the largest ptrdiff_t */
    if (!(x >= 1 && x == floor(x) && x < 0x1p63))
      la_fail(c, "badOption", "option '%s' must be a positive integer scalar, got a %s %s%s%.17g",
              name, dims, mxGetClassName(a), is_real_scalar(a) ? " of value " : "",
              is_real_scalar(a) ? x : 0.0);
    return a;
  }
  case LA_KIND_FLAG:
    if (!(is_real_scalar(a) || (mxIsLogical(a) && mxGetNumberOfElements(a) == 1)) ||
        mxGetScalar(a) != mxGetScalar(a))
      la_fail(c, "badOption", "option '%s' must be true or false (a logical or real scalar, not "
              "NaN), got a %s %s", name, dims, mxGetClassName(a));
    return a;
  case LA_KIND_ARRAY:
    if (la_not_given(a)) return NULL;
    if (mxIsSparse(a) || mxIsComplex(a) || !(mxIsDouble(a) || mxIsSingle(a)))
      la_fail(c, "badClass", "option '%s' must be [] or a real full single or double array, got "
              "a %s %s%s%s", name, dims, mxIsComplex(a) ? "complex " : "",
              mxIsSparse(a) ? "sparse " : "", mxGetClassName(a));
    return a;
  case LA_KIND_CUSEQLENS:
    if (la_not_given(a)) return NULL;
    if (!mxIsNumeric(a) || mxIsComplex(a) || mxIsSparse(a) || mxGetNumberOfDimensions(a) > 2 ||
        (mxGetM(a) != 1 && mxGetN(a) != 1) || mxIsEmpty(a))
      la_fail(c, "badCuSeqlens", "option '%s' must be [] or a real vector [0, t1, ..., T], got a "
              "%s %s", name, dims, mxGetClassName(a));
    return a;
  case LA_KIND_INTEGERS: /* the values: la_mex_decode.c */
    if (la_not_given(a)) return NULL;
    if (!mxIsNumeric(a) || mxIsComplex(a) || mxIsSparse(a))
      la_fail(c, "badOption", "option '%s' must be [] or a real numeric array of integers, got "
              "a %s %s", name, dims, mxGetClassName(a));
    return a;
  case LA_KIND_CHOICE:
    if (!is_string(a))
      la_fail(c, "badOption", "option '%s' must be a string (a char row vector), got a %s %s",
              name, dims, mxGetClassName(a));
    return a;
  }
  return a;
}

/* the fields of a 1 x 1 struct of options */
static void parse_struct(const la_call *c, const mxArray *s, int argno, const mxArray *val[])
{
  const int nf = mxGetNumberOfFields(s);
  char dims[64];
  int j;
  if (mxGetNumberOfElements(s) != 1)
    la_fail(c, "badOption", "a struct of options (argument %d) must be 1 x 1, got a %s struct "
            "array", argno, la_dims_str(s, dims, sizeof dims));
  for (j = 0; j < nf; j++) {
    const char *field = mxGetFieldNameByNumber(s, j);
    const int i = match_option(c, field, strlen(field), field);
    val[i] = check_value(c, i, mxGetFieldByNumber(s, 0, j));
  }
}

void la_parse_options(const la_call *c, int nargs, const mxArray *args[], int argno0,
                      const mxArray *val[])
{
  int a, i;
  for (i = 0; i < LA_OPT_COUNT; i++) val[i] = NULL;
  for (a = 0; a < nargs; a += 2) {
    char s[64], shown[48], dims[64];
    size_t n;
    if (mxIsStruct(args[a])) {
      parse_struct(c, args[a], argno0 + a, val);
      a--; /* a struct is one argument, not a pair */
      continue;
    }
    if (a + 1 >= nargs)
      la_fail(c, "nargin", "options come as Name, Value pairs or structs; argument %d has no "
              "value after it", argno0 + a);
    if (!is_string(args[a]))
      la_fail(c, "badOption", "argument %d must be an option name (a char row vector) or a "
              "struct of options, got a %s %s", argno0 + a, la_dims_str(args[a], dims, sizeof dims),
              mxGetClassName(args[a]));
    n = name_chars(args[a], s, sizeof s, shown, sizeof shown);
    i = match_option(c, s, n, shown);
    val[i] = check_value(c, i, args[a + 1]);
  }
}

mxArray *la_options_struct(void)
{
  static const char *fields[] = {"name", "kind", "default", "functions", "description"};
  mxArray *s = mxCreateStructMatrix(LA_OPT_COUNT, 1, 5, fields);
  int i, f;
  for (i = 0; i < LA_OPT_COUNT; i++) {
    mxArray *fn;
    int nf = 0;
    for (f = 0; f < LA_NFUNCS; f++) nf += (k_rows[i].funcs >> f) & 1u;
    fn = mxCreateCellMatrix(1, (mwSize)nf);
    for (f = 0, nf = 0; f < LA_NFUNCS; f++)
      if ((k_rows[i].funcs >> f) & 1u)
        mxSetCell(fn, (mwIndex)nf++, mxCreateString(la_function_names[f]));
    mxSetField(s, (mwIndex)i, "name", mxCreateString(k_rows[i].name));
    mxSetField(s, (mwIndex)i, "kind", mxCreateString(kind_name(k_rows[i].kind)));
    mxSetField(s, (mwIndex)i, "default", mxCreateString(k_rows[i].def));
    mxSetField(s, (mwIndex)i, "functions", fn);
    mxSetField(s, (mwIndex)i, "description", mxCreateString(k_rows[i].desc));
  }
  return s;
}
