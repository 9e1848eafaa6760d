#!/usr/bin/env python3
"""Mutation testing of kdagdn: does the lab notice a planted bug?

    run_mutants.py [--ids ID ...] [--jobs 2] [--mode quick] [--out FILE]
    run_mutants.py --check [--ids ID ...]    (stale mutants only; no build)

Reads validation/mutants/mutants.tsv (id, file, exact text, replacement,
description; \\n and \\t escapes allowed), and for each mutant, in one of
--jobs scratch copies of the repository under build/mutants/slotN:
restores the file the slot's previous mutant changed, applies this one
(its text must occur exactly once, else the mutant is "stale"), rebuilds
the MEX when a C file changed (only the objects that depend on it), and
runs the lab alone -- run_validation(MODE, 'failfast'), which stops at the
first section with a failed check.  A mutant is killed when a section fails,
the lab crashes or times out.  Survivors then get the unit tests (the C test,
alone and under ASan + UBSan, and the Octave test suites) to record whether
`make test` kills them.
Writes the kill matrix and the counts to --out (validation/bench/results/
mutants.md); survivors' reasons come from validation/mutants/survivors.tsv.
"""
import argparse
import concurrent.futures as cf
import os
import platform
import re
import shutil
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, '..', '..'))
OCTAVE = ['octave', '--no-gui', '--no-window-system', '--quiet', '--norc']
MEX = 'octave/private/la_mex.mex'
# the gateway and its copies that serve the decode path's functions (the
# Makefile's PUBLIC_MEX): a mutant must reach every one
MEX_ALL = [MEX, 'octave/kda_recurrent.mex', 'octave/gdn_recurrent.mex',
           'build/testing/la_mex_testing.mex']  # the test build: the lab's tuning
# The lab runs first on one thread (two mutants share the machine's cores),
# then, if the mutant survives, on two: races and the schedules that split
# heads or value columns between threads exist only there.
ENV = dict(os.environ, OMP_NUM_THREADS='1', OPENBLAS_NUM_THREADS='1')
THREADS = ('1', '2')


def unescape(s):
    return re.sub(r'\\([nt\\])', lambda m: {'n': '\n', 't': '\t', '\\': '\\'}[m.group(1)], s)


def kind_of(path):
    if path.startswith('mex/gateway/'):
        return 'gateway'
    return 'C core' if path.startswith('mex/') else 'Octave reference'


def read_table(path):
    rows = []
    for line in open(path, encoding='utf-8'):
        line = line.rstrip('\n')
        if not line.strip() or line.startswith('#'):
            continue
        f = line.split('\t')
        if len(f) != 5:
            sys.exit('%s: expected 5 tab-separated fields: %s' % (path, line))
        rows.append(dict(id=f[0], file=f[1], find=unescape(f[2]), repl=unescape(f[3]), what=f[4],
                         kind=kind_of(f[1])))
    ids = [r['id'] for r in rows]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        sys.exit('duplicate mutant ids: %s' % ' '.join(sorted(dup)))
    return rows


def read_reasons(path):
    reasons = {}
    if os.path.exists(path):
        for line in open(path, encoding='utf-8'):
            if line.strip() and not line.startswith('#'):
                k, _, v = line.rstrip('\n').partition('\t')
                reasons[k] = v
    return reasons


