# ---- mutation testing ----------------------------------------------------------
# make mutants                 every mutant of validation/mutants/mutants.tsv;
#                              writes validation/mutants/mutants.md
# make mutants MUTANTS="id ..."  a subset; writes build/mutants/mutants.md
# make mutants-check           seconds, no build: lists the mutants whose text
#                              no longer occurs exactly once (fails if any);
#                              a step of make validate
# Each mutant runs in a scratch copy under build/mutants/ (logs in
# build/mutants/logs/), MUTANTS_JOBS at a time, against the lab in
# MUTANTS_MODE (quick or full); see validation/mutants/README.md.
MUTANTS      ?=
MUTANTS_JOBS ?= 2
MUTANTS_MODE ?= quick
MUTANTS_OUT  := $(if $(MUTANTS),$(BUILD)/mutants/mutants.md,validation/mutants/mutants.md)

.PHONY: mutants mutants-check

mutants-check: ## step: every mutant text occurs exactly once (seconds)
	/usr/bin/python3 validation/mutants/run_mutants.py --check $(if $(MUTANTS),--ids $(MUTANTS))

# a moved text leaves its mutant stale: caught in seconds by make validate
VALIDATE_STEPS += mutants-check

mutants: build ## run the mutants; writes validation/mutants/mutants.md
	$(call apt_ensure,python3 rsync,--no-install-recommends)
	/usr/bin/python3 validation/mutants/run_mutants.py --jobs $(MUTANTS_JOBS) \
	  --mode $(MUTANTS_MODE) --out $(MUTANTS_OUT) $(if $(MUTANTS),--ids $(MUTANTS))

# ---- flops counted by the core ---------------------------------------------------
# The core built with -DLA_COUNT_FLOPS (mex/core/la_flops.h) behind a small
# driver: check_flops.m (the lab's derivation section) compares its counts
# with the formulas of docs/flops.md; malloc and free wrapped at link time
# give the peak bytes the core holds (check_recurrence.m (20),
# check_chunk_backward.m (53)).  Built without libxsmm (the same counts:
# la_blas.h counts a product before it picks the engine): the wrap cannot
# reach the malloc and free of libxsmm's archive, nor should its registry
# count as the core's memory.
$(BUILD)/flops_driver: validation/derivation/flops_driver.c $(CORE_HDR) $(call la_lib,flops)
	@mkdir -p $(dir $@)
	$(CC) $(FLAGS_flops) $< $(call la_lib,flops) -o $@ -Wl,--wrap=malloc,--wrap=free $(LIBS_BLAS)

# The same driver under ASan + UBSan (part of make test): every path and
# operator once at a small size with a short last chunk; it must count, free
# what the core took, and be clean.
$(BUILD)/flops_driver_san: validation/derivation/flops_driver.c $(CORE_HDR) $(call la_lib,flops_san)
	@mkdir -p $(dir $@)
	$(CC) $(FLAGS_flops_san) $< $(call la_lib,flops_san) -o $@ \
	  -Wl,--wrap=malloc,--wrap=free $(LIBS_BLAS)

.PHONY: test-flops-sanitize
test-flops-sanitize: deps $(BUILD)/flops_driver_san ## step: the flops driver under ASan + UBSan
	@for path in rec_fwd rec_bwd chunk_fwd chunk_bwd; do for op in kda gdn; do \
	  OMP_NUM_THREADS=1 $(SAN_ENV) $(BUILD)/flops_driver_san $$path $$op 100 32 16 8 \
	    > /dev/null || exit 1; done; done
	@echo "flops_driver under ASan/UBSan: 8 runs, clean"

TEST_STEPS += test-flops-sanitize
