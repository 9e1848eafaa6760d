# ---- equation numbers in reading order -----------------------------------------
#   make equations-check     the report's numbered equations (1), (2), ... follow
#                            the reading order of its pages (PDF_DOCS of
#                            mk/pdf.mk); a step of make test
#   make equations-dry-run   what renumbering would change: the map, the
#                            replacements per file, the candidates it skips
#   make equations-renumber  renumber them and rewrite every reference in the
#                            tracked files (then make pdf, and commit)
#   make equations-selftest  the script on a small repository built for the
#                            test (validation/tools/test_renumber_equations.py)
# The script and the forms it rewrites: validation/tools/renumber_equations.py.
EQ_PYTHON ?= /usr/bin/python3
EQ_SCRIPT := validation/tools/renumber_equations.py

.PHONY: equations-check equations-dry-run equations-renumber equations-selftest
TEST_STEPS += equations-check
VALIDATE_STEPS += equations-selftest

equations-check: ## step: the numbered equations follow the reading order
	$(EQ_PYTHON) $(EQ_SCRIPT) --check

equations-dry-run: ## what renumbering the equations would change
	$(EQ_PYTHON) $(EQ_SCRIPT) --dry-run

equations-renumber: ## renumber the equations in reading order; rewrites tracked files
	$(EQ_PYTHON) $(EQ_SCRIPT)

equations-selftest: ## step: the renumbering script on a scratch repository
	$(EQ_PYTHON) validation/tools/test_renumber_equations.py
