#!/usr/bin/env python3
"""Self-test of renumber_equations.py on a small repository built for it.

    python3 validation/tools/test_renumber_equations.py     (make equations-selftest)

Two pages whose numbers are out of reading order, and one file of each kind
the script rewrites (Markdown, Octave with derivation rows, C, Python, a
notebook, CSV), each with things that look like equation numbers and are
not.  Checks the map, every rewritten form, every form left alone, the
dry run's skip list, --check before and after, and that a second run changes
nothing.  Standard library only; exits 1 on the first failure.
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, 'renumber_equations.py')

PDF_MK = """PDF_DOCS  := docs/a.md \\
             docs/b.md
"""
# reading order: a.md then b.md; a.md defines (1), (2), (5), (5b), (6); b.md (3), (4).
# So (5) -> (3), (5b) -> (3b), (6) -> (4), (3) -> (5), (4) -> (6).
A_MD = r"""# A

$$ x = 1 \tag{1} $$
$$ y = 2 \tag{2} $$
$$ z = 3 \tag{5} $$
$$ z' = 3 \tag{5b} $$
$$ w = 4 \tag{6} $$

By (5) and (5b), see (3)-(4) and (1)-(2); equations (5)-(6), (3) and (4).
Lists that no longer run: (2)-(3), (5), (6); and (1)-(3).
Lists that join: (1)-(2) and (5); kept apart: (1)-(2), (3).
Not references: version (0.1.0), issue #45, (1 of 3), the year (2026),
a citation [3], f(3), `g (5)`, $h_{(5)}$, `LAB_RANDOM_SEED` (4), (7) (no such),
Zen 4 (5) and 4.5 (6).
In math, $a \text{ by (5)}$.  The label `eq:5`, the H series (H5), (SM4).

```octave
x = y (3);   % (3) in a comment
```
"""
B_MD = r"""# B

$$ u = 5 \tag{3} $$
$$ v = 6 \tag{4} $$
"""
CHECK_M = """function res = check_b ()
  % reproduce eq. (3)-(4), and (6)
  res(end+1) = lab_row ('derivations', '(3) first', r, tol, 'eq', 3, 'file', F);
  res(end+1) = drv_skip (6, '(6) skipped', F, tol, why);
  res = [res, drv_peak_rows(4)];
  names = {5, 'a', 'x (5)'; ...
           6, 'b', 'y'};
  for i = 1:2
    res(end+1) = lab_row ('derivations', names{i}, r(i), tol, 'eq', 2 + i, 'file', F);
  end
  z = randi (5) + w(3) + q (4);
  s = 'it''s (5)';
  t = x';  u = 'after a transpose (6)';
end
%!test
%! % a value, not an equation (5)
"""
CODE_C = """/* the decays (5), (5b);
 * the state (3) */
