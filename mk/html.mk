# ---- an HTML reference ----------------------------------------------------------
#   make html   build/html/index.html: the help text of every public function
#               (grouped as octave/Contents.m, names linked), and
#               build/html/docs/*.html: docs/*.md by pandoc, with MathML
# `help NAME` prints the same text in Octave; README.md links the page.
HTML_DIR := $(BUILD)/html

.PHONY: html deps-html
VALIDATE_STEPS += html

deps-html: ## install pandoc
	$(call apt_ensure,pandoc,--no-install-recommends)

html: deps-html ## step: build/html, the help of every function and docs/*.md
	@rm -rf $(HTML_DIR) && mkdir -p $(HTML_DIR)/docs
	@for f in docs/*.md; do \
	  name=$$(basename $$f .md); \
	  pandoc $$f --from markdown+tex_math_dollars --mathml --standalone \
	    --metadata title="kdagdn: $$name" -o $(HTML_DIR)/docs/$$name.html || exit 1; \
	  sed -i -E 's/href="([A-Za-z_]+)\.md(#[^"]*)?"/href="\1.html\2"/g' $(HTML_DIR)/docs/$$name.html; \
	done
	$(OCTAVE) $(OCTFLAGS) --eval "addpath ('$(abspath octave)'); addpath ('$(abspath mk/html)'); help_html ('$(HTML_DIR)')"
