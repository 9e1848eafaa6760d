/*
 * la_options.h -- the one table of the public functions' options.
 *
 * Everything else is derived from this list: the gateway's parser (name
 * matching, value checks, the "unknown option" message), the option query
 * la_mex('options') that the Octave tests compare with each wrapper's help
 * text and with docs/api.md.  Adding an option: one row here, the code that
 * uses its value, and `make sync-options`, which writes the table into the
 * help of the functions that take it and into docs/api.md (a test fails
 * until those agree).
 *
 *   X(ID, NAME, KIND, DEFAULT, FUNCS, DESCRIPTION)
 *     ID           suffix of the enum constant LA_OPT_<ID>
 *     NAME         the documented name (matched case-insensitively; an
 *                  unambiguous prefix is accepted)
 *     KIND         how the value is checked (la_opt_kind below)
 *     DEFAULT      the default, as text for help and docs
 *     FUNCS        the functions that accept it (LA_F_* bits)
 *     DESCRIPTION  one line
 */
#ifndef LA_OPTIONS_H
#define LA_OPTIONS_H

/* The public functions, one bit each: the eight paths, then the state maps
 * (LA_F_PATHS: the eight). */
enum {
  LA_F_KDA_RECURRENT = 1 << 0,
  LA_F_KDA_RECURRENT_BWD = 1 << 1,
  LA_F_KDA_CHUNK = 1 << 2,
  LA_F_KDA_CHUNK_BWD = 1 << 3,
  LA_F_GDN_RECURRENT = 1 << 4,
  LA_F_GDN_RECURRENT_BWD = 1 << 5,
  LA_F_GDN_CHUNK = 1 << 6,
  LA_F_GDN_CHUNK_BWD = 1 << 7,
  LA_F_KDA_STATE_MAP = 1 << 8,
  LA_F_KDA_STATE_MAP_BWD = 1 << 9,
  LA_F_GDN_STATE_MAP = 1 << 10,
  LA_F_GDN_STATE_MAP_BWD = 1 << 11,
  LA_F_PATHS = 0xff,
  LA_F_ALL = 0xfff,
  LA_F_CHUNK_FWD = LA_F_KDA_CHUNK | LA_F_GDN_CHUNK,
  LA_F_CHUNK_BWD = LA_F_KDA_CHUNK_BWD | LA_F_GDN_CHUNK_BWD,
  LA_F_CHUNK = LA_F_CHUNK_FWD | LA_F_CHUNK_BWD,
  LA_F_RECURRENT_FWD = LA_F_KDA_RECURRENT | LA_F_GDN_RECURRENT,
  LA_F_GDN = LA_F_GDN_RECURRENT | LA_F_GDN_RECURRENT_BWD | LA_F_GDN_CHUNK | LA_F_GDN_CHUNK_BWD
};

/* How an option's value is checked. */
typedef enum la_opt_kind {
  LA_KIND_POSITIVE,   /* real scalar, finite and > 0 (la_problem_check)    */
  LA_KIND_NEGATIVE,   /* real scalar, finite and < 0 (la_problem_check); [] = not given */
  LA_KIND_NONNEG,     /* real scalar, finite and >= 0 (la_problem_check)   */
  LA_KIND_POSINT,     /* positive integer scalar                           */
  LA_KIND_FLAG,       /* logical or numeric scalar: true / false           */
  LA_KIND_ARRAY,      /* real float array (single or double); [] = not given */
  LA_KIND_CUSEQLENS,  /* vector of increasing integers 0 .. T; [] = none   */
  LA_KIND_INTEGERS,   /* real numeric array (any class) of integers; [] = not given */
  LA_KIND_CHOICE      /* a string row vector; the values allowed are checked
                         where the option is used (StateLayout: KV, VK;
                         Emulate: none, bf16, fp16) */
} la_opt_kind;

