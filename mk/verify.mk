# ---- tensor files and kernel verification (la_load, kda_verify) -------------
# The tests of la_load and kda_verify read files written by real writers:
# numpy (save, savez, savez_compressed) and scipy (savemat), run by Debian's
# /usr/bin/python3 (validation/tests/python/), and dumps of an independent
# chunked kernel in PyTorch written by the users' dump writer
# octave/python/kdagdn_dump.py (test_verify_kernels).
TEST_PKGS += python3-numpy python3-scipy python3-torch python3-pytest

# CRC-32, deflate and inflate of .npz members and the check of compressed
# .mat variables go through zlib in the MEX (mex/files/la_files_zlib.c,
# la_files_mat.c); a build without LA_HAVE_ZLIB (build_mex.m) computes the
# CRC itself and refuses deflated members and compressed .mat variables
# with a clear error.
DEB_PKGS += zlib1g-dev
LIBS     += -lz
$(BUILD)/files/la_files_zlib.o $(BUILD)/files/la_files_mat.o $(BUILD)/files/la_files_mex.o: CFLAGS_ALL += -DLA_HAVE_ZLIB

.PHONY: test-verify verify-calibrate verify-calibrate-scale

# the test files on their own (they also run in test-octave)
test-verify: build ## the tensor-file and kda_verify tests alone
	$(OCTAVE) $(OCTFLAGS) --eval "cd validation; run_tests ('test_tensor_files'); " && \
	$(OCTAVE) $(OCTFLAGS) --eval "cd validation; run_tests ('test_verify');"

# where correct and precision-buggy kernels sit against kda_verify's bounds
# (larger sizes, several seeds; docs/verify.md section 4 keeps the numbers)
verify-calibrate: build ## where correct and buggy kernels sit against the bounds
	$(OCTAVE) $(OCTFLAGS) --eval "addpath ('$(abspath octave)', '$(abspath validation/lab)'); lab_verify_calibration ();"

# the same at dump scale alone: T = 32768 and H = 32, K = V = 128 (long)
verify-calibrate-scale: build ## the calibration's dump-scale cases (T = 32768; 32 heads)
	$(OCTAVE) $(OCTFLAGS) --eval "addpath ('$(abspath octave)', '$(abspath validation/lab)'); lab_verify_calibration ([], 'long32k|serving');"
