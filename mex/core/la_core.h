/*
 * la_core.h -- public interface of the KDA / GDN core library.
 *
 * Plain C11, no Octave or MATLAB header.  Every algorithm exists once, written
 * against the type-generic macros of la_tmpl.h and compiled twice: the `_s`
 * entry points work in float, the `_d` ones in double.  All arrays are
 * column-major with the layouts of docs/api.md:
 *
 *   q, k                 K x T x H  x B
 *   v, o, do             V x T x HV x B
 *   g (KDA)              K x T x HV x B        g (GDN), beta:  T x HV x B
 *   h0, ht, dht, dh0     K x V x HV x N        (V x K x HV x N if state_vk)
 *   (beta V x T x HV x B with beta_per_channel; h0, ht a state pool or
 *   per-token states with slots: la_problem)
 *
 * Sequence n (0-based) is batch b = n, steps [0, T) when cu_seqlens is NULL,
 * and batch 0, steps [cu_seqlens[n], cu_seqlens[n+1]) otherwise.  Value head
 * hv reads q/k head hv / (HV / H).
 *
 * The entry points never allocate more than O(work items x workspace) and
 * return LA_ENOMEM when an allocation fails; they never abort.
 */
#ifndef LA_CORE_H
#define LA_CORE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status of every entry point.  LA_ENOMEM: an allocation failed, a size
 * overflowed, or the workspace exceeds the memory available; LA_EARG: the
 * problem is invalid (la_problem_check says why); LA_EINTR: the caller's
 * interrupt callback asked to stop (everything allocated is freed). */
enum { LA_OK = 0, LA_ENOMEM = 1, LA_EARG = 2, LA_EINTR = 3 };

/* la_problem.emulate: the storage format a GPU kernel is emulated in
 * (la_round.h rounds to it; the core rounds inputs and intermediates
 * itself); TF32: a float32 kernel whose dots take 10-bit-mantissa operands
 * (Triton's default), its inputs g, beta exact. */
enum { LA_EMULATE_NONE = 0, LA_EMULATE_BF16 = 1, LA_EMULATE_FP16 = 2, LA_EMULATE_TF32 = 3 };

/* Chunk size (chunk paths) and checkpoint interval (recurrent backward)
 * when the caller gives none (la_problem.chunk == 0). */
#define LA_DEFAULT_CHUNK 64

/* What is computed: sizes, options.  Filled by the caller (the MEX gateway
 * or the C test); every entry point validates a copy with la_problem_check
 * first (LA_EARG if it fails) and works with its defaults and clipping. */
