#!/usr/bin/python3
"""Execute the lab's notebooks headless on the Octave kernel, export HTML.

usage: run_notebooks.py OUTDIR NOTEBOOK.ipynb [NOTEBOOK.ipynb ...]

Each notebook is executed in its own folder (so that `pwd` in the notebook is
notebooks/), then written to OUTDIR/NAME.html with its plots embedded as PNG
and, if it ran without errors, back to NAME.ipynb with its outputs (the
committed notebooks show their numbers and plots to a reader of the
repository; no timings or timestamps are recorded, so a rerun on the same
code changes little beyond the PNG bytes).

Why not just `jupyter nbconvert --execute`: the Octave kernel (octave_kernel
with metakernel) feeds a cell to Octave line by line and reports an Octave
error as ordinary output, with the status "ok".  nbconvert would then carry on
and exit 0.  So every output is scanned here for Octave's error lines
("error: ...", "parse error:") and for the kernel's own error messages, and
the exit status is 1 if a notebook has any (its HTML is still written, to look
at the failure).

Headless plotting: the kernel's inline backend draws with the gnuplot
graphics toolkit into invisible figures and prints them to PNG, which needs no
display; DISPLAY is removed from the environment so that the result does not
depend on the machine.  The kernel's Octave gets (through OCTAVE_CLI_OPTIONS,
unless already set) --no-line-editing: with readline on, Octave blinks the
matching parenthesis for half a second after every ")" of every line the
kernel types in (minutes per notebook), and prints bracketed-paste escape
sequences around every prompt; --no-history: Octave would otherwise try to
save its command history on exit, and print an error when
~/.local/share/octave does not exist; and the warning that gnuplot is
"discouraged" is switched off (gnuplot is what renders without a display).
"""

import os
import re
import sys
import time

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError
from nbconvert import HTMLExporter

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
OCTAVE_OPTIONS = ("--no-line-editing --no-history --persist "
                  "--eval \"warning ('off', 'Octave:gnuplot-graphics');\"")
OCTAVE_ERROR = re.compile(r"^\s*(error:|parse error)", re.MULTILINE)


def problems(nb):
    """(cell number, text) of every output that reports an error."""
    found = []
    for n, cell in enumerate(nb.cells, 1):
        if cell.cell_type != "code":
            continue
        for out in cell.get("outputs", []):
            kind = out.get("output_type")
            if kind == "error":
                found.append((n, "%s: %s" % (out.get("ename"), out.get("evalue"))))
            elif kind == "stream":
                text = ANSI.sub("", out.get("text", ""))
                if out.get("name") == "stderr" and text.strip():
                    found.append((n, text.strip()))
                elif OCTAVE_ERROR.search(text):
                    lines = text.replace("\r", "").splitlines()
                    first = next(i for i, l in enumerate(lines) if OCTAVE_ERROR.match(l))
                    found.append((n, "\n".join(lines[first:first + 6])))
    return found


def coalesce_streams(nb):
    """Adjacent stream outputs of a cell merged, line ends made \\n: the
    kernel splits its printout at arbitrary points, which would change the
    committed file on every run."""
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        merged = []
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream":
                text = out.get("text", "").replace("\r\n", "\n").replace("\r", "")
                if merged and merged[-1].get("output_type") == "stream" \
                        and merged[-1].get("name") == out.get("name"):
                    merged[-1]["text"] += text
                    continue
                out["text"] = text
            merged.append(out)
        cell.outputs = [o for o in merged
                        if o.get("output_type") != "stream" or o.get("text")]


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    outdir, paths = argv[1], argv[2:]
    os.makedirs(outdir, exist_ok=True)

    os.environ.pop("DISPLAY", None)
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")  # debugpy noise
    os.environ.setdefault("OCTAVE_CLI_OPTIONS", OCTAVE_OPTIONS)

    failed = []
    for path in paths:
        name = os.path.splitext(os.path.basename(path))[0]
        nb = nbformat.read(path, as_version=4)
        client = NotebookClient(
            nb, timeout=600, kernel_name="octave", record_timing=False,
            resources={"metadata": {"path": os.path.dirname(os.path.abspath(path))}})
        start = time.time()
        errors = []
        try:
            client.execute()
        except CellExecutionError as exc:      # the kernel refused a cell
            errors.append(("?", "%s: %s (execution stopped here)" % (
                getattr(exc, "ename", "error"), str(getattr(exc, "evalue", exc)).strip())))
        errors += problems(nb)
        body, _ = HTMLExporter().from_notebook_node(nb)
        html = os.path.join(outdir, name + ".html")
        with open(html, "w", encoding="utf-8") as fid:
            fid.write(body)
        nimg = body.count("<img src=\"data:image/png;base64")
        print("%-40s %6.1f s  %2d plots  -> %s%s" % (
            os.path.basename(path), time.time() - start, nimg, html,
            "  FAILED" if errors else ""), flush=True)
        for n, text in errors:
            print("  cell %s:\n    %s" % (n, text.replace("\n", "\n    ")), file=sys.stderr)
        if errors:
            failed.append(path)
        else:
            nb.metadata.pop("widgets", None)
            coalesce_streams(nb)
            nbformat.write(nb, path)
    if failed:
        print("notebooks with errors: %s" % " ".join(failed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
