/*
 * la_chunk_bwd_impl.h -- template: the chunked backward (docs/chunk_backward.md).
 *
 * Per (sequence, value head): a forward sweep forms every chunk's M, A, w,
 * v_new (la_chunk_common_impl.h) and keeps them with the state entering each
 * chunk (cbwd_store); a reverse sweep then, chunk by chunk, recomputes only
 * the decays and Aqk and back-propagates through
 *   v_new = u - w S,   o = scale QG S + Aqk v_new,   S' = Diag(gamma) S + KC^T v_new,
 *   w = A KG,  u = A v,  A = (I + A_raw)^{-1} Diag(beta),  A_raw = Diag(beta) M,
 * the gated products M, Aqk (sub-block scheme of the forward, so every decay
 * factor stays <= 1) and the cumulative gate (each term added to the steps it
 * depends on: docs/chunk_backward.md (46b)).
 * Stored forms: a K x c (V x c) block holds one step per column, i.e. the
 * transpose of the math's row matrix; the comments give the math form.
 */
#include "la_chunk_common_impl.h"
#include "la_tmpl.h"

/* Gradient buffers of one chunk (stored forms). */
typedef struct {
  real_t *dS, *vnew, *dvn;                 /* K x V, V x C, V x C              */
  real_t *dAqk, *Y, *dL;                   /* C x C                            */
  real_t *dQG, *dW;                       /* K x 2C: dQG then dw (dw = dQG + K c) */
  real_t *Z, *QGw;                         /* V x 2C [scale dO, -dv_new]; K x 2C [QG, w] */
  real_t *dKC, *dKG;                       /* K x C                            */
  real_t *dQr, *dKr, *dKc, *tmp, *dG;      /* K x C                            */
  real_t *dGp, *dGc, *rowt, *bsum, *pass;  /* K x C  gate gradient of M, Aqk   */
  real_t *dgam, *e;                        /* K                                */
} LA_FN(cbwd_ws);

static size_t LA_FN(cbwd_ws_size)(ptrdiff_t K, ptrdiff_t V, ptrdiff_t C)
{
  return (size_t)(K * V + 4 * V * C + 3 * C * C + 16 * K * C + 2 * K);
}

