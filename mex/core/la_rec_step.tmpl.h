/*
 * la_rec_step.tmpl.h -- template: one step of the recurrence, forward and
 * backward (docs/recurrence.md derives every line;
 * validation/tests/test_recurrent_bwd.m checks them).
 *
 * One step, per sequence and value head (a = exp(g_t), s = scale):
 *   S'  = Diag(a) S_{t-1}
 *   p   = S'^T k_t,   u = beta_t .* (v_t - p)    (beta_t: one value, or V)
 *   S_t = S' + k_t u^T
 *   o_t = s S_t^T q_t
 * S is K x V column-major, so each column S(:, j) is contiguous and the whole
 * step is one pass over the columns, each done in two vector loops.
 */

/* Columns are processed four at a time (LA_X4 repeats a statement for
 * c = 0..3) so the K-vectors a, k, q and the gradient accumulators are loaded
 * once per four columns; internally V is padded to V4 = 4 ceil(V/4) with zero
 * columns (zero state, v, do: they stay zero and contribute nothing). */
#define LA_X4(M) M(0) M(1) M(2) M(3)
/* u_j = beta_j (v_j - p_j) for column j + c of the block; beta_j is
 * beta[bs j]: bs = 0 for one write strength per step, 1 per channel */
#define LA_DELTA(c) u##c = beta[bs * (j + c)] * (v[j + c] - p##c);

/* One forward step from Sin to S (K x V4; the same array, or another: the
 * backward's recomputation writes each state next to the last without a
 * copy); v (and a per-channel beta) padded to V4; o (V4) may be NULL.
 * Two passes per block of four columns: the first only reads S
 * (p = S'^T k = S^T (a .* k)), the second writes S_t = a .* S + k u^T once:
 * the kernel is bound by stores, so S' is never stored. ak: K work. */
static inline void LA_FN(rec_step)(ptrdiff_t K, ptrdiff_t V4, const real_t *Sin, real_t *S,
                                   const real_t *restrict a, const real_t *restrict k,
                                   const real_t *restrict q, const real_t *restrict v,
                                   const real_t *restrict beta, ptrdiff_t bs, real_t scale,
                                   real_t *restrict o, real_t *restrict ak)
{
  ptrdiff_t i, j;
  LA_FLOPS(K + V4 * (o ? 7 * K + 3 : 5 * K + 2)); /* docs/flops.md (65) */
  for (i = 0; i < K; i++) ak[i] = a[i] * k[i];
  for (j = 0; j < V4; j += 4) {
    const real_t *i0 = Sin + K * j, *i1 = i0 + K, *i2 = i1 + K, *i3 = i2 + K;
    real_t *s0 = S + K * j, *s1 = s0 + K, *s2 = s1 + K, *s3 = s2 + K;
    real_t p0 = 0, p1 = 0, p2 = 0, p3 = 0, r0 = 0, r1 = 0, r2 = 0, r3 = 0, u0, u1, u2, u3;
#define LA_P(c) p##c += i##c[i] * ak[i];
#pragma omp simd simdlen(LA_SUM_LANES) reduction(+ : p0, p1, p2, p3)
    for (i = 0; i < K; i++) { LA_X4(LA_P) }
#undef LA_P
    LA_X4(LA_DELTA)
    if (o) {
#define LA_UPDATE_OUT(c) s##c[i] = a[i] * i##c[i] + k[i] * u##c; r##c += s##c[i] * q[i];
#pragma omp simd simdlen(LA_SUM_LANES) reduction(+ : r0, r1, r2, r3)
      for (i = 0; i < K; i++) { LA_X4(LA_UPDATE_OUT) }
#undef LA_UPDATE_OUT
#define LA_OUT(c) o[j + c] = scale * r##c;
      LA_X4(LA_OUT)
#undef LA_OUT
    } else {
#define LA_UPDATE(c) s##c[i] = a[i] * i##c[i] + k[i] * u##c;
#pragma omp simd
      for (i = 0; i < K; i++) { LA_X4(LA_UPDATE) }
#undef LA_UPDATE
    }
  }
}

