# ---- coverage, measured with gcov ---------------------------------------------
#   make coverage         the core, the gateway and the file readers built with
#                         gcov instrumentation (--coverage, -O1) under
#                         build/coverage/, then (a) the C tests
#                         (test_core --quick) and (b) the Octave tests and the
#                         lab's quick mode on that MEX; prints the lines and
#                         branches of mex/core reached by each run and by
#                         both, per file, and the files and functions least
#                         covered.  Writes only under build/coverage/
#                         (summary: build/coverage/coverage.md).
#   make coverage-report  the same, then copies the summary to
#                         validation/report/coverage.md (committed)
#   COVERAGE_RUNS="c"     only some of the runs (c, octave, lab)
# The Octave runs work in a copy of the tracked tree (build/coverage/tree),
# whose octave/ holds the instrumented MEX and whose build/testing/ the
# instrumented test build: the clone's octave/ and build/ are never touched,
# and run_tests / run_validation find the instrumented builds where they add
# their own octave/ and build/testing/ to the path.  Each run writes its counts into
# its own folder (GCOV_PREFIX); validation/tools/coverage_report.py reads
# them with gcov's JSON output and takes their union.  Not part of make test.
.PHONY: coverage coverage-report

COV_DIR   := $(BUILD)/coverage
COV_OBJ   := $(COV_DIR)/obj
COV_TREE  := $(COV_DIR)/tree
COV_RUNS  := $(COV_DIR)/runs
# prefer-atomic: the OpenMP threads' counts are not lost to races
COV_FLAGS := -O1 -g --coverage -fprofile-update=prefer-atomic
COV_CFLAGS := $(filter-out $(OPT),$(CFLAGS_ALL)) $(COV_FLAGS)
COV_INC   := $(shell $(MKOCTFILE) -p INCFLAGS 2>/dev/null)
COVERAGE_RUNS ?= c octave lab

COV_CORE_OBJ := $(patsubst mex/core/%.c,$(COV_OBJ)/core/%.o,$(CORE_SRC))
COV_GATE_OBJ := $(patsubst mex/gateway/%.c,$(COV_OBJ)/gateway/%.o,$(GATE_SRC)) \
                $(patsubst mex/files/%.c,$(COV_OBJ)/files/%.o,$(FILES_SRC))
COV_MEX   := $(COV_DIR)/la_mex.mex
# the test build (Makefile's TESTING_MEX), instrumented: the tests' and the
# lab's instruments (la_mex_testing) reach the same instrumented core
COV_TESTING_OBJ := $(COV_OBJ)/testing/la_mex.o $(COV_OBJ)/testing/la_mex_clock.o \
                   $(filter-out %/la_mex.o %/la_mex_clock.o,$(COV_GATE_OBJ))
COV_TESTING_MEX := $(COV_DIR)/la_mex_testing.mex
COV_TEST  := $(COV_DIR)/test_core

