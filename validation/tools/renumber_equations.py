#!/usr/bin/env python3
"""Renumber the report's plain numeric equations in reading order.

    python3 validation/tools/renumber_equations.py --dry-run   # map, counts, skips
    python3 validation/tools/renumber_equations.py             # rewrite the files
    python3 validation/tools/renumber_equations.py --check     # exit 1 if out of order

Run from the repository's root (or pass --root).  Standard library only.

The reading order is the order of PDF_DOCS in mk/pdf.mk (the pages of the
report, as `make pdf` typesets them).  Every defining tag \\tag{N} or
\\tag{Nx} (N a number, x one lower-case letter) of those pages is read in
that order; the numbers N, in the order their first tag appears, are given
1, 2, 3, ...  A lettered equation follows its parent ((46b) becomes (51b)
when (46) becomes (51)).  The other series, (H1), (SM4), (E2), (G1), (P1),
(IO1), ..., are not touched.

The map is then applied to every file git tracks, in these forms only (the
forms the repository uses for an equation reference):

  * \\tag{N}, and the label eq:N, anywhere;
  * "(N)" / "(Nx)" in prose: Markdown, CSV / TSV, TeX figures, notebook
    markdown and committed text outputs, and the comments and string
    literals of code (Octave / MATLAB .m, C, Python, Lua, make, shell).
    Not when glued to a name or a bracket ("x(35)", "f (35)" in code); not
    inside inline code or math of Markdown ($...$; \\tag is handled apart,
    and the \\text{...} of math is prose); not after an environment
    variable in backticks (`LAB_RANDOM_SEED` (36), a default value) or
    after a number ("Zen 4 (25)", a code); not in the %! test blocks of .m
    files (test code);
  * the bare range "(scheme of N-M)" of a row of check_stability.m;
  * ranges "(a)-(b)" (also with an en dash) and lists of them: a range is
    rewritten to the images of its ends when the equations it spans still
    form one run; when they do not, the whole comma- or "and"-separated list
    it belongs to is rewritten as the runs of the images of all its
    equations ("(21)-(34), (64), (65)" -> "(24)-(39)"), and so is a list
    with a range whose numbers move when its images join into fewer runs
    ("(35)-(48) and (63)" -> "(40)-(54)");
  * in Octave code: the equation of the lab's derivation rows,
    lab_row (..., 'eq', N, ...), drv_skip (N, ...), 'eq', N + i (an offset
    is shifted when the equations N + 1, N + 2, ... it reaches all move by
    the same amount), drv_peak_rows (N), the equation column of the cell
    tables of validation/derivation/ ({N, 'name', ...}), and eq == N.

Anything else that looks like an equation number is left alone: array
indices and calls, version and issue numbers, "(1 of 3)", years, citations
[35], numbers in code.  --dry-run lists every candidate it skipped that is a
tag the map changes (in code, in math, in inline code) and every "(N)" of
prose whose N is no tag, so a reference in a new form is seen before it is
missed.  The rewrite is idempotent: once the numbers are in reading order the
map is the identity and a second run changes nothing.  --check is the test
of `make equations-check` (mk/equations.mk).
"""

import argparse
import io
import json
import os
import re
import subprocess
import sys
import tokenize

