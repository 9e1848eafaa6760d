#!/usr/bin/python3
"""Summarise the gcov counts of `make coverage` (mk/coverage.mk).

    coverage_report.py --obj DIR --runs DIR [--logs DIR] [--commit TEXT]
                       [--out FILE] [--top N]

--obj holds the instrumented objects and their .gcno notes (build/coverage/
obj); --runs holds one folder per run (c, octave), each the .gcda counts that
run wrote under the objects' absolute paths (GCOV_PREFIX).  For every run,
gcov (JSON output) reads the notes with that run's counts; a source line
(or branch) is reached by a run when any of its instances has a non-zero
count: the float and double instances of a template (la_float.c,
la_double.c) and the copies of an inline function in several objects count
as one line.  Branches are counted per compiled instance (object, function,
line): a template's branch counts in its float and its double instance.  A
line or branch is reached by both runs taken together when either run
reached it.

Writes FILE (Markdown): the date, the commit, each run's closing line
(NAME.log in --logs), the totals, a table per file of mex/core (lines and
branches reached by each run and by both), the same for the gateway and the
file readers, and the files and functions of mex/core with the most lines
reached by neither run.  Prints the totals.  Exits 1 if a run has no counts
at all (it did not run, or its counts went elsewhere).
"""

import argparse
import datetime
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

RUN_TITLES = {'c': 'C tests', 'octave': 'Octave tests + lab'}
GROUPS = [('mex/core', 'the C core'), ('mex/gateway', 'the gateway'),
          ('mex/files', 'the file readers')]


def gcov_json(notes, counts):
    """gcov's JSON for one object: its notes with the run's counts (if any)."""
    with tempfile.TemporaryDirectory() as tmp:
        base = os.path.basename(notes)[:-len('.gcno')]
        shutil.copy(notes, os.path.join(tmp, base + '.gcno'))
        if counts and os.path.exists(counts):
            shutil.copy(counts, os.path.join(tmp, base + '.gcda'))
        out = subprocess.run(['gcov', '-b', '-j', '-t', base + '.gcno'], cwd=tmp,
                             capture_output=True, text=True, check=True).stdout
    return [json.loads(s) for s in out.splitlines() if s.startswith('{')]


def collect(obj, runs, root, names):
    """lines[file][line] = set of runs that reached it ('' when none);
    branches[file][(line, i)] likewise; funcs[file][start] = (end, names)."""
    lines, branches, funcs = {}, {}, {}
    found = {r: 0 for r in names}
    for notes in sorted(glob.glob(os.path.join(obj, '**', '*.gcno'), recursive=True)):
        for run in names:
            counts = os.path.join(runs, run, os.path.abspath(notes).lstrip('/'))[:-5] + '.gcda'
            found[run] += os.path.exists(counts)
            for doc in gcov_json(notes, counts):
                for f in doc['files']:
                    path = os.path.normpath(os.path.join(doc['current_working_directory'], f['file']))
                    rel = os.path.relpath(path, root)
                    if not any(rel.startswith(g + '/') for g, _ in GROUPS):
                        continue
                    ln = lines.setdefault(rel, {})
                    br = branches.setdefault(rel, {})
                    for rec in f['lines']:
                        hit = ln.setdefault(rec['line_number'], set())
                        if rec['count'] > 0:
                            hit.add(run)
                        for i, b in enumerate(rec['branches']):
                            key = (notes, rec.get('function_name', ''), rec['line_number'], i)
                            bh = br.setdefault(key, set())
                            if b['count'] > 0:
                                bh.add(run)
                    fn = funcs.setdefault(rel, {})
                    for rec in f['functions']:
                        end, nm = fn.get(rec['start_line'], (rec['end_line'], set()))
                        nm.add(rec['name'])
                        fn[rec['start_line']] = (max(end, rec['end_line']), nm)
    return lines, branches, funcs, found


def counts(sets, names):
    """(total, reached by each run..., reached by any)"""
    vals = list(sets)
    return [len(vals)] + [sum(r in s for s in vals) for r in names] + [sum(bool(s) for s in vals)]


def pct(x, total, absolute):
    if not total:
        return '-'
    return ('%d (%.0f%%)' if absolute else '%.0f%%') % ((x, 100.0 * x / total) if absolute
                                                      else (100.0 * x / total,))


def table(rows, names, first, absolute=False):
    head = '| %s | lines | %s | either | branches | %s | either |' % (
        first, ' | '.join(RUN_TITLES.get(r, r) for r in names),
        ' | '.join(RUN_TITLES.get(r, r) for r in names))
    out = [head, '|' + '---|' * (5 + 2 * len(names))]
    for label, lc, bc in rows:
        cells = [label, str(lc[0])] + [pct(x, lc[0], absolute) for x in lc[1:]]
        cells += [str(bc[0])] + [pct(x, bc[0], absolute) for x in bc[1:]]
        out.append('| ' + ' | '.join(cells) + ' |')
    return out