static void LA_FN(cbwd_ws_init)(LA_FN(cbwd_ws) *b, real_t *buf, ptrdiff_t K, ptrdiff_t V,
                                ptrdiff_t C)
{
  b->dS = buf; buf += K * V;
  b->vnew = buf; buf += V * C;
  b->dvn = buf; buf += V * C;
  b->dAqk = buf; buf += C * C;
  b->Y = buf; buf += C * C;
  b->dL = buf; buf += C * C;
  b->dQG = buf; buf += 2 * K * C;
  b->dW = b->dQG + K * C;
  b->Z = buf; buf += 2 * V * C;
  b->QGw = buf; buf += 2 * K * C;
  b->dKC = buf; buf += K * C;
  b->dKG = buf; buf += K * C;
  b->dQr = buf; buf += K * C;
  b->dKr = buf; buf += K * C;
  b->dKc = buf; buf += K * C;
  b->tmp = buf; buf += K * C;
  b->dG = buf; buf += K * C;
  b->dGp = buf; buf += K * C;
  b->dGc = buf; buf += K * C;
  b->rowt = buf; buf += K * C;
  b->bsum = buf; buf += K * C;
  b->pass = buf; buf += K * C;
  b->dgam = buf; buf += K;
  b->e = buf;
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
static void LA_FN(cbwd_gated_products)(const la_problem *p, ptrdiff_t c, const real_t *q,
                                       const real_t *k, const real_t *dAqk, const real_t *dM,
                                       LA_FN(chunk_ws) *ws, LA_FN(cbwd_ws) *b)
{
  const ptrdiff_t K = p->K, C = ws->C, nblk = (c + LA_SUB - 1) / LA_SUB;
  const real_t scale = (real_t)p->scale;
  real_t *e = b->e;
  ptrdiff_t r, i, j, x, bb;

  memset(b->dQr, 0, sizeof(real_t) * (size_t)(K * c));
  memset(b->dKr, 0, sizeof(real_t) * (size_t)(K * c));
  memset(b->dKc, 0, sizeof(real_t) * (size_t)(K * c));
  memset(b->dGp, 0, sizeof(real_t) * (size_t)(K * c));
  memset(b->dGc, 0, sizeof(real_t) * (size_t)(K * c));
  memset(b->pass, 0, sizeof(real_t) * (size_t)(K * nblk));
  for (r = 0; r < c; r += LA_SUB) {
    const ptrdiff_t r1 = r + LA_SUB < c ? r + LA_SUB : c, nb = r1 - r, bi = r / LA_SUB;
    /* diagonal sub-block, pair by pair with the running product e_ij */
    for (j = r; j < r1; j++) {
      const real_t *kj = k + K * j;
      real_t *dkc = b->dKc + K * j;
      for (x = 0; x < K; x++) e[x] = 1;
      for (i = j + 1; i < r1; i++) {
        const real_t *ai = ws->a + K * i, *qi = q + K * i, *ki = k + K * i;
        const real_t cq = scale * dAqk[i + C * j], cm = dM[i + C * j];
        real_t *dqr = b->dQr + K * i, *dkr = b->dKr + K * i, *P = b->tmp + K * (i - r);
        for (x = 0; x < K; x++) e[x] *= ai[x];
#pragma omp simd
        for (x = 0; x < K; x++) {
          const real_t kje = kj[x] * e[x], ce = (cq * qi[x] + cm * ki[x]) * e[x];
          dqr[x] += cq * kje;
          dkr[x] += cm * kje;
          dkc[x] += ce;
          P[x] = ce * kj[x];
        }
      }
      /* P_ij reaches dg_t for j < t <= i: reverse running sum over i */
      for (x = 0; x < K; x++) e[x] = 0;
      for (i = r1 - 1; i > j; i--) {
        const real_t *P = b->tmp + K * (i - r);
        real_t *dgp = b->dGp + K * i;
        for (x = 0; x < K; x++) {
          e[x] += P[x];
          dgp[x] += e[x];
        }
      }
    }
    if (r == 0) continue;
    /* off-diagonal: rows [r, r1) against columns [0, r) through the
     * reference r: X = scale q .* E, Xk = k .* E, Y = k .* F */
    LA_FN(chunk_block_scale)(K, r, r1, q, k, scale, ws);
    /* dQr(:,I) += E .* (Y dAqk(I,0:r)^T) scale;  dKr(:,I) += E .* (Y dM(I,0:r)^T);
     * row terms rowt_i = q_i .* (dQr part) + k_i .* (dKr part) */
    LA_GEMM(CblasColMajor, CblasNoTrans, CblasTrans, (int)K, (int)nb, (int)r, scale, ws->Y,
            (int)K, dAqk + r, (int)C, 0, b->tmp, (int)K);
    for (i = 0; i < nb; i++)
      for (x = 0; x < K; x++) {
        const real_t d = ws->E[x + K * (r + i)] * b->tmp[x + K * i];
        b->dQr[x + K * (r + i)] += d;
        b->rowt[x + K * i] = q[x + K * (r + i)] * d;
      }
    LA_GEMM(CblasColMajor, CblasNoTrans, CblasTrans, (int)K, (int)nb, (int)r, 1, ws->Y, (int)K,
            dM + r, (int)C, 0, b->tmp, (int)K);
    for (i = 0; i < nb; i++)
      for (x = 0; x < K; x++) {
        const real_t d = ws->E[x + K * (r + i)] * b->tmp[x + K * i];
        b->dKr[x + K * (r + i)] += d;
        b->rowt[x + K * i] += k[x + K * (r + i)] * d;
      }
    /* rows of I reach dg_t for r <= t <= i */
    for (x = 0; x < K; x++) e[x] = 0;
    for (i = nb - 1; i >= 0; i--)
      for (x = 0; x < K; x++) {
        e[x] += b->rowt[x + K * i];
        b->dGp[x + K * (r + i)] += e[x];
      }
    /* dKc(:,0:r) += F .* (X(:,I) dAqk(I,0:r) + Xk(:,I) dM(I,0:r)); column
     * terms k_j .* (that part) into dGc, and their sums per block J (bsum) */
    LA_GEMM(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)K, (int)r, (int)nb, 1, ws->X + K * r,
            (int)K, dAqk + r, (int)C, 0, b->tmp, (int)K);
    LA_GEMM(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)K, (int)r, (int)nb, 1, ws->Xk + K * r,
            (int)K, dM + r, (int)C, 1, b->tmp, (int)K);
    memset(b->bsum, 0, sizeof(real_t) * (size_t)(K * bi));
    for (j = 0; j < r; j++) {
      real_t *bs = b->bsum + K * (j / LA_SUB);
      for (x = 0; x < K; x++) {
        const real_t d = ws->F[x + K * j] * b->tmp[x + K * j], cj = k[x + K * j] * d;
        b->dKc[x + K * j] += d;
        b->dGc[x + K * j] += cj;
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

/* What the forward sweep keeps of every chunk for the reverse sweep, within
 * the memory bound O(T/C K V + T (K + V + C)): the entering state h, M and A
 * (C x c each), w (K x c) and v_new (V x c).  The reverse sweep then only
 * recomputes Aqk and the elementwise decays. */
typedef struct {
  real_t *h, *M, *A, *w, *vn;
} LA_FN(cbwd_store);

static size_t LA_FN(cbwd_store_size)(ptrdiff_t K, ptrdiff_t V, ptrdiff_t C, ptrdiff_t nc)
{
  return (size_t)(nc * (K * V + 2 * C * C + K * C + V * C));
}

static void LA_FN(cbwd_store_init)(LA_FN(cbwd_store) *st, real_t *buf, ptrdiff_t K, ptrdiff_t V,
                                   ptrdiff_t C, ptrdiff_t nc)
{
  st->h = buf; buf += nc * K * V;
  st->M = buf; buf += nc * C * C;
  st->A = buf; buf += nc * C * C;
  st->w = buf; buf += nc * K * C;
  st->vn = buf;
}

/* Point the chunk workspace at chunk ci's stored M, A, w, v_new (u shares
 * v_new's memory: v_new = u - w S is formed in place). */
static void LA_FN(cbwd_use_chunk)(const LA_FN(cbwd_store) *st, ptrdiff_t ci, LA_FN(chunk_ws) *ws,
                                  LA_FN(cbwd_ws) *b)
{
  const ptrdiff_t K = ws->K, V = ws->V, C = ws->C;
  ws->M = st->M + C * C * ci;
  ws->Am = st->A + C * C * ci;
  ws->w = st->w + K * C * ci;
  ws->u = b->vnew = st->vn + V * C * ci;
}

static void LA_FN(chunk_bwd_item)(const la_problem *p, const LA_FN(la_bwd_frame) *f,
                                  const la_bwd_io *io, ptrdiff_t n, ptrdiff_t hv,
                                  const LA_FN(cbwd_store) *st, LA_FN(chunk_ws) *ws,
                                  LA_FN(cbwd_ws) *b)
{
  const LA_FN(la_item) it = LA_FN(la_item_bwd)(p, f, io, n, hv);
  const la_seq s = it.s;
  const ptrdiff_t K = p->K, V = p->V, KV = p->K * p->V, C = p->chunk, GD = la_gate_dim(p);
  const real_t *q = it.q, *k = it.k, *v = it.v, *g = it.g, *beta = it.beta, *dout = it.dout;
  real_t *dq = it.dq, *dk = it.dk, *dv = it.dv, *dg = it.dg, *dbeta = it.dbeta;
  const real_t scale = (real_t)p->scale;
  const ptrdiff_t nc = (s.len + C - 1) / C;
  ptrdiff_t ci, i, j, x;

  /* forward sweep: the state entering every chunk, and M, A, w, v_new */
  LA_FN(la_state_load)(p, it.h0, st->h);
  for (ci = 0; ci < nc; ci++) {
    const ptrdiff_t t0 = ci * C, c = s.len - t0 < C ? s.len - t0 : C;
    real_t *S = st->h + KV * ci, *Sn = st->h + KV * (ci + 1);
    const real_t *gam;
    LA_FN(cbwd_use_chunk)(st, ci, ws, b);
    LA_FN(chunk_intra)(p, c, q + K * t0, k + K * t0, v + V * t0, g + GD * t0, beta + t0,
                       LA_CI_WU, ws);
    LA_GEMM(CblasColMajor, CblasTrans, CblasNoTrans, (int)V, (int)c, (int)K, -1, S, (int)K, ws->w,
            (int)K, 1, b->vnew, (int)V);
    if (ci + 1 == nc) break; /* no state after the last chunk is needed */
    gam = ws->eG + K * (c - 1);
    for (j = 0; j < V; j++)
      for (x = 0; x < K; x++) Sn[x + K * j] = gam[x] * S[x + K * j];
    LA_GEMM(CblasColMajor, CblasNoTrans, CblasTrans, (int)K, (int)V, (int)c, 1, ws->KC, (int)K,
            b->vnew, (int)V, 1, Sn, (int)K);
  }

  /* reverse sweep */
  LA_FN(la_state_load)(p, it.dht, b->dS);
  for (ci = nc - 1; ci >= 0; ci--) {
    const ptrdiff_t t0 = ci * C, c = s.len - t0 < C ? s.len - t0 : C;
    const real_t *S = st->h + KV * ci, *qc = q + K * t0, *kc = k + K * t0, *vc = v + V * t0;
    const real_t *dO = dout + V * t0, *bc = beta + t0, *gam;
    real_t *dS = b->dS;

    LA_FN(cbwd_use_chunk)(st, ci, ws, b);
    LA_FN(chunk_intra)(p, c, qc, kc, vc, g + GD * t0, bc, LA_CI_AQK, ws);
    LA_FN(chunk_araw)(c, ws->M, bc, ws);
    gam = ws->eG + K * (c - 1);

    /* dv_new = Aqk^T dO + KC dS'   (stored: dO Aqk + dS'^T KC) */
    LA_GEMM(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)V, (int)c, (int)c, 1, dO, (int)V,
            ws->Aqk, (int)C, 0, b->dvn, (int)V);
    LA_GEMM(CblasColMajor, CblasTrans, CblasNoTrans, (int)V, (int)c, (int)K, 1, dS, (int)K, ws->KC,
            (int)K, 1, b->dvn, (int)V);
    /* dAqk = tril(dO v_new^T) */
    LA_GEMM(CblasColMajor, CblasTrans, CblasNoTrans, (int)c, (int)c, (int)V, 1, dO, (int)V, b->vnew,
            (int)V, 0, b->dAqk, (int)C);
    for (j = 1; j < c; j++)
      for (i = 0; i < j; i++) b->dAqk[i + C * j] = 0;
    /* dQG = scale dO S^T and dw = -dv_new S^T share S: with Z = [scale dO,
     * -dv_new] (stored V x 2c), [dQG, dw] = S Z is one GEMM */
    for (i = 0; i < V * c; i++) {
      b->Z[i] = scale * dO[i];
      b->Z[V * c + i] = -b->dvn[i];
    }
    b->dW = b->dQG + K * c;
    LA_GEMM(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)K, (int)(2 * c), (int)V, 1, S, (int)K,
            b->Z, (int)V, 0, b->dQG, (int)K);
    /* dKC = v_new dS'^T,  dgamma = rowsum(dS' .* S) */
    LA_GEMM(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)K, (int)c, (int)V, 1, dS, (int)K,
            b->vnew, (int)V, 0, b->dKC, (int)K);
    for (x = 0; x < K; x++) b->dgam[x] = 0;
    for (j = 0; j < V; j++)
      for (x = 0; x < K; x++) b->dgam[x] += dS[x + K * j] * S[x + K * j];
    /* the state gradient for the previous chunk:
     * dS = Diag(gamma) dS' + scale QG^T dO - w^T dv_new = Diag(gamma) dS' + [QG, w] Z^T */
    for (j = 0; j < V; j++)
      for (x = 0; x < K; x++) dS[x + K * j] *= gam[x];
    memcpy(b->QGw, ws->QG, sizeof(real_t) * (size_t)(K * c));
    memcpy(b->QGw + K * c, ws->w, sizeof(real_t) * (size_t)(K * c));
    LA_GEMM(CblasColMajor, CblasNoTrans, CblasTrans, (int)K, (int)V, (int)(2 * c), 1, b->QGw,
            (int)K, b->Z, (int)V, 1, dS, (int)K);

    /* w = A KG, u = A v:  dA = dw KG^T + du v^T,  dKG = A^T dw,  dv = A^T du */
    LA_GEMM(CblasColMajor, CblasTrans, CblasNoTrans, (int)c, (int)c, (int)K, 1, b->dW, (int)K, ws->KG,
            (int)K, 0, b->Y, (int)C);
    LA_GEMM(CblasColMajor, CblasTrans, CblasNoTrans, (int)c, (int)c, (int)V, 1, b->dvn, (int)V, vc,
            (int)V, 1, b->Y, (int)C);
    LA_GEMM(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)K, (int)c, (int)c, 1, b->dW, (int)K,
            ws->Am, (int)C, 0, b->dKG, (int)K);
    LA_GEMM(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)V, (int)c, (int)c, 1, b->dvn, (int)V,
            ws->Am, (int)C, 0, dv + V * t0, (int)V);
    /* A = L^{-1} Diag(beta):  Y = L^{-T} dA,  dbeta_i = Y(i,i),  dL = -Y A^T */
    LA_TRSM(CblasColMajor, CblasLeft, CblasLower, CblasTrans, CblasUnit, (int)c, (int)c, 1, ws->Araw,
            (int)C, b->Y, (int)C);
    LA_GEMM(CblasColMajor, CblasNoTrans, CblasTrans, (int)c, (int)c, (int)c, -1, b->Y, (int)C,
            ws->Am, (int)C, 0, b->dL, (int)C);
    /* A_raw = Diag(beta) M (strictly lower): dbeta_i += sum_j dL(i,j) M(i,j),
     * dM = Diag(beta) dL; the upper part of dL is dropped */
    for (i = 0; i < c; i++) {
      real_t db = b->Y[i + C * i];
      for (j = 0; j < i; j++) {
        db += b->dL[i + C * j] * ws->M[i + C * j];
        b->dL[i + C * j] *= bc[i];
      }
      dbeta[t0 + i] = db;
    }
    for (j = 0; j < c; j++)
      for (i = 0; i <= j; i++) b->dL[i + C * j] = 0;

    /* gated products: dQr, dKr, dKc */
    LA_FN(cbwd_gated_products)(p, c, qc, kc, b->dAqk, b->dL, ws, b);

    /* collect dq, dk and the cumulative-gate gradient dG per step */
    for (i = 0; i < c; i++) {
      const real_t *eg = ws->eG + K * i, *egc = ws->eGc + K * i;
      const real_t *qi = qc + K * i, *ki = kc + K * i;
      real_t *dqi = dq + K * (t0 + i), *dki = dk + K * (t0 + i), *dGi = b->dG + K * i;
      const real_t *dQG = b->dQG + K * i, *dKG = b->dKG + K * i, *dKC = b->dKC + K * i;
      const real_t *dQr = b->dQr + K * i, *dKr = b->dKr + K * i, *dKc = b->dKc + K * i;
      const real_t cd = scale * b->dAqk[i + C * i]; /* the diagonal pair of Aqk */
#pragma omp simd
      for (x = 0; x < K; x++) {
        dqi[x] = eg[x] * dQG[x] + dQr[x] + cd * ki[x];
        dki[x] = eg[x] * dKG[x] + egc[x] * dKC[x] + dKr[x] + dKc[x] + cd * qi[x];
        dGi[x] = eg[x] * (qi[x] * dQG[x] + ki[x] * dKG[x]);   /* + dGp below */
      }
    }
    /* gamma = exp(G_last) depends on every step of the chunk */
    for (x = 0; x < K; x++) b->dG[x + K * (c - 1)] += gam[x] * b->dgam[x];
    /* G_i = g_0 + ... + g_i  =>  dg_t = sum_{i >= t} dG_i */
    for (i = c - 2; i >= 0; i--)
      for (x = 0; x < K; x++) b->dG[x + K * i] += b->dG[x + K * (i + 1)];
    /* KC_i = exp(G_last - G_i) k_i depends on the steps after i: add
     * sum_{i < t} KC_i .* dKC_i to dg_t directly (as an exclusive prefix sum,
     * not as +/- terms of dG that would cancel); and the gated products'
     * part dGp, final per step (see cbwd_gated_products) */
    for (x = 0; x < K; x++) b->e[x] = 0;
    for (i = 0; i < c; i++)
      for (x = 0; x < K; x++) {
        const real_t term = ws->eGc[x + K * i] * kc[x + K * i] * b->dKC[x + K * i];
        b->dG[x + K * i] += b->e[x] + b->dGp[x + K * i];
        b->e[x] += term;
      }
    if (p->kda) {
      memcpy(dg + K * t0, b->dG, sizeof(real_t) * (size_t)(K * c));
    } else {
      for (i = 0; i < c; i++) {
        real_t sum = 0;
        for (x = 0; x < K; x++) sum += b->dG[x + K * i];
        dg[t0 + i] = sum;
      }
    }
  }
  LA_FN(la_state_store)(p, b->dS, it.dh0);
}