TAG_RE = re.compile(r'\\tag\{(\d+)([a-z]?)\}')
REF_RE = re.compile(r'\((\d{1,3})([a-z]?)\)')
LABEL_RE = re.compile(r'(?<![\w:])eq:(\d+)([a-z]?)(?![\w])')
# a reference glued to what precedes it is a call or an index, not a reference
GLUED = set('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_)]}^{.\\')
RANGE_SEPS = ('-', '\u2013', '--')
LIST_SEPS = (', ', ', and ', ' and ', ',\n', ' and\n')
# prose that says the numbers are out of order: true until the rewrite
STALE_NOTES = {
    'docs/README.md': (re.compile(r'\(the\s+numbers\s+above\s+\d+\s+were\s+added\s+after\s+the\s+'
                                  r'pages\s+they\s+extend,\s+so\s+they\s+are\s+not\s+in\s+reading\s+order\)'),
                       '(and they follow the reading order;\n`make equations-check` holds them to it)'),
}
# the bare forms (no parentheses) the repository uses, each a range N-M
BARE_FORMS = [re.compile(r'\(scheme of (\d+)-(\d+)\)')]
ENVVAR_BEFORE = re.compile(r'`[A-Z][A-Z0-9_]+`\s*$')
AFTER_NUMBER = re.compile(r'(?<![\w.])\d+(?:\.\d+)?[ \t]+$')    # "Zen 4 (25)": a code
# this script and its test: their examples are not the report's references
OWN_FILES = ('validation/tools/renumber_equations.py',
             'validation/tools/test_renumber_equations.py')
TEXT_EXT = ('.md', '.csv', '.tsv', '.txt', '.tex')
CODE_EXT = {'.m': 'm', '.c': 'c', '.h': 'c', '.py': 'py', '.lua': 'lua',
            '.mk': 'hash', '.sh': 'hash', '.awk': 'hash'}


# ---- the reading order and the map -----------------------------------------

def reading_order(root):
    """The pages of the report in reading order: PDF_DOCS of mk/pdf.mk."""
    text = open(os.path.join(root, 'mk', 'pdf.mk'), encoding='utf-8').read()
    text = text.replace('\\\n', ' ')
    m = re.search(r'^PDF_DOCS\s*:?=(.*)$', text, re.M)
    if not m:
        sys.exit('renumber_equations: no PDF_DOCS in mk/pdf.mk')
    return [w for w in m.group(1).split() if w.endswith('.md')]


def defining_tags(root, pages):
    """[(page, line, number, letter)] of every \\tag{N} / \\tag{Nx} in order."""
    tags = []
    for page in pages:
        with open(os.path.join(root, page), encoding='utf-8') as f:
            for ln, line in enumerate(f, 1):
                for m in TAG_RE.finditer(line):
                    tags.append((page, ln, int(m.group(1)), m.group(2)))
    return tags


def build_map(tags):
    """old number -> new number, by first appearance; and the set of keys."""
    order, seen, keys = [], set(), set()
    for page, ln, n, letter in tags:
        key = '%d%s' % (n, letter)
        if key in keys:
            sys.exit('renumber_equations: (%s) is tagged twice (%s:%d)' % (key, page, ln))
        keys.add(key)
        if n not in seen:
            seen.add(n)
            order.append(n)
    return {old: new for new, old in enumerate(order, 1)}, keys, order


# ---- references -------------------------------------------------------------

class Edits:
    """Replacements in one text, with what was skipped, for the report."""

    def __init__(self, path, text):
        self.path, self.text = path, text
        self.edits = []      # (start, end, new)
        self.skipped = []    # (offset, candidate, reason)

    def line(self, pos):
        return self.text.count('\n', 0, pos) + 1

    def add(self, a, b, new):
        if self.text[a:b] != new:
            self.edits.append((a, b, new))

    def skip(self, pos, cand, why):
        self.skipped.append((pos, cand, why))

    def apply(self):
        out, last = [], 0
        for a, b, new in sorted(self.edits):
            if a < last:
                raise RuntimeError('%s: overlapping edits at %d' % (self.path, a))
            out.append(self.text[last:a])
            out.append(new)
            last = b
        out.append(self.text[last:])
        return ''.join(out)


