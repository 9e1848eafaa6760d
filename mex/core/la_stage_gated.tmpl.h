/*
 * la_stage_gated.tmpl.h -- template: the gated products of one chunk and
 * their backward (docs/chunk_forward.md, docs/stability.md):
 *   M(i,j)   = k_i' Diag(exp(G_i - G_j)) k_j          (j < i; A_raw = Diag(beta) M)
 *   Aqk(i,j) = scale q_i' Diag(exp(G_i - G_j)) k_j    (j <= i)
 * The chunk is split into sub-blocks of LA_SUB rows: off the diagonal, rows
 * of block I and columns j before it meet at the reference r = first row of
 * I, exp(G_i - G_j) = exp(G_i - G_r) exp(G_r - G_j) with both factors <= 1,
 * and the block is one GEMM; on the diagonal the factor is formed per pair.
 */

/* Scaled copies for the off-diagonal sub-blocks of block row [r, r1),
 * nb = r1 - r rows, side by side in XXk = [X, Xk] (K x 2 nb):
 *   X(:,i-r)  = s q_i .* exp(G_i - G_r),  Xk(:,i-r) = k_i .* exp(G_i - G_r)  (i in [r, r1))
 *   KF(:,j)   = k_j .* exp(G_r - G_j)                                        (j < r)
 * and, with factors (the backward reads them), the factors themselves in
 * E(:,i), F(:,j).  Both factors are running products of decays, <= 1. */
static inline void LA_FN(chunk_block_scale)(ptrdiff_t K, ptrdiff_t r, ptrdiff_t r1,
                                            const real_t *restrict q, const real_t *restrict k,
                                            real_t scale, int factors, LA_FN(chunk_ws) *ws)
{
  const real_t *restrict a = ws->a;
  real_t *restrict f = ws->f, *restrict X = ws->XXk, *restrict Xk = ws->XXk + K * (r1 - r);
  real_t *restrict KF = ws->KF, *restrict E = ws->E, *restrict F = ws->F;
  ptrdiff_t i, j, x;
  for (i = r; i < r1; i++) {
    const ptrdiff_t o = K * i, ox = K * (i - r);
#pragma omp simd
    for (x = 0; x < K; x++) {
      const real_t e = i > r ? f[x] * a[o + x] : 1;
      f[x] = e;
      X[ox + x] = scale * q[o + x] * e;
      Xk[ox + x] = k[o + x] * e;
    }
    if (factors) memcpy(E + o, f, sizeof(real_t) * (size_t)K);
  }
  for (j = r - 1; j >= 0; j--) {
    const ptrdiff_t o = K * j, on = K * (j + 1);
#pragma omp simd
    for (x = 0; x < K; x++) {
      const real_t e = j + 1 < r ? f[x] * a[on + x] : a[on + x];
      f[x] = e;
      KF[o + x] = k[o + x] * e;
    }
    if (factors) memcpy(F + o, f, sizeof(real_t) * (size_t)K);
  }
}

/* Pairs (i, j) of the diagonal sub-block [r, r1), j <= i: exp(G_i - G_j) as
 * a running product over i of the decays (each factor <= 1).  Two columns
 * j, j1 = j + 1 at a time, two rows i at a time: one pass over the channels
 * serves eight dot products from four rows' loads and two running products
 * (f0, f1: K each); wider tiles would spill registers on AVX2.  Aq (want_q:
 * with the diagonal, times scale) and M (want_k: strictly lower) of ld C. */
