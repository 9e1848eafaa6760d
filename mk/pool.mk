# ---- workspaces kept across calls (mex/core/la_pool.c) -----------------------
#   make bench-pool   page faults and time per call of a chunked fwd + bwd
#                     (T = 16384, H = 4, K = V = 128, single), decode-size
#                     calls, and a chunked forward right after a threaded
#                     sgemm with and without OPENBLAS_THREAD_TIMEOUT=4
#                     (docs/performance.md quotes the numbers)
.PHONY: bench-pool

POOL_BENCH := $(BUILD)/pool_bench

$(POOL_BENCH): mex/tests/pool_bench.c $(CORE_SRC) $(CORE_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) mex/tests/pool_bench.c $(CORE_SRC) -o $@ $(LIBS)

bench-pool: deps $(POOL_BENCH)
	$(POOL_BENCH) faults 16384 4 128 5
	$(POOL_BENCH) decode 15
	$(POOL_BENCH) spin 15
	OPENBLAS_THREAD_TIMEOUT=4 $(POOL_BENCH) spin 15