int LA_FN(la_chunk_bwd)(const la_problem *p, const la_bwd_io *io)
{
  LA_FN(la_bwd_frame) f;
  const ptrdiff_t items = p->N * p->HV, K = p->K, V = p->V, C = p->chunk;
  ptrdiff_t it, n, maxnc = 1;
  int rc, fail = 0, saved;

  for (n = 0; n < p->N; n++) {
    const la_seq s = la_seq_of(p, n);
    if ((s.len + C - 1) / C > maxnc) maxnc = (s.len + C - 1) / C;
  }
  if (!la_workspace_ok(items, (double)sizeof(real_t) *
                                 ((double)LA_FN(cbwd_store_size)(K, V, C, maxnc) +
                                  (double)LA_FN(chunk_ws_size)(K, V, C) +
                                  (double)LA_FN(cbwd_ws_size)(K, V, C))))
    return LA_ENOMEM;
  rc = LA_FN(la_bwd_start)(p, io, &f);
  if (rc) return rc;
  saved = la_blas_threads_begin();
#pragma omp parallel
  {
    const size_t n1 = LA_FN(cbwd_store_size)(K, V, C, maxnc), n2 = LA_FN(chunk_ws_size)(K, V, C);
    const size_t n3 = LA_FN(cbwd_ws_size)(K, V, C);
    real_t *buf = la_alloc((ptrdiff_t)(n1 + n2 + n3), sizeof(real_t));
    LA_FN(cbwd_store) st;
    LA_FN(chunk_ws) ws;
    LA_FN(cbwd_ws) b;
    memset(&st, 0, sizeof st);
    memset(&ws, 0, sizeof ws);
    memset(&b, 0, sizeof b);
    if (!buf) {
#pragma omp atomic write
      fail = 1;
    } else {
      LA_FN(cbwd_store_init)(&st, buf, K, V, C, maxnc);
      LA_FN(chunk_ws_init)(&ws, buf + n1, K, V, C);
      LA_FN(cbwd_ws_init)(&b, buf + n1 + n2, K, V, C);
    }
#pragma omp for schedule(dynamic, 1)
    for (it = 0; it < items; it++)
      if (buf) LA_FN(chunk_bwd_item)(p, &f, io, it / p->HV, it % p->HV, &st, &ws, &b);
    free(buf);
  }
  la_blas_threads_end(saved);
  return LA_FN(la_bwd_end)(p, io, &f, fail);
}

#include "la_tmpl_end.h"
