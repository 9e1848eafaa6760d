/*
 * test_emulate.inc.c -- 'Emulate' at the core's entry points (included by
 * test_core.c: it uses its utilities), docs/emulation.md:
 *   emu      a C caller of la_chunk_fwd_s / _d and la_chunk_bwd_s / _d with
 *            p.emulate set gets, bit for bit, what the MEX gave before the
 *            core rounded the inputs itself: the inputs converted to float
 *            and q, k, v, g, beta, do rounded to the format (g and beta
 *            exact under tf32) by the caller, the float drivers
 *            (la_chunk_fwd_run_s, la_chunk_bwd_run_s: the intermediates'
 *            rounding only) run on them, the results widened to double.
 *            Every output: o, ht, every field of both aux structs, every
 *            gradient; double inputs not representable in float; bf16,
 *            fp16 and tf32.  The emulated results differ from the plain
 *            ones, and o is a value of the format.  The recurrent paths and
 *            the state maps answer LA_EARG to p.emulate.
 */
#include "la_emulate.h" /* la_chunk_fwd_run_s, la_chunk_bwd_run_s */

/* The outputs of one forward and one backward, in double: o, ht, the 9
 * float fields of la_chunk_aux, the 8 gradients, the 8 of la_chunk_bwd_aux. */
#define EMU_NOUT 27
static const char *const emu_names[EMU_NOUT] = {
    "o", "ht", "aux.G", "aux.A_raw", "aux.A", "aux.w", "aux.u", "aux.Aqk", "aux.h",
    "aux.v_new", "aux.cond", "dq", "dk", "dv", "dg", "dbeta", "dh0", "dA_log", "ddt_bias",
    "aux.dh", "aux.dv_new", "aux.du", "aux.dw", "aux.dAqk", "aux.dA", "aux.dA_raw", "aux.dG"};

typedef struct {
  double *x[EMU_NOUT];
  ptrdiff_t n[EMU_NOUT];
  int rc;
} emu_res;

/* The sizes of the outputs (la_core.h's layouts; p checked). */
static void emu_sizes(const tprob *P, const la_problem *p, ptrdiff_t n[EMU_NOUT])
{
  const ptrdiff_t NC = la_chunk_count(p), C = p->chunk, steps = p->T * p->HV * p->B;
  const ptrdiff_t st = p->K * p->V * p->HV * NC, rc = C * steps, rk = p->K * steps;
  const ptrdiff_t s[EMU_NOUT] = {P->nv, P->ns, P->ng, rc, rc, rk, P->nv, rc, st, P->nv,
                                 NC * p->HV, P->nq, P->nq, P->nv, P->ng, P->nb, P->ns,
                                 P->p.gate_in_kernel ? P->nal : 0,
                                 P->p.gate_in_kernel ? P->ndb : 0,
                                 st, P->nv, P->nv, rk, rc, rc, rc, P->ng};
  memcpy(n, s, sizeof s);
}

/* x (n doubles) in the class dbl; with round (the old gateway's part),
 * in float and rounded to the format fmt */
static void *emu_arg(const double *x, ptrdiff_t n, int dbl, int round, int fmt)
{
  void *a = to_class(x, n, dbl && !round);
  if (a && round) la_emulate_round(fmt, (float *)a, n);
  return a;
}

/* One emulated forward and backward of P on the inputs in (do = Wo, dht =
 * Ws given), format fmt.  recipe 0: the public entry points of class dbl;
 * recipe 1: the caller rounds and the float drivers run. */
