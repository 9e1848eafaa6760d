# ---- the math as one typeset report ------------------------------------------
# make pdf: the math pages of docs/ (in the reading order of docs/README.md)
# into build/kdagdn-math.pdf, a technical report: title page data and abstract
# from docs/report.yaml, numbered sections, equations and pages cross-linked
# (mk/pdf.lua), citations from docs/references.bib (pandoc's citeproc), and
# the figures of docs/figures/ drawn from their TikZ sources.
#
# Figures: docs/figures/NAME.tex is a tikzpicture; make pdf typesets it alone
# (a page cut to the picture, build/figures/NAME.pdf, used by the report) and
# renders it to docs/figures/NAME.png (150 dpi, committed, what the Markdown
# pages show).  The lab's measured plots are PNGs of validation/report/figures.
#
# make pdf-check (a step of make validate): no overfull box wider than
# PDF_OVERFULL_PT, no undefined reference or citation and no link to a
# missing anchor in the LaTeX log.
PDF_PKGS  := pandoc texlive-latex-recommended texlive-fonts-recommended \
             texlive-pictures lmodern poppler-utils
PDF_OUT   := $(BUILD)/kdagdn-math.pdf
PDF_DIR   := $(BUILD)/pdf
# The math only: the API and engineering pages (api.md, verify.md, decode.md,
# architecture.md, performance.md, ...) are not part of the report.
PDF_DOCS  := docs/README.md docs/recurrence.md docs/background.md \
             docs/chunk_forward.md docs/chunk_backward.md docs/stability.md \
             docs/error_analysis.md docs/hazards.md docs/state_map.md \
             docs/gdn.md docs/flops.md docs/io.md docs/conventions.md \
             docs/emulation.md docs/comparison.md docs/equation_index.md \
             docs/references.md
# notebooks whose committed outputs the pages quote (mk/pdf.lua)
PDF_NOTEBOOKS := $(wildcard notebooks/*.ipynb)
PDF_FIGS  := $(patsubst docs/figures/%.tex,%,$(wildcard docs/figures/*.tex))
PDF_FIGPDF := $(PDF_FIGS:%=$(BUILD)/figures/%.pdf)
PDF_FIGPNG := $(PDF_FIGS:%=docs/figures/%.png)
PDF_LABFIGS := $(wildcard validation/report/figures/*.png)
PDF_OVERFULL_PT ?= 5
PDF_DATE  := $(shell git log -1 --format=%cs 2>/dev/null || date +%F)
PDFLATEX  := pdflatex -interaction=nonstopmode -halt-on-error

.PHONY: pdf pdf-check deps-pdf
VALIDATE_STEPS += pdf-check

deps-pdf: ## install pandoc and TeX Live for make pdf
	$(call apt_ensure,$(PDF_PKGS),--no-install-recommends)

pdf: deps-pdf $(PDF_OUT) ## build/kdagdn-math.pdf, the math as one report

# one figure alone, on a page the size of the picture
$(BUILD)/figures/%.pdf: docs/figures/%.tex mk/pdf_figure.tex
	@mkdir -p $(dir $@)
	cd $(dir $@) && TEXINPUTS="$(CURDIR)/docs/figures:$(CURDIR)/mk:" $(PDFLATEX) \
	  -jobname=$* "\def\figname{$*}\input{pdf_figure.tex}" > /dev/null \
	  || { tail -20 $*.log; exit 1; }

docs/figures/%.png: $(BUILD)/figures/%.pdf
	pdftoppm -r 150 -png -singlefile $< $(basename $@)

$(PDF_OUT): $(PDF_DOCS) docs/report.yaml docs/references.bib mk/pdf.mk mk/pdf.lua \
            $(PDF_FIGPDF) $(PDF_FIGPNG) $(PDF_LABFIGS) $(PDF_NOTEBOOKS)
	@mkdir -p $(PDF_DIR)
	PDF_FIGURES="$(CURDIR)/$(BUILD)/figures" PDF_DOCS_DIR="$(CURDIR)/docs" pandoc $(PDF_DOCS) docs/report.yaml \
	  --from markdown+tex_math_dollars --standalone --citeproc \
	  --bibliography docs/references.bib --resource-path docs \
	  --lua-filter mk/pdf.lua --listings --number-sections --toc \
	  -M version='$(PKG_VERSION)' -M date='$(PDF_DATE), version $(PKG_VERSION)' \
	  -o $(PDF_DIR)/kdagdn-math.tex
	cd $(PDF_DIR) && for pass in 1 2 3; do \
	  TEXINPUTS="$(CURDIR)/docs:" $(PDFLATEX) kdagdn-math.tex > /dev/null \
	    || { grep -A5 '^!' kdagdn-math.log; exit 1; }; done
	cp $(PDF_DIR)/kdagdn-math.pdf $@
	@echo "pdf: $@ ($$(pdfinfo $@ | sed -n 's/^Pages: *//p') pages)"

pdf-check: pdf ## step: the report builds with no overfull box or undefined reference
	@awk -v lim=$(PDF_OVERFULL_PT) ' \
	  /^Overfull \\hbox/ { w = $$3; gsub(/[(pt]/, "", w); \
	    if (w + 0 > lim) { bad++; print "pdf-check: " $$0 } } \
	  /Reference .* undefined|Hyper reference .* undefined|Citation .* undefined|referenced but does not exist/ \
	    { bad++; print "pdf-check: " $$0 } \
	  END { if (bad) { print "pdf-check: " bad " problem(s) in $(PDF_DIR)/kdagdn-math.log"; exit 1 } \
	        print "pdf-check: no overfull box over " lim " pt, no undefined reference" }' \
	  $(PDF_DIR)/kdagdn-math.log
