/*
 * la_tuning.c -- the process-wide tuning switches (la_tuning, la_core.h):
 * tests and benches compare the chunked paths' schedules and forms through
 * them; the core reads them at the start of a call.
 */
#include "la_core.h"

#include <string.h>

static la_tuning la_tuning_now;

la_tuning la_get_tuning(void) { return la_tuning_now; }

void la_set_tuning(const la_tuning *t)
{
  if (t) la_tuning_now = *t;
  else memset(&la_tuning_now, 0, sizeof la_tuning_now);
}

int la_tune(const char *name, int value)
{
  static const struct {
    const char *name;
    size_t at;
  } fields[] = {{"wy_form", offsetof(la_tuning, wy_form)},
                {"fwd_phases", offsetof(la_tuning, fwd_phases)},
                {"no_spread", offsetof(la_tuning, no_spread)},
                {"bwd_no_ring", offsetof(la_tuning, bwd_no_ring)},
                {"no_xsmm", offsetof(la_tuning, no_xsmm)}};
  size_t i;
  for (i = 0; name && i < sizeof fields / sizeof fields[0]; i++)
    if (!strcmp(name, fields[i].name)) {
      int *f = (int *)((char *)&la_tuning_now + fields[i].at);
      const int was = *f;
      if (value >= 0) *f = value;
      return was;
    }
  return -1;
}