static void emu_run(const tprob *P, const tin *in, const double *dout, const double *dht,
                    int fmt, int dbl, int recipe, emu_res *R)
{
  la_problem p = P->p;
  const int cd = dbl && !recipe, fgb = fmt == LA_EMULATE_TF32 ? LA_EMULATE_NONE : fmt;
  void *buf[EMU_NOUT];
  void *a[10];
  la_fwd_io fio;
  la_bwd_io bio;
  la_chunk_aux fa;
  la_chunk_bwd_aux ba;
  int i, rc;
  p.emulate = fmt;
  la_problem_check(&p, NULL);
  emu_sizes(P, &p, R->n);
  for (i = 0; i < EMU_NOUT; i++) /* o, ht, the gradients: NaN (all are written); aux: 0 */
    buf[i] = !R->n[i] ? NULL
             : (i < 2 || (i >= 11 && i < 19)) ? nan_class(R->n[i], cd)
                                              : xalloc(R->n[i], cd ? sizeof(double) : sizeof(float));
  a[0] = emu_arg(in->q, P->nq, dbl, recipe, fmt);
  a[1] = emu_arg(in->k, P->nq, dbl, recipe, fmt);
  a[2] = emu_arg(in->v, P->nv, dbl, recipe, fmt);
  a[3] = emu_arg(in->g, P->ng, dbl, recipe, fgb);
  a[4] = emu_arg(in->beta, P->nb, dbl, recipe, fgb);
  a[5] = emu_arg(in->A_log, P->nal, dbl, recipe, LA_EMULATE_NONE);
  a[6] = emu_arg(in->dt_bias, P->ndb, dbl, recipe, LA_EMULATE_NONE);
  a[7] = emu_arg(in->h0, P->ns, dbl, recipe, LA_EMULATE_NONE);
  a[8] = emu_arg(dout, P->nv, dbl, recipe, fmt);
  a[9] = emu_arg(dht, P->ns, dbl, recipe, LA_EMULATE_NONE);
  memset(&fio, 0, sizeof fio);
  memset(&bio, 0, sizeof bio);
  memset(&fa, 0, sizeof fa);
  memset(&ba, 0, sizeof ba);
  fio.q = bio.q = a[0]; fio.k = bio.k = a[1]; fio.v = bio.v = a[2];
  fio.g = bio.g = a[3]; fio.beta = bio.beta = a[4];
  fio.A_log = bio.A_log = a[5]; fio.dt_bias = bio.dt_bias = a[6]; fio.h0 = bio.h0 = a[7];
  bio.dout = a[8]; bio.dht = a[9];
  fio.o = buf[0]; fio.ht = buf[1];
  fa.G = buf[2]; fa.A_raw = buf[3]; fa.A = buf[4]; fa.w = buf[5]; fa.u = buf[6];
  fa.Aqk = buf[7]; fa.h = buf[8]; fa.v_new = buf[9]; fa.cond = buf[10];
  bio.dq = buf[11]; bio.dk = buf[12]; bio.dv = buf[13]; bio.dg = buf[14]; bio.dbeta = buf[15];
  bio.dh0 = buf[16]; bio.dA_log = buf[17]; bio.ddt_bias = buf[18];
  ba.dh = buf[19]; ba.dv_new = buf[20]; ba.du = buf[21]; ba.dw = buf[22];
  ba.dAqk = buf[23]; ba.dA = buf[24]; ba.dA_raw = buf[25]; ba.dG = buf[26];
  bio.aux = &ba;
  if (recipe) {
    rc = la_chunk_fwd_run_s(&p, &fio, &fa);
    rc = rc ? rc : la_chunk_bwd_run_s(&p, &bio);
  } else if (dbl) {
    rc = la_chunk_fwd_d(&p, &fio, &fa);
    rc = rc ? rc : la_chunk_bwd_d(&p, &bio);
  } else {
    rc = la_chunk_fwd_s(&p, &fio, &fa);
    rc = rc ? rc : la_chunk_bwd_s(&p, &bio);
  }
  R->rc = rc;
  for (i = 0; i < EMU_NOUT; i++) R->x[i] = from_class(buf[i], R->n[i], cd);
  for (i = 0; i < 10; i++) free(a[i]);
}

static void emu_free(emu_res *R)
{
  int i;
  for (i = 0; i < EMU_NOUT; i++) free(R->x[i]);
}

/* the first output of X that is not R's bits, or NULL */
static const char *emu_differs(const emu_res *R, const emu_res *X)
{
  int i;
  for (i = 0; i < EMU_NOUT; i++)
    if (R->n[i] && !same_bits(R->x[i], X->x[i], R->n[i])) return emu_names[i];
  return NULL;
}

/* x * (1 + 2^-30): a double input no float holds */
static double *emu_widen(const double *x, ptrdiff_t n)
{
  double *y = dcopy(x, n);
  ptrdiff_t i;
  for (i = 0; y && i < n; i++) y[i] += y[i] * 0x1p-30;
  return y;
}

