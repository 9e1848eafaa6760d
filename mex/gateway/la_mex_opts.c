/*
 * la_mex_opts.c -- see la_mex_opts.h.  Identifiers raised here (prefix kda:
 * or gdn: after the function called):
 *   nargin           a name without its value
 *   badOption        not a name, unknown name, an option of other functions,
 *                    a value of the wrong kind or not among the choices
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

/* a char row vector (1 x n, n >= 1) */
static int is_string(const mxArray *a)
{
  return mxIsChar(a) && mxGetNumberOfDimensions(a) == 2 && mxGetM(a) == 1 && mxGetN(a) >= 1;
}

/* The names (", "-separated) of the options of function bit f whose name
 * starts with s[0..n-1], or all of them when n == 0. */
static void list_names(unsigned f, const char *s, size_t n, char *buf, size_t sz)
{
  int i;
  size_t used = 0;
  buf[0] = 0;
  for (i = 0; i < la_noptions; i++) {
    size_t j;
    if (!(la_options[i].funcs & f) || strlen(la_options[i].name) < n) continue;
    for (j = 0; j < n; j++)
      if (tolower((unsigned char)s[j]) != tolower((unsigned char)la_options[i].name[j])) break;
    if (j == n && used + 20 < sz)
      used += (size_t)snprintf(buf + used, sz - used, used ? ", %s" : "%s", la_options[i].name);
  }
}

/* The functions that accept option i, ", "-separated. */
static void list_funcs(int i, char *buf, size_t sz)
{
  int f;
  size_t used = 0;
  buf[0] = 0;
  for (f = 0; f < LA_NFUNCS; f++)
    if ((la_options[i].funcs >> f) & 1u)
      used += (size_t)snprintf(buf + used, sz - used, used ? ", %s" : "%s", la_funcs[f].name);
}

/* s[0..n-1] is a prefix of the name of row i (case-insensitive; a NUL or a
 * non-ASCII character matches nothing); *exact: it is the whole name. */
