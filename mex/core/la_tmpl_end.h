/* la_tmpl_end.h -- undo la_tmpl.h so the template can be included again. */
#undef real_t
#undef LA_FN
#undef LA_EXP
#undef LA_LOG1P
#undef LA_SQRT
#undef LA_FABS
#undef LA_GEMM
#undef LA_GEMV
#undef LA_TRSM
#undef LA_TRMM