static void emu_case(const tcfg *c)
{
  static const char *const fname[4] = {"none", "bf16", "fp16", "tf32"};
  tprob P;
  tin raw;
  double *dout, *dht;
  int fmt, i;
  make_problem(c, &P);
  P.p.chunk = 16;
  raw.q = emu_widen(P.in.q, P.nq); raw.k = emu_widen(P.in.k, P.nq);
  raw.v = emu_widen(P.in.v, P.nv); raw.g = emu_widen(P.in.g, P.ng);
  raw.beta = emu_widen(P.in.beta, P.nb); raw.A_log = emu_widen(P.in.A_log, P.nal);
  raw.dt_bias = emu_widen(P.in.dt_bias, P.ndb); raw.h0 = emu_widen(P.in.h0, P.ns);
  dout = emu_widen(P.Wo, P.nv);
  dht = emu_widen(P.Ws, P.ns);
  for (fmt = LA_EMULATE_BF16; fmt <= LA_EMULATE_TF32; fmt++) {
    emu_res ref, s, d, plain;
    const char *ws, *wd;
    int in_format = 1, differs = 0;
    emu_run(&P, &raw, dout, dht, fmt, 1, 1, &ref);
    emu_run(&P, &raw, dout, dht, fmt, 0, 0, &s);
    emu_run(&P, &raw, dout, dht, fmt, 1, 0, &d);
    emu_run(&P, &raw, dout, dht, LA_EMULATE_NONE, 0, 0, &plain);
    ws = emu_differs(&ref, &s);
    wd = emu_differs(&ref, &d);
    report(ref.rc == LA_OK && s.rc == LA_OK && !ws,
           "emu   %-28s %s chunk_fwd_s, chunk_bwd_s: the caller-rounded inputs' bits, every "
           "output (%s)", c->name, fname[fmt], ws ? ws : "all equal");
    report(ref.rc == LA_OK && d.rc == LA_OK && !wd,
           "emu   %-28s %s chunk_fwd_d, chunk_bwd_d: the same bits in double (%s)", c->name,
           fname[fmt], wd ? wd : "all equal");
    for (i = 0; i < P.nv; i++) {
      float f = (float)s.x[0][i];
      la_emulate_round(fmt, &f, 1);
      in_format = in_format && (double)f == s.x[0][i];
    }
    for (i = 0; i < P.nv; i++) differs = differs || plain.x[0][i] != s.x[0][i];
    report(plain.rc == LA_OK && in_format && differs,
           "emu   %-28s %s o is a value of the format, and not the plain o", c->name, fname[fmt]);
    emu_free(&ref); emu_free(&s); emu_free(&d); emu_free(&plain);
  }
  free_in(&raw);
  free(dout);
  free(dht);
  free_problem(&P);
}

/* The recurrent paths and the state maps take no 'Emulate'. */
static void emu_refusals(void)
{
  la_problem p = base_problem();
  la_fwd_io fio;
  la_bwd_io bio;
  la_map_fwd_io mf;
  la_map_bwd_io mb;
  int rc[8], i, all = 1;
  p.emulate = LA_EMULATE_BF16;
  memset(&fio, 0, sizeof fio);
  memset(&bio, 0, sizeof bio);
  memset(&mf, 0, sizeof mf);
  memset(&mb, 0, sizeof mb);
  rc[0] = la_recurrent_fwd_s(&p, &fio); rc[1] = la_recurrent_fwd_d(&p, &fio);
  rc[2] = la_recurrent_bwd_s(&p, &bio); rc[3] = la_recurrent_bwd_d(&p, &bio);
  rc[4] = la_state_map_fwd_s(&p, &mf); rc[5] = la_state_map_fwd_d(&p, &mf);
  rc[6] = la_state_map_bwd_s(&p, &mb); rc[7] = la_state_map_bwd_d(&p, &mb);
  for (i = 0; i < 8; i++) all = all && rc[i] == LA_EARG;
  report(all, "emu   the recurrent paths and the state maps answer LA_EARG to p.emulate");
}

static void test_emulate(void)
{
  static const tcfg ec[] = {
    {"kda all options varlen", 1, 12, 10, 45, 2, 4, 1, .ncu = 4, CU(0, 9, 10, 45), .l2 = 1,
     .gik = 1, .dtb = 1, .bsig = 1, .vk = 1, .h0 = 1, .gate = GATE_MIXED},
    {"gdn B=2 gik lb", 0, 16, 8, 37, 1, 2, 2, .gik = 1, .lb = 1, .h0 = 1},
    {"kda B=2 no h0", 1, 8, 12, 20, 1, 1, 2, .h0 = 0},
  };
  int i;
  for (i = 0; i < (int)(sizeof ec / sizeof ec[0]); i++) emu_case(&ec[i]);
  emu_refusals();
}