static void LA_FN(gated_diag_block)(ptrdiff_t K, ptrdiff_t C, ptrdiff_t r, ptrdiff_t r1,
                                    const real_t *restrict q, const real_t *restrict k,
                                    const real_t *restrict a, real_t scale, int want_q,
                                    int want_k, real_t *restrict Aq, real_t *restrict M,
                                    real_t *restrict f)
{
  real_t *restrict f0 = f, *restrict f1 = f + K;
  ptrdiff_t i, j, x;
  LA_FLOPS(K * (r1 - r) * (5 * (r1 - r) - 1) / 2); /* 2K per j, 5K per pair */
  for (j = r; j < r1; j += 2) {
    const ptrdiff_t j1 = j + 1;
    const real_t *restrict kj = k + K * j, *restrict qj = q + K * j;
    const real_t *restrict kj1 = kj + K, *restrict qj1 = qj + K, *restrict aj1 = a + K * j1;
    real_t d0 = 0, d1 = 0, sq = 0, sk = 0;
    if (j1 == r1) { /* a last column alone: its diagonal pair only */
#pragma omp simd simdlen(LA_SUM_LANES) reduction(+ : d0)
      for (x = 0; x < K; x++) d0 += qj[x] * kj[x];
      if (want_q) Aq[j + C * j] = scale * d0;
      break;
    }
    /* pairs (j, j), (j1, j1), (j1, j); then f0 = k_j .* a_j1, f1 = k_j1 */
#pragma omp simd simdlen(LA_SUM_LANES) reduction(+ : d0, d1, sq, sk)
    for (x = 0; x < K; x++) {
      const real_t e = kj[x] * aj1[x];
      d0 += qj[x] * kj[x];
      d1 += qj1[x] * kj1[x];
      sq += qj1[x] * e;
      sk += kj1[x] * e;
      f0[x] = e;
      f1[x] = kj1[x];
    }
    if (want_q) {
      Aq[j + C * j] = scale * d0; Aq[j1 + C * j1] = scale * d1; Aq[j1 + C * j] = scale * sq;
    }
    if (want_k) M[j1 + C * j] = sk;
    for (i = j + 2; i < r1; i += 2) { /* rows i, i1 (i1 = i when i is the last) */
      const ptrdiff_t i1 = i + 1 < r1 ? i + 1 : i;
      const real_t *restrict a0 = a + K * i, *restrict a1 = a + K * i1;
      const real_t *restrict q0 = q + K * i, *restrict q1 = q + K * i1;
      const real_t *restrict k0 = k + K * i, *restrict k1 = k + K * i1;
      real_t sq00 = 0, sq01 = 0, sq10 = 0, sq11 = 0, sk00 = 0, sk01 = 0, sk10 = 0, sk11 = 0;
      if (i1 == i) {
#pragma omp simd simdlen(LA_SUM_LANES) reduction(+ : sq00, sq01, sk00, sk01)
        for (x = 0; x < K; x++) {
          const real_t e00 = f0[x] * a0[x], e01 = f1[x] * a0[x];
          sq00 += q0[x] * e00; sq01 += q0[x] * e01;
          sk00 += k0[x] * e00; sk01 += k0[x] * e01;
        }
      } else {
#pragma omp simd simdlen(LA_SUM_LANES) reduction(+ : sq00, sq01, sq10, sq11, sk00, sk01, sk10, sk11)
        for (x = 0; x < K; x++) {
          const real_t e00 = f0[x] * a0[x], e01 = f1[x] * a0[x];
          const real_t e10 = e00 * a1[x], e11 = e01 * a1[x];
          sq00 += q0[x] * e00; sq01 += q0[x] * e01; sq10 += q1[x] * e10; sq11 += q1[x] * e11;
          sk00 += k0[x] * e00; sk01 += k0[x] * e01; sk10 += k1[x] * e10; sk11 += k1[x] * e11;
          f0[x] = e10;
          f1[x] = e11;
        }
      }
      if (want_q) {
        Aq[i + C * j] = scale * sq00; Aq[i + C * j1] = scale * sq01;
        if (i1 > i) { Aq[i1 + C * j] = scale * sq10; Aq[i1 + C * j1] = scale * sq11; }
      }
      if (want_k) {
        M[i + C * j] = sk00; M[i + C * j1] = sk01;
        if (i1 > i) { M[i1 + C * j] = sk10; M[i1 + C * j1] = sk11; }
      }
    }
  }
}

/* Rows [r, r1) of Aq and M against the columns [0, r): X' KF and Xk' KF,
 * each one GEMM straight into its place (libxsmm does not pack KF, so a
 * joint GEMM of [X, Xk]' KF would save nothing but cost a copy). */
static void LA_FN(gated_offdiag)(ptrdiff_t K, ptrdiff_t C, ptrdiff_t r, ptrdiff_t r1, int want_q,
                                 int want_k, const LA_FN(chunk_ws) *ws, real_t *Aq, real_t *M)
{
  const ptrdiff_t nb = r1 - r;
  if (want_q) LA_GEMM('T', 'N', nb, r, K, 1, ws->XXk, K, ws->KF, K, 0, Aq + r, C);
  if (want_k) LA_GEMM('T', 'N', nb, r, K, 1, ws->XXk + K * nb, K, ws->KF, K, 0, M + r, C);
}