class Renumberer:
    def __init__(self, emap, keys):
        self.emap, self.keys = emap, keys
        self.changed = {k for k in keys if emap[int(re.match(r'\d+', k).group())]
                        != int(re.match(r'\d+', k).group())}

    def new_key(self, n, letter):
        return '%d%s' % (self.emap[n], letter)

    def is_tag(self, n, letter):
        return '%d%s' % (n, letter) in self.keys

    # -- forms found anywhere
    def tags_and_labels(self, ed):
        for rx in (TAG_RE, LABEL_RE):
            for m in rx.finditer(ed.text):
                n, letter = int(m.group(1)), m.group(2)
                if self.is_tag(n, letter):
                    ed.add(m.start(1), m.end(2), self.new_key(n, letter))
                elif rx is TAG_RE and m.group(1) and n in self.emap:
                    ed.skip(m.start(), m.group(), 'tag of no page of the report')

    # -- "(N)" in prose: text[a:b] of ed.text
    def prose(self, ed, a, b):
        t = ed.text
        refs = []
        for m in REF_RE.finditer(t, a, b):
            n, letter = int(m.group(1)), m.group(2)
            prev = t[m.start() - 1] if m.start() > a else ' '
            if prev in GLUED:
                if self.is_tag(n, letter) and '%d%s' % (n, letter) in self.changed:
                    ed.skip(m.start(), m.group(), 'glued to what precedes it')
                continue
            if m.end() < b and (t[m.end()].isalnum() or t[m.end()] == '_'):
                continue
            if ENVVAR_BEFORE.search(t[max(0, m.start() - 60):m.start()]):
                ed.skip(m.start(), m.group(), 'value of an environment variable')
                continue
            if AFTER_NUMBER.search(t[max(0, m.start() - 20):m.start()]):
                ed.skip(m.start(), m.group(), 'after a number: a value, not a reference')
                continue
            if not self.is_tag(n, letter):
                ed.skip(m.start(), m.group(), 'no such equation')
                continue
            refs.append((m.start(), m.end(), n, letter))
        self.rewrite_refs(ed, refs)
        for rx in BARE_FORMS:
            for m in rx.finditer(t, a, b):
                n1, n2 = int(m.group(1)), int(m.group(2))
                olds, img = self.span_image(n1, n2)
                if n1 in self.emap and n2 in self.emap and img and \
                   (self.emap[n1], self.emap[n2]) == (img[0], img[-1]) and \
                   img[-1] - img[0] + 1 == len(img):
                    ed.add(m.start(1), m.end(2), '%d-%d' % (img[0], img[-1]))
                else:
                    ed.skip(m.start(), m.group(), 'bare range that is no longer one run')

    def rewrite_refs(self, ed, refs):
        """Group refs into lists of singles and ranges, rewrite each list."""
        t = ed.text
        i = 0
        while i < len(refs):
            lst = []          # items: [start, end, (n, letter), (n2, letter2) or None]
            j = i
            while j < len(refs):
                s, e, n, l = refs[j]
                item = [s, e, (n, l), None]
                if j + 1 < len(refs) and t[e:refs[j + 1][0]] in RANGE_SEPS:
                    item = [s, refs[j + 1][1], (n, l), refs[j + 1][2:]]
                    j += 1
                j += 1
                lst.append(item)
                if j < len(refs) and t[item[1]:refs[j][0]] in LIST_SEPS:
                    continue
                break
            self.rewrite_list(ed, lst)
            i = j

    def span_image(self, lo, hi):
        olds = [n for n in self.emap if lo <= n <= hi]
        return olds, sorted(self.emap[n] for n in olds)

    def joins(self, lst):
        """True when a list with a range, some of whose numbers move, would
        read as fewer runs after the map (lettered items: never)."""
        olds, moved, ranged = set(), False, False
        for s, e, (n, l), end in lst:
            if l or (end is not None and end[1]):
                return False
            span = [n] if end is None else self.span_image(n, end[0])[0]
            ranged |= end is not None
            olds.update(span)
            moved |= any(self.emap.get(k, k) != k for k in span)
        img = sorted(self.emap[k] for k in olds if k in self.emap)
        runs = 1 + sum(1 for x, y in zip(img, img[1:]) if y != x + 1)
        return ranged and moved and runs < len(lst)

    def rewrite_list(self, ed, lst):
        t = ed.text
        broken = False
        for s, e, (n, l), end in lst:
            if end is None:
                continue
            _, img = self.span_image(n, end[0])
            if not img or img[-1] - img[0] + 1 != len(img):
                broken = True
        if not broken and len(lst) > 1 and self.joins(lst):
            broken = True     # "(35)-(48) and (63)" -> "(40)-(54)": one run now
        if not broken:
            for s, e, (n, l), end in lst:
                if end is None:
                    ed.add(s + 1, s + 1 + len('%d%s' % (n, l)), self.new_key(n, l))
                    continue
                sep = t[s + len('(%d%s)' % (n, l)):e - len('(%d%s)' % end)]
                _, img = self.span_image(n, end[0])
                a, b = self.emap[n], self.emap[end[0]]
                if (a, b) == (img[0], img[-1]):
                    new = '(%d%s)%s(%d%s)' % (a, l, sep, b, end[1])
                elif not l and not end[1]:
                    new = '(%d)%s(%d)' % (img[0], sep, img[-1])
                else:
                    ed.skip(s, t[s:e], 'lettered range whose ends change order')
                    continue
                ed.add(s, e, new)
            return
        # a range no longer one run: the whole list as runs of its images
        olds = set()
        sep = '-'
        for s, e, (n, l), end in lst:
            if l or (end is not None and end[1]):
                ed.skip(lst[0][0], t[lst[0][0]:lst[-1][1]], 'list with lettered items to merge')
                return
            if end is None:
                olds.add(n)
            else:
                olds.update(self.span_image(n, end[0])[0])
                sep = t[s + len('(%d)' % n):e - len('(%d)' % end[0])]
        img = sorted(self.emap[n] for n in olds)
        runs, start = [], img[0]
        for x, y in zip(img, img[1:] + [None]):
            if y != x + 1:
                runs.append('(%d)' % start if start == x else '(%d)%s(%d)' % (start, sep, x))
                start = y
        ed.add(lst[0][0], lst[-1][1], ', '.join(runs))

    # -- code: the spans of comments and strings are prose; the rest is code
    def code(self, ed, a, b, lang, path):
        spans = comment_string_spans(ed.text[a:b], lang)
        pos = a
        for s, e in spans:
            self.code_region(ed, pos, a + s, lang, path)
            self.prose(ed, a + s, a + e)
            pos = a + e
        self.code_region(ed, pos, b, lang, path)

    def code_region(self, ed, a, b, lang, path):
        t = ed.text
        done = set()
        if lang == 'm':
            forms = [re.compile(r'\bdrv_skip\s*\(\s*(\d+)()\s*(?=,)'),
                     re.compile(r"(?<='[eE][qQ]')\s*,\s*(\d+)()\s*(?=[,)])"),
                     re.compile(r'\bdrv_peak_rows\s*\(\s*(\d+)()\s*\)'),
                     re.compile(r'\beq\s*==\s*(\d+)()\b')]
            if '/derivation/' in '/' + path:
                forms.append(re.compile(r'(?m)(?:\{|^)\s*(\d+)()\s*(?=,\s*\')'))
            for rx in forms:
                for m in rx.finditer(t, a, b):
                    n = int(m.group(1))
                    done.add(m.start(1))
                    if n in self.emap:
                        ed.add(m.start(1), m.end(1), str(self.emap[n]))
            for m in matches_in(r"(?:\bdrv_skip\s*\(|(?<='[eE][qQ]')\s*,)\s*(\d+)\s*\+\s*(\w+)", t, a, b):
                n = int(m.group(1))
                done.add(m.start(1))
                shift = [self.emap[k] - k for k in range(n + 1, n + 100) if k in self.emap]
                run = []
                for k in range(n + 1, n + 100):
                    if k not in self.emap or self.emap[k] - k != shift[0]:
                        break
                    run.append(k)
                if not run:
                    ed.skip(m.start(), m.group(), 'offset reaching no equation')
                    continue
                ed.add(m.start(1), m.end(1), str(n + shift[0]))
                ed.skip(m.start(), m.group(), 'NOTE: rewritten, offset shifted by %+d: right '
                        'only for %s = 1..%d' % (shift[0], m.group(2), len(run)))
        for m in REF_RE.finditer(t, a, b):
            key = m.group(1) + m.group(2)
            if key in self.changed and m.start(1) not in done:
                ed.skip(m.start(), m.group(), 'in code')

    # -- Markdown: fenced blocks by their language, inline code and math apart
    def markdown(self, ed, a, b):
        t = ed.text
        pos = a
        for m in matches_in(r'(?ms)^```(\w*)[^\n]*\n(.*?)^```', t, a, b):
            self.md_text(ed, pos, m.start())
            lang = m.group(1).lower()
            s, e = m.start(2), m.end(2)
            if lang in ('octave', 'matlab'):
                self.code(ed, s, e, 'm', ed.path)
            elif lang == 'python':
                self.code(ed, s, e, 'py', ed.path)
            elif lang in ('sh', 'bash', 'shell'):
                self.code(ed, s, e, 'hash', ed.path)
            else:
                self.prose(ed, s, e)
            pos = m.end()
        self.md_text(ed, pos, b)

    def md_text(self, ed, a, b):
        t = ed.text
        pos = a
        for m in matches_in(r'(?s)`[^`\n]*`|\$\$.*?\$\$|(?<![\\$])\$[^$\n]+\$', t, a, b):
            if m.start() < pos:
                continue
            self.prose(ed, pos, m.start())
            texts = []
            if m.group().startswith('$'):      # math: its \text{...} is prose
                texts = [(x.start(1), x.end(1)) for x in
                         matches_in(r'\\(?:text|textrm|mbox)\{([^{}]*)\}', t, m.start(), m.end())]
                for s, e in texts:
                    self.prose(ed, s, e)
            for r in REF_RE.finditer(t, m.start(), m.end()):
                if r.group(1) + r.group(2) in self.changed and \
                   not any(s <= r.start() < e for s, e in texts):
                    ed.skip(r.start(), r.group(), 'inside inline code or math')
            pos = m.end()
        self.prose(ed, pos, b)

    # -- one file
    def file(self, path, text):
        ext = os.path.splitext(path)[1]
        base = os.path.basename(path)
        ed = Edits(path, text)
        if ext == '.ipynb':
            return self.notebook(path, text)
        self.tags_and_labels(ed)
        if path in STALE_NOTES and self.changed:
            rx, note = STALE_NOTES[path]
            for m in rx.finditer(text):
                ed.add(m.start(), m.end(), note)
        if ext == '.md':
            self.markdown(ed, 0, len(text))
        elif ext in TEXT_EXT:
            self.prose(ed, 0, len(text))
        elif ext in CODE_EXT:
            self.code(ed, 0, len(text), CODE_EXT[ext], path)
        elif base in ('Makefile', 'run') or base.endswith('Makefile'):
            self.code(ed, 0, len(text), 'hash', path)
        else:
            return None
        return ed

    def notebook(self, path, text):
        """A notebook, through its JSON: markdown and code cells, text outputs."""
        nb = json.loads(text)
        if json.dumps(nb, indent=1, ensure_ascii=False) + '\n' != text:
            ed = Edits(path, text)
            ed.skip(0, path, 'notebook not in the canonical JSON layout: not touched')
            return ed
        total = Edits(path, text)
        lang = nb.get('metadata', {}).get('kernelspec', {}).get('language', 'octave')
        lang = {'octave': 'm', 'matlab': 'm', 'python': 'py'}.get(lang, 'm')

        def fix(holder, key, kind, where):
            val = holder[key]
            src = ''.join(val) if isinstance(val, list) else val
            ed = Edits('%s %s' % (path, where), src)
            self.tags_and_labels(ed)
            if kind == 'markdown':
                self.markdown(ed, 0, len(src))
            elif kind == 'code':
                self.code(ed, 0, len(src), lang, path)
            else:
                self.prose(ed, 0, len(src))
            new = ed.apply()
            if isinstance(val, list):
                holder[key] = new.splitlines(keepends=True)
                assert len(holder[key]) == len(val) or not val
            else:
                holder[key] = new
            total.edits.extend((0, 0, x) for x in ed.edits)
            total.skipped.extend((p, '%s [%s, line %d]' % (c, where, ed.line(p)), w)
                                 for p, c, w in ed.skipped)

        for i, cell in enumerate(nb.get('cells', [])):
            kind = cell.get('cell_type')
            fix(cell, 'source', kind, 'cell %d' % (i + 1))
            for o in cell.get('outputs', []):
                if 'text' in o:
                    fix(o, 'text', 'output', 'cell %d output' % (i + 1))
                for mime in ('text/plain', 'text/markdown'):
                    if mime in o.get('data', {}):
                        fix(o['data'], mime, 'output', 'cell %d output' % (i + 1))
        total.new_text = json.dumps(nb, indent=1, ensure_ascii=False) + '\n'
        total.skipped = [(0, c, w) for p, c, w in total.skipped]
        return total