#define LA_OPTION_TABLE(X)                                                                    \
  X(SCALE, "Scale", LA_KIND_POSITIVE, "1/sqrt(K)", LA_F_PATHS,                                  \
    "the factor of q: o_t = S_t' (Scale q_t); finite and > 0")                               \
  X(INITIAL_STATE, "InitialState", LA_KIND_ARRAY, "zeros", LA_F_PATHS,                        \
    "S_0, K x V x HV x N (V x K x HV x N with 'VK'); single or double")                      \
  X(CU_SEQLENS, "CuSeqlens", LA_KIND_CUSEQLENS, "none", LA_F_ALL,                             \
    "[0, t1, ..., T]: splits a batch of one into N independent sequences")                   \
  X(CHUNK_SIZE, "ChunkSize", LA_KIND_POSINT, "64", LA_F_ALL,                                  \
    "chunk size (chunked), checkpoint interval (recurrent backward); no effect in the recurrent forward") \
  X(USE_QK_L2NORM, "UseQKL2Norm", LA_KIND_FLAG, "false", LA_F_ALL,                            \
    "divide every q_t and k_t by its 2-norm over K first")                                   \
  X(L2NORM_EPS, "L2NormEps", LA_KIND_NONNEG, "0", LA_F_ALL,                                      \
    "'UseQKL2Norm' divides by sqrt(sum x^2 + eps) (FLA: 1e-6); finite and >= 0")            \
  X(GATE_IN_KERNEL, "GateInKernel", LA_KIND_FLAG, "false", LA_F_ALL,                          \
    "g is raw: gate = -exp(ALog) softplus(g + DtBias), or LowerBound sigmoid(exp(ALog) (g + DtBias))") \
  X(A_LOG, "ALog", LA_KIND_ARRAY, "none", LA_F_ALL,                                           \
    "HV values: the log decay rate of 'GateInKernel'; optional with LowerBound")             \
  X(DT_BIAS, "DtBias", LA_KIND_ARRAY, "zeros", LA_F_ALL,                                      \
    "K x HV (KDA) or HV (GDN): the bias of 'GateInKernel'")                                  \
  X(LOWER_BOUND, "LowerBound", LA_KIND_NEGATIVE, "none", LA_F_ALL,                            \
    "lb < 0: 'GateInKernel' uses lb sigmoid(...) instead of the softplus form")              \
  X(SAFE_GATE, "SafeGate", LA_KIND_FLAG, "false", LA_F_ALL,                                   \
    "FLA's safe_gate: needs LowerBound in [-5, 0); without GateInKernel g must lie in [LowerBound, 0)") \
  X(BETA_SIGMOID, "BetaSigmoid", LA_KIND_FLAG, "false", LA_F_ALL,                             \
    "beta is a logit: beta_t = sigmoid(beta)")                                               \
  X(ALLOW_NEG_EIGVAL, "AllowNegEigval", LA_KIND_FLAG, "false", LA_F_ALL,                      \
    "with 'BetaSigmoid': beta_t = 2 sigmoid(beta), in (0, 2)")                               \
  X(STATE_LAYOUT, "StateLayout", LA_KIND_CHOICE, "'KV'", LA_F_ALL,                            \
    "'KV' or 'VK': states (InitialState, S, dS, dS0) are K x V or V x K per head")           \
  X(GK, "GK", LA_KIND_ARRAY, "none", LA_F_GDN,                                               \
    "K x T x HV x B log gate per key (FLA's gk): S' = Diag(exp(g + GK)) S Diag(exp(GV)); recurrent paths only") \
  X(GV, "GV", LA_KIND_ARRAY, "none", LA_F_GDN,                                               \
    "V x T x HV x B log gate per value (FLA's gv), with GK's formula; recurrent paths only")  \
  X(SLOTS, "Slots", LA_KIND_INTEGERS, "none", LA_F_RECURRENT_FWD,                           \
    "a state pool's slots (FLA's ssm_state_indices; from 1, 0 = padding): N, or Tmax x N per step; InitialState is the pool, K x V x HV x slots") \
  X(ACCEPTED_TOKENS, "AcceptedTokens", LA_KIND_INTEGERS, "none", LA_F_RECURRENT_FWD,         \
    "N counts (FLA's num_accepted_tokens): sequence n starts from slot Slots(AcceptedTokens(n), n)") \
  X(UPDATE_POOL, "UpdatePool", LA_KIND_FLAG, "true", LA_F_RECURRENT_FWD,                           \
    "with Slots: S is the pool with each step's state in its slot (FLA's inplace_final_state); false: S is every step's state, K x V x HV x T x B") \
  X(INTERMEDIATES, "Intermediates", LA_KIND_FLAG, "false", LA_F_CHUNK_FWD | LA_F_CHUNK_BWD,   \
    "return the per-chunk quantities of the derivation (or their gradients) in aux")        \
  X(EMULATE, "Emulate", LA_KIND_CHOICE, "'none'", LA_F_CHUNK,                                 \
    "'bf16' or 'fp16': round inputs and stored intermediates to that format, work in single")

enum {
#define LA_OPT_ENUM(ID, NAME, KIND, DEF, FUNCS, DESC) LA_OPT_##ID,
  LA_OPTION_TABLE(LA_OPT_ENUM)
#undef LA_OPT_ENUM
  LA_OPT_COUNT
};

#endif