$(COV_OBJ)/core/%.o: mex/core/%.c $(CORE_HDR) $(ENGINE_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(COV_CFLAGS) -c "$(abspath $<)" -o $@

$(COV_OBJ)/gateway/%.o: mex/gateway/%.c $(GATE_HDR) $(FILES_HDR) $(CORE_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(COV_CFLAGS) $(COV_INC) -c "$(abspath $<)" -o $@

# zlib as in the Octave build (mk/verify.mk)
$(COV_OBJ)/files/%.o: mex/files/%.c $(FILES_HDR) $(CORE_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(COV_CFLAGS) $(COV_INC) $(if $(filter la_files_zlib la_files_mat la_files_mex,$*),-DLA_HAVE_ZLIB) \
	  -c "$(abspath $<)" -o $@

$(COV_OBJ)/testing/%.o: mex/gateway/%.c $(GATE_HDR) $(FILES_HDR) $(CORE_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(COV_CFLAGS) -DLA_TESTING $(COV_INC) -c "$(abspath $<)" -o $@

# the shipped MEX leaves the call clock out (as MEX_OBJ in the Makefile)
$(COV_MEX): $(COV_CORE_OBJ) $(COV_GATE_OBJ)
	$(MKOCTFILE) --mex -o $@ $(filter-out %/la_mex_clock.o,$^) $(MEX_LDFLAGS) -lgcov $(LIBS) >/dev/null

$(COV_TESTING_MEX): $(COV_CORE_OBJ) $(COV_TESTING_OBJ)
	$(MKOCTFILE) --mex -o $@ $^ $(MEX_LDFLAGS) -lgcov $(LIBS) >/dev/null

# the test program itself is not instrumented: only the core it links
$(COV_TEST): $(TEST_CORE_SRC) $(COV_CORE_OBJ)
	$(CC) $(filter-out $(OPT),$(CFLAGS_ALL)) -O1 -Imex/core $< $(COV_CORE_OBJ) -o $@ --coverage $(LIBS)

# GCOV_PREFIX: a run's .gcda files go to runs/NAME/<the object's path>; the
# Octave tests and the lab count into one folder (the Octave run).  A run
# that fails is reported (its log's tail) after the summary is written, and
# then fails the target.
cov_env = GCOV_PREFIX="$(abspath $(COV_RUNS))/$(1)" GCOV_PREFIX_STRIP=0
cov_run = { $(2) > "$(abspath $(COV_DIR))/$(1).log" 2>&1 || echo $(1) >> "$(abspath $(COV_DIR))/failed"; \
            echo "coverage, $(1): $$(tail -n 1 "$(abspath $(COV_DIR))/$(1).log")"; }

coverage: deps-test $(COV_MEX) $(COV_TESTING_MEX) $(COV_TEST) ## lines and branches of the C code the tests reach (gcov; build/coverage)
	@rm -rf $(COV_RUNS) $(COV_TREE) $(COV_DIR)/failed && mkdir -p $(COV_RUNS) $(COV_TREE)
	@git ls-files -z | xargs -0 tar -cf - | tar -xf - -C $(COV_TREE)
	@for f in octave/private/la_mex octave/kda_recurrent octave/gdn_recurrent; do \
	  cp $(COV_MEX) $(COV_TREE)/$$f.mex; done
	@mkdir -p $(COV_TREE)/build/testing && cp $(COV_TESTING_MEX) $(COV_TREE)/build/testing/
	$(if $(filter c,$(COVERAGE_RUNS)),@$(call cov_run,c,$(call cov_env,c) $(COV_TEST) --quick))
	$(if $(filter octave,$(COVERAGE_RUNS)),@cd $(COV_TREE) && $(call cov_run,octave,$(call cov_env,octave) \
	  $(OCTAVE) $(OCTFLAGS) --eval "cd validation; run_tests ();"))
	$(if $(filter lab,$(COVERAGE_RUNS)),@cd $(COV_TREE) && $(call cov_run,lab,$(call cov_env,octave) \
	  OMP_NUM_THREADS=$(LAB_THREADS) $(OCTAVE) $(OCTFLAGS) --eval "cd validation; run_validation ('quick');"))
	/usr/bin/python3 validation/tools/coverage_report.py --obj $(COV_OBJ) --runs $(COV_RUNS) \
	  --commit "$$(git rev-parse --short HEAD)$$(git diff --quiet HEAD -- mex || echo ' (mex/ modified)')" \
	  --logs $(COV_DIR) --out $(COV_DIR)/coverage.md
	@if [ -f $(COV_DIR)/failed ]; then for r in $$(cat $(COV_DIR)/failed); do \
	  echo "coverage: the $$r run failed ($(COV_DIR)/$$r.log):"; tail -n 30 $(COV_DIR)/$$r.log; done; exit 1; fi

coverage-report: coverage ## make coverage, and writes validation/report/coverage.md
	cp $(COV_DIR)/coverage.md validation/report/coverage.md
	@echo "wrote validation/report/coverage.md"