def matches_in(pattern, t, a, b):
    """The matches of pattern in t[:b] that start at or after a (anchors and
    look-behinds see the whole text)."""
    return [m for m in re.finditer(pattern, t[:b]) if m.start() >= a]


# ---- lexers: spans of comments and string literals ---------------------------

def comment_string_spans(s, lang):
    if lang == 'py':
        try:
            return py_spans(s)
        except (tokenize.TokenError, IndentationError, SyntaxError):
            return hash_spans(s)
    if lang == 'm':
        return m_spans(s)
    if lang == 'c':
        return c_spans(s)
    if lang == 'lua':
        return [(m.start(), m.end()) for m in re.finditer(r'--[^\n]*', s)]
    return hash_spans(s)


def hash_spans(s):
    return [(m.start(), m.end()) for m in re.finditer(r'(?m)(?<![$\\])#[^\n]*', s)]


def m_spans(s):
    """Octave: % and # comments, '...' strings ('' inside) and "..." strings."""
    spans, i, n = [], 0, len(s)
    prev = ''         # last character of code before i, for the transpose rule
    while i < n:
        ch = s[i]
        if ch in '%#':
            j = s.find('\n', i)
            j = n if j < 0 else j
            if not s.startswith('!', i + 1):    # %! lines are test code: left as code
                spans.append((i, j))
            i, prev = j, ''
        elif ch == "'" and not (prev.isalnum() or prev in "_)]}'."):
            j = i + 1
            while j < n and s[j] != '\n':
                if s[j] == "'":
                    if j + 1 < n and s[j + 1] == "'":
                        j += 2
                        continue
                    break
                j += 1
            spans.append((i + 1, j))
            i, prev = j + 1, 'x'
        elif ch == '"':
            j = i + 1
            while j < n and s[j] not in '"\n':
                j += 2 if s[j] == '\\' else 1
            spans.append((i + 1, j))
            i, prev = j + 1, 'x'
        else:
            if ch == '.' and s.startswith('...', i):
                j = s.find('\n', i)
                j = n if j < 0 else j
                spans.append((i + 3, j))
                i, prev = j, ''
                continue
            prev = ch if not ch.isspace() else ('' if ch == '\n' else ' ')
            i += 1
    return spans


