# ---- workspaces kept across calls (mex/core/la_pool.c) -----------------------
#   make bench-pool   page faults and time per call of a chunked fwd + bwd
#                     (T = 16384, H = 4, K = V = 128, single), decode-size
#                     calls, and a chunked forward right after a threaded
#                     sgemm with and without OPENBLAS_THREAD_TIMEOUT=4
#                     (docs/performance.md quotes the numbers)
.PHONY: bench-pool

POOL_BENCH := $(BUILD)/pool_bench

$(POOL_BENCH): validation/bench/c/pool_bench.c $(CORE_HDR) $(LIBLA)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Imex/core $< $(LIBLA) -o $@ $(LIBS)

bench-pool: deps $(POOL_BENCH) ## page faults and time per call of the workspace pool
	$(POOL_BENCH) faults 16384 4 128 5
	$(POOL_BENCH) decode 15
	$(POOL_BENCH) spin 15
	OPENBLAS_THREAD_TIMEOUT=4 $(POOL_BENCH) spin 15

# The same program under ASan + UBSan (part of make test), at small sizes:
# the pool's reuse across calls, the spin case's threaded sgemm, and
# la_release at exit must leave nothing behind and be clean.
$(BUILD)/pool_bench_san: validation/bench/c/pool_bench.c $(CORE_HDR) $(call la_lib,san)
	@mkdir -p $(dir $@)
	$(CC) $(SAN_CFLAGS) -Imex/core $< $(call la_lib,san) -o $@ $(LIBS)

.PHONY: test-pool-sanitize
test-pool-sanitize: deps $(BUILD)/pool_bench_san ## step: the pool bench under ASan + UBSan, small sizes
	@$(SAN_ENV) $(BUILD)/pool_bench_san faults 300 3 32 2 > /dev/null
	@$(SAN_ENV) $(BUILD)/pool_bench_san decode 1 > /dev/null
	@$(SAN_ENV) $(BUILD)/pool_bench_san spin 1 > /dev/null
	@echo "pool_bench under ASan/UBSan: faults, decode, spin, clean"

TEST_STEPS += test-pool-sanitize
