# ---- the option table in the docs ---------------------------------------------
# The Options block of each function's help and the option table of
# docs/api.md are written from mex/gateway/la_options.c (through the MEX's
# la_mex('options')); validation/tests/test_help_options.m fails until they
# agree.  After adding or changing a row of the table: make sync-options.
.PHONY: sync-options

sync-options: build
	$(OCTAVE) $(OCTFLAGS) --eval "addpath ('$(CURDIR)/validation/tools'); sync_option_docs ('$(CURDIR)');"