typedef struct la_problem {
  ptrdiff_t K, V, T, H, HV, B;
  ptrdiff_t N;                  /* number of sequences: B, or numel(cu)-1  */
  const int64_t *cu_seqlens;    /* N+1 offsets (B == 1), or NULL           */
  int kda;                      /* 1: per-channel gate (KDA); 0: scalar (GDN) */
  double scale;                 /* o = S^T (scale q)                       */
  int qk_l2norm;                /* q, k divided by their L2 norm over K    */
  double l2norm_eps;            /* >= 0: qk_l2norm divides by
                                   sqrt(sum x^2 + l2norm_eps) (FLA: 1e-6)  */
  int gate_in_kernel;           /* g is raw; gate = f(g, A_log, dt_bias)   */
  int has_lower_bound;          /* use lower_bound * sigmoid(...) form     */
  double lower_bound;           /* < 0                                     */
  int safe_gate;                /* FLA's safe_gate: needs a lower bound in
                                   [-5, 0); without gate_in_kernel the
                                   caller checks g in [lower_bound, 0)     */
  int beta_sigmoid;             /* beta is a logit                         */
  int allow_neg_eigval;         /* beta_used = 2 sigmoid(beta)             */
  int state_vk;                 /* states stored V x K instead of K x V    */
  int emulate;                  /* LA_EMULATE_*: a GPU kernel of that
                                   format (docs/emulation.md).  The caller
                                   passes unrounded inputs in the entry
                                   point's class; the chunked entry points
                                   (_s and _d) round copies of q, k, v, g,
                                   beta, dout to the format (tf32: not g,
                                   beta), take h0, dht, A_log, dt_bias in
                                   float, compute in float, round the
                                   stored intermediates, o and the returned
                                   gradients, and give a double caller its
                                   outputs in double.  The recurrent paths
                                   and the state maps answer LA_EARG.      */
  ptrdiff_t chunk;              /* chunk size (chunk path) or checkpoint
                                   interval (recurrent backward); 0 means
                                   LA_DEFAULT_CHUNK (la_problem_check)     */
  /* Polled once per chunk (chunk paths), per checkpoint segment (recurrent
   * backward), every few steps of the recurrent forward (about 4M state
   * elements apart) and between blocks of the set-up loops (L2 norm,
   * copies, zero fills), from any thread, so it must be thread-safe; a
   * nonzero answer stops the call promptly: everything is freed, LA_EINTR.
   * NULL: never interrupted. */
  int (*interrupted)(void *ctx);
  void *interrupt_ctx;
  /* Decode as serving engines run it (docs/decode.md).
   * beta_per_channel: beta (and dbeta) hold one write strength per value
   * channel, V x T x HV x B like v (FLA's [B, T, HV, V]); recurrent paths
   * only (the others answer LA_EARG). */
  int beta_per_channel;
  /* A state pool (recurrent forward only): with slots, h0 is a pool of
   * pool_slots states (K x V x HV x pool_slots, NULL: zeros) and sequence n
   * starts from slot slots[slot_steps n + a - 1], a = accepted[n] (1
   * without accepted).  Slot numbers count from slot_base (FLA: 0, Octave:
   * 1); a number below it is padding.  A sequence whose starting slot is
   * padding is skipped: its o are zeros, nothing else is written.  With
   * inplace, ht is the pool (h0 itself, or a copy of it) and the state after
   * step t is written to slot slots[slot_steps n + t] (slot_steps == 1: to
   * slots[n], so it ends holding the final state) unless that is padding;
   * no other slot is touched.  Without inplace, ht receives the state after
   * every step, K x V x HV x T x B (state layout; zeros for a skipped
   * sequence).  la_problem_check refuses slots beyond the pool, accepted
   * counts outside [1, slot_steps], and (inplace) a slot written by two
   * sequences or written by one and read by another. */
  const int64_t *slots;         /* slot_steps x N, or NULL: no pool       */
  ptrdiff_t slot_steps;         /* 1, or >= the longest sequence          */
  int64_t slot_base;
  const int64_t *accepted;      /* N counts, or NULL                      */
  ptrdiff_t pool_slots;
  int inplace;
} la_problem;

/* Why la_problem_check refused a problem: an error identifier (without the
 * "kda:"/"gdn:" prefix: "badShape", "badCuSeqlens", "badOption",
 * "outOfMemory") and a message naming the la_problem field, written
 * `like_this` (a caller may name it in its own terms), and the values. */
typedef struct la_check {
  const char *id;
  char text[256];
} la_check;

/* Validate p and apply the core's rules in place: chunk 0 becomes
 * LA_DEFAULT_CHUNK; a chunk longer than the longest sequence becomes that
 * length (same results, bounded workspace).  LA_OK, or LA_EARG with *why
 * filled (why may be NULL).  Every entry point calls it first. */
int la_problem_check(la_problem *p, la_check *why);

/* Forward arguments.  Pointers are to the working class (float or double)
 * of the entry point called.  h0, dt_bias may be NULL (zeros). */
typedef struct la_fwd_io {
  const void *q, *k, *v, *g, *beta;
  const void *A_log;            /* HV, used when gate_in_kernel; may be
                                   NULL with has_lower_bound (A_log = 0)   */
  const void *dt_bias;          /* K x HV (KDA) or HV (GDN), or NULL       */
  const void *h0;               /* initial states, or NULL                 */
  const void *gk, *gv;          /* extra log gates of FLA's fused recurrent
                                   GDN, K x T x HV x B and V x T x HV x B,
                                   or NULL: S' = Diag(exp(g + gk)) S
                                   Diag(exp(gv)); recurrent paths only (the
                                   chunked ones answer LA_EARG)           */
  void *o;                      /* out: V x T x HV x B                     */
  void *ht;                     /* out: final states                       */
} la_fwd_io;

/* Backward arguments: the forward inputs, the output gradients, and the
 * gradient outputs (each the shape of its input).  dht may be NULL (zero).
 * dA_log and ddt_bias are written only when gate_in_kernel (ddt_bias is
 * always written then, even if dt_bias is NULL; dA_log not when A_log is
 * NULL). */
