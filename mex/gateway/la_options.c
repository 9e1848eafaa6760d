/*
 * la_options.c -- the option table (la_options.h): one row per option.
 */
#include "la_options.h"

#include <math.h>

/* where a value goes: a field of the problem (named as the core names it
 * in its messages) or of the call */
#define IN_PROBLEM(f) .at = offsetof(la_call, p.f), .field = #f
#define IN_CALL(f) .at = offsetof(la_call, f)

static double default_scale(const la_problem *p) { return 1.0 / sqrt((double)p->K); }

static const char *const k_layouts[] = {"KV", "VK", NULL};            /* p.state_vk */
static const char *const k_formats[] = {"none", "bf16", "fp16", "tf32", NULL}; /* LA_EMULATE_* */

const la_option la_options[] = {
    {.name = "Scale", .kind = LA_KIND_POSITIVE, .funcs = LA_F_PATHS, .def_of = default_scale,
     .def_text = "1/sqrt(K)", IN_PROBLEM(scale),
     .desc = "the factor of q: o_t = S_t' (Scale q_t); finite and > 0"},
    {.name = "InitialState", .kind = LA_KIND_ARRAY, .funcs = LA_F_PATHS, .def_text = "zeros",
     IN_CALL(h0_arr),
     .desc = "S_0, K x V x HV x N (V x K x HV x N with 'VK'); single or double"},
    {.name = "CuSeqlens", .kind = LA_KIND_CUSEQLENS, .funcs = LA_F_ALL, .def_text = "none",
     IN_CALL(cu_arr), .field = "cu_seqlens",
     .desc = "[0, t1, ..., T]: splits a batch of one into N independent sequences"},
    {.name = "ChunkSize", .kind = LA_KIND_POSINT, .funcs = LA_F_ALL, .def = LA_DEFAULT_CHUNK,
     IN_PROBLEM(chunk),
     .desc = "chunk size (chunked), checkpoint interval (recurrent backward); no effect in the "
             "recurrent forward"},
    {.name = "UseQKL2Norm", .kind = LA_KIND_FLAG, .funcs = LA_F_ALL, IN_PROBLEM(qk_l2norm),
     .desc = "divide every q_t and k_t by its 2-norm over K first (unnormalised keys can make the "
             "state grow: warning stateGrowth)"},
    {.name = "L2NormEps", .kind = LA_KIND_NONNEG, .funcs = LA_F_ALL, IN_PROBLEM(l2norm_eps),
     .desc = "'UseQKL2Norm' divides by sqrt(sum x^2 + eps) (FLA: 1e-6); finite and >= 0"},
    {.name = "GateInKernel", .kind = LA_KIND_FLAG, .funcs = LA_F_ALL, IN_PROBLEM(gate_in_kernel),
     .desc = "g is raw: gate = -exp(ALog) softplus(g + DtBias), or LowerBound sigmoid(exp(ALog) "
             "(g + DtBias))"},
    {.name = "ALog", .kind = LA_KIND_ARRAY, .funcs = LA_F_ALL, .def_text = "none",
     IN_CALL(alog_arr),
     .desc = "HV values: the log decay rate of 'GateInKernel'; optional with LowerBound"},
    {.name = "DtBias", .kind = LA_KIND_ARRAY, .funcs = LA_F_ALL, .def_text = "zeros",
     IN_CALL(dtb_arr), .desc = "K x HV (KDA) or HV (GDN): the bias of 'GateInKernel'"},
    {.name = "LowerBound", .kind = LA_KIND_NEGATIVE, .funcs = LA_F_ALL, .def_text = "none",
     IN_PROBLEM(lower_bound), .given_at = offsetof(la_call, p.has_lower_bound),
     .desc = "lb < 0: 'GateInKernel' uses lb sigmoid(...) instead of the softplus form"},
    {.name = "SafeGate", .kind = LA_KIND_FLAG, .funcs = LA_F_ALL, IN_PROBLEM(safe_gate),
     .desc = "FLA's safe_gate: needs LowerBound in [-5, 0); without GateInKernel g must lie in "
             "[LowerBound, 0)"},
    {.name = "BetaSigmoid", .kind = LA_KIND_FLAG, .funcs = LA_F_ALL, IN_PROBLEM(beta_sigmoid),
     .desc = "beta is a logit: beta_t = sigmoid(beta)"},
    {.name = "AllowNegEigval", .kind = LA_KIND_FLAG, .funcs = LA_F_ALL,
     IN_PROBLEM(allow_neg_eigval),
     .desc = "with 'BetaSigmoid': beta_t = 2 sigmoid(beta), in (0, 2)"},
    {.name = "StateLayout", .kind = LA_KIND_CHOICE, .funcs = LA_F_ALL, .choices = k_layouts,
     IN_PROBLEM(state_vk),
     .desc = "'KV' or 'VK': states (InitialState, S, dS, dS0) are K x V or V x K per head"},
    {.name = "GK", .kind = LA_KIND_ARRAY, .funcs = LA_F_GDN, .def_text = "none", IN_CALL(gk_arr),
     .desc = "K x T x HV x B log gate per key (FLA's gk): S' = Diag(exp(g + GK)) S "
             "Diag(exp(GV)); recurrent paths only"},
    {.name = "GV", .kind = LA_KIND_ARRAY, .funcs = LA_F_GDN, .def_text = "none", IN_CALL(gv_arr),
     .desc = "V x T x HV x B log gate per value (FLA's gv), with GK's formula; recurrent paths "
             "only"},
    {.name = "Slots", .kind = LA_KIND_INTEGERS, .funcs = LA_F_RECURRENT_FWD, .def_text = "none",
     IN_CALL(slots_arr),
     .desc = "a state pool's slots (FLA's ssm_state_indices; from 1, 0 = padding): N, or Tmax x N "
             "per step; InitialState is the pool, K x V x HV x slots"},
    {.name = "AcceptedTokens", .kind = LA_KIND_INTEGERS, .funcs = LA_F_RECURRENT_FWD,
     .def_text = "none", IN_CALL(accepted_arr),
     .desc = "N counts (FLA's num_accepted_tokens): sequence n starts from slot "
             "Slots(AcceptedTokens(n), n)"},
    {.name = "UpdatePool", .kind = LA_KIND_FLAG, .funcs = LA_F_RECURRENT_FWD, .def = 1,
     IN_CALL(update_pool), .given_at = offsetof(la_call, update_pool_given),
     .desc = "with Slots: S is the pool with each step's state in its slot (FLA's "
             "inplace_final_state); false: S is every step's state, K x V x HV x T x B"},
    {.name = "Intermediates", .kind = LA_KIND_FLAG, .funcs = LA_F_CHUNK, IN_CALL(intermediates),
     .desc = "return the per-chunk quantities of the derivation (or their gradients) in aux"},
    {.name = "Verbose", .kind = LA_KIND_FLAG, .funcs = LA_F_CHUNK, IN_CALL(verbose),
     .desc = "print a progress line each second of a call that runs a second or more"},
    {.name = "Emulate", .kind = LA_KIND_CHOICE, .funcs = LA_F_CHUNK, .choices = k_formats,
     IN_PROBLEM(emulate),
     .desc = "'bf16' or 'fp16': round inputs and stored intermediates to that format, work in "
             "single; 'tf32': round the operands of the products to 10-bit mantissas (a float32 "
             "kernel with TF32 dots)"},
};

const int la_noptions = (int)(sizeof la_options / sizeof la_options[0]);