static int is_prefix(const char *s, size_t n, int i, int *exact)
{
  const char *name = la_options[i].name;
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
  for (i = 0; i < la_noptions; i++) {
    int exact = 0;
    if (!is_prefix(s, n, i, &exact)) continue;
    if (!(la_options[i].funcs & c->fbit)) {
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
    la_fail(c, "badOption", "option '%s' is not an option of %s (only of %s)", la_options[other].name,
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

/* "'KV' or 'VK'", "'none', 'bf16' or 'fp16'" */
static const char *choices_text(const char *const *ch, char *buf, size_t size)
{
  size_t used = 0;
  int i;
  buf[0] = 0;
  for (i = 0; ch[i] && used + 16 < size; i++)
    used += (size_t)snprintf(buf + used, size - used, "%s'%s'",
                             i == 0 ? "" : ch[i + 1] ? ", " : " or ", ch[i]);
  return buf;
}

/* The index of the choice a spells (any case) in row o's list. */
static int choice_index(const la_call *c, const la_option *o, const mxArray *a)
{
  char s[32], buf[128];
  int i, j;
  /* every character counts: 'KV' followed by a NUL is not 'KV' */
  if (mxGetNumberOfElements(a) < sizeof s && !mxGetString(a, s, sizeof s) &&
      strlen(s) == mxGetNumberOfElements(a))
    for (i = 0; o->choices[i]; i++) {
      for (j = 0; s[j] && tolower((unsigned char)s[j]) == tolower((unsigned char)o->choices[i][j]);
           j++) {}
      if (!s[j] && !o->choices[i][j]) return i;
    }
  la_fail(c, "badOption", "option '%s' must be %s", o->name,
          choices_text(o->choices, buf, sizeof buf));
  return 0;
}

/* The value a of option i checked by its row and stored where the row
 * says; [] where the kind allows it means "not given" (the default). */
static void take_value(la_call *c, int i, const mxArray *a)
{
  const la_option *o = &la_options[i];
  char *at = (char *)c + o->at;
  const char *name = o->name;
  char dims[64]; /* the text of a's dimensions, made only for an error */
  switch (o->kind) {
  case LA_KIND_NEGATIVE: /* the signs are la_problem_check's */
  case LA_KIND_NONNEG:
  case LA_KIND_POSITIVE:
    if (o->kind == LA_KIND_NEGATIVE && la_not_given(a)) {
      if (o->given_at) *(int *)((char *)c + o->given_at) = 0;
      return;
    }
    if (!is_real_scalar(a))
      la_fail(c, "badOption", "option '%s' must be a real numeric scalar, got a %s %s", name, la_dims_str(a, dims, sizeof dims),
              mxGetClassName(a));
    *(double *)at = mxGetScalar(a);
    break;
  case LA_KIND_POSINT: {
    const double x = is_real_scalar(a) ? mxGetScalar(a) : NAN;
    /* 0x1p63: the first double past the largest ptrdiff_t */
    if (!(x >= 1 && x == floor(x) && x < 0x1p63)) {
      if (is_real_scalar(a))
        la_fail(c, "badOption", "option '%s' must be a positive integer scalar, got %.17g", name,
                x);
      la_fail(c, "badOption", "option '%s' must be a positive integer scalar, got a %s %s", name,
              la_dims_str(a, dims, sizeof dims), mxGetClassName(a));
    }
    *(ptrdiff_t *)at = (ptrdiff_t)x;
    break;
  }
  case LA_KIND_FLAG:
    if (!(is_real_scalar(a) || (mxIsLogical(a) && mxGetNumberOfElements(a) == 1)) ||
        mxGetScalar(a) != mxGetScalar(a))
      la_fail(c, "badOption", "option '%s' must be true or false (a logical or real scalar, not "
              "NaN), got a %s %s", name, la_dims_str(a, dims, sizeof dims), mxGetClassName(a));
    *(int *)at = mxGetScalar(a) != 0;
    break;
  case LA_KIND_CHOICE:
    if (!is_string(a))
      la_fail(c, "badOption", "option '%s' must be a string (a char row vector), got a %s %s",
              name, la_dims_str(a, dims, sizeof dims), mxGetClassName(a));
    *(int *)at = choice_index(c, o, a);
    break;
  case LA_KIND_ARRAY:
    if (la_not_given(a)) {
      *(const mxArray **)at = NULL;
      return;
    }
    if (mxIsSparse(a) || mxIsComplex(a) || !(mxIsDouble(a) || mxIsSingle(a)))
      la_fail(c, "badClass", "option '%s' must be [] or a real full single or double array, got "
              "a %s %s%s%s", name, la_dims_str(a, dims, sizeof dims), mxIsComplex(a) ? "complex " : "",
              mxIsSparse(a) ? "sparse " : "", mxGetClassName(a));
    *(const mxArray **)at = a;
    break;
  case LA_KIND_CUSEQLENS:
    if (la_not_given(a)) {
      *(const mxArray **)at = NULL;
      return;
    }
    if (!mxIsNumeric(a) || mxIsComplex(a) || mxIsSparse(a) || mxGetNumberOfDimensions(a) > 2 ||
        (mxGetM(a) != 1 && mxGetN(a) != 1) || mxIsEmpty(a))
      la_fail(c, "badCuSeqlens", "option '%s' must be [] or a real vector [0, t1, ..., T], got a "
              "%s %s", name, la_dims_str(a, dims, sizeof dims), mxGetClassName(a));
    *(const mxArray **)at = a;
    break;
  case LA_KIND_INTEGERS: /* the values: la_mex_decode.c */
    if (la_not_given(a)) {
      *(const mxArray **)at = NULL;
      return;
    }
    if (!mxIsNumeric(a) || mxIsComplex(a) || mxIsSparse(a))
      la_fail(c, "badOption", "option '%s' must be [] or a real numeric array of integers, got "
              "a %s %s", name, la_dims_str(a, dims, sizeof dims), mxGetClassName(a));
    *(const mxArray **)at = a;
    break;
  }
  if (o->given_at) *(int *)((char *)c + o->given_at) = 1;
}

/* Row o's default, stored where its values go. */
static void take_default(la_call *c, const la_option *o)
{
  char *at = (char *)c + o->at;
  const double def = o->def_of ? o->def_of(&c->p) : o->def;
  switch (o->kind) {
  case LA_KIND_POSITIVE:
  case LA_KIND_NEGATIVE:
  case LA_KIND_NONNEG: *(double *)at = def; break;
  case LA_KIND_POSINT: *(ptrdiff_t *)at = (ptrdiff_t)def; break;
  case LA_KIND_FLAG:
  case LA_KIND_CHOICE: *(int *)at = (int)def; break;
  case LA_KIND_ARRAY:
  case LA_KIND_CUSEQLENS:
  case LA_KIND_INTEGERS: *(const mxArray **)at = NULL; break;
  }
  if (o->given_at) *(int *)((char *)c + o->given_at) = 0;
}

/* the fields of a 1 x 1 struct of options */
static void parse_struct(la_call *c, const mxArray *s, int argno)
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
    take_value(c, i, mxGetFieldByNumber(s, 0, j));
  }
}

void la_parse_options(la_call *c, int nargs, const mxArray *args[], int argno0)
{
  int a, i;
  /* every row's default (the core reads every field), the function's own
   * rows last: where two rows store into one field, its own decides */
  for (i = 0; i < la_noptions; i++)
    if (!(la_options[i].funcs & c->fbit)) take_default(c, &la_options[i]);
  for (i = 0; i < la_noptions; i++)
    if (la_options[i].funcs & c->fbit) take_default(c, &la_options[i]);
  for (a = 0; a < nargs; a += 2) {
    char s[64], shown[48], dims[64];
    size_t n;
    if (mxIsStruct(args[a])) {
      parse_struct(c, args[a], argno0 + a);
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
    take_value(c, i, args[a + 1]);
  }
}

const char *la_option_text(const char *text, char *buf, size_t size)
{
  size_t used = 0;
  buf[0] = 0;
  while (*text && used + 1 < size) {
    const char *end = *text == '`' ? strchr(text + 1, '`') : NULL;
    int i, row = -1;
    for (i = 0; end && i < la_noptions; i++)
      if (la_options[i].field && strlen(la_options[i].field) == (size_t)(end - text - 1) &&
          !strncmp(la_options[i].field, text + 1, (size_t)(end - text - 1)))
        row = i;
    if (row >= 0) {
      used += (size_t)snprintf(buf + used, size - used, "'%s'", la_options[row].name);
      text = end + 1;
    } else {
      buf[used++] = *text++;
      buf[used] = 0;
    }
  }
  if (used >= size) buf[size - 1] = 0;
  return buf;
}

/* the default as help shows it: the row's text, the choice, the flag, the number */
static mxArray *default_text(const la_option *o)
{
  char buf[64];
  if (o->def_text) return mxCreateString(o->def_text);
  if (o->kind == LA_KIND_CHOICE)
    snprintf(buf, sizeof buf, "'%s'", o->choices[(int)o->def]);
  else if (o->kind == LA_KIND_FLAG)
    snprintf(buf, sizeof buf, "%s", o->def ? "true" : "false");
  else
    snprintf(buf, sizeof buf, "%.17g", o->def);
  return mxCreateString(buf);
}

static mxArray *cellstr(const char *const *s, int n)
{
  mxArray *a = mxCreateCellMatrix(1, (mwSize)n);
  int i;
  for (i = 0; i < n; i++) mxSetCell(a, (mwIndex)i, mxCreateString(s[i]));
  return a;
}

mxArray *la_options_struct(void)
{
  static const char *fields[] = {"name", "kind", "default", "choices", "functions", "description"};
  mxArray *s = mxCreateStructMatrix((mwSize)la_noptions, 1, 6, fields);
  int i, f;
  for (i = 0; i < la_noptions; i++) {
    const la_option *o = &la_options[i];
    const char *fn[LA_NFUNCS];
    int nf = 0, nc = 0;
    for (f = 0; f < LA_NFUNCS; f++)
      if ((o->funcs >> f) & 1u) fn[nf++] = la_funcs[f].name;
    while (o->choices && o->choices[nc]) nc++;
    mxSetField(s, (mwIndex)i, "name", mxCreateString(o->name));
    mxSetField(s, (mwIndex)i, "kind", mxCreateString(kind_name(o->kind)));
    mxSetField(s, (mwIndex)i, "default", default_text(o));
    mxSetField(s, (mwIndex)i, "choices", cellstr(o->choices, nc));
    mxSetField(s, (mwIndex)i, "functions", cellstr(fn, nf));
    mxSetField(s, (mwIndex)i, "description", mxCreateString(o->desc));
  }
  return s;
}
