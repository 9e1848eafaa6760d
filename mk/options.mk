# ---- the option table in the docs ---------------------------------------------
# The Options block of each function's help and the option table of
# docs/api.md are written from mex/gateway/la_options.c (through the MEX's
# test build's la_mex_testing('options')); validation/tests/test_help_options.m fails until they
# agree.  After adding or changing a row of the table: make sync-options.
.PHONY: sync-options

sync-options: testing ## rewrite the option tables of the help and docs/api.md
	$(OCTAVE) $(OCTFLAGS) --eval "addpath ('$(CURDIR)/validation/tools'); sync_option_docs ('$(CURDIR)');"
