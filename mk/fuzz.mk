# ---- fuzzing, valgrind, Ctrl-C (validation/fuzz/README.md) -------------------
#   make fuzz-quick      about a minute of fuzz cases (a step of `make validate`)
#   make fuzz            10,000 cases (FUZZ_SEED, FUZZ_COUNT, FUZZ_TIME to change)
#   make valgrind        valid and invalid calls under valgrind, a MEX built for it
#   make test-interrupt  SIGINT early, middle and late into each public call:
#                        <family>:interrupted within half a second
#   make fuzz-files      randomly damaged tensor files and meta.json through
#                        la_load / kda_verify (FILES_COUNT, default 20,000)
#   make fuzz-mat        10,000 damaged .mat files through la_load (MAT_COUNT)
#   make fuzz-mat-c      100,000 through the C reader under ASan + UBSan
# Reproducers of failing cases go to build/fuzz*/repro_SEED_I.m.

FUZZ_SEED  ?= $(shell date +%s)
FUZZ_COUNT ?= 10000
FUZZ_TIME  ?= 3600
FUZZ_RUN    = $(OCTAVE) $(OCTFLAGS) --eval "addpath ('validation/fuzz'); fuzz_run

.PHONY: fuzz fuzz-quick fuzz-files fuzz-files-quick fuzz-mat fuzz-mat-c valgrind test-interrupt

fuzz: build ## 10,000 fuzz cases (FUZZ_SEED, FUZZ_COUNT, FUZZ_TIME)
	$(FUZZ_RUN) ('Seed', $(FUZZ_SEED), 'Count', $(FUZZ_COUNT), 'TimeLimit', $(FUZZ_TIME), 'OutDir', 'build/fuzz');"

# a fixed seed, so that a failure here is the same on every machine
fuzz-quick: build ## step: about a minute of fuzz cases, seed 1
	$(FUZZ_RUN) ('Seed', 1, 'Count', 1500, 'TimeLimit', 60, 'OutDir', 'build/fuzz-quick');"

VALIDATE_STEPS += fuzz-quick

# tensor files: each damaged file reads or gives la:badFile, within 10 s
# (validation/fuzz/fuzz_files.m; failures kept in build/fuzz-files)
FILES_COUNT ?= 20000
fuzz-files: build ## randomly damaged tensor files (FILES_COUNT)
	$(OCTAVE) $(OCTFLAGS) --eval "addpath ('validation/fuzz'); fuzz_files ('Seed', $(FUZZ_SEED), 'Count', $(FILES_COUNT), 'TimeLimit', $(FUZZ_TIME));"

fuzz-files-quick: build ## step: 300 damaged tensor files, seed 1
	$(OCTAVE) $(OCTFLAGS) --eval "addpath ('validation/fuzz'); fuzz_files ('Seed', 1, 'Count', 300, 'TimeLimit', 60, 'OutDir', 'build/fuzz-files-quick');"

VALIDATE_STEPS += fuzz-files-quick

# .mat files alone (issue 46): 10,000 damaged .mat files (of la_save, save
# -v7 and -v6, and ones holding cells, structs, sparse), none may crash,
# hang or fail otherwise; test_hostile_files runs a quick share
MAT_SEED  ?= 46
MAT_COUNT ?= 10000
fuzz-mat: build ## step: damaged .mat files through la_load (FILES_COUNT)
	$(OCTAVE) $(OCTFLAGS) --eval "addpath ('validation/fuzz'); fuzz_files ('Seed', $(MAT_SEED), 'Count', $(MAT_COUNT), 'TimeLimit', $(FUZZ_TIME), 'OutDir', 'build/fuzz-mat', 'Formats', {'.mat'});"

# minutes: the full tier (test_hostile_files runs a 300-file share in the gate)
VALIDATE_STEPS += fuzz-mat

# the .mat reader alone under ASan + UBSan: 100,000 damaged files, any
# memory error, undefined behaviour or leak stops it (seconds: in the gate)
fuzz-mat-c: build ## step: the C .mat reader on damaged files under ASan + UBSan
	@mkdir -p $(BUILD)/fuzz-mat-c
	$(OCTAVE) $(OCTFLAGS) --eval "addpath ('validation/fuzz'); fuzz_mat_seeds ('$(BUILD)/fuzz-mat-c');"
	$(CC) $(SAN_CFLAGS) -DLA_HAVE_ZLIB validation/fuzz/c/fuzz_mat.c mex/files/la_files_mat.c -lz -lm -o $(BUILD)/fuzz-mat-c/fuzz_mat
	$(SAN_ENV) $(BUILD)/fuzz-mat-c/fuzz_mat $(MAT_SEED) 100000 $(BUILD)/fuzz-mat-c/*.mat

TEST_STEPS += fuzz-mat-c

# needs the interrupt polling of the core and gateway (issue 13, item 2)
test-interrupt: build ## step: Ctrl-C into each public call ends it within half a second
	$(OCTAVE) $(OCTFLAGS) --eval "addpath ('validation/fuzz'); fuzz_interrupt ();"

VALIDATE_STEPS += test-interrupt

# valgrind: a MEX built for it (valgrind 3.19 cannot run AVX-512, so no
# -march=native; -O1 -g for readable stacks) with copies of the wrappers in
# build/valgrind/octave, then random valid and malformed cases and the fixed
# ones (the issue's crash last) of the fuzzer under memcheck.  Fails on any
# error with a frame in la_mex.mex (Octave's own are ignored), and on any
# case that does not pass.  Several minutes: not part of `make test`.
VG_DIR    := build/valgrind
VG_MEX    := $(VG_DIR)/octave/private/la_mex.mex
VG_CASES  ?= 40

valgrind: deps ## valid and invalid calls under valgrind (several minutes)
	$(call apt_ensure,valgrind,--no-install-recommends)
	@$(MAKE) --no-print-directory BUILD=$(VG_DIR) MEX_OUT=$(VG_MEX) OPT='-O1 -g' $(VG_MEX)
	cp octave/*.m $(VG_DIR)/octave/
	rm -f $(VG_DIR)/calls.log
	-valgrind --tool=memcheck --xml=yes --xml-file=$(VG_DIR)/memcheck.xml --num-callers=30 \
	  --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite \
	  octave-cli $(OCTFLAGS) --eval "addpath ('$(CURDIR)/validation/fuzz', '$(CURDIR)/validation/lib'); \
	    log = '$(CURDIR)/$(VG_DIR)/calls.log'; oct = '$(CURDIR)/$(VG_DIR)/octave'; nf = fuzz_case (); \
	    fuzz_child (1, nf + 1, nf + $(VG_CASES), log, Inf, oct); \
	    fuzz_child (1, 1, nf, log, Inf, oct);" > $(VG_DIR)/octave.out 2>&1
	$(OCTAVE) $(OCTFLAGS) --eval "addpath ('validation/fuzz'); \
	  fuzz_valgrind ('$(VG_DIR)/memcheck.xml', '$(VG_DIR)/calls.log');"
