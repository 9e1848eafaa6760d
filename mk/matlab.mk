# ---- the MATLAB path, built and tested under Octave ----------------------------
#   make test-matlab-path  build_mex.m (what MATLAB users build: BLAS only, no
#                          libxsmm, no zlib, -O2) run under Octave with
#                          mkoctfile into build/matlab/octave/private, beside
#                          copies of octave/*.m, and its test build
#                          (build_mex 'Testing': la_mex_testing, the tests'
#                          instruments) into build/matlab/testing; then the functions' own test
#                          blocks, the chunked, recurrent and decode test
#                          files and the tensor files without zlib (a deflated
#                          .npz refused with the documented error) on that
#                          build (validation/tools/test_matlab_path.m; closing
#                          line  N passed, M failed).  The clone's octave/ is
#                          never written.  Minutes: the full tier, not make test.
.PHONY: test-matlab-path

ML_DIR := $(BUILD)/matlab

VALIDATE_STEPS += test-matlab-path

test-matlab-path: deps ## build_mex (the MATLAB path) under Octave, and its tests
	@rm -rf $(ML_DIR) && mkdir -p $(ML_DIR)/octave/private
	cp octave/*.m $(ML_DIR)/octave/
	cp octave/private/*.m $(ML_DIR)/octave/private/
	$(OCTAVE) $(OCTFLAGS) --eval "build_mex ('OutDir', '$(abspath $(ML_DIR))/octave/private'); \
	  build_mex ('Testing', true, 'OutDir', '$(abspath $(ML_DIR))/testing')"
	@if ldd $(ML_DIR)/octave/private/la_mex.mex | grep -q 'libz\.' || \
	    nm $(ML_DIR)/octave/private/la_mex.mex | grep -q ' libxsmm_'; then \
	  echo "test-matlab-path: build_mex's MEX links zlib or libxsmm"; exit 1; fi
	@echo "test-matlab-path: build_mex's MEX links neither zlib nor libxsmm"
	$(OCTAVE) $(OCTFLAGS) --eval "addpath ('$(CURDIR)/validation/tools'); \
	  test_matlab_path ('$(abspath $(ML_DIR))', '$(CURDIR)');"