typedef struct la_bwd_io {
  const void *q, *k, *v, *g, *beta, *A_log, *dt_bias, *h0;
  const void *dout, *dht;
  void *dq, *dk, *dv, *dg, *dbeta, *dh0, *dA_log, *ddt_bias;
  const struct la_chunk_bwd_aux *aux;   /* chunked backward only, or NULL */
  const void *gk, *gv;          /* as in la_fwd_io (recurrent only)        */
  void *dgk, *dgv;              /* their gradients (written when given)    */
} la_bwd_io;

/* Per-chunk quantities of the chunked forward ('Intermediates').  Every
 * pointer is optional (NULL: not wanted).  Layouts, with C = chunk size:
 *   G      gate layout (K x T x HV x B, GDN: T x HV x B): cumulative gate
 *          inside the chunk, G_r = g_1 + ... + g_r
 *   A_raw, A, Aqk   C x T x HV x B: column t holds row i of the chunk's
 *          C x C matrix, where t is the i-th step of its chunk; entries for
 *          columns past the chunk's length are zero
 *   w      K x T x HV x B;   u, v_new   V x T x HV x B
 *   h      K x V x HV x NC: the state entering each chunk, chunks numbered
 *          sequence by sequence (always K x V, whatever state_vk says)
 *   chunk_seq, chunk_t0, chunk_len   NC entries each (0-based seq, start)
 *   cond   NC x HV: cond_1(I + A_raw) = ||I + A_raw||_1 ||(I + A_raw)^-1||_1
 *          of each chunk (exact, from the explicit inverse; c^3/3 flops)
 * la_chunk_count() gives NC. */
typedef struct la_chunk_aux {
  void *G, *A_raw, *A, *w, *u, *Aqk, *h, *v_new;
  void *cond;
  int64_t *chunk_seq, *chunk_t0, *chunk_len;
} la_chunk_aux;

/* Per-chunk quantities of the chunked backward ('Intermediates'), the
 * gradients of the forward's per-chunk quantities (docs/chunk_backward.md).
 * Every pointer is optional (NULL: not wanted); the layouts and chunk
 * numbering are those of la_chunk_aux:
 *   dh       K x V x HV x NC: gradient of the state entering each chunk
 *            (always K x V, whatever state_vk says)
 *   dv_new, du   V x T x HV x B (equal: u enters only through v_new)
 *   dw       K x T x HV x B
 *   dAqk, dA, dA_raw   C x T x HV x B, rows of the chunk's C x C gradient
 *            (dA_raw: strictly lower; dAqk: lower with the diagonal)
 *   dG       gate layout: gradient of the cumulative gate G of la_chunk_aux,
 *            dG_i = dg_i - dg_{i+1} inside a chunk (dg of the used gate),
 *            so that dg is its reverse cumulative sum */
typedef struct la_chunk_bwd_aux {
  void *dh, *dv_new, *du, *dw, *dAqk, *dA, *dA_raw, *dG;
} la_chunk_bwd_aux;

/* Bytes of memory available to this process now: MemAvailable, capped by
 * the room left under a cgroup limit (v2 or v1) and in the address space
 * under RLIMIT_AS (ulimit -v), free physical pages where none can be read;
 * -1 if unknown.  The core's workspace guard uses it;
 * callers size their own outputs against it. */
ptrdiff_t la_mem_available(void);

/* Totals up to this many bytes skip the look at the memory available (the
 * core's workspace guard and the gateway's output check): reading /proc and
 * /sys costs tens of microseconds, more than a whole decode step. */
#define LA_GUARD_MIN ((ptrdiff_t)16 << 20)

/* Free the workspaces the core keeps between calls (la_pool.c: one per
 * OpenMP thread and one shared, each up to 256 MB, reused by the next call
 * instead of fresh pages).  Waits for a call holding them to finish; the
 * next call allocates anew.  The MEX gateway calls it when it is cleared. */
void la_release(void);

/* Number of chunks over all sequences for chunk size p->chunk. */
ptrdiff_t la_chunk_count(const la_problem *p);

/* Recurrent (step by step) forward and backward. */
int la_recurrent_fwd_s(const la_problem *p, const la_fwd_io *io);
int la_recurrent_fwd_d(const la_problem *p, const la_fwd_io *io);
int la_recurrent_bwd_s(const la_problem *p, const la_bwd_io *io);
int la_recurrent_bwd_d(const la_problem *p, const la_bwd_io *io);