/* The gated products of one chunk: with LA_CI_WU or LA_CI_A M(i,j) =
 * k_i' Diag(exp(G_i - G_j)) k_j (strictly lower; A_raw = Diag(beta) M) into
 * ws->M, with LA_CI_AQK Aqk (lower with diagonal); the rest of the first c
 * rows of the first c columns is zeroed, rows past c are untouched.  With
 * neither asked for (the backward's reverse sweep) nothing is formed. */
static inline void LA_FN(chunk_gated_products)(const la_problem *p, ptrdiff_t c, const real_t *q,
                                               const real_t *k, int what, LA_FN(chunk_ws) *ws)
{
  const ptrdiff_t K = p->K, C = ws->C;
  const real_t scale = (real_t)p->scale;
  const int want_q = what & LA_CI_AQK, want_k = what & (LA_CI_WU | LA_CI_A);
  real_t *M = ws->M, *Aq = ws->Aqk;
  ptrdiff_t r, j;

  if (!want_q && !want_k) return;
  for (j = 0; j < c; j++) { /* the upper triangles: the blocks write the rest */
    if (want_k) memset(M + C * j, 0, sizeof(real_t) * (size_t)(j + 1));
    if (want_q) memset(Aq + C * j, 0, sizeof(real_t) * (size_t)j);
  }
  for (r = 0; r < c; r += LA_SUB) {
    const ptrdiff_t r1 = r + LA_SUB < c ? r + LA_SUB : c;
    LA_STAGE(LA_ST_DIAG, LA_FN(gated_diag_block)(K, C, r, r1, q, k, ws->a, scale, want_q,
                                                 want_k, Aq, M, ws->f));
    if (r == 0) continue;
    /* off-diagonal: rows [r, r1) against columns [0, r) */
    LA_STAGE(LA_ST_SCALE, LA_FN(chunk_block_scale)(K, r, r1, q, k, scale, 0, ws));
    LA_STAGE(LA_ST_OFFDIAG, LA_FN(gated_offdiag)(K, C, r, r1, want_q, want_k, ws, Aq, M));
  }
}

/* Backward of the gated products Aqk = scale tril(Q . K^T) and M = strict
 * tril(K . K^T) (each pair gated by e_ij = exp(G_i - G_j)), given their
 * cotangents dAqk and dM (ld C):
 *   dQr(:,i) = scale sum_{j<i} dAqk(i,j) k_j .* e_ij          (q_i's gradient)
 *   dKr(:,i) = sum_{j<i} dM(i,j) k_j .* e_ij                  (k_i as a row)
 *   dKc(:,j) = sum_{i>j} (scale dAqk(i,j) q_i + dM(i,j) k_i) .* e_ij  (k_j as a column)
 * The diagonal pairs (i = j, Aqk only, e_ii = 1) are left to the caller.
 *
 * The gate gradient.  Pair (i, j) contributes
 *   P_ij = (scale dAqk(i,j) q_i + dM(i,j) k_i) .* k_j .* e_ij
 * to dg_t for exactly the steps j < t <= i (the decays a_t inside e_ij).
 * Adding P_ij to dG_i, subtracting it from dG_j and taking the reverse
 * cumulative sum gives the same dg in exact arithmetic, but every pair that
 * does not span t then cancels in dg_t, leaving an absolute rounding error of
 * the size of the ungated pairs: it swamps dg_t when the gate at t is strong
 * (and dALog, which weighs dg by the gate itself).  So P_ij is added only
 * where it belongs, sorted by the sub-blocks (length LA_SUB) of i and j:
 *   - same sub-block: a reverse running sum over i for each j;
 *   - i in block I, j in an earlier block: t in I with t <= i, i.e. a
 *     reverse running sum of the row terms within I;
 *   - j in block J, i in a later block: t in J with t > j, a forward
 *     exclusive running sum of the column terms within J;
 *   - t in a block strictly between J and I: every such pair, through the
 *     block sums of the column terms (pass).
 * Each of these sums only adds terms that contain a_t.  Result: dGp(:,t),
 * the final contribution of M and Aqk to dg_t (no cumulative sum needed). */