def c_spans(s):
    spans, i, n = [], 0, len(s)
    while i < n:
        if s.startswith('//', i):
            j = s.find('\n', i)
            j = n if j < 0 else j
            spans.append((i, j))
            i = j
        elif s.startswith('/*', i):
            j = s.find('*/', i + 2)
            j = n if j < 0 else j + 2
            spans.append((i, j))
            i = j
        elif s[i] in '"\'':
            q, j = s[i], i + 1
            while j < n and s[j] != q and s[j] != '\n':
                j += 2 if s[j] == '\\' else 1
            spans.append((i + 1, j))
            i = j + 1
        else:
            i += 1
    return spans


def py_spans(s):
    starts = [0]
    for line in s.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    spans = []
    kinds = {tokenize.COMMENT, tokenize.STRING}
    for name in ('FSTRING_MIDDLE',):
        if hasattr(tokenize, name):
            kinds.add(getattr(tokenize, name))
    for tok in tokenize.generate_tokens(io.StringIO(s).readline):
        if tok.type in kinds:
            a = starts[tok.start[0] - 1] + tok.start[1]
            b = starts[tok.end[0] - 1] + tok.end[1]
            spans.append((a, b))
    return spans


# ---- driver -------------------------------------------------------------------

def tracked_files(root):
    out = subprocess.run(['git', 'ls-files', '-z'], cwd=root, check=True,
                         stdout=subprocess.PIPE).stdout.decode('utf-8')
    return [p for p in out.split('\0') if p]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--root', default='.', help='repository root (default: .)')
    ap.add_argument('--dry-run', action='store_true',
                    help='print the map, the replacements per file and the skipped candidates')
    ap.add_argument('--check', action='store_true',
                    help='exit 1 if the equation numbers are not in reading order')
    args = ap.parse_args(argv)
    root = args.root

    pages = reading_order(root)
    tags = defining_tags(root, pages)
    emap, keys, order = build_map(tags)
    moved = [(o, emap[o]) for o in order if emap[o] != o]

    if args.check:
        if moved:
            first = next(t for t in tags if emap[t[2]] != t[2])
            print('renumber_equations: %d of %d numbered equations are out of reading order; '
                  'first: (%d) at %s:%d, which reading order numbers (%d); '
                  'make equations-renumber (validation/tools/renumber_equations.py) renumbers them'
                  % (len(moved), len(order), first[2], first[0], first[1], emap[first[2]]))
            return 1
        print('renumber_equations: the %d numbered equations (1)-(%d) are in reading order '
              '(%d tags, %d pages)' % (len(order), len(order), len(tags), len(pages)))
        return 0

    ren = Renumberer(emap, keys)
    results, skipped_total, count_total = [], 0, 0
    for path in tracked_files(root):
        full = os.path.join(root, path)
        if path in OWN_FILES or not os.path.isfile(full):
            continue
        try:
            text = open(full, encoding='utf-8', newline='').read()
        except UnicodeDecodeError:
            continue
        ed = ren.file(path, text)
        if ed is None or (not ed.edits and not ed.skipped):
            continue
        results.append(ed)
        count_total += len(ed.edits)
        skipped_total += len(ed.skipped)

    if args.dry_run:
        print('reading order: %s' % ' '.join(pages))
        print('%d numbered equations, %d tags; %d numbers move:' % (len(order), len(tags), len(moved)))
        for o, n in moved:
            letters = sorted(k for k in keys if re.fullmatch(r'%d[a-z]' % o, k))
            print('  (%d) -> (%d)%s' % (o, n, ''.join('  (%s) -> (%d%s)' % (k, n, k[-1])
                                                        for k in letters)))
        print('\nreplacements per file:')
        for ed in results:
            if ed.edits:
                print('  %5d  %s' % (len(ed.edits), ed.path))
        print('  %5d  in %d files' % (count_total, sum(1 for e in results if e.edits)))
        print('\nskipped candidates (not rewritten; NOTE: rewritten, to read):')
        for ed in results:
            for pos, cand, why in sorted(ed.skipped):
                where = ed.path if ed.path.endswith('.ipynb') else '%s:%d' % (ed.path, ed.line(pos))
                print('  %s: %s  (%s)' % (where, cand.replace('\n', ' '), why))
        print('  %d skipped' % skipped_total)
        return 0

    nfiles = 0
    for ed in results:
        if not ed.edits:
            continue
        new = getattr(ed, 'new_text', None) or ed.apply()
        with open(os.path.join(root, ed.path), 'w', encoding='utf-8', newline='') as f:
            f.write(new)
        nfiles += 1
    print('renumber_equations: %d replacements in %d files; %d numbers moved'
          % (count_total, nfiles, len(moved)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
