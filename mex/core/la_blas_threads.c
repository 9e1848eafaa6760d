/* la_blas_threads.c -- see la_internal.h. */
#include "la_internal.h"

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