/* Chunked forward and backward (aux, io->aux may be NULL). */
int la_chunk_fwd_s(const la_problem *p, const la_fwd_io *io, const la_chunk_aux *aux);
int la_chunk_fwd_d(const la_problem *p, const la_fwd_io *io, const la_chunk_aux *aux);
int la_chunk_bwd_s(const la_problem *p, const la_bwd_io *io);
int la_chunk_bwd_d(const la_problem *p, const la_bwd_io *io);

/* The affine state map of each sequence (docs/state_map.md): the final
 * state is P S_0 + R for every initial state S_0.  P is K x K x HV x N (the
 * product of the steps' transition matrices, in the K x V convention), R is
 * the final state from S_0 = 0, in the state layout.  q is checked like the
 * other paths' but does not enter P or R.  The backward takes dP, dR (each
 * may be NULL: zero) and writes dk, dv, dg, dbeta (and dA_log, ddt_bias
 * when gate_in_kernel). */
typedef struct la_map_fwd_io {
  const void *q, *k, *v, *g, *beta, *A_log, *dt_bias;
  void *P, *R;
} la_map_fwd_io;

typedef struct la_map_bwd_io {
  const void *q, *k, *v, *g, *beta, *A_log, *dt_bias;
  const void *dP, *dR;
  void *dk, *dv, *dg, *dbeta, *dA_log, *ddt_bias;
} la_map_bwd_io;

int la_state_map_fwd_s(const la_problem *p, const la_map_fwd_io *io);
int la_state_map_fwd_d(const la_problem *p, const la_map_fwd_io *io);
int la_state_map_bwd_s(const la_problem *p, const la_map_bwd_io *io);
int la_state_map_bwd_d(const la_problem *p, const la_map_bwd_io *io);

/* ---- helpers for callers that size, round and check like the core -------
 * Checked sizes: 1 and *r = a + b (la_size_add), *r = d0 d1 d2 d3 elem
 * bytes (la_size_bytes4), or 0 when the result would not fit a ptrdiff_t. */
int la_size_add(ptrdiff_t a, ptrdiff_t b, ptrdiff_t *r);
int la_size_bytes4(ptrdiff_t d0, ptrdiff_t d1, ptrdiff_t d2, ptrdiff_t d3, size_t elem,
                   ptrdiff_t *r);
/* The rounding of 'Emulate' (la_round.h), in place: n floats to the format
 * emulate (LA_EMULATE_BF16, ...; LA_EMULATE_NONE leaves them).  The entry
 * points round their inputs themselves; this is for a caller that wants a
 * format's values. */
void la_emulate_round(int emulate, float *x, ptrdiff_t n);
/* beta as a step uses it (out = beta, or f sigmoid(beta) with f = 2 under
 * allow_neg_eigval, else 1, when beta_sigmoid): the core's own transform
 * (la_transform_beta.tmpl.h), n elements; out may be beta. */
void la_beta_used_s(const la_problem *p, ptrdiff_t n, const float *beta, float *out);
void la_beta_used_d(const la_problem *p, ptrdiff_t n, const double *beta, double *out);

/* ---- tuning, for tests and benches ----------------------------------------
 * Switches that choose among the chunked paths' schedules (same bits) or
 * forms of v_new (the same to rounding).  All zero, the default, is what a
 * caller gets.  Process-wide: set between calls, never during one. */
typedef struct la_tuning {
  int wy_form;    /* v_new = u - w S (FLA's WY form, docs/chunk_forward.md
                   * (31)) also without 'Emulate'; else A (v - KG S) */
  int fwd_phases; /* the chunked forward in two phases where it would run
                   * per item */
  int no_spread;  /* no worker placement before a parallel region */
  int bwd_no_ring; /* the chunked backward without its ring of tasks where
                    * a thread would be idle */
  int no_xsmm;     /* every product on BLAS in a build with libxsmm
                    * (la_xsmm.c); read at each product */
} la_tuning;

la_tuning la_get_tuning(void);
void la_set_tuning(const la_tuning *t); /* NULL: all zero */
/* One switch by its field name ("wy_form", ...): set it to value (a
 * negative value leaves it) and answer what it was; -1 for an unknown name. */
int la_tune(const char *name, int value);

#ifdef __cplusplus
}
#endif
#endif
