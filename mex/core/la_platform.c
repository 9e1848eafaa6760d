/* la_platform.c -- what the core asks of the platform (see la_internal.h):
 * BLAS threads, worker threads and physical memory. */
#include "la_internal.h"
#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif
#ifdef _OPENMP
#include <omp.h>
#endif

extern void openblas_set_num_threads(int) __attribute__((weak));
extern int openblas_get_num_threads(void) __attribute__((weak));

int la_blas_threads_begin(void)
{
  int saved = 0;
  if (openblas_get_num_threads && openblas_set_num_threads) {
    saved = openblas_get_num_threads();
    openblas_set_num_threads(1);
  }
  return saved;
}

void la_blas_threads_end(int saved)
{
  if (saved > 0 && openblas_set_num_threads) openblas_set_num_threads(saved);
}

int la_workspace_ok(ptrdiff_t items, double bytes_per_thread)
{
  double threads = 1;
#ifdef _OPENMP
  threads = omp_get_max_threads();
#endif
  if (items < threads) threads = items > 0 ? (double)items : 1;
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
  {
    const double phys = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
    if (phys > 0 && threads * bytes_per_thread > phys / 2) return 0;
  }
#endif
  return 1;
}
