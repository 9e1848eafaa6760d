# ---- benchmarks ------------------------------------------------------------
#   make bench     timings through Octave (validation/run_bench.m): rows
#                  interleaved with the same-run gemm, medians with spread,
#                  the core alone (bench_core) and the peer when available;
#                  writes validation/bench/results/bench.md
#   make bench-c   the core without Octave (validation/bench/c/bench_core.c; with the
#                  chunked forward's two schedules paired), with
#                  the machine's BLAS kernels and again with OpenBLAS's AVX2
#                  (Haswell) kernels and libxsmm's (LIBXSMM_TARGET=hsw); the
#                  goal rows paired with and without libxsmm (tuning
#                  no_xsmm) beside the FMA peak measured in the same run,
#                  the chunk's products one at a time on one thread (the
#                  engine and BLAS against the 1024^3 sgemm and the FMA
#                  peak), the decode rows at H = 4 and 32 (back to back
#                  and spaced as Octave spaces them), and the time the GEMMs take inside
#                  the chunked rows (bench_core_blas: the core built with
#                  -DLA_TIME_BLAS), the ceiling of the GEMMs as called,
#                  and the forward's stages' shares of its time; then the
#                  chunk's triangular solve against two blocked inverses
#                  (validation/bench/c/bench_solve.c, single and double, one thread)
#   make bench-files  la_save / la_load of a 34 MB tensor beside numpy
#                  (.npy, .npz stored and deflated, .safetensors;
#                  validation/bench/bench_files.m); part of make bench;
#                  writes validation/bench/results/bench_files.md
#   make bench-goals  only the rows of the goals, ROUNDS rounds (default 5)
#                  with both kernel sets, each round through bench_core and
#                  bench_core_blas: each row's ratio to the same-run sgemm,
#                  its ceiling (GEMMs alone; the FMA peak) and its share of
#                  the ceiling (the goal), medians over the rounds, range,
#                  rounds met, the CPU named
#                  (validation/run_bench_goals.m); writes
#                  validation/bench/results/bench_goals.md
#   make bench-profile  each goal row on one thread under perf's cpu-clock
#                  (load does not bias the shares): the share of the GEMM
#                  kernels and of each pass outside them, the row's CPU
#                  seconds (validation/bench/bench_profile.sh, PROFILE_REPS
#                  calls a row; needs linux-perf; bench_core_prof: bench_core
#                  and the core with line tables, -g, the same code)
#   make bench-decode-perf  a decode call (T = 1, H = 4) under perf: the
#                  shares of Octave's copy of the outputs, the arithmetic,
#                  the rest of the MEX (validation/bench/bench_decode_perf.sh;
#                  needs linux-perf, not installed by make)
# The peer (validation/bench/peer_torch.py) needs Debian's python3-torch; it
# is measured when installed (`make bench-deps`), never needed by make test.
.PHONY: bench bench-c bench-goals bench-deps bench-files bench-decode-perf bench-profile

ROUNDS ?= 5

BENCH_CORE := $(BUILD)/bench_core
BENCH_CORE_BLAS := $(BUILD)/bench_core_blas

$(BENCH_CORE): validation/bench/c/bench_core.c $(CORE_HDR) $(LIBLA)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Imex/core $< $(LIBLA) -o $@ $(LIBS)

$(BENCH_CORE_BLAS): validation/bench/c/bench_core.c $(CORE_HDR) $(call la_lib,tblas)
	@mkdir -p $(dir $@)
	$(CC) $(FLAGS_tblas) -Imex/core $< $(call la_lib,tblas) -o $@ $(LIBS)

# bench_solve times the core's solve (la_tri_solve_lower_s / _d,
# la_internal.h), one class per program.
$(BUILD)/bench_solve_s: validation/bench/c/bench_solve.c $(CORE_HDR) $(LIBLA)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Imex/core -DBS_DOUBLE=0 $< $(LIBLA) -o $@ $(LIBS)

$(BUILD)/bench_solve_d: validation/bench/c/bench_solve.c $(CORE_HDR) $(LIBLA)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Imex/core -DBS_DOUBLE=1 $< $(LIBLA) -o $@ $(LIBS)

$(BUILD)/bench_solve_san: validation/bench/c/bench_solve.c $(CORE_HDR) $(call la_lib,san)
	@mkdir -p $(dir $@)
	$(CC) $(SAN_CFLAGS) -Imex/core -DBS_DOUBLE=0 $< $(call la_lib,san) -o $@ $(LIBS)

# The bench driver itself under ASan + UBSan (part of make test): one rep of
# every chunked row of bench_core_blas, both of its tables, and the plain
# driver's table of the two schedules (4 pairs a row, and their bits
# compared); it reads nothing of the timings, only that each row ran, the
# schedules agreed and the driver is clean.  bench_solve likewise: one round
# of a few solves, its six rows printed, every accuracy at rounding level.
$(BUILD)/bench_core_san: validation/bench/c/bench_core.c $(CORE_HDR) $(call la_lib,tblas_san)
	@mkdir -p $(dir $@)
	$(CC) $(FLAGS_tblas_san) -Imex/core $< $(call la_lib,tblas_san) -o $@ $(LIBS)

$(BUILD)/bench_core_san_plain: validation/bench/c/bench_core.c $(CORE_HDR) $(call la_lib,san)
	@mkdir -p $(dir $@)
	$(CC) $(SAN_CFLAGS) -Imex/core $< $(call la_lib,san) -o $@ $(LIBS)

