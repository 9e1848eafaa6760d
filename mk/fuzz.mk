# ---- fuzzing, valgrind, Ctrl-C (validation/fuzz/README.md) -------------------
#   make fuzz-quick      about a minute of fuzz cases (part of `make test`)
#   make fuzz            10,000 cases (FUZZ_SEED, FUZZ_COUNT, FUZZ_TIME to change)
#   make valgrind        valid and invalid calls under valgrind, a MEX built for it
#   make test-interrupt  SIGINT during a long call: kda:interrupted within 1 s
# Reproducers of failing cases go to build/fuzz*/repro_SEED_I.m.

FUZZ_SEED  ?= $(shell date +%s)
FUZZ_COUNT ?= 10000
FUZZ_TIME  ?= 3600
FUZZ_RUN    = $(OCTAVE) $(OCTFLAGS) --eval "addpath ('validation/fuzz'); fuzz_run

.PHONY: fuzz fuzz-quick valgrind test-interrupt

fuzz: build
	$(FUZZ_RUN) ('Seed', $(FUZZ_SEED), 'Count', $(FUZZ_COUNT), 'TimeLimit', $(FUZZ_TIME), 'OutDir', 'build/fuzz');"

# a fixed seed, so that a failure here is the same on every machine
fuzz-quick: build
	$(FUZZ_RUN) ('Seed', 1, 'Count', 1500, 'TimeLimit', 60, 'OutDir', 'build/fuzz-quick');"

TEST_STEPS += fuzz-quick
