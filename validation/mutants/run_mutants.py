#!/usr/bin/env python3
"""Mutation testing of kdagdn: do the test tiers notice a planted bug?

    run_mutants.py [--ids ID ...] [--jobs 2] [--tier1 CMD] [--gate CMD] [--out FILE]
    run_mutants.py --fresh [--ids ID ...]    (run them again: forget their state)
    run_mutants.py --check [--ids ID ...]    (stale mutants only; no build)

Reads validation/mutants/mutants.tsv (id, file, exact text, replacement,
description; \\n and \\t escapes allowed), and for each mutant, in one of
--jobs scratch copies of the repository under build/mutants/slotN:
restores the file the slot's previous mutant changed, applies this one
(its text must occur exactly once, else the mutant is "stale"), rebuilds
the MEX when a C file changed, and runs two tiers:

  tier 1  --tier1 (default `make check`, the fast tier; where the Makefile
          has no such target: the quick lab, run_validation('quick',
          'failfast'), and `make test-c`), on every mutant, on one thread
          and, if the mutant survives, on two (--threads 1,2)
  gate    --gate (default `make test`), only on tier 1's survivors

What kills a mutant is counted apart: "test" (a command of the tier
failed), "build" (the MEX did not build with the mutant in place) and
"timeout" (a command ran past --timeout).  Each finished mutant is written
at once to the state file build/mutants/state.json (with the commands it
was run with); a run that stops picks up where it stopped: mutants already
in the state file with the same commands are not run again (--fresh
forgets them: those of --ids, else all).  Writes the counts of both tiers, the kill matrix and every
survivor with its reason (validation/mutants/survivors.tsv) to --out.
"""
import argparse
import concurrent.futures as cf
import json
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
    if path.startswith('octave/'):
        return 'Octave functions'
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


def tier(slot, cmds, args, log, threads):
    """Run the tier's commands in order on each thread count in turn; the
    first that fails (exit code, or a lab section with a failed check in
    its output) kills.  Returns (how, detail): how None (survived), 'test'
    or 'timeout'."""
    for th in threads:
        for n, cmd in enumerate(cmds):
            name = 'command %d' % (n + 1) if len(cmds) > 1 else 'the command'
            start = os.path.getsize(log)
            rc = run(['bash', '-c', cmd], slot.dir, args.timeout, log, th)
            if rc is None:
                return 'timeout', '%s, %s thread(s)' % (name, th)
            st, _, current = parse_lab(log, start)
            bad = [k for k, v in st.items() if v != 'passed']
            if rc != 0 or bad or current is not None:
                where = ', '.join(bad) or (current or 'exit %s' % rc)
                return 'test', '%s, %s thread(s): %s' % (name, th, where)
    return None, ''


def tier1_commands(args):
    """--tier1, or `make check` where the Makefile has it, else the quick
    lab and the C test."""
    if args.tier1:
        return [args.tier1]
    if subprocess.run(['make', '-n', 'check'], cwd=ROOT, stdout=subprocess.DEVNULL,
                      stderr=subprocess.DEVNULL).returncode == 0:
        return ['make --no-print-directory check']
    return ["cd validation && octave --no-gui --no-window-system --quiet --norc --eval "
            "\"run_validation('quick', 'failfast');\"",
            'make --no-print-directory test-c']


def baseline(slot, args):
    """Both tiers must pass on the unmutated copy, built as the mutants are."""
    log = os.path.join(args.logdir, 'baseline.log')
    open(log, 'w').close()
    os.utime(os.path.join(slot.dir, 'mex', 'core', 'la_all.tmpl.h'))
    rc = run(['make', '--no-print-directory', 'OPT=' + args.opt] + MEX_ALL, slot.dir,
             args.build_timeout, log)
    if rc != 0:
        sys.exit('the MEX does not build without a mutant (OPT=%s): see %s' % (args.opt, log))
    how, detail = tier(slot, args.tier1_cmds, args, log, args.threads[:1])
    if how:
        sys.exit('tier 1 fails without any mutant (%s): see %s' % (detail, log))
    print('baseline: tier 1 passes without a mutant', flush=True)
    if args.gate:
        how, detail = tier(slot, [args.gate], args, log, ['2'])
        if how:
            sys.exit('the gate fails without any mutant (%s): see %s' % (detail, log))
        print('baseline: the gate passes without a mutant', flush=True)


