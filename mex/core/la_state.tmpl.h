/* la_state.tmpl.h -- template: state load / store between the caller's
 * layout and the internal one. */

/* ---- states ---------------------------------------------------------------
 * Internally a state is K x V column-major (S[k + K v]); outside it is that
 * or, with state_vk, V x K.  src/dst NULL means zeros / not wanted. */
static inline void LA_FN(la_state_load)(const la_problem *p, const real_t *src, real_t *S)
{
  const ptrdiff_t K = p->K, V = p->V;
  ptrdiff_t i, j;
  if (!src) {
    memset(S, 0, sizeof(real_t) * (size_t)(K * V));
  } else if (!p->state_vk) {
    memcpy(S, src, sizeof(real_t) * (size_t)(K * V));
  } else {
    for (j = 0; j < V; j++)
      for (i = 0; i < K; i++) S[i + K * j] = src[j + V * i];
  }
}

static inline void LA_FN(la_state_store)(const la_problem *p, const real_t *S, real_t *dst)
{
  const ptrdiff_t K = p->K, V = p->V;
  ptrdiff_t i, j;
  if (!dst) return;
  if (!p->state_vk) {
    memcpy(dst, S, sizeof(real_t) * (size_t)(K * V));
  } else {
    for (j = 0; j < V; j++)
      for (i = 0; i < K; i++) dst[j + V * i] = S[i + K * j];
  }
}

/* Columns [v0, v1) of a state: S (K x V) from src in the caller's layout
 * (NULL: zeros), or with store, S into dst (NULL: not wanted). */
static void LA_FN(state_cols)(const la_problem *p, const real_t *src, real_t *S, real_t *dst,
                              int store, ptrdiff_t v0, ptrdiff_t v1)
{
  const ptrdiff_t K = p->K, V = p->V;
  ptrdiff_t i, j;
  if (store && !dst) return;
  for (j = v0; j < v1; j++)
    for (i = 0; i < K; i++) {
      const ptrdiff_t at = p->state_vk ? j + V * i : i + K * j;
      if (store) dst[at] = S[i + K * j];
      else S[i + K * j] = src ? src[at] : 0;
    }
}