/* Pairs inside the diagonal sub-block [r, r1). */
static void LA_FN(gated_bwd_diag)(const la_problem *p, ptrdiff_t r, ptrdiff_t r1, const real_t *q,
                                  const real_t *k, const real_t *dAqk, const real_t *dM,
                                  LA_FN(chunk_ws) *ws, LA_FN(cbwd_ws) *b)
{
  const ptrdiff_t K = p->K, C = ws->C;
  const real_t scale = (real_t)p->scale;
  real_t *e = b->e;
  ptrdiff_t i, j, x;

  /* diagonal sub-block, pair by pair with the running product e_ij */
  LA_FLOPS(13 * K * (r1 - r) * (r1 - r - 1) / 2); /* 11K per pair, 2K its running sum */
  for (j = r; j < r1; j++) {
    const real_t *restrict kj = k + K * j;
    real_t *restrict dkc = b->dKc + K * j, *restrict er = e;
    for (x = 0; x < K; x++) er[x] = 1;
    /* four rows i per pass: one pass over the channels updates the column
     * j's dKc and the running product once for four pairs (the same
     * operations, in the same order, as four passes) */
    for (i = j + 1; i + 3 < r1; i += 4) {
      const real_t *restrict a0 = ws->a + K * i, *restrict a1 = a0 + K, *restrict a2 = a1 + K,
                             *restrict a3 = a2 + K;
      const real_t *restrict q0 = q + K * i, *restrict q1 = q0 + K, *restrict q2 = q1 + K,
                             *restrict q3 = q2 + K;
      const real_t *restrict k0 = k + K * i, *restrict k1 = k0 + K, *restrict k2 = k1 + K,
                             *restrict k3 = k2 + K;
      const real_t cq0 = scale * dAqk[i + C * j], cq1 = scale * dAqk[i + 1 + C * j];
      const real_t cq2 = scale * dAqk[i + 2 + C * j], cq3 = scale * dAqk[i + 3 + C * j];
      const real_t cm0 = dM[i + C * j], cm1 = dM[i + 1 + C * j];
      const real_t cm2 = dM[i + 2 + C * j], cm3 = dM[i + 3 + C * j];
      real_t *restrict dq0 = b->dQr + K * i, *restrict dq1 = dq0 + K, *restrict dq2 = dq1 + K,
                       *restrict dq3 = dq2 + K;
      real_t *restrict dk0 = b->dKr + K * i, *restrict dk1 = dk0 + K, *restrict dk2 = dk1 + K,
                       *restrict dk3 = dk2 + K;
      real_t *restrict P0 = b->tmp + K * (i - r), *restrict P1 = P0 + K, *restrict P2 = P1 + K,
                       *restrict P3 = P2 + K;
#pragma omp simd
      for (x = 0; x < K; x++) {
        const real_t e0 = er[x] * a0[x], e1 = e0 * a1[x], e2 = e1 * a2[x], e3 = e2 * a3[x];
        const real_t kx = kj[x];
        const real_t ke0 = kx * e0, ke1 = kx * e1, ke2 = kx * e2, ke3 = kx * e3;
        const real_t ce0 = (cq0 * q0[x] + cm0 * k0[x]) * e0, ce1 = (cq1 * q1[x] + cm1 * k1[x]) * e1;
        const real_t ce2 = (cq2 * q2[x] + cm2 * k2[x]) * e2, ce3 = (cq3 * q3[x] + cm3 * k3[x]) * e3;
        er[x] = e3;
        dq0[x] += cq0 * ke0; dq1[x] += cq1 * ke1; dq2[x] += cq2 * ke2; dq3[x] += cq3 * ke3;
        dk0[x] += cm0 * ke0; dk1[x] += cm1 * ke1; dk2[x] += cm2 * ke2; dk3[x] += cm3 * ke3;
        dkc[x] = dkc[x] + ce0 + ce1 + ce2 + ce3;
        P0[x] = ce0 * kx; P1[x] = ce1 * kx; P2[x] = ce2 * kx; P3[x] = ce3 * kx;
      }
    }
    for (; i < r1; i++) {
      const real_t *restrict ai = ws->a + K * i, *restrict qi = q + K * i;
      const real_t *restrict ki = k + K * i;
      const real_t cq = scale * dAqk[i + C * j], cm = dM[i + C * j];
      real_t *restrict dqr = b->dQr + K * i, *restrict dkr = b->dKr + K * i;
      real_t *restrict P = b->tmp + K * (i - r);
#pragma omp simd
      for (x = 0; x < K; x++) {
        const real_t ex = er[x] * ai[x];
        const real_t kje = kj[x] * ex, ce = (cq * qi[x] + cm * ki[x]) * ex;
        er[x] = ex;
        dqr[x] += cq * kje;
        dkr[x] += cm * kje;
        dkc[x] += ce;
        P[x] = ce * kj[x];
      }
    }
    /* P_ij reaches dg_t for j < t <= i: reverse running sum over i */
    for (x = 0; x < K; x++) er[x] = 0;
    for (i = r1 - 1; i > j; i--) {
      const real_t *restrict P = b->tmp + K * (i - r);
      real_t *restrict dgp = b->dGp + K * i;
#pragma omp simd
      for (x = 0; x < K; x++) {
        er[x] += P[x];
        dgp[x] += er[x];
      }
    }
  }
}

