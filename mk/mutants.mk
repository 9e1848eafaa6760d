# ---- mutation testing ----------------------------------------------------------
# make mutants                 every mutant of validation/mutants/mutants.tsv;
#                              writes validation/results/mutants.md
# make mutants MUTANTS="id ..."  a subset; writes build/mutants/mutants.md
# make mutants-check           seconds, no build: lists the mutants whose text
#                              no longer occurs exactly once (fails if any);
#                              not in make test: others' edits move the code
# Each mutant runs in a scratch copy under build/mutants/ (logs in
# build/mutants/logs/), MUTANTS_JOBS at a time, against the lab in
# MUTANTS_MODE (quick or full); see validation/mutants/README.md.
MUTANTS      ?=
MUTANTS_JOBS ?= 2
MUTANTS_MODE ?= quick
MUTANTS_OUT  := $(if $(MUTANTS),$(BUILD)/mutants/mutants.md,validation/results/mutants.md)

.PHONY: mutants mutants-check

mutants-check:
	/usr/bin/python3 validation/mutants/run_mutants.py --check $(if $(MUTANTS),--ids $(MUTANTS))

mutants: build
	$(call apt_ensure,python3 rsync,--no-install-recommends)
	/usr/bin/python3 validation/mutants/run_mutants.py --jobs $(MUTANTS_JOBS) \
	  --mode $(MUTANTS_MODE) --out $(MUTANTS_OUT) $(if $(MUTANTS),--ids $(MUTANTS))

# ---- flops counted by the core ---------------------------------------------------
# The core built with -DLA_COUNT_FLOPS (mex/core/la_flops.h) behind a small
# driver: check_flops.m (the lab's derivation section) compares its counts
# with the formulas of docs/flops.md; malloc and free wrapped at link time
# give the peak bytes the core holds (check_recurrence.m (20),
# check_chunk_backward.m (48)).
$(BUILD)/flops_driver: validation/derivation/flops_driver.c $(CORE_SRC) $(CORE_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -DLA_COUNT_FLOPS $< $(CORE_SRC) -o $@ -Wl,--wrap=malloc,--wrap=free $(LIBS)