/* ---- backward ---------------------------------------------------------------
 * Given dS = dL/dS_t (everything after step t already folded in) and do_t,
 * one reverse step produces dq_t, dk_t, dv_t, dbeta_t, dg_t and turns dS into
 * dL/dS_{t-1}.  Per column j, with S' = Diag(a) S_{t-1} (beta = beta_j with
 * a per-channel beta, whose dbeta_j is the column's own term):
 *   dS(:,j) += s q do_j                 (o_t = s S_t^T q)
 *   dq      += s S_t(:,j) do_j
 *   dk      += dS(:,j) u_j,   du_j = dS(:,j) . k        (S_t = S' + k u^T)
 *   dbeta   += du_j (v_j - p_j),  dv_j = beta du_j,  dp_j = -beta du_j
 *   dS'(:,j) = dS(:,j) + k dp_j,  dk += S'(:,j) dp_j     (p = S'^T k)
 *   dg      += dS'(:,j) .* S'(:,j)                       (S' = exp(g) .* S)
 *   dS(:,j)  = a .* dS'(:,j)
 */
static inline void LA_FN(rec_step_bwd)(ptrdiff_t K, ptrdiff_t V4, const real_t *restrict Sp,
                                       real_t *restrict dS, const real_t *restrict a,
                                       const real_t *restrict k, const real_t *restrict q,
                                       const real_t *restrict v, const real_t *restrict beta,
                                       ptrdiff_t bs, real_t scale,
                                       const real_t *restrict dout, real_t *restrict dq,
                                       real_t *restrict dk, real_t *restrict dv,
                                       real_t *restrict dgv, real_t *restrict dbeta,
                                       real_t *restrict ak)
{
  ptrdiff_t i, j;
  real_t db = 0, qk = 0;
  LA_FLOPS(3 * K + V4 * (20 * K + 10)); /* docs/flops.md (66) */
  for (i = 0; i < K; i++) {
    dq[i] = dk[i] = dgv[i] = 0;
    ak[i] = a[i] * k[i];
    qk += q[i] * k[i];
  }
  for (j = 0; j < V4; j += 4) {
    const real_t *restrict sp0 = Sp + K * j, *restrict sp1 = sp0 + K, *restrict sp2 = sp1 + K;
    const real_t *restrict sp3 = sp2 + K;
    real_t *restrict ds0 = dS + K * j, *restrict ds1 = ds0 + K, *restrict ds2 = ds1 + K;
    real_t *restrict ds3 = ds2 + K;
    const real_t d0 = scale * dout[j], d1 = scale * dout[j + 1], d2 = scale * dout[j + 2],
                 d3 = scale * dout[j + 3];
    real_t p0 = 0, p1 = 0, p2 = 0, p3 = 0, e0 = 0, e1 = 0, e2 = 0, e3 = 0;
    real_t u0, u1, u2, u3;
    /* read-only pass: p = S'^T k and dS^T k (dS before the output term) */
#define LA_P(c) p##c += sp##c[i] * ak[i]; e##c += ds##c[i] * k[i];
#pragma omp simd simdlen(LA_SUM_LANES) reduction(+ : p0, p1, p2, p3, e0, e1, e2, e3)
    for (i = 0; i < K; i++) { LA_X4(LA_P) }
#undef LA_P
    LA_X4(LA_DELTA)
    /* du = (dS + d q)^T k;  dbeta, dv;  then e = dp = -beta du */
#define LA_DU(c) { const real_t bc = beta[bs * (j + c)], dbc = (e##c += d##c * qk) * \
  (v[j + c] - p##c); if (bs) dbeta[j + c] = dbc; else db += dbc; dv[j + c] = bc * e##c; \
  e##c *= -bc; }
    LA_X4(LA_DU)
#undef LA_DU
    /* the one writing pass, per element of column c:
     *   S' = a sp,  S_t = S' + k u,  dS += d q   (o = s S_t^T q)
     *   dq += d S_t,  dk += dS u + S' dp
     *   dS' = dS + k dp,  dg += dS' S',  dS_{t-1} = a dS' */
#define LA_BWD(c) { const real_t spi = a[i] * sp##c[i], dsi = ds##c[i] + d##c * q[i]; \
  const real_t dsp = dsi + k[i] * e##c; \
  qa += d##c * (spi + k[i] * u##c); ka += dsi * u##c + spi * e##c; ga += dsp * spi; \
  ds##c[i] = a[i] * dsp; }
#pragma omp simd
    for (i = 0; i < K; i++) {
      real_t qa = 0, ka = 0, ga = 0;
      LA_X4(LA_BWD)
      dq[i] += qa;
      dk[i] += ka;
      dgv[i] += ga;
    }
#undef LA_BWD
  }
  if (!bs) *dbeta = db;
}
