# KDA / GDN for Octave -- build, tests, lab and benchmarks.
#
#   make            install missing Debian packages, build the MEX gateway
#   make validate   the lab: gradient checks, derivations, precision (main job)
#   make test       every test: C core (plain and sanitized), Octave tests
#   make bench      timings (medians, tokens/s, ratio to same-run gemm)
#
# Nothing but git, gcc and make is assumed: `deps` installs what is missing
# with apt-get (as root, or through sudo).

# liblapacke-dev: the project's platform contract lists it, so a machine set
# up by `make deps` has it; nothing here links LAPACKE (the chunk's
# triangular solves are the core's own, the rest is OpenBLAS's BLAS).
DEB_PKGS   := octave liboctave-dev libopenblas-dev liblapacke-dev
# gnuplot draws the lab's and the notebooks' figures headless (Octave's
# toolkit without a display): any installed gnuplot will do, else gnuplot-nox.
GNUPLOT_PKG := $(if $(shell command -v gnuplot 2>/dev/null),,gnuplot-nox)
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

CORE_OBJ   := $(patsubst mex/core/%.c,$(BUILD)/core/%.o,$(CORE_SRC))
GATE_OBJ   := $(patsubst mex/gateway/%.c,$(BUILD)/gateway/%.o,$(GATE_SRC)) \
              $(patsubst mex/files/%.c,$(BUILD)/files/%.o,$(FILES_SRC))

.PHONY: all deps build test test-c test-c-blas test-c-sanitize test-octave test-lab validate clean

all: build

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

deps:
	$(call apt_ensure,$(DEB_PKGS) $(GNUPLOT_PKG),)

build: deps
	@$(MAKE) --no-print-directory $(MEX_OUT) $(PUBLIC_MEX)

$(ENGINE_STAMP):
	@mkdir -p $(dir $@) && rm -f $(BUILD)/engine.libxsmm* && touch $@

