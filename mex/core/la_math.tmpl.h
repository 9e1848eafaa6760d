/* la_math.tmpl.h -- template: scalar functions of the transforms, in their
 * overflow-free forms (exp() is only taken of a non-positive argument). */

static inline real_t LA_FN(la_sigmoid)(real_t x)
{
  if (x >= 0) return 1 / (1 + LA_EXP(-x));
  real_t e = LA_EXP(x);
  return e / (1 + e);
}

static inline real_t LA_FN(la_softplus)(real_t x)
{
  return (x > 0 ? x : 0) + LA_LOG1P(LA_EXP(-LA_FABS(x)));
}
