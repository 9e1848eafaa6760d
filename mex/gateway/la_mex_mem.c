/*
 * la_mex_mem.c -- see la_mex_mem.h.
 */
#include "la_mex_mem.h"
#include "../core/la_size.h"

#include <stdio.h>
#include <string.h>
#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif

void la_need_add(const la_call *c, ptrdiff_t *total, const char *what, ptrdiff_t d0, ptrdiff_t d1,
                 ptrdiff_t d2, ptrdiff_t d3, size_t elem)
{
  ptrdiff_t count, bytes;
  if (!la_mul4(d0, d1, d2, d3, &count) || !la_bytes(count, elem, &bytes) ||
      !la_add(*total, bytes, total))
    la_fail(c, "outOfMemory", "out of memory: %s would be %td x %td x %td x %td elements of %zu "
            "bytes, more than this machine can address", what, d0, d1, d2, d3, elem);
}

void la_need_check(const la_call *c, ptrdiff_t total)
{
  const double avail = la_mem_available();
  if (avail >= 0 && (double)total > avail)
    la_fail(c, "outOfMemory", "out of memory: the outputs of this call need %td bytes (%.3g GB), "
            "more than the %.3g GB of memory available", total, (double)total / 1e9, avail / 1e9);
}

/* the first number in file `path` (after `key` when key is not NULL);
 * < 0 when unreadable, or for "max" (no limit) */
static double read_number(const char *path, const char *key)
{
  char line[256];
  double x = -1;
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  while (fgets(line, sizeof line, f)) {
    const char *p = line;
    if (key) {
      if (strncmp(line, key, strlen(key))) continue;
      p = line + strlen(key);
    }
    if (sscanf(p, "%lf", &x) != 1) x = -1;
    break;
  }
  fclose(f);
  return x;
}

/* limit - usage of the cgroup, < 0 when there is no limit */
static double cgroup_room(void)
{
  static const char *const files[2][2] = {
      {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"},
      {"/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes"}};
  int i;
  for (i = 0; i < 2; i++) {
    const double limit = read_number(files[i][0], NULL), used = read_number(files[i][1], NULL);
    /* v1 says "no limit" with a huge page-rounded number */
    if (limit > 0 && limit < 0x1p62 && used >= 0) return limit > used ? limit - used : 0;
  }
  return -1;
}

double la_mem_available(void)
{
  double avail = read_number("/proc/meminfo", "MemAvailable:");
  const double room = cgroup_room();
  if (avail >= 0) avail *= 1024; /* kB */
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
  if (avail < 0) avail = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
#endif
  if (room >= 0 && (avail < 0 || room < avail)) avail = room;
  return avail;
}
