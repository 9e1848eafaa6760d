/*
 * la_mex_clock.c -- see la_mex_clock.h.  The test build's only
 * (-DLA_TESTING); nothing in the shipped MEX.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include "la_mex_clock.h"

#ifdef LA_TESTING

#include <stdint.h>
#include <string.h>
#include <time.h>

/* the call in progress, and the last completed one (the host calls a MEX
 * file from one thread at a time) */
static struct timespec g_marks[LA_NMARKS];
static double g_last[4]; /* parse, outputs, core, inside: microseconds */
static double g_sum[4];  /* the same summed over the calls since the last query */
static double g_calls;
static char g_last_name[32];
static int g_align = -1;                 /* the call's state output: offset / 16, or -1 */
static double g_core_by[4], g_calls_by[4]; /* core time and calls per offset */

void la_clock_mark(la_mark which)
{
  if (which == LA_MARK_ENTRY) g_align = -1;
  clock_gettime(CLOCK_MONOTONIC, &g_marks[which]);
}

void la_clock_state(const void *state)
{
  g_align = state ? (int)((uintptr_t)state % 64 / 16) : -1;
}

static double us_between(const struct timespec *a, const struct timespec *b)
{
  return 1e6 * (double)(b->tv_sec - a->tv_sec) + 1e-3 * (double)(b->tv_nsec - a->tv_nsec);
}

void la_clock_done(const char *name)
{
  struct timespec ret;
  const struct timespec *m = g_marks;
  clock_gettime(CLOCK_MONOTONIC, &ret);
  g_last[0] = us_between(&m[LA_MARK_ENTRY], &m[LA_MARK_PARSED]);
  g_last[1] = us_between(&m[LA_MARK_PARSED], &m[LA_MARK_CORE]) +
              us_between(&m[LA_MARK_CORE_DONE], &ret);
  g_last[2] = us_between(&m[LA_MARK_CORE], &m[LA_MARK_CORE_DONE]);
  g_last[3] = us_between(&m[LA_MARK_ENTRY], &ret);
  for (int i = 0; i < 4; i++) g_sum[i] += g_last[i];
  g_calls++;
  if (g_align >= 0) {
    g_core_by[g_align] += g_last[2];
    g_calls_by[g_align]++;
  }
  strncpy(g_last_name, name, sizeof g_last_name - 1);
}

/* a struct of the four parts p (microseconds) */
static mxArray *parts(const double p[4])
{
  static const char *fields[] = {"inside", "parse", "outputs", "core"};
  mxArray *s = mxCreateStructMatrix(1, 1, 4, fields);
  mxSetFieldByNumber(s, 0, 0, mxCreateDoubleScalar(p[3]));
  for (int i = 0; i < 3; i++) mxSetFieldByNumber(s, 0, i + 1, mxCreateDoubleScalar(p[i]));
  return s;
}

mxArray *la_clock_last_call(void)
{
  static const char *fields[] = {"function", "inside", "parse", "outputs", "core", "calls", "mean",
                                 "by_alignment"};
  double mean[4], *by;
  mxArray *s, *last, *align;
  if (!g_last_name[0]) return mxCreateDoubleMatrix(0, 0, mxREAL);
  s = mxCreateStructMatrix(1, 1, 8, fields);
  last = parts(g_last);
  mxSetFieldByNumber(s, 0, 0, mxCreateString(g_last_name));
  for (int i = 0; i < 4; i++) {
    mxSetFieldByNumber(s, 0, i + 1, mxDuplicateArray(mxGetFieldByNumber(last, 0, i)));
    mean[i] = g_calls > 0 ? g_sum[i] / g_calls : 0;
    g_sum[i] = 0;
  }
  mxDestroyArray(last);
  mxSetFieldByNumber(s, 0, 5, mxCreateDoubleScalar(g_calls));
  mxSetFieldByNumber(s, 0, 6, parts(mean));
  g_calls = 0;
  align = mxCreateDoubleMatrix(4, 3, mxREAL);
  by = mxGetPr(align);
  for (int i = 0; i < 4; i++) {
    by[i] = 16 * i;
    by[4 + i] = g_calls_by[i];
    by[8 + i] = g_calls_by[i] > 0 ? g_core_by[i] / g_calls_by[i] : 0;
    g_core_by[i] = g_calls_by[i] = 0;
  }
  mxSetFieldByNumber(s, 0, 7, align);
  return s;
}

#endif /* LA_TESTING */