.PHONY: test-bench-sanitize
test-bench-sanitize: deps $(BUILD)/bench_core_san $(BUILD)/bench_core_san_plain $(BUILD)/bench_solve_san ## step: the bench drivers under ASan + UBSan, one rep
	@$(SAN_ENV) OPENBLAS_NUM_THREADS=1 $(BUILD)/bench_solve_san 1 16 > $(BUILD)/bench_solve_san.out
	@test $$(grep -c '^| [0-9]* | .* | [0-9.]* ([0-9.-]*) | [0-9.]* | [0-9.]*e-0[7-9] |$$' $(BUILD)/bench_solve_san.out) = 6
	@$(SAN_ENV) $(BUILD)/bench_core_san 1 64 > $(BUILD)/bench_core_san.out
	@$(SAN_ENV) $(BUILD)/bench_core_san_plain 1 64 sched > $(BUILD)/bench_core_san_sched.out
	@$(SAN_ENV) $(BUILD)/bench_core_san_plain 1 64 forms > $(BUILD)/bench_core_san_forms.out
	@$(SAN_ENV) $(BUILD)/bench_core_san_plain 1 64 shapes > $(BUILD)/bench_core_san_shapes.out
	@$(SAN_ENV) $(BUILD)/bench_core_san_plain 1 64 decode > $(BUILD)/bench_core_san_decode.out
	@$(SAN_ENV) OMP_NUM_THREADS=1 $(BUILD)/bench_core_san_plain 1 64 profile 2 > $(BUILD)/bench_core_san_profile.out
	@! grep -q '| error\|| NO |' $(BUILD)/bench_core_san*.out
	@grep -q "Where the forward's time goes" $(BUILD)/bench_core_san.out
	@test $$(grep -c '^| [a-z]* chunk' $(BUILD)/bench_core_san_sched.out) -gt 0
	@test $$(grep -c '^| [a-z]* chunk' $(BUILD)/bench_core_san_sched.out) = $$(grep -c '| same bits |$$' $(BUILD)/bench_core_san_sched.out)
	@test $$(grep -c '^| [a-z]* chunk.* | o [0-9.e+-]*, ht [0-9.e+-]* |$$' $(BUILD)/bench_core_san_forms.out) -gt 0
	@test $$(grep -c '^| [NT][NT] [0-9]* x [0-9]* x [0-9]* | [0-9.]* | [0-9.]* |' $(BUILD)/bench_core_san_shapes.out) = 12
	@test $$(grep -c '^| decode [a-z]* | single | [0-9]* | 128 | [12] | [0-9.]* (' $(BUILD)/bench_core_san_decode.out) = 3
	@grep -q '^| kda chunk | single | fwd | 1 | 128 | 1 threads | [0-9.]* s CPU per call |$$' $(BUILD)/bench_core_san_profile.out
	@echo "bench_core under ASan/UBSan: $$(cat $(BUILD)/bench_core_san*.out | grep -c '^| [a-z]* chunk') table rows, the schedules the same bits, the forms compared, 12 products, 3 decode rows, a profile row; bench_solve 6 rows at rounding level; clean"

TEST_STEPS += test-bench-sanitize

bench-c: deps $(BENCH_CORE) $(BENCH_CORE_BLAS) $(BUILD)/bench_solve_s $(BUILD)/bench_solve_d ## timings of the core without Octave
	$(BENCH_CORE) $(BENCH_REPS)
	OPENBLAS_CORETYPE=Haswell LIBXSMM_TARGET=hsw $(BENCH_CORE) $(BENCH_REPS)
	OPENBLAS_CORETYPE=Haswell LIBXSMM_TARGET=hsw $(BENCH_CORE_BLAS) $(BENCH_REPS)
	OPENBLAS_NUM_THREADS=1 $(BUILD)/bench_solve_s
	OPENBLAS_NUM_THREADS=1 $(BUILD)/bench_solve_d

bench-deps: ## install PyTorch for the peer rows
	$(call apt_ensure,python3-torch,--no-install-recommends)

bench: testing $(BENCH_CORE) $(BENCH_CORE_BLAS) ## timings through Octave; writes validation/bench/results/bench.md
	$(OCTAVE) $(OCTFLAGS) --eval "cd validation; run_bench ('Core', '$(abspath $(BENCH_CORE))', 'CoreBlas', '$(abspath $(BENCH_CORE_BLAS))');"
	@$(MAKE) --no-print-directory bench-files

bench-files: build ## la_save / la_load beside numpy; writes validation/bench/results/bench_files.md
	$(OCTAVE) $(OCTFLAGS) --eval "addpath ('octave', 'validation/bench'); bench_files ('Reps', 5, 'Out', 'validation/bench/results/bench_files.md');"

bench-goals: testing $(BENCH_CORE) $(BENCH_CORE_BLAS) ## the goal rows and their ceilings, ROUNDS rounds; writes validation/bench/results/bench_goals.md
	$(OCTAVE) $(OCTFLAGS) --eval "cd validation; run_bench_goals ('Core', '$(abspath $(BENCH_CORE))', 'CoreBlas', '$(abspath $(BENCH_CORE_BLAS))', 'Rounds', $(ROUNDS));"

# the core with line tables for the profile (-g changes no generated code)
FLAGS_prof = $(CFLAGS_ALL) -g
$(eval $(call core_flavour,prof))
PROFILE_REPS ?= 100

$(BUILD)/bench_core_prof: validation/bench/c/bench_core.c $(CORE_HDR) $(call la_lib,prof)
	@mkdir -p $(dir $@)
	$(CC) $(FLAGS_prof) -Imex/core $< $(call la_lib,prof) -o $@ $(LIBS)

bench-profile: deps $(BUILD)/bench_core_prof ## each goal row on one thread under perf: the GEMMs' share, the passes outside them
	@validation/bench/bench_profile.sh "$(abspath $(BUILD)/bench_core_prof)" $(PROFILE_REPS)

bench-decode-perf: build ## a decode call under perf (needs linux-perf)
	@validation/bench/bench_decode_perf.sh $(CALLS)