def closing_line(logs, run):
    """the last line of each log of a run (the Octave run has two: tests, lab)"""
    parts = {'c': [('c', 'test_core --quick')],
             'octave': [('octave', 'run_tests'), ('lab', "run_validation ('quick')")]}
    said = []
    for log, what in parts.get(run, [(run, run)]):
        p = os.path.join(logs, log + '.log') if logs else ''
        if p and os.path.exists(p):
            with open(p, errors='replace') as fh:
                tail = [s.strip() for s in fh.read().splitlines() if s.strip()]
            said.append('%s: %s' % (what, tail[-1] if tail else '(empty log)'))
    return '; '.join(said) if said else '(no log)'


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--obj', required=True)
    ap.add_argument('--runs', required=True)
    ap.add_argument('--logs', default='')
    ap.add_argument('--commit', default='')
    ap.add_argument('--out', required=True)
    ap.add_argument('--top', type=int, default=15)
    a = ap.parse_args()
    root = os.path.abspath(os.getcwd())
    names = [r for r in ('c', 'octave') if os.path.isdir(os.path.join(a.runs, r))]
    if not names:
        sys.exit('coverage_report: no run folder under %s' % a.runs)
    lines, branches, funcs, found = collect(a.obj, a.runs, root, names)

    md = ['# Coverage of the C core, measured', '',
          'What the tests reach of `mex/core` (and of the gateway and the file '
          'readers), counted by gcov on a build instrumented with `--coverage` '
          '(`-O1`, the Octave build\'s flavour: libxsmm, zlib).  Written by '
          '`make coverage-report` (validation/README.md, section Coverage).', '',
          '- date: %s' % datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC'),
          '- commit: %s' % (a.commit or '(unknown)')]
    for r in names:
        md.append('- %s: %s' % (RUN_TITLES.get(r, r), closing_line(a.logs, r)))
    md += ['', 'A source line counts once however many instances it has '
           '(the float and double instances of a template, an inline function '
           'in several objects): reached when any instance ran.  Branches are '
           'those of the compiled code at `-O1`, counted per instance (a '
           'template\'s branch in its float and in its double instance; an '
           'inline function\'s at each place it is inlined).  "either": reached '
           'by at least one of the runs.', '']

    md.append('## Totals')
    md.append('')
    rows = []
    for g, title in GROUPS:
        fs = [f for f in lines if f.startswith(g + '/')]
        lc = counts([s for f in fs for s in lines[f].values()], names)
        bc = counts([s for f in fs for s in branches[f].values()], names)
        rows.append(('`%s` (%s)' % (g, title), lc, bc))
    md += table(rows, names, 'folder', True)
    print('\n'.join(table(rows, names, 'folder', True)))

    for g, title in GROUPS:
        fs = sorted(f for f in lines if f.startswith(g + '/'))
        md += ['', '## `%s`: per file' % g, '']
        md += table([('`%s`' % os.path.basename(f), counts(lines[f].values(), names),
                      counts(branches[f].values(), names)) for f in fs], names, 'file')

    core = sorted(f for f in lines if f.startswith('mex/core/'))
    missed = sorted(((sum(not s for s in lines[f].values()), f) for f in core), reverse=True)
    md += ['', '## Least covered', '',
           'Files of `mex/core` with the most lines reached by neither run:', '']
    for n, f in missed[:8]:
        if n:
            md.append('- `%s`: %d of %d lines' % (os.path.basename(f), n, len(lines[f])))
    bmissed = sorted(((sum(not s for s in branches[f].values()), f) for f in core), reverse=True)
    md += ['', 'Files of `mex/core` with the most branches taken by neither run:', '']
    for n, f in bmissed[:8]:
        if n:
            md.append('- `%s`: %d of %d branches' % (os.path.basename(f), n, len(branches[f])))
    md += ['', 'Functions of `mex/core` with the most lines reached by neither run '
           '(a template\'s float and double instances as one; "never called" '
           'when no line of it ran):', '',
           '| function | file:line | lines missed | of |', '|---|---|---|---|']
    fl = []
    for f in core:
        for start, (end, nm) in funcs.get(f, {}).items():
            body = [s for l, s in lines[f].items() if start <= l <= end]
            miss = sum(not s for s in body)
            if miss:
                fl.append((miss, f, start, len(body), sorted(nm), not any(body)))
    for miss, f, start, n, nm, never in sorted(fl, key=lambda x: (-x[0], x[1], x[2]))[:a.top]:
        md.append('| %s%s | %s:%d | %d | %d |' % (
            ', '.join('`%s`' % x for x in nm[:2]) + (', ...' if len(nm) > 2 else ''),
            ' (never called)' if never else '',
            os.path.basename(f), start, miss, n))

    with open(a.out, 'w') as fh:
        fh.write('\n'.join(md) + '\n')
    print('coverage_report: wrote %s' % a.out)
    empty = [r for r in names if found[r] == 0]
    if empty:
        sys.exit('coverage_report: no counts from the %s run' % ', '.join(empty))


if __name__ == '__main__':
    main()