def run(cmd, cwd, timeout, log, threads='1'):
    """Run cmd on `threads` OpenMP threads, append its output to log; return
    the exit code (None: timed out)."""
    with open(log, 'a') as out:
        out.write('$ OMP_NUM_THREADS=%s %s\n' % (threads, ' '.join(cmd)))
        out.flush()
        try:
            return subprocess.run(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                                  env=dict(ENV, OMP_NUM_THREADS=threads),
                                  timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            out.write('TIMEOUT after %d s\n' % timeout)
            return None


class Slot:
    """A scratch copy of the repository with its built objects (the copy keeps
    their times, so make rebuilds only what a mutant touches)."""

    def __init__(self, n, base):
        self.dir = os.path.join(base, 'slot%d' % n)
        self.dirty = None
        os.makedirs(self.dir, exist_ok=True)
        subprocess.run(['rsync', '-a', '--delete', '--exclude', '/.git', '--exclude', '/build/mutants',
                        '--exclude', '/validation/report', ROOT + '/', self.dir + '/'], check=True)

    def restore(self):
        if self.dirty:
            dst = os.path.join(self.dir, self.dirty)
            shutil.copyfile(os.path.join(ROOT, self.dirty), dst)
            os.utime(dst)     # newer than the objects built with the mutant
            self.dirty = None


def parse_lab(log, start=0):
    """Per section: 'killed', 'passed', 'crashed' (died inside it); order kept;
    from byte `start` of the log on."""
    status, order, current = {}, [], None
    f = open(log, errors='replace')
    f.seek(start)
    for line in f:
        # section names may hold spaces ('gate gradient')
        m = re.match(r'\[(\d+)/(\d+)\] ([^:]+): (\d+) checks, (\d+) failed', line)
        if m:
            status[m.group(3)] = 'killed' if int(m.group(5)) > 0 else 'passed'
            current = None
            continue
        m = re.match(r'\[(\d+)/(\d+)\] ([^:]+): ', line)
        if m:
            current = m.group(3)
            if current not in order:
                order.append(current)
    return status, order, current


def mutate(slot, m, args, log):
    path = os.path.join(slot.dir, m['file'])
    text = open(path, encoding='utf-8').read()
    n = text.count(m['find'])
    if n != 1:
        return dict(result='stale', detail='text found %d times' % n)
    open(path, 'w', encoding='utf-8').write(text.replace(m['find'], m['repl']))
    slot.dirty = m['file']
    if m['file'].startswith('mex/'):
        rc = run(['make', '--no-print-directory', 'OPT=' + args.opt] + MEX_ALL, slot.dir,
                 args.build_timeout, log)
        if rc != 0:
            return dict(result='build error', detail='see the log')
    return None


def lab(slot, m, args, log):
    """The lab on one thread, then (if the mutant survives) on two; a section
    of the two-thread run is named 'NAME (2 threads)'."""
    t0 = time.time()
    ev = "cd validation; run_validation('%s', 'failfast');" % args.mode
    status, order = {}, []
    for th in args.threads:
        start = os.path.getsize(log)
        rc = run(OCTAVE + ['--eval', ev], slot.dir, args.lab_timeout, log, th)
        st, od, current = parse_lab(log, start)
        if current is not None:      # died or timed out inside a section
            st[current] = 'timeout' if rc is None else 'crashed'
        tag = '' if th == '1' else ' (%s threads)' % th
        status.update({k + tag: v for k, v in st.items()})
        order += [k + tag for k in od]
        if any(s != 'passed' for s in st.values()) or rc != 0:
            return dict(result='killed', sections=status, order=order,
                        seconds=time.time() - t0, rc=rc)
    return dict(result='survived', sections=status, order=order, seconds=time.time() - t0,
                rc=rc)


def octave_tests(slot, args, log):
    """Run the Octave test suites; the number of failed tests (None: no count)."""
    start = os.path.getsize(log)
    run(OCTAVE + ['--eval', 'cd validation; run_tests ();'], slot.dir, args.lab_timeout, log)
    with open(log, errors='replace') as f:
        f.seek(start)
        counts = re.findall(r'^(\d+) passed, (\d+) failed', f.read(), re.M)
    return int(counts[-1][1]) if counts else None


def unit_tests(slot, args, log):
    """Which unit tests of `make test` fail with the mutant in place: test-c,
    test-c-sanitize (the C test under ASan + UBSan: overruns of a workspace
    that change no result), and run_tests when more of its tests fail than
    without a mutant."""
    failed = []
    for step in ('test-c', 'test-c-sanitize'):
        if run(['make', '--no-print-directory', step], slot.dir, args.lab_timeout, log) != 0:
            failed.append(step)
    n = octave_tests(slot, args, log)
    if n is None or n > args.base_failures:
        failed.append('run_tests')
    return failed


def baseline(slot, args):
    """The lab must pass on the unmutated copy built as the mutants are."""
    log = os.path.join(args.logdir, 'baseline.log')
    open(log, 'w').close()
    os.utime(os.path.join(slot.dir, 'mex', 'core', 'la_all.tmpl.h'))
    rc = run(['make', '--no-print-directory', 'OPT=' + args.opt] + MEX_ALL, slot.dir,
             args.build_timeout, log)
    if rc != 0 or lab(slot, {}, args, log)['result'] != 'survived':
        sys.exit('the lab fails without any mutant (OPT=%s): see %s' % (args.opt, log))
    print('baseline: the lab passes without a mutant', flush=True)
    # the unit tests need not all pass unmutated (others' work in progress):
    # a survivor counts as killed by them only when more of them fail
    args.base_failures = 0 if args.no_unit else octave_tests(slot, args, log)
    if args.base_failures is None:
        sys.exit('run_tests gives no count without a mutant: see %s' % log)
    print('baseline: run_tests fails %d tests without a mutant' % args.base_failures, flush=True)


def one(slot, m, args):
    log = os.path.join(args.logdir, m['id'] + '.log')
    open(log, 'w').close()
    slot.restore()
    r = mutate(slot, m, args, log)
    if r is None:
        r = lab(slot, m, args, log)
        if r['result'] == 'survived' and not args.no_unit:
            r['unit'] = unit_tests(slot, args, log)
    slot.restore()
    r.update(m)
    print('%-22s %s %s' % (m['id'], r['result'], ' '.join(
        '%s=%s' % kv for kv in r.get('sections', {}).items())), flush=True)
    return r


def check(table):
    """Without building: the mutants whose text is not found exactly once in
    the work tree, or whose replacement changes nothing; 1 if any."""
    stale = 0
    for m in table:
        path = os.path.join(ROOT, m['file'])
        n = open(path, encoding='utf-8').read().count(m['find']) if os.path.exists(path) else -1
        if n != 1 or m['find'] == m['repl']:
            stale += 1
            why = 'no such file' if n < 0 else ('identical replacement' if n == 1
                                                 else 'text found %d times' % n)
            print('stale: %-22s %s: %s' % (m['id'], m['file'], why))
    kinds = {}
    for m in table:
        kinds[m['kind']] = kinds.get(m['kind'], 0) + 1
    print('%d mutants (%s), %d stale' % (len(table), ', '.join(
        '%s %d' % kv for kv in sorted(kinds.items())), stale))
    return 1 if stale else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--ids', nargs='*', default=[])
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--mode', default='quick', choices=['quick', 'full'])
    ap.add_argument('--out', default=os.path.join(ROOT, 'validation', 'results', 'mutants.md'))
    ap.add_argument('--build-timeout', type=int, default=900)
    ap.add_argument('--lab-timeout', type=int, default=1800)
    ap.add_argument('--check', action='store_true',
                    help='only list stale mutants (no build, no lab); exit 1 if any')
    ap.add_argument('--no-unit', action='store_true', help='skip the unit tests of survivors')
    ap.add_argument('--threads', default=','.join(THREADS),
                    help='the lab runs on these thread counts in turn (default 1,2)')
    ap.add_argument('--sections', default='',
                    help='only these lab sections (LAB_SECTIONS, comma-separated)')
    # -O1 compiles the templates about 7 times faster than -O3; the baseline
    # below checks that the lab passes with it
    ap.add_argument('--opt', default='-O1 -march=native')
    args = ap.parse_args()
    ENV['OPT'] = args.opt      # also for the makes the lab runs (build/flops_driver)
    args.threads = args.threads.split(',')
    if args.sections:
        ENV['LAB_SECTIONS'] = args.sections
    table = read_table(os.path.join(HERE, 'mutants.tsv'))
    if args.ids:
        unknown = set(args.ids) - {m['id'] for m in table}
        if unknown:
            sys.exit('unknown mutant ids: %s' % ' '.join(sorted(unknown)))
        table = [m for m in table if m['id'] in args.ids]
    if args.check:
        sys.exit(check(table))
    base = os.path.join(ROOT, 'build', 'mutants')
    args.logdir = os.path.join(base, 'logs')
    os.makedirs(args.logdir, exist_ok=True)
    if not os.path.exists(os.path.join(ROOT, MEX)):
        sys.exit('build the MEX first (make)')
    t0 = time.time()
    slots = [Slot(n, base) for n in range(max(1, args.jobs))]
    baseline(slots[0], args)
    free, lock = list(slots), threading.Lock()

    def task(m):
        with lock:
            s = free.pop()
        try:
            return one(s, m, args)
        finally:
            with lock:
                free.append(s)

    with cf.ThreadPoolExecutor(len(slots)) as ex:
        results = list(ex.map(task, table))
    from mutants_report import write_report
    write_report(args.out, results, read_reasons(os.path.join(HERE, 'survivors.tsv')), args,
                 time.time() - t0, platform.node())
    print('wrote %s' % os.path.relpath(args.out, ROOT))


if __name__ == '__main__':
    main()