/* The cotangents of rows [r, r1) left of them, stacked (ld 2 LA_SUB):
 * D = [scale dAqk(I, 0:r); dM(I, 0:r)], so that the rows and the columns
 * each take one GEMM for both products (D in ws->R, which the reverse
 * sweep does not otherwise use). */
static void LA_FN(gated_bwd_stack)(ptrdiff_t C, ptrdiff_t r, ptrdiff_t r1, real_t scale,
                                   const real_t *dAqk, const real_t *dM, real_t *D)
{
  const ptrdiff_t nb = r1 - r, ldd = 2 * LA_SUB;
  ptrdiff_t i, j;
  for (j = 0; j < r; j++)
    for (i = 0; i < nb; i++) {
      D[i + ldd * j] = scale * dAqk[r + i + C * j];
      D[nb + i + ldd * j] = dM[r + i + C * j];
    }
}

/* Rows [r, r1) against the columns [0, r) before them: dQr, dKr and the
 * row terms of dGp (D: gated_bwd_stack). */
static void LA_FN(gated_bwd_rows)(const la_problem *p, ptrdiff_t r, ptrdiff_t r1, const real_t *q,
                                  const real_t *k, const real_t *D, LA_FN(chunk_ws) *ws,
                                  LA_FN(cbwd_ws) *b)
{
  const ptrdiff_t K = p->K, nb = r1 - r;
  real_t *e = b->e;
  ptrdiff_t i, x;

  /* off-diagonal: rows [r, r1) against columns [0, r) through the
   * reference r: X = q .* E, Xk = k .* E, KF = k .* F */
  LA_FN(chunk_block_scale)(K, r, r1, q, k, 1, 1, ws);
  /* [dQr(:,I), dKr(:,I)] += E .* (KF D^T);
   * row terms rowt_i = q_i .* (dQr part) + k_i .* (dKr part) */
  LA_GEMM('N', 'T', K, 2 * nb, r, 1, ws->KF, K, D, 2 * LA_SUB, 0, b->tmp, K);
  for (i = 0; i < nb; i++) {
    const real_t *restrict E = ws->E + K * (r + i), *restrict tq = b->tmp + K * i,
                           *restrict tk = b->tmp + K * (nb + i);
    const real_t *restrict qi = q + K * (r + i), *restrict ki = k + K * (r + i);
    real_t *restrict dq = b->dQr + K * (r + i), *restrict dk = b->dKr + K * (r + i),
                     *restrict rt = b->rowt + K * i;
#pragma omp simd
    for (x = 0; x < K; x++) {
      const real_t d = E[x] * tq[x], dd = E[x] * tk[x];
      dq[x] += d;
      dk[x] += dd;
      rt[x] = qi[x] * d + ki[x] * dd;
    }
  }
  /* rows of I reach dg_t for r <= t <= i */
  for (x = 0; x < K; x++) e[x] = 0;
  for (i = nb - 1; i >= 0; i--)
    for (x = 0; x < K; x++) {
      e[x] += b->rowt[x + K * i];
      b->dGp[x + K * (r + i)] += e[x];
    }
}

