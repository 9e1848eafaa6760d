/*
 * la_chunk_common_impl.h -- template: the intra-chunk quantities of the
 * chunked algorithm, shared by its forward (la_chunk_impl.h) and its
 * backward (la_chunk_bwd_impl.h), which forms M, A, w, u in its forward
 * sweep and Aqk again in its reverse sweep (the LA_CI_* flags).
 * docs/chunk_forward.md derives them; docs/stability.md explains the scheme.
 *
 * For one chunk of c <= C steps (columns i = 0..c-1 of the K x c blocks q, k
 * and the V x c block v) with per-step decays a_i = exp(g_i):
 *   eG(:,i)  = exp(G_i)        = a_0 .* ... .* a_i            (G_i = g_0+...+g_i)
 *   eGc(:,i) = exp(G_{c-1} - G_i) = a_{i+1} .* ... .* a_{c-1}
 *   QG = eG .* q,  KG = eG .* k,  KC = eGc .* k
 *   A_raw(i,j) = beta_i k_i' Diag(exp(G_i - G_j)) k_j      (j < i)
 *   Aqk(i,j)   = scale q_i' Diag(exp(G_i - G_j)) k_j       (j <= i)
 *   A = (I + A_raw)^{-1} Diag(beta)   (forward substitution, exact)
 *   w = A KG,  u = A v   (stored K x c and V x c: column i is row i of the
 *   math's w, u, i.e. KG A^T and v A^T)
 *
 * Every decay factor is a running product of per-step decays, so all of them
 * are <= 1 when g <= 0: nothing overflows however strong the gates, and the
 * only exp() calls are the c K per-step ones.  The gated products split the
 * chunk into sub-blocks of LA_SUB rows: off the diagonal, rows of block I and
 * columns j before it meet at the reference r = first row of I,
 *   exp(G_i - G_j) = exp(G_i - G_r) exp(G_r - G_j),   both factors <= 1,
 * and the block is one GEMM; on the diagonal the factor is formed per pair.
 */
#include "la_common_impl.h"
#include "la_tmpl.h"

#ifndef LA_SUB
#define LA_SUB 16
#endif

typedef struct {
  ptrdiff_t K, V, C;
  real_t *a, *eG, *eGc;          /* K x C  decays                           */
  real_t *QG, *KG, *KC;          /* K x C  gated q, k                       */
  real_t *X, *Xk, *Y;            /* K x C  sub-block scaled q, k and k      */
  real_t *E, *F;                 /* K x C  their factors exp(G_i - G_r), exp(G_r - G_j) */
  real_t *Araw, *Aqk, *Am, *M;   /* C x C  (ld C); M = A_raw before the beta rows */
  real_t *w, *u;                 /* K x C, V x C                            */
  real_t *f;                     /* K      running product                  */
} LA_FN(chunk_ws);

static inline size_t LA_FN(chunk_ws_size)(ptrdiff_t K, ptrdiff_t V, ptrdiff_t C)
{
  return (size_t)(11 * K * C + 4 * C * C + K * C + V * C + K);
}

/* Carve the workspace out of one buffer of chunk_ws_size() elements. */
static inline void LA_FN(chunk_ws_init)(LA_FN(chunk_ws) *ws, real_t *buf, ptrdiff_t K,
                                        ptrdiff_t V, ptrdiff_t C)
{
  ws->K = K; ws->V = V; ws->C = C;
  ws->a = buf; buf += K * C;
  ws->eG = buf; buf += K * C;
  ws->eGc = buf; buf += K * C;
  ws->QG = buf; buf += K * C;
  ws->KG = buf; buf += K * C;
  ws->KC = buf; buf += K * C;
  ws->X = buf; buf += K * C;
  ws->Xk = buf; buf += K * C;
  ws->Y = buf; buf += K * C;
  ws->E = buf; buf += K * C;
  ws->F = buf; buf += K * C;
  ws->M = buf; buf += C * C;
  ws->Araw = buf; buf += C * C;
  ws->Aqk = buf; buf += C * C;
  ws->Am = buf; buf += C * C;
  ws->w = buf; buf += K * C;
  ws->u = buf; buf += V * C;
  ws->f = buf;
}