def one(slot, m, args):
    log = os.path.join(args.logdir, m['id'] + '.log')
    open(log, 'w').close()
    t0 = time.time()
    slot.restore()
    r = mutate(slot, m, args, log)
    if r is None:
        how, detail = tier(slot, args.tier1_cmds, args, log, args.threads)
        r = dict(result='killed' if how else 'survived', tier1=how or 'survived', detail=detail)
        if not how and args.gate:
            how, detail = tier(slot, [args.gate], args, log, ['2'])
            r['gate'] = how or 'survived'
            r['gate_detail'] = detail
            if how:
                r['result'] = 'killed'
    elif r['result'] == 'build error':
        r = dict(result='killed', tier1='build', detail=r['detail'])
    slot.restore()
    r['seconds'] = time.time() - t0
    r.update(m)
    print('%-24s %-8s tier1=%s%s %s' % (m['id'], r['result'], r.get('tier1', '-'),
                                        ' gate=%s' % r['gate'] if 'gate' in r else '',
                                        r.get('detail', '')), flush=True)
    return r


def load_state(path, key):
    """The finished mutants of an earlier run with the same commands."""
    if not os.path.exists(path):
        return {}
    try:
        st = json.load(open(path))
    except ValueError:
        return {}
    return st.get('results', {}) if st.get('key') == key else {}


def save_state(path, key, results):
    tmp = path + '.tmp'
    with open(tmp, 'w') as f:
        json.dump({'key': key, 'results': results}, f, indent=1)
    os.replace(tmp, path)


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
    ap.add_argument('--tier1', default='',
                    help='the first tier\'s shell command (default: make check, else the quick '
                         'lab and make test-c)')
    ap.add_argument('--gate', default='make --no-print-directory test',
                    help='the gate\'s shell command, run on tier 1\'s survivors ("" for none)')
    ap.add_argument('--mode', default='quick', choices=['quick', 'full'],
                    help='the lab\'s mode in the fallback tier 1')
    ap.add_argument('--out', default=os.path.join(ROOT, 'validation', 'mutants', 'mutants.md'))
    ap.add_argument('--build-timeout', type=int, default=900)
    ap.add_argument('--timeout', type=int, default=1800, help='seconds per tier command')
    ap.add_argument('--check', action='store_true',
                    help='only list stale mutants (no build, no tests); exit 1 if any')
    ap.add_argument('--fresh', action='store_true',
                    help='forget the state file\'s results (of the --ids given, else all)')
    ap.add_argument('--no-gate', action='store_true', help='tier 1 only')
    ap.add_argument('--threads', default=','.join(THREADS),
                    help='tier 1 runs on these thread counts in turn (default 1,2)')
    ap.add_argument('--sections', default='',
                    help='only these lab sections (LAB_SECTIONS, comma-separated)')
    # -O1 compiles the templates about 7 times faster than -O3; the baseline
    # below checks that the tiers pass with it
    ap.add_argument('--opt', default='-O1 -march=native')
    args = ap.parse_args()
    ENV['OPT'] = args.opt      # also for the makes the tiers run
    args.threads = args.threads.split(',')
    if args.no_gate:
        args.gate = ''
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
    args.tier1_cmds = [c.replace("'quick'", "'%s'" % args.mode) for c in tier1_commands(args)]
    base = os.path.join(ROOT, 'build', 'mutants')
    args.logdir = os.path.join(base, 'logs')
    os.makedirs(args.logdir, exist_ok=True)
    if not os.path.exists(os.path.join(ROOT, MEX)):
        sys.exit('build the MEX first (make)')
    state = os.path.join(base, 'state.json')
    key = json.dumps([args.tier1_cmds, args.gate, args.threads, args.opt, args.sections])
    done = load_state(state, key)
    if args.fresh:      # forget the chosen mutants (all of them without --ids)
        done = {k: v for k, v in done.items() if args.ids and k not in args.ids}
    todo = [m for m in table if m['id'] not in done
            or any(done[m['id']].get(f) != m[f] for f in ('file', 'find', 'repl'))]
    print('tier 1: %s; gate: %s; %d of %d mutants to run (%d from %s)' % (
        ' && '.join(args.tier1_cmds), args.gate or 'none', len(todo), len(table),
        len(table) - len(todo), os.path.relpath(state, ROOT)), flush=True)
    t0 = time.time()
    if todo:
        slots = [Slot(n, base) for n in range(max(1, min(args.jobs, len(todo))))]
        if not done:    # a resumed run was checked when it started
            baseline(slots[0], args)
        free, lock = list(slots), threading.Lock()

        def task(m):
            with lock:
                s = free.pop()
            try:
                r = one(s, m, args)
            finally:
                with lock:
                    free.append(s)
            with lock:
                done[m['id']] = r
                save_state(state, key, done)
            return r

        with cf.ThreadPoolExecutor(len(slots)) as ex:
            list(ex.map(task, todo))
    results = [done[m['id']] for m in table]
    from mutants_report import write_report
    write_report(args.out, results, read_reasons(os.path.join(HERE, 'survivors.tsv')), args,
                 time.time() - t0, platform.node())
    print('wrote %s' % os.path.relpath(args.out, ROOT))


if __name__ == '__main__':
    main()
