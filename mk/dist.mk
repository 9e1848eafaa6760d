# ---- the Octave package ------------------------------------------------------
#   make dist       kdagdn-VERSION.tar.gz in Octave's package layout
#   make test-pkg   pkg install / load / quick example / pkg test / uninstall
#                   of that file in a fresh Octave user directory (a step of
#                   `make test`)
#
# The version lives in octave/kdagdn_version.m (README.md, CITATION.cff and
# NEWS.md name it too; test_help_contents checks them); the list of functions
# (INDEX) comes from octave/Contents.m, the license (COPYING) from LICENSE.

comma       := ,
PKG_VERSION := $(shell sed -n "s/^ *v = '\([0-9][0-9.]*\)';.*/\1/p" octave/kdagdn_version.m)
PKG_NAME    := kdagdn-$(PKG_VERSION)
PKG_TGZ     := $(PKG_NAME).tar.gz
PKG_STAGE   := $(BUILD)/dist/$(PKG_NAME)
PKG_M       := $(wildcard octave/*.m)
PKG_PRIVATE := $(wildcard octave/private/*.m)
# the tests of the package beyond the functions' own blocks: pkg test runs
# them from inst/tests/
PKG_TESTS   := validation/tests/test_package.m
# the Python dump writer for kda_verify / gdn_verify, when present
PKG_PYTHON  := $(wildcard octave/python/kdagdn_dump.py)
# zlib when the gateway calls it
PKG_ZLIB    := $(if $(shell grep -l '<zlib.h>' $(GATE_SRC) $(FILES_SRC) $(CORE_SRC) 2>/dev/null),zlib1g-dev)

.PHONY: dist test-pkg clean-dist

dist: $(PKG_TGZ) ## the Octave package kdagdn-VERSION.tar.gz
$(PKG_TGZ): $(PKG_M) $(PKG_PRIVATE) $(PKG_TESTS) $(PKG_PYTHON) $(CORE_SRC) $(CORE_HDR) $(GATE_SRC) $(GATE_HDR) $(FILES_SRC) $(FILES_HDR) LICENSE NEWS.md \
            mk/dist/src-Makefile validation/tests/pkg_roundtrip.m mk/dist.mk
	@test -n "$(PKG_VERSION)" || { echo "no version in octave/kdagdn_version.m"; exit 1; }
	rm -rf $(PKG_STAGE) && mkdir -p $(PKG_STAGE)/inst/private $(PKG_STAGE)/inst/tests \
	  $(PKG_STAGE)/src/core $(PKG_STAGE)/src/gateway $(PKG_STAGE)/src/files $(PKG_STAGE)/doc
	cp $(PKG_M) $(PKG_STAGE)/inst/
	cp $(PKG_PRIVATE) $(PKG_STAGE)/inst/private/
	cp $(PKG_TESTS) $(PKG_STAGE)/inst/tests/
	$(if $(PKG_PYTHON),mkdir -p $(PKG_STAGE)/inst/python && cp $(PKG_PYTHON) $(PKG_STAGE)/inst/python/)
	# the help's and the reports' docs/NAME.md is doc/NAME.md in the package
	sed -i 's|docs/\([A-Za-z_]*\.md\)|doc/\1|g' $(PKG_STAGE)/inst/*.m $(PKG_STAGE)/inst/private/*.m \
	  $(if $(PKG_PYTHON),$(PKG_STAGE)/inst/python/*.py)
	cp $(CORE_SRC) $(CORE_HDR) $(PKG_STAGE)/src/core/
	cp $(GATE_SRC) $(GATE_HDR) $(PKG_STAGE)/src/gateway/
	cp $(FILES_SRC) $(FILES_HDR) $(PKG_STAGE)/src/files/
	cp mk/dist/src-Makefile $(PKG_STAGE)/src/Makefile
	cp docs/*.md $(PKG_STAGE)/doc/
	mkdir -p $(PKG_STAGE)/doc/figures && cp docs/figures/*.png $(PKG_STAGE)/doc/figures/
	cp LICENSE $(PKG_STAGE)/COPYING
	cp NEWS.md $(PKG_STAGE)/NEWS
	{ echo "Name: kdagdn"; \
	  echo "Version: $(PKG_VERSION)"; \
	  echo "Date: $$(git log -1 --format=%cs 2>/dev/null || date +%F)"; \
	  echo "Author: The kdagdn authors"; \
	  echo "Maintainer: The kdagdn authors"; \
	  echo "Title: Kimi Delta Attention and Gated DeltaNet"; \
	  echo "Description: Reference CPU implementation of two linear-attention"; \
	  echo " recurrences with a delta-rule state update, KDA and GDN, in recurrent"; \
	  echo " and chunked forms with hand-written gradients, single and double."; \
	  echo "Depends: octave (>= 7.3.0)"; \
	  echo "SystemRequirements: libopenblas-dev$(if $(PKG_ZLIB),$(comma) $(PKG_ZLIB)), libxsmm-dev (optional)"; \
	  echo "License: MIT"; } > $(PKG_STAGE)/DESCRIPTION
	awk -f mk/dist/index.awk octave/Contents.m > $(PKG_STAGE)/INDEX
	tar -C $(BUILD)/dist -czf $@ $(PKG_NAME)
	@echo "wrote $@"

# A fresh HOME (and no XDG folders, no OCTAVE_PATH): pkg installs under it;
# pkg_roundtrip gives pkg lists of its own, so nothing of the user's Octave
# set-up, nor a kdagdn installed globally as root, is read or touched.
test-pkg: deps dist ## step: install, load, test and uninstall the package in a scratch HOME
	@rm -rf $(BUILD)/pkg-home && mkdir -p $(BUILD)/pkg-home
	env -u XDG_DATA_HOME -u XDG_CONFIG_HOME -u OCTAVE_PATH \
	  HOME="$(abspath $(BUILD)/pkg-home)" $(OCTAVE) $(OCTFLAGS) \
	  --eval "addpath ('$(abspath validation/tests)'); pkg_roundtrip ('$(abspath $(PKG_TGZ))', '$(abspath README.md)')"

TEST_STEPS += test-pkg

clean: clean-dist
clean-dist: ## remove the package and its staging
	rm -rf $(BUILD)/dist $(BUILD)/pkg-home kdagdn-*.tar.gz