/* The decays of one chunk: a, eG, eGc (see top). g: gate of the chunk's
 * first step (K per step for KDA, 1 for GDN). */
static inline void LA_FN(chunk_decays)(const la_problem *p, ptrdiff_t c, const real_t *g,
                                       LA_FN(chunk_ws) *ws)
{
  const ptrdiff_t K = p->K, GD = la_gate_dim(p);
  ptrdiff_t i, x;
  for (i = 0; i < c; i++) LA_FN(la_decay)(p, g + GD * i, ws->a + K * i);
  for (x = 0; x < K; x++) ws->eG[x] = ws->a[x];
  for (i = 1; i < c; i++)
    for (x = 0; x < K; x++) ws->eG[x + K * i] = ws->eG[x + K * (i - 1)] * ws->a[x + K * i];
  for (x = 0; x < K; x++) ws->eGc[x + K * (c - 1)] = 1;
  for (i = c - 2; i >= 0; i--)
    for (x = 0; x < K; x++)
      ws->eGc[x + K * i] = ws->eGc[x + K * (i + 1)] * ws->a[x + K * (i + 1)];
}

/* Scaled copies for the off-diagonal sub-blocks of block row [r, r1):
 *   X(:,i)  = s q_i .* exp(G_i - G_r),  Xk(:,i) = k_i .* exp(G_i - G_r)  (i in [r, r1))
 *   Y(:,j)  = k_j .* exp(G_r - G_j)                                       (j < r)
 * and the factors themselves in E(:,i), F(:,j). */
static inline void LA_FN(chunk_block_scale)(ptrdiff_t K, ptrdiff_t r, ptrdiff_t r1,
                                            const real_t *q, const real_t *k, real_t scale,
                                            LA_FN(chunk_ws) *ws)
{
  real_t *f = ws->f;
  ptrdiff_t i, j, x;
  for (x = 0; x < K; x++) f[x] = 1;
  for (i = r; i < r1; i++) {
    if (i > r)
      for (x = 0; x < K; x++) f[x] *= ws->a[x + K * i];
    for (x = 0; x < K; x++) {
      ws->E[x + K * i] = f[x];
      ws->X[x + K * i] = scale * q[x + K * i] * f[x];
      ws->Xk[x + K * i] = k[x + K * i] * f[x];
    }
  }
  for (x = 0; x < K; x++) f[x] = 1;
  for (j = r - 1; j >= 0; j--) {
    for (x = 0; x < K; x++) f[x] *= ws->a[x + K * (j + 1)];
    for (x = 0; x < K; x++) {
      ws->F[x + K * j] = f[x];
      ws->Y[x + K * j] = k[x + K * j] * f[x];
    }
  }
}

/* The gated products of one chunk: with LA_CI_WU M(i,j) = k_i' Diag(exp(G_i
 * - G_j)) k_j (strictly lower; A_raw = Diag(beta) M) into ws->M, with
 * LA_CI_AQK Aqk (lower with diagonal); upper parts are zeroed, entries past
 * c untouched. */
