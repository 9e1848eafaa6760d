# ---- the math as one typeset document -----------------------------------------
# make pdf: docs/*.md (reading order of docs/README.md) into build/kdagdn-math.pdf
# with pandoc and pdflatex from Debian; equations keep their Markdown numbers
# (\tag), citations come from docs/references.bib (pandoc's citeproc).
PDF_PKGS  := pandoc texlive-latex-recommended texlive-fonts-recommended lmodern
PDF_OUT   := $(BUILD)/kdagdn-math.pdf
PDF_DOCS  := docs/README.md docs/recurrence.md docs/chunk_forward.md \
             docs/chunk_backward.md docs/stability.md docs/flops.md \
             docs/hazards.md docs/emulation.md docs/state_map.md \
             docs/conventions.md docs/api.md docs/references.md

.PHONY: pdf deps-pdf
TEST_STEPS += pdf

deps-pdf:
	$(call apt_ensure,$(PDF_PKGS),--no-install-recommends)

pdf: deps-pdf $(PDF_OUT)

$(PDF_OUT): $(PDF_DOCS) docs/references.bib mk/pdf.mk
	@mkdir -p $(dir $@)
	pandoc $(PDF_DOCS) --from markdown+tex_math_dollars --citeproc \
	  --bibliography docs/references.bib --resource-path docs \
	  --toc -V geometry:margin=2.2cm -V documentclass=article \
	  -V colorlinks=true -M title='KDA and GDN: the math of kdagdn' \
	  --pdf-engine=pdflatex -o $@
	@echo "pdf: $@"