/* Columns [0, r) against the rows [r, r1): dKc, the column terms dGc and
 * their block sums passed to the blocks in between. */
static void LA_FN(gated_bwd_cols)(const la_problem *p, ptrdiff_t r, ptrdiff_t r1, const real_t *k,
                                  const real_t *D, LA_FN(chunk_ws) *ws, LA_FN(cbwd_ws) *b)
{
  const ptrdiff_t K = p->K, nb = r1 - r, bi = r / LA_SUB;
  real_t *e = b->e;
  ptrdiff_t j, x, bb;

  /* dKc(:,0:r) += F .* ([X(:,I), Xk(:,I)] D), D = [scale dAqk(I,0:r);
   * dM(I,0:r)]; column terms k_j .* (that part) into dGc, and their sums
   * per block J (bsum) */
  LA_GEMM('N', 'N', K, r, 2 * nb, 1, ws->XXk, K, D, 2 * LA_SUB, 0, b->tmp, K);
  memset(b->bsum, 0, sizeof(real_t) * (size_t)(K * bi));
  for (j = 0; j < r; j++) { /* restrict: the buffers are distinct, so it vectorises */
    real_t *restrict bs = b->bsum + K * (j / LA_SUB);
    real_t *restrict dKc = b->dKc + K * j, *restrict dGc = b->dGc + K * j;
    const real_t *restrict F = ws->F + K * j, *restrict tm = b->tmp + K * j, *restrict kj = k + K * j;
#pragma omp simd
    for (x = 0; x < K; x++) {
      const real_t d = F[x] * tm[x], cj = kj[x] * d;
      dKc[x] += d;
      dGc[x] += cj;
      bs[x] += cj;
    }
  }
  /* pairs (i in I, j in J) reach every t of the blocks strictly between */
  for (x = 0; x < K; x++) e[x] = 0;
  for (bb = 1; bb < bi; bb++)
    for (x = 0; x < K; x++) {
      e[x] += b->bsum[x + K * (bb - 1)];
      b->pass[x + K * bb] += e[x];
    }
}

static void LA_FN(cbwd_gated_products)(const la_problem *p, ptrdiff_t c, const real_t *q,
                                  const real_t *k, const real_t *dAqk, const real_t *dM,
                                  LA_FN(chunk_ws) *ws, LA_FN(cbwd_ws) *b)
{
  const ptrdiff_t K = p->K, nblk = (c + LA_SUB - 1) / LA_SUB;
  real_t *e = b->e;
  ptrdiff_t r, j, x;

  memset(b->dQr, 0, sizeof(real_t) * (size_t)(K * c));
  memset(b->dKr, 0, sizeof(real_t) * (size_t)(K * c));
  memset(b->dKc, 0, sizeof(real_t) * (size_t)(K * c));
  memset(b->dGp, 0, sizeof(real_t) * (size_t)(K * c));
  memset(b->dGc, 0, sizeof(real_t) * (size_t)(K * c));
  memset(b->pass, 0, sizeof(real_t) * (size_t)(K * nblk));
  for (r = 0; r < c; r += LA_SUB) {
    const ptrdiff_t r1 = r + LA_SUB < c ? r + LA_SUB : c;
    LA_FN(gated_bwd_diag)(p, r, r1, q, k, dAqk, dM, ws, b);
    if (r == 0) continue;
    LA_FN(gated_bwd_stack)(ws->C, r, r1, (real_t)p->scale, dAqk, dM, ws->R);
    LA_FN(gated_bwd_rows)(p, r, r1, q, k, ws->R, ws, b);
    LA_FN(gated_bwd_cols)(p, r, r1, k, ws->R, ws, b);
  }
  /* columns j of block J reach dg_t for j < t within J; plus the pass sums */
  for (r = 0; r < c; r += LA_SUB) {
    const ptrdiff_t r1 = r + LA_SUB < c ? r + LA_SUB : c;
    const real_t *ps = b->pass + K * (r / LA_SUB);
    for (x = 0; x < K; x++) e[x] = 0;
    for (j = r; j < r1; j++)
      for (x = 0; x < K; x++) {
        b->dGp[x + K * j] += e[x] + ps[x];
        e[x] += b->dGc[x + K * j];
      }
  }
}
