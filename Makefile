# KDA / GDN for Octave -- build, test tiers, lab and benchmarks.
#
#   make            build the MEX gateway (installs the missing Debian
#                   packages that building needs, and only those)
#   make check      the developer's loop (under two minutes warm)
#   make test       the gate (CI's, the README's): every unit test, the quick
#                   lab, the package round trip (about five minutes warm)
#   make validate   the full tier: the gate's tests marked slow, the full lab,
#                   documents, notebooks (run on copies), fuzzers, mutants-check
#   make help       every target with one line
#
# The tiers are quiet: one line per step, each step's output in
# build/log/TIER/STEP.log, the tail of a failed step's log printed
# (mk/steps.sh).  Nothing but git, gcc and make is assumed: `deps` (and each
# tier's own deps-*) installs what is missing with apt-get (as root, or
# through sudo).

# plain `make` is `make all` (the MEX), whatever rules the flavours and the
# mk/*.mk files define first
.DEFAULT_GOAL := all

# liblapacke-dev: the project's platform contract lists it, so a machine set
# up by `make deps` has it; nothing here links LAPACKE (the chunk's
# triangular solves are the core's own, the rest is OpenBLAS's BLAS).
DEB_PKGS   := octave liboctave-dev libopenblas-dev liblapacke-dev
# gnuplot draws the lab's and the notebooks' figures headless (Octave's
# toolkit without a display): any installed gnuplot will do, else gnuplot-nox.
# Installed by the tiers (deps-test), not by `make`.
GNUPLOT_PKG := $(if $(shell command -v gnuplot 2>/dev/null),,gnuplot-nox)
# what the tests need beyond the build (each mk/*.mk may add to it)
TEST_PKGS  := $(GNUPLOT_PKG)
OCTAVE     ?= octave
OCTFLAGS   := --no-gui --no-window-system --quiet --norc --no-history
MKOCTFILE  ?= mkoctfile
CC         ?= gcc