$(BUILD)/core/%.o: mex/core/%.c $(CORE_HDR) $(ENGINE_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -c $< -o $@

$(BUILD)/gateway/%.o: mex/gateway/%.c $(GATE_HDR) $(FILES_HDR) $(CORE_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(shell $(MKOCTFILE) -p INCFLAGS 2>/dev/null) -c $< -o $@

$(BUILD)/files/%.o: mex/files/%.c $(FILES_HDR) $(CORE_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(shell $(MKOCTFILE) -p INCFLAGS 2>/dev/null) -c $< -o $@

$(MEX_OUT): $(CORE_OBJ) $(GATE_OBJ)
	@mkdir -p $(dir $@)
	$(MKOCTFILE) --mex -o $@ $(GATE_OBJ) $(CORE_OBJ) $(MEX_LDFLAGS) $(LIBS) >/dev/null

$(PUBLIC_MEX): $(MEX_OUT)
	cp $(MEX_OUT) $@

# ---- tests -------------------------------------------------------------------
# The core on its own: a C program, then the same under ASan + UBSan.
$(BUILD)/test_core: validation/tests/c/test_core.c validation/tests/c/test_decode.inc.c validation/tests/c/test_engine.inc.c $(CORE_SRC) $(CORE_HDR) $(ENGINE_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) validation/tests/c/test_core.c $(CORE_SRC) -o $@ $(LIBS)

$(BUILD)/test_core_san: validation/tests/c/test_core.c validation/tests/c/test_decode.inc.c validation/tests/c/test_engine.inc.c $(CORE_SRC) $(CORE_HDR) $(ENGINE_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(SAN_CFLAGS) validation/tests/c/test_core.c $(CORE_SRC) -o $@ $(LIBS)

# test-c runs the C program with the machine's BLAS kernels and again with
# OpenBLAS's AVX2 ones where the CPU has them: the tests that ask for the
# same bits (schedules, tasks, pool, placement) must hold with either
# kernel set (the two round some products differently, docs/stability.md
# section 6), whichever a machine picks by default.
test-c: deps $(BUILD)/test_core
	$(BUILD)/test_core
	@if grep -qw avx2 /proc/cpuinfo 2>/dev/null; then \
	  OPENBLAS_CORETYPE=Haswell $(BUILD)/test_core > $(BUILD)/test_core_avx2.out || \
	    { grep -v '^PASS' $(BUILD)/test_core_avx2.out; exit 1; }; \
	  echo "test_core with OPENBLAS_CORETYPE=Haswell: $$(tail -n 1 $(BUILD)/test_core_avx2.out)"; \
	fi

# The BLAS-only core (make LIBXSMM=0, what build_mex.m builds for MATLAB),
# built apart under $(BUILD)/blas: its quick run (every code path).
test-c-blas: deps
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/blas LIBXSMM=0 $(BUILD)/blas/test_core
	@$(BUILD)/blas/test_core --quick > $(BUILD)/blas/test_core.out || \
	  { grep -v '^PASS' $(BUILD)/blas/test_core.out; exit 1; }
	@echo "test_core --quick, BLAS-only build: $$(tail -n 1 $(BUILD)/blas/test_core.out)"

# Every case, not --quick: under ASan + UBSan it takes seconds (8.5 s here
# for 768 checks), and the workspace pool is poisoned beyond each call's
# need (la_pool.c), so an overrun at any size is reported.
test-c-sanitize: deps $(BUILD)/test_core_san
	$(SAN_ENV) $(BUILD)/test_core_san

test-octave: build
	$(OCTAVE) $(OCTFLAGS) --eval "cd validation; run_tests();"

# the lab at small sizes (a few minutes), so none of it can rot unnoticed;
# on two threads, where the schedules that split heads or value columns
# between threads run (its random section aims at them)
LAB_THREADS ?= 2
test-lab: build
	OMP_NUM_THREADS=$(LAB_THREADS) $(OCTAVE) $(OCTFLAGS) --eval "cd validation; run_validation('quick');"

# The steps of `make test`; each mk/*.mk file may append its own
# (TEST_STEPS += ...).  The Octave test run goes last: its closing line
# counts every test block.
TEST_STEPS := test-c test-c-blas test-c-sanitize notebooks test-lab

test: build
	@$(MAKE) --no-print-directory $(TEST_STEPS) test-octave

# ---- the lab and the benchmarks ----------------------------------------------
validate: build
	$(OCTAVE) $(OCTFLAGS) --eval "cd validation; run_validation();"

# bench, bench-c: mk/bench.mk

clean:
	rm -rf $(BUILD) $(MEX_OUT)

# ---- notebooks ---------------------------------------------------------------
# Jupyter notebooks on the Octave kernel (notebooks/*.ipynb), executed headless
# into notebooks/html/NAME.html with their plots embedded (notebooks/README.md).
# NB_PKGS: the Octave kernel (brings jupyter-client, ipykernel, metakernel) and
# nbconvert (brings nbclient, nbformat), installed without Recommends.  Plots
# are drawn by gnuplot (the kernel's inline toolkit; needs no display), which
# `deps` provides.
NB_PKGS    := python3-octave-kernel python3-nbconvert
# Debian's python3-* packages are seen by /usr/bin/python3 (not by a python3
# that comes earlier in PATH, e.g. from pyenv).
NB_PYTHON  ?= /usr/bin/python3
NOTEBOOKS  := $(wildcard notebooks/*.ipynb)

.PHONY: deps-notebooks notebooks

deps-notebooks:
	$(call apt_ensure,$(NB_PKGS),--no-install-recommends)

# Fails (exit 1) if a cell of any notebook reports an error; see the header of
# notebooks/run_notebooks.py for why plain `jupyter nbconvert --execute` cannot.
notebooks: build deps-notebooks
	$(NB_PYTHON) notebooks/run_notebooks.py notebooks/html $(NOTEBOOKS)

# ---- further concerns, one file each ----------------------------------------
# mk/NAME.mk: the targets of one concern (packaging, fuzzing, documents, ...);
# each may add Debian packages (DEB_PKGS += ...) and test steps.
include $(sort $(wildcard mk/*.mk))