static inline void LA_FN(chunk_gated_products)(const la_problem *p, ptrdiff_t c, const real_t *q,
                                               const real_t *k, int what, LA_FN(chunk_ws) *ws)
{
  const ptrdiff_t K = p->K, C = ws->C;
  const real_t scale = (real_t)p->scale;
  const int want_q = what & LA_CI_AQK, want_k = what & LA_CI_WU;
  real_t *M = ws->M, *Aq = ws->Aqk, *f = ws->f;
  ptrdiff_t r, i, j, x;

  for (j = 0; j < c; j++)
    for (i = 0; i < c; i++) {
      if (want_k) M[i + C * j] = 0;
      if (want_q) Aq[i + C * j] = 0;
    }
  for (r = 0; r < c; r += LA_SUB) {
    const ptrdiff_t r1 = r + LA_SUB < c ? r + LA_SUB : c;
    /* diagonal sub-block: exp(G_i - G_j) as a running product over i */
    for (j = r; j < r1; j++) {
      const real_t *kj = k + K * j;
      real_t d = 0;
      for (x = 0; x < K; x++) {
        f[x] = kj[x];
        d += q[x + K * j] * kj[x];
      }
      if (want_q) Aq[j + C * j] = scale * d;
      for (i = j + 1; i < r1; i++) {
        const real_t *ai = ws->a + K * i, *qi = q + K * i, *ki = k + K * i;
        real_t dq = 0, dk = 0;
#pragma omp simd reduction(+ : dq, dk)
        for (x = 0; x < K; x++) {
          f[x] *= ai[x];
          dq += qi[x] * f[x];
          dk += ki[x] * f[x];
        }
        if (want_q) Aq[i + C * j] = scale * dq;
        if (want_k) M[i + C * j] = dk;
      }
    }
    if (r == 0) continue;
    /* off-diagonal: rows [r, r1) against columns [0, r), one GEMM each */
    LA_FN(chunk_block_scale)(K, r, r1, q, k, scale, ws);
    if (want_q)
      LA_GEMM(CblasColMajor, CblasTrans, CblasNoTrans, (int)(r1 - r), (int)r, (int)K, 1,
              ws->X + K * r, (int)K, ws->Y, (int)K, 0, Aq + r, (int)C);
    if (want_k)
      LA_GEMM(CblasColMajor, CblasTrans, CblasNoTrans, (int)(r1 - r), (int)r, (int)K, 1,
              ws->Xk + K * r, (int)K, ws->Y, (int)K, 0, M + r, (int)C);
  }
}

/* A_raw = Diag(beta) M (strictly lower, zero elsewhere) into ws->Araw. */
static inline void LA_FN(chunk_araw)(ptrdiff_t c, const real_t *M, const real_t *beta,
                                     LA_FN(chunk_ws) *ws)
{
  const ptrdiff_t C = ws->C;
  ptrdiff_t i, j;
  for (j = 0; j < c; j++)
    for (i = 0; i < c; i++) ws->Araw[i + C * j] = i > j ? beta[i] * M[i + C * j] : 0;
}

/* Everything intra-chunk: the decays and gated q, k always; with LA_CI_AQK
 * Aqk; with LA_CI_WU M, A_raw, A (ws->Am), w and u. */
static inline void LA_FN(chunk_intra)(const la_problem *p, ptrdiff_t c, const real_t *q,
                                      const real_t *k, const real_t *v, const real_t *g,
                                      const real_t *beta, int what, LA_FN(chunk_ws) *ws)
{
  const ptrdiff_t K = p->K, V = p->V, C = ws->C;
  ptrdiff_t i, j, x;

  LA_FN(chunk_decays)(p, c, g, ws);
  for (i = 0; i < c; i++)
    for (x = 0; x < K; x++) {
      ws->QG[x + K * i] = ws->eG[x + K * i] * q[x + K * i];
      ws->KG[x + K * i] = ws->eG[x + K * i] * k[x + K * i];
      ws->KC[x + K * i] = ws->eGc[x + K * i] * k[x + K * i];
    }
  LA_FN(chunk_gated_products)(p, c, q, k, what, ws);
  if (!(what & LA_CI_WU)) return;
  LA_FN(chunk_araw)(c, ws->M, beta, ws);

  /* A = L^{-1} Diag(beta) by forward substitution (trsm on a c x c block),
   * then w = A KG and u = A v as GEMMs (stored: KG A^T, v A^T) */
  for (j = 0; j < c; j++)
    for (i = 0; i < c; i++) ws->Am[i + C * j] = i == j ? beta[i] : 0;
  LA_TRSM(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, (int)c, (int)c, 1,
          ws->Araw, (int)C, ws->Am, (int)C);
  LA_GEMM(CblasColMajor, CblasNoTrans, CblasTrans, (int)K, (int)c, (int)c, 1, ws->KG, (int)K,
          ws->Am, (int)C, 0, ws->w, (int)K);
  LA_GEMM(CblasColMajor, CblasNoTrans, CblasTrans, (int)V, (int)c, (int)c, 1, v, (int)V, ws->Am,
          (int)C, 0, ws->u, (int)V);
}

#include "la_tmpl_end.h"