BUILD      := build
CORE_SRC   := $(wildcard mex/core/*.c)
CORE_HDR   := $(wildcard mex/core/*.h)
GATE_SRC   := $(wildcard mex/gateway/*.c)
# the tensor files' byte work (readers of .npy/.npz/.safetensors/.mat)
FILES_SRC  := $(wildcard mex/files/*.c)
FILES_HDR  := $(wildcard mex/files/*.h)
GATE_HDR   := $(wildcard mex/gateway/*.h)
MEX_OUT    := octave/private/la_mex.mex
# the decode path's functions, served by copies of the same gateway under
# their own names (la_mex.c: mexFunctionName), next to their .m help files
PUBLIC_MEX := octave/kda_recurrent.mex octave/gdn_recurrent.mex

# -march=native: the MEX is built on the machine that runs it.  On x86-64,
# -mprefer-vector-width=512: GCC otherwise keeps to 256-bit vectors on an
# AVX-512 machine (the elementwise passes and exp then take half the
# instructions).  Sums keep their order (simdlen LA_SUM_LANES), but where a
# loop's length is no multiple of 16 floats its scalar remainder (exp, fused
# multiply-adds) starts elsewhere: results there move by a rounding.
# Without AVX-512 it changes nothing.
OPT        ?= -O3 -march=native $(if $(filter x86_64,$(shell uname -m)),-mprefer-vector-width=512)
# -ffp-contract=fast: fused multiply-adds (-std=c11 turns them off by default);
# -fno-math-errno + libmvec: vectorized exp() (see mex/core/la_internal.h)
CFLAGS_ALL := -std=c11 $(OPT) -ffp-contract=fast -fPIC -fopenmp -fno-math-errno -DLA_USE_LIBMVEC -Wall -Wextra \
              -Wno-unknown-pragmas
# LIBXSMM=1 (the default on x86-64, where Debian ships libxsmm-dev): the
# chunk's small products run on libxsmm's JIT kernels (mex/core/la_xsmm.c),
# the rest on OpenBLAS; `make LIBXSMM=0` builds the BLAS-only core (what
# build_mex.m builds for MATLAB).  Debian ships libxsmm as static PIC
# archives: -lxsmm goes before -lopenblas, which serves its BLAS references
# (libxsmmnoblas is not linked: its stub sgemm_ / dgemm_ would stand in for
# OpenBLAS's), and the MEX exports none of the archives' names
# (--exclude-libs).  Switching LIBXSMM rebuilds the core (ENGINE_STAMP).
LIBXSMM    ?= $(if $(filter x86_64,$(shell uname -m)),1,0)
ifeq ($(LIBXSMM),1)
DEB_PKGS   += libxsmm-dev
XSMM_DEF   := -DLA_HAVE_LIBXSMM
XSMM_LIBS  := -lxsmm
XSMM_SYS   := -lpthread -lrt -ldl
MEX_LDFLAGS := -Wl,--exclude-libs,ALL
endif
CFLAGS_ALL += $(XSMM_DEF)
LIBS       := $(XSMM_LIBS) -lopenblas -lgomp -lmvec -lm $(XSMM_SYS)
ENGINE_STAMP := $(BUILD)/engine.libxsmm$(LIBXSMM)
# the BLAS-only build's flags, for programs that must not link libxsmm
CFLAGS_BLAS := $(filter-out -DLA_HAVE_LIBXSMM,$(CFLAGS_ALL))
LIBS_BLAS  := -lopenblas -lgomp -lmvec -lm
# The C programs under AddressSanitizer + UndefinedBehaviorSanitizer (the
# core's test, the bench and flops drivers, the pool's bench): any finding
# stops the run, and leaks are reported at exit.
SAN_CFLAGS := -std=c11 -O1 -g -fopenmp -fsanitize=address,undefined -fno-sanitize-recover=all \
              -fno-omit-frame-pointer $(XSMM_DEF)
SAN_CFLAGS_BLAS := $(filter-out -DLA_HAVE_LIBXSMM,$(SAN_CFLAGS))
SAN_ENV    := ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1

GATE_OBJ   := $(patsubst mex/gateway/%.c,$(BUILD)/gateway/%.o,$(GATE_SRC)) \
              $(patsubst mex/files/%.c,$(BUILD)/files/%.o,$(FILES_SRC))

# ---- the core as a library, once per flavour -----------------------------------
# Each flavour compiles mex/core/*.c once into $(BUILD)/obj/FLAVOUR/ and
# archives it as $(BUILD)/lib/libla_FLAVOUR.a (plain: libla.a); the MEX, the
# C tests, the benches and the flops driver link these archives, none
# compiles the core itself.  A flavour is its flags' variable:
#   plain      CFLAGS_ALL                    the MEX, test_core, benches
#   san        SAN_CFLAGS                    the C programs under ASan + UBSan
#   blas       CFLAGS_BLAS                   BLAS only (build_mex.m's engine)
#   tblas      CFLAGS_ALL -DLA_TIME_BLAS     the bench's time inside the GEMMs
#   tblas_san  SAN_CFLAGS -DLA_TIME_BLAS     the same under the sanitizers
#   flops      CFLAGS_BLAS -DLA_COUNT_FLOPS  flop counts for docs/flops.md
#   flops_san  SAN_CFLAGS_BLAS -DLA_COUNT_FLOPS
LIB_DIR    := $(BUILD)/lib
FLAGS_plain     = $(CFLAGS_ALL)
FLAGS_san       = $(SAN_CFLAGS)
FLAGS_blas      = $(CFLAGS_BLAS)
FLAGS_tblas     = $(CFLAGS_ALL) -DLA_TIME_BLAS
FLAGS_tblas_san = $(SAN_CFLAGS) -DLA_TIME_BLAS
FLAGS_flops     = $(CFLAGS_BLAS) -DLA_COUNT_FLOPS
FLAGS_flops_san = $(SAN_CFLAGS_BLAS) -DLA_COUNT_FLOPS
LA_FLAVOURS := plain san blas tblas tblas_san flops flops_san
# $(call la_lib,FLAVOUR): the archive's path
la_lib = $(LIB_DIR)/libla$(if $(filter plain,$(1)),,_$(1)).a
LIBLA      := $(call la_lib,plain)

define core_flavour
$(BUILD)/obj/$(1)/%.o: mex/core/%.c $(CORE_HDR) $(ENGINE_STAMP)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(FLAGS_$(1)) -c $$< -o $$@

$(call la_lib,$(1)): $(patsubst mex/core/%.c,$(BUILD)/obj/$(1)/%.o,$(CORE_SRC))
	@mkdir -p $$(dir $$@)
	rm -f $$@ && ar rcs $$@ $$^
endef
$(foreach f,$(LA_FLAVOURS),$(eval $(call core_flavour,$(f))))

.PHONY: libs
libs: $(foreach f,$(LA_FLAVOURS),$(call la_lib,$(f))) ## every flavour of the core's library

.PHONY: all deps build help test-c test-c-blas test-c-sanitize test-octave test-lab clean

all: build ## the same as make build

# $(call apt_ensure,PACKAGES,APT-OPTIONS): apt-get install those of PACKAGES
# that dpkg does not know (as root, or through sudo), waiting for another
# apt-get that holds the lock rather than failing.
define apt_ensure
	@missing=""; for p in $(1); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "make $@: installing$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq $(2) $$missing >/dev/null || exit 1; \
	fi
endef

deps: ## install the Debian packages that building needs
	$(call apt_ensure,$(DEB_PKGS),)

build: deps ## the MEX gateway (octave/private/la_mex.mex and the decode copies)
	@$(MAKE) --no-print-directory $(MEX_OUT) $(PUBLIC_MEX)

$(ENGINE_STAMP):
	@mkdir -p $(dir $@) && rm -f $(BUILD)/engine.libxsmm* && touch $@

$(BUILD)/gateway/%.o: mex/gateway/%.c $(GATE_HDR) $(FILES_HDR) $(CORE_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(shell $(MKOCTFILE) -p INCFLAGS 2>/dev/null) -c $< -o $@

$(BUILD)/files/%.o: mex/files/%.c $(FILES_HDR) $(CORE_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(shell $(MKOCTFILE) -p INCFLAGS 2>/dev/null) -c $< -o $@

# the shipped MEX: the gateway without the test build's call clock
MEX_OBJ    := $(filter-out %/la_mex_clock.o,$(GATE_OBJ))
$(MEX_OUT): $(MEX_OBJ) $(LIBLA)
	@mkdir -p $(dir $@)
	$(MKOCTFILE) --mex -o $@ $(MEX_OBJ) $(LIBLA) $(MEX_LDFLAGS) $(LIBS) >/dev/null

$(PUBLIC_MEX): $(MEX_OUT)
	cp $(MEX_OUT) $@

# The test build: the same gateway with -DLA_TESTING (la_mex.c answers
# the tests' and benches' instruments: 'options', 'poll_interrupt', 'tuning',
# 'outputs_like', 'last_call'; la_mex_clock.c times each call), built by
# the tiers and the benches, never shipped.  run_tests.m, run_validation.m
# and the benches put $(TESTING_DIR) on the path.
TESTING_DIR := $(BUILD)/testing
TESTING_MEX := $(TESTING_DIR)/la_mex_testing.mex
TESTING_OBJ := $(TESTING_DIR)/la_mex.o $(TESTING_DIR)/la_mex_clock.o \
               $(filter-out %/la_mex.o %/la_mex_clock.o,$(GATE_OBJ))

$(TESTING_DIR)/%.o: mex/gateway/%.c $(GATE_HDR) $(FILES_HDR) $(CORE_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -DLA_TESTING $(shell $(MKOCTFILE) -p INCFLAGS 2>/dev/null) -c $< -o $@

$(TESTING_MEX): $(TESTING_OBJ) $(LIBLA)
	$(MKOCTFILE) --mex -o $@ $(TESTING_OBJ) $(LIBLA) $(MEX_LDFLAGS) $(LIBS) >/dev/null

.PHONY: testing
testing: build $(TESTING_MEX) ## the test build of the MEX (build/testing/)

# ---- tests -------------------------------------------------------------------
# What the tests need beyond the build: gnuplot for the lab's figures, and
# what mk/*.mk add (numpy, scipy and PyTorch for the tensor-file tests).
.PHONY: deps-test
deps-test: deps ## install what the tests need beyond the build (gnuplot, numpy, scipy, torch)
	$(call apt_ensure,$(TEST_PKGS),--no-install-recommends)

# The core on its own: a C program, then the same under ASan + UBSan.
TEST_CORE_SRC := validation/tests/c/test_core.c validation/tests/c/test_decode.inc.c \
                 validation/tests/c/test_engine.inc.c validation/tests/c/test_emulate.inc.c
$(BUILD)/test_core: $(TEST_CORE_SRC) $(CORE_HDR) $(LIBLA)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Imex/core validation/tests/c/test_core.c $(LIBLA) -o $@ $(LIBS)

$(BUILD)/test_core_san: $(TEST_CORE_SRC) $(CORE_HDR) $(call la_lib,san)
	@mkdir -p $(dir $@)
	$(CC) $(SAN_CFLAGS) -Imex/core validation/tests/c/test_core.c $(call la_lib,san) -o $@ $(LIBS)

$(BUILD)/test_core_blas: $(TEST_CORE_SRC) $(CORE_HDR) $(call la_lib,blas)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BLAS) -Imex/core validation/tests/c/test_core.c $(call la_lib,blas) -o $@ $(LIBS_BLAS)

# test-c runs the C program with the machine's BLAS kernels and again with
# OpenBLAS's AVX2 ones where the CPU has them: the tests that ask for the
# same bits (schedules, tasks, pool, placement) must hold with either
# kernel set (the two round some products differently, docs/stability.md
# section 6), whichever a machine picks by default.
test-c: deps $(BUILD)/test_core ## step: the C core test, every case, with both BLAS kernel sets
	$(BUILD)/test_core > $(BUILD)/test_core.out || { grep -v '^PASS' $(BUILD)/test_core.out; exit 1; }
	@echo "test_core: $$(tail -n 1 $(BUILD)/test_core.out)"
	@if grep -qw avx2 /proc/cpuinfo 2>/dev/null; then \
	  OPENBLAS_CORETYPE=Haswell $(BUILD)/test_core > $(BUILD)/test_core_avx2.out || \
	    { grep -v '^PASS' $(BUILD)/test_core_avx2.out; exit 1; }; \
	  echo "test_core with OPENBLAS_CORETYPE=Haswell: $$(tail -n 1 $(BUILD)/test_core_avx2.out)"; \
	fi

# the quick subset (every code path, small sizes): make check
test-c-quick: deps $(BUILD)/test_core ## step: the C core test, --quick
	@$(BUILD)/test_core --quick > $(BUILD)/test_core_quick.out || \
	  { grep -v '^PASS' $(BUILD)/test_core_quick.out; exit 1; }
	@echo "test_core --quick: $$(tail -n 1 $(BUILD)/test_core_quick.out)"

# The BLAS-only core (the library's blas flavour, what build_mex.m builds
# for MATLAB): its quick run (every code path).
test-c-blas: deps $(BUILD)/test_core_blas ## step: the C core test --quick, BLAS-only core (the MATLAB build)
	@$(BUILD)/test_core_blas --quick > $(BUILD)/test_core_blas.out || \
	  { grep -v '^PASS' $(BUILD)/test_core_blas.out; exit 1; }
	@echo "test_core --quick, BLAS-only build: $$(tail -n 1 $(BUILD)/test_core_blas.out)"

# Every case, not --quick: under ASan + UBSan it takes seconds (8.5 s here
# for 768 checks), and the workspace pool is poisoned beyond each call's
# need (la_pool.c), so an overrun at any size is reported.
test-c-sanitize: deps $(BUILD)/test_core_san ## step: the C core test, every case, under ASan + UBSan
	@$(SAN_ENV) $(BUILD)/test_core_san > $(BUILD)/test_core_san.out 2>&1 || \
	  { grep -v '^PASS' $(BUILD)/test_core_san.out; exit 1; }
	@echo "test_core under ASan/UBSan: $$(tail -n 1 $(BUILD)/test_core_san.out)"

test-c-sanitize-quick: deps $(BUILD)/test_core_san ## step: the C core test --quick under ASan + UBSan
	@$(SAN_ENV) $(BUILD)/test_core_san --quick > $(BUILD)/test_core_san_quick.out 2>&1 || \
	  { grep -v '^PASS' $(BUILD)/test_core_san_quick.out; exit 1; }
	@echo "test_core --quick under ASan/UBSan: $$(tail -n 1 $(BUILD)/test_core_san_quick.out)"

# The Octave suite (validation/run_tests.m) in three tiers: 'check' (the
# files of the developer's loop), 'test' (every file but validation/tests/slow),
# 'slow' (validation/tests/slow only).  Its closing line "N passed, M failed"
# counts test blocks.
RUN_TESTS = $(OCTAVE) $(OCTFLAGS) --eval "cd validation; run_tests ('', '$(1)');"
test-octave: testing deps-test ## step: the Octave suite of the gate (run_tests ('', 'test'))
	$(call RUN_TESTS,test)
test-octave-fast: testing ## step: the Octave suite of make check (run_tests ('', 'check'))
	$(call RUN_TESTS,check)
test-octave-slow: testing deps-test ## step: the Octave tests split out for their time (validation/tests/slow)
	$(call RUN_TESTS,slow)

# the lab at small sizes, so none of it can rot unnoticed; on two threads,
# where the schedules that split heads or value columns between threads run
# (its random section aims at them).  The gate runs every section but the
# hazards (plain-Octave models of fast kernels, not the library: the full
# tier); make check the reference and the gradients.  The quick lab writes
# validation/report/quick/ (not tracked).
LAB_THREADS ?= 2
LAB_QUICK = OMP_NUM_THREADS=$(LAB_THREADS) LAB_SECTIONS='$(1)' $(OCTAVE) $(OCTFLAGS) \
  --eval "cd validation; run_validation ('quick');"
LAB_GATE  := reference,gradients,derivations,precision,gate gradient,conditioning,emulation,state map,random
LAB_CHECK := reference,gradients
test-lab: testing deps-test ## step: the quick lab, every section but the hazards, on two threads
	$(call LAB_QUICK,$(LAB_GATE))
test-lab-check: testing deps-test ## step: the quick lab, reference and gradients
	$(call LAB_QUICK,$(LAB_CHECK))
test-lab-hazards: testing deps-test ## step: the quick lab, hazards section
	$(call LAB_QUICK,hazards)

# plain `make` must build the MEX (README: "Without installing: `make`")
test-make: ## step: plain make's goal is all (the MEX), not a rule an include defines first
	@goal=$$($(MAKE) --no-print-directory -pn 2>/dev/null | sed -n 's/^\.DEFAULT_GOAL := //p' | tail -n 1); \
	  test "$$goal" = all || { echo "plain make builds '$$goal', not all (the MEX)"; exit 1; }; \
	  echo "plain make builds all: the MEX"

# ---- the tiers -------------------------------------------------------------
# Each mk/*.mk file appends its steps to a tier (TEST_STEPS += ...,
# VALIDATE_STEPS += ...).  The Octave suite goes last in each tier.
CHECK_STEPS    := test-make test-c-quick test-c-sanitize-quick test-lab-check test-octave-fast
TEST_STEPS     := test-make test-c test-c-blas test-c-sanitize test-lab
VALIDATE_STEPS := test-lab-hazards lab-full notebooks-check test-octave-slow
STEPS = BUILD='$(BUILD)' MAKE='$(MAKE)' bash mk/steps.sh

.PHONY: check test validate lab-full test-make test-c-quick test-c-sanitize-quick test-octave-fast \
        test-octave-slow test-lab-check test-lab-hazards

check: testing ## the developer's loop (under two minutes warm)
	@$(STEPS) check $(CHECK_STEPS)

test: testing deps-test ## the gate: every unit test, the quick lab, the package round trip
	@$(STEPS) test $(TEST_STEPS) test-octave

validate: testing deps-test ## the full tier: slow tests, full lab, documents, notebooks, fuzzers
	@$(STEPS) validate $(VALIDATE_STEPS)

# the full lab: rewrites validation/report/ (REPORT.md, its CSVs and figures,
# tracked), the only tracked files make validate writes
lab-full: testing deps-test ## step: the full lab; rewrites validation/report/ (tracked)
	$(OCTAVE) $(OCTFLAGS) --eval "cd validation; run_validation ();"
	@echo "wrote validation/report/ (REPORT.md, its CSVs and figures)"

# ---- the benchmarks ----------------------------------------------------------
# bench, bench-c: mk/bench.mk

clean: ## remove build/ and the MEX files
	rm -rf $(BUILD) $(MEX_OUT)

# ---- notebooks ---------------------------------------------------------------
# Jupyter notebooks on the Octave kernel (notebooks/*.ipynb), executed headless
# into notebooks/html/NAME.html with their plots embedded (notebooks/README.md).
# NB_PKGS: the Octave kernel (brings jupyter-client, ipykernel, metakernel) and
# nbconvert (brings nbclient, nbformat), installed without Recommends.  Plots
# are drawn by gnuplot (the kernel's inline toolkit; needs no display), which
# `deps-test` provides.
NB_PKGS    := python3-octave-kernel python3-nbconvert
# Debian's python3-* packages are seen by /usr/bin/python3 (not by a python3
# that comes earlier in PATH, e.g. from pyenv).
NB_PYTHON  ?= /usr/bin/python3
NOTEBOOKS  := $(wildcard notebooks/*.ipynb)
NB_CHECK   := $(BUILD)/notebooks-check

.PHONY: deps-notebooks notebooks notebooks-check

deps-notebooks: deps-test ## install the Octave kernel and nbconvert
	$(call apt_ensure,$(NB_PKGS),--no-install-recommends)

# make notebooks: runs them and writes them back with their outputs (the
# committed notebooks show their numbers and plots).  Fails (exit 1) if a
# cell of any notebook reports an error; see the header of
# notebooks/run_notebooks.py for why plain `jupyter nbconvert --execute`
# cannot.
notebooks: build deps-notebooks ## run the notebooks; writes them back with their outputs (tracked)
	$(NB_PYTHON) notebooks/run_notebooks.py notebooks/html $(NOTEBOOKS)

# the same run on copies (make validate): the tracked notebooks stay as they
# are; the copies see octave/ and validation/ through links
notebooks-check: build deps-notebooks ## step: run copies of the notebooks under build/ (nothing tracked written)
	@rm -rf $(NB_CHECK) && mkdir -p $(NB_CHECK)/notebooks
	cp $(NOTEBOOKS) $(NB_CHECK)/notebooks/
	ln -s "$(CURDIR)/octave" "$(CURDIR)/validation" $(NB_CHECK)/
	$(NB_PYTHON) notebooks/run_notebooks.py $(NB_CHECK)/html $(addprefix $(NB_CHECK)/,$(NOTEBOOKS))

# ---- further concerns, one file each ----------------------------------------
# mk/NAME.mk: the targets of one concern (packaging, fuzzing, documents, ...);
# each may add Debian packages (DEB_PKGS += ... for building, TEST_PKGS +=
# ... for the tests) and steps to a tier.
include $(sort $(wildcard mk/*.mk))

# make help: every target whose rule line ends in `## what it does`, from
# this file and mk/*.mk, in the order they are read
help: ## this list
	@sed -n 's/^\([a-z][a-zA-Z0-9_-]*\):.*## \(.*\)$$/\1|\2/p' Makefile $(sort $(wildcard mk/*.mk)) | \
	  awk -F'|' '{ printf "  make %-22s %s\n", $$1, $$2 }'

# make hooks: git's commit-msg hook of the repository (mk/commit-msg: a
# subject of at most 72 characters) into this clone's hooks folder
.PHONY: hooks
hooks: ## install the commit-msg hook (subjects of at most 72 characters)
	@hooks=$$(git rev-parse --git-path hooks) && mkdir -p "$$hooks" && \
	  cp mk/commit-msg "$$hooks/commit-msg" && chmod +x "$$hooks/commit-msg" && \
	  echo "installed mk/commit-msg as $$hooks/commit-msg"