static int f(int x[]) { return x[5] + g(3); } // (4)
const char *s = "(6)";
"""
CODE_PY = '''"""Docstring citing (5)."""
x = f(3)  # comment citing (6)
'''
ROWS_CSV = '"derivations","docs/b.md (3): u",1e-16,1e-12,passed\n'
NB = {
    "cells": [
        {"cell_type": "markdown", "metadata": {}, "source": ["The gradient (5) against (5b).\n", "Next (6)."]},
        {"cell_type": "code", "execution_count": 1, "metadata": {},
         "outputs": [{"name": "stdout", "output_type": "stream", "text": ["(5b) error 1e-16\n"]}],
         "source": ["x = randn (5);\n", "disp ('(5b) error 1e-16')"]},
    ],
    "metadata": {"kernelspec": {"language": "octave", "name": "octave"}},
    "nbformat": 4, "nbformat_minor": 5,
}


def run(root, *args):
    p = subprocess.run([sys.executable, SCRIPT, '--root', root] + list(args),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


class RenumberTest(unittest.TestCase):

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        r = self.root = self.tmp.name
        files = {'mk/pdf.mk': PDF_MK, 'docs/a.md': A_MD, 'docs/b.md': B_MD,
                 'validation/derivation/check_b.m': CHECK_M, 'mex/core/x.h': CODE_C,
                 'tools/x.py': CODE_PY, 'validation/report/rows.csv': ROWS_CSV,
                 'notebooks/n.ipynb': json.dumps(NB, indent=1, ensure_ascii=False) + '\n',
                 'untracked.md': 'stays (5)\n'}
        for path, text in files.items():
            os.makedirs(os.path.join(r, os.path.dirname(path)), exist_ok=True)
            with open(os.path.join(r, path), 'w', encoding='utf-8') as f:
                f.write(text)
        subprocess.run(['git', 'init', '-q', r], check=True)
        subprocess.run(['git', 'add'] + [p for p in files if p != 'untracked.md'], cwd=r, check=True)

    def tearDown(self):
        self.tmp.cleanup()

    def read(self, path):
        with open(os.path.join(self.root, path), encoding='utf-8') as f:
            return f.read()

    def test_check_before_and_after(self):
        rc, out = run(self.root, '--check')
        self.assertEqual(rc, 1, out)
        self.assertIn('out of reading order', out)
        rc, out = run(self.root)
        self.assertEqual(rc, 0, out)
        rc, out = run(self.root, '--check')
        self.assertEqual(rc, 0, out)

    def test_dry_run_changes_nothing_and_lists(self):
        before = self.read('docs/a.md')
        rc, out = run(self.root, '--dry-run')
        self.assertEqual(rc, 0, out)
        self.assertEqual(self.read('docs/a.md'), before)
        for line in ('(5) -> (3)  (5b) -> (3b)', '(6) -> (4)', '(3) -> (5)', '(4) -> (6)'):
            self.assertIn(line, out)
        self.assertNotIn('(1) -> ', out)
        self.assertIn('(7)  (no such equation)', out)
        self.assertIn('(value of an environment variable)', out)
        self.assertIn('(after a number: a value, not a reference)', out)
        self.assertIn('(inside inline code or math)', out)
        self.assertIn('(in code)', out)
        self.assertIn('offset shifted', out)

    def test_rewrite(self):
        rc, out = run(self.root)
        self.assertEqual(rc, 0, out)
        a = self.read('docs/a.md')
        self.assertIn(r'\tag{3} $$', a)
        self.assertIn(r'\tag{3b} $$', a)
        self.assertIn(r'\tag{4} $$', a)
        self.assertIn(r'\tag{5} $$', self.read('docs/b.md'))
        self.assertIn('By (3) and (3b), see (5)-(6) and (1)-(2); equations (3)-(6).', a)
        # (2)-(3) spans {2, 3}, now {2, 5}: with (5), (6) (now 3, 4) the list is
        # one run again; (1)-(3) alone becomes its runs {1, 2}, {5}
        self.assertIn('Lists that no longer run: (2)-(5); and (1)-(2), (5).', a)
        # {1, 2} and 5 -> 3 join; (3) -> (5) does not join (1)-(2)
        self.assertIn('Lists that join: (1)-(3); kept apart: (1)-(2), (5).', a)
        for kept in ('(0.1.0)', '#45', '(1 of 3)', '(2026)', '[3]', 'f(3)', '`g (5)`',
                     '$h_{(5)}$', '`LAB_RANDOM_SEED` (4)', '(7) (no such)', '(H5), (SM4)',
                     'Zen 4 (5) and 4.5 (6).',
                     'x = y (3);'):
            self.assertIn(kept, a)
        self.assertIn(r'$a \text{ by (3)}$', a)
        self.assertIn('`eq:3`', a)
        self.assertIn('% (5) in a comment', a)
        m = self.read('validation/derivation/check_b.m')
        self.assertIn('% reproduce eq. (4)-(6)\n', m)
        self.assertIn("lab_row ('derivations', '(5) first', r, tol, 'eq', 5, 'file', F)", m)
        self.assertIn("drv_skip (4, '(4) skipped'", m)
        self.assertIn('drv_peak_rows(6)', m)
        self.assertIn("names = {3, 'a', 'x (3)'", m)
        self.assertIn("           4, 'b', 'y'}", m)
        self.assertIn("'eq', 4 + i,", m)         # 3, 4 -> 5, 6: the offset moves by 2
        self.assertIn('randi (5) + w(3) + q (4)', m)
        self.assertIn("'it''s (3)'", m)
        self.assertIn("t = x';  u = 'after a transpose (4)'", m)
        self.assertIn('%! % a value, not an equation (5)', m)
        c = self.read('mex/core/x.h')
        self.assertIn('the decays (3), (3b);', c)
        self.assertIn('the state (5) */', c)
        self.assertIn('x[5] + g(3); } // (6)', c)
        self.assertIn('"(4)"', c)
        py = self.read('tools/x.py')
        self.assertIn('citing (3).', py)
        self.assertIn('x = f(3)  # comment citing (4)', py)
        self.assertIn('docs/b.md (5): u', self.read('validation/report/rows.csv'))
        nb = json.loads(self.read('notebooks/n.ipynb'))
        self.assertEqual(nb['cells'][0]['source'], ['The gradient (3) against (3b).\n', 'Next (4).'])
        self.assertEqual(nb['cells'][1]['source'], ['x = randn (5);\n', "disp ('(3b) error 1e-16')"])
        self.assertEqual(nb['cells'][1]['outputs'][0]['text'], ['(3b) error 1e-16\n'])
        self.assertEqual(self.read('untracked.md'), 'stays (5)\n')

    def test_idempotent(self):
        run(self.root)
        snap = {p: self.read(p) for p in ('docs/a.md', 'docs/b.md', 'mex/core/x.h',
                                          'validation/derivation/check_b.m', 'notebooks/n.ipynb')}
        rc, out = run(self.root)
        self.assertEqual(rc, 0, out)
        self.assertIn('0 replacements in 0 files', out)
        for p, text in snap.items():
            self.assertEqual(self.read(p), text, p)

    def test_tag_twice_is_an_error(self):
        with open(os.path.join(self.root, 'docs/b.md'), 'a', encoding='utf-8') as f:
            f.write('$$ again \\tag{4} $$\n')
        rc, out = run(self.root, '--check')
        self.assertNotEqual(rc, 0)
        self.assertIn('(4) is tagged twice', out)


if __name__ == '__main__':
    unittest.main()
