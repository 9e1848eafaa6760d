/* la_math.tmpl.h -- template: scalar functions of the transforms, in their
 * overflow-free forms (exp() is only taken of a non-positive argument). */

/* 1 / (1 + exp(-x)) for x >= 0, exp(x) / (1 + exp(x)) below: one exp of
 * -|x| and a select, so that loops of it vectorize. */
static inline real_t LA_FN(la_sigmoid)(real_t x)
{
  const real_t e = LA_EXP(-LA_FABS(x));
  return (x >= 0 ? 1 : e) / (1 + e);
}

static inline real_t LA_FN(la_softplus)(real_t x)
{
  return (x > 0 ? x : 0) + LA_LOG1P(LA_EXP(-LA_FABS(x)));
}
