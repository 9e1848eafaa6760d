# ---- tensor files and kernel verification (la_load, kda_verify) -------------
# The tests of la_load and kda_verify read files written by real writers:
# numpy (save, savez, savez_compressed) and scipy (savemat), run by Debian's
# /usr/bin/python3 (validation/tests/python/).  Deflated .npz members are
# inflated through gunzip, i.e. the gzip program (essential on Debian).
DEB_PKGS += python3-numpy python3-scipy gzip

.PHONY: test-verify

# the two test files on their own (they also run in test-octave)
test-verify: build
	$(OCTAVE) $(OCTFLAGS) --eval "cd validation; run_tests ('test_tensor_files'); " && \
	$(OCTAVE) $(OCTFLAGS) --eval "cd validation; run_tests ('test_verify');"
