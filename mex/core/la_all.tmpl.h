/*
 * la_all.tmpl.h -- every template of the core, in dependency order.
 * Included once by la_float.c (LA_DOUBLE 0) and once by la_double.c
 * (LA_DOUBLE 1): each template is compiled once per precision.
 */
#include "la_internal.h"
#include "la_blas.h"
#include "la_ws.h"
#include "la_round.h"
#include "la_tmpl.h"

#include "la_math.tmpl.h"             /* sigmoid, softplus                  */
#include "la_transform_l2norm.tmpl.h" /* UseQKL2Norm, forward and backward  */
#include "la_transform_gate.tmpl.h"   /* GateInKernel                       */
#include "la_transform_beta.tmpl.h"   /* BetaSigmoid                        */
#include "la_gva.tmpl.h"              /* grouped value attention: dq, dk sum */
#include "la_state.tmpl.h"            /* state load / store                 */
#include "la_frame.tmpl.h"            /* transforms around a call, items    */
#include "la_run.tmpl.h"              /* the parallel loop over items       */
#include "la_sched.tmpl.h"            /* the chunked paths' schedules       */
#include "la_chunk_ws.tmpl.h"         /* chunk workspaces                   */
#include "la_stage_decay.tmpl.h"      /* decays, gated q, k                 */
#include "la_rec_step.tmpl.h"         /* one recurrent step, fwd and bwd    */
#include "la_recurrent.tmpl.h"        /* recurrent drivers                  */
#include "la_tri_gemm.tmpl.h"        /* products with a triangular factor  */
#include "la_stage_gated.tmpl.h"      /* gated products M, Aqk              */
#include "la_stage_wy.tmpl.h"         /* triangular solve, w, u             */
#include "la_stage_intra.tmpl.h"      /* the intra-chunk stages in order    */
#include "la_stage_state.tmpl.h"      /* v_new, state passing               */
#include "la_stage_output.tmpl.h"     /* output                             */
#include "la_cond.tmpl.h"             /* cond_1(I + A_raw) of a chunk        */
#include "la_emu.tmpl.h"              /* 'Emulate' in the chunked drivers    */
#include "la_aux.tmpl.h"              /* the chunked drivers' intermediates  */
#include "la_chunk_fwd.tmpl.h"        /* chunked forward driver             */
#include "la_chunk_bwd.tmpl.h"        /* chunked backward driver            */
#include "la_state_map.tmpl.h"        /* a segment's affine state map       */
