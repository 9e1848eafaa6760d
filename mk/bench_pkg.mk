# ---- the installed package at the build's speed ----------------------------
#   make bench-pkg  `make dist`, then `pkg install -local` of it into a
#                  temporary HOME twice: as a user's `pkg install` builds it
#                  (-march=native) and portable (KDAGDN_MARCH=$(PKG_PORTABLE),
#                  what a site-wide install shared by different CPUs uses);
#                  then the rows of the goals and the decode step through
#                  the build and both packages, interleaved in one Octave
#                  (validation/run_bench_pkg.m): each package's speed over
#                  the build's, whether it has the build's bits and
#                  whether its MEX file holds the build's machine code
#                  (objdump -d of both compared); writes
#                  validation/bench/results/bench_pkg.md.  BENCH_PKG_REPS
#                  runs a row (default 7).
.PHONY: bench-pkg

PKG_PORTABLE   ?= x86-64-v3
BENCH_PKG_REPS ?= 7
BENCH_PKG_HOME := $(abspath $(BUILD)/bench-pkg)

# $(call pkg_install_into,NAME,KDAGDN_MARCH): install $(PKG_TGZ) under
# $(BENCH_PKG_HOME)/NAME (its own HOME and pkg lists) and write the
# installed folder to $(BENCH_PKG_HOME)/NAME/dir
define pkg_install_into
	@mkdir -p $(BENCH_PKG_HOME)/$(1)
	@echo "pkg install -local $(PKG_TGZ), KDAGDN_MARCH=$(2), into $(BENCH_PKG_HOME)/$(1)"
	@env -u XDG_DATA_HOME -u XDG_CONFIG_HOME -u OCTAVE_PATH HOME=$(BENCH_PKG_HOME)/$(1) KDAGDN_MARCH=$(2) \
	  $(OCTAVE) $(OCTFLAGS) --eval "pkg ('local_list', '$(BENCH_PKG_HOME)/$(1)/octave_packages'); \
	    pkg ('global_list', '$(BENCH_PKG_HOME)/$(1)/global_packages'); \
	    pkg ('install', '-local', '$(abspath $(PKG_TGZ))'); l = pkg ('list', 'kdagdn'); \
	    fid = fopen ('$(BENCH_PKG_HOME)/$(1)/dir', 'w'); fprintf (fid, '%s', l{1}.dir); fclose (fid);"
endef

bench-pkg: build dist ## the installed package beside the build, timed in one run
	@rm -rf $(BENCH_PKG_HOME)
	$(call pkg_install_into,native,native)
	$(call pkg_install_into,portable,$(PKG_PORTABLE))
	$(OCTAVE) $(OCTFLAGS) --eval "cd validation; run_bench_pkg ('Build', '$(abspath octave)', \
	  'Packages', {fileread('$(BENCH_PKG_HOME)/native/dir'), fileread('$(BENCH_PKG_HOME)/portable/dir')}, \
	  'Names', {'package', 'package $(PKG_PORTABLE)'}, 'Reps', $(BENCH_PKG_REPS), \
	  'Flags', {'package: as pkg install builds it (KDAGDN_MARCH unset: -march=native)', \
	            'package $(PKG_PORTABLE): KDAGDN_MARCH=$(PKG_PORTABLE) (portable to every $(PKG_PORTABLE) CPU)'});"

# ---- kda_verify at dump scale -------------------------------------------------
#   make bench-verify  a bfloat16 KDA dump with every gradient written, then
#                  kda_verify on it and the bare double recomputation, each
#                  in an Octave of its own: wall time and peak resident
#                  memory (validation/run_bench_verify.m); the issue's case
#                  (T = 32768, H = 4, K = V = 64) and a serving-size dump
#                  (T = 8192, H = 32, K = V = 128: needs several GB free);
#                  writes validation/bench/results/bench_verify.md
.PHONY: bench-verify

bench-verify: build
	$(OCTAVE) $(OCTFLAGS) --eval "cd validation; run_bench_verify ();"
