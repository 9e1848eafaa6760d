"""The report of run_mutants.py: validation/mutants/mutants.md."""
import os
import time

MARK = {'killed': 'X', 'passed': '.', 'crashed': 'C', 'timeout': 'T'}


def _matrix(results, sections):
    lines = ['| mutant | file | ' + ' | '.join(sections) + ' | result | lab s |',
             '| --- | --- |' + ' --- |' * len(sections) + ' --- | --- |']
    for r in results:
        st = r.get('sections', {})
        cells = [MARK.get(st.get(s), '') for s in sections]
        secs = '%.0f' % r['seconds'] if 'seconds' in r else ''
        lines.append('| `%s` | %s | %s | %s | %s |' % (r['id'], os.path.basename(r['file']),
                                                      ' | '.join(cells), r['result'], secs))
    return lines


def _count(results, kind=None):
    rs = [r for r in results if kind is None or r['kind'] == kind]
    valid = [r for r in rs if r['result'] in ('killed', 'survived')]
    return sum(r['result'] == 'killed' for r in valid), len(valid), len(rs) - len(valid)


def write_report(out, results, reasons, args, seconds, host):
    sections = []
    for r in results:
        for s in r.get('order', []):
            if s not in sections:
                sections.append(s)
    k, m, bad = _count(results)
    L = ['# Mutation testing: does the lab notice a planted bug?', '',
         'Written by `make mutants` (validation/mutants/run_mutants.py) on %s, %s, '
         'in %.0f min with %d mutants at a time; the lab run as `run_validation(\'%s\', '
         '\'failfast\')`.' % (time.strftime('%Y-%m-%d'), host, seconds / 60, args.jobs, args.mode), '',
         'mutants: %d killed of %d by the lab' % (k, m), '']
    if getattr(args, 'base_failures', 0):
        L += ['Without any mutant, %d of the Octave unit tests (run_tests) already fail; the '
              'survivors\' column counts run_tests only when more fail.' % args.base_failures, '']
    for kind in ('C core', 'gateway', 'Octave reference'):
        kk, mm, bb = _count(results, kind)
        if mm or bb:
            L.append('- %s: %d killed of %d (%.0f%%)%s' % (
                kind, kk, mm, 100.0 * kk / max(mm, 1),
                ', %d stale or not building' % bb if bb else ''))
    L += ['', 'Each mutant replaces one exact text of one file (validation/mutants/mutants.tsv), '
          'the MEX is rebuilt, and the lab alone runs until its first section with a failed check. '
          'Matrix: X the section failed (killed there), . it passed, C the lab crashed in it, '
          'T it timed out in it, empty: not run (an earlier section had already killed the mutant).',
          '']
    L += _matrix(results, sections)
    surv = [r for r in results if r['result'] == 'survived']
    L += ['', '## Survivors', '']
    if not surv:
        L.append('None: the lab kills every mutant.')
    else:
        L += ['| mutant | what it breaks | killed by the unit tests of `make test` | why the lab misses it |',
              '| --- | --- | --- | --- |']
        for r in surv:
            unit = ', '.join(r.get('unit', [])) or ('not run' if 'unit' not in r else 'no')
            L.append('| `%s` | %s | %s | %s |' % (r['id'], r['what'], unit,
                                                  reasons.get(r['id'], 'not yet analysed')))
    other = [r for r in results if r['result'] not in ('killed', 'survived')]
    if other:
        L += ['', '## Stale or not building', '', '| mutant | file | result | detail |',
              '| --- | --- | --- | --- |']
        for r in other:
            L.append('| `%s` | %s | %s | %s |' % (r['id'], r['file'], r['result'], r.get('detail', '')))
    L += ['', '## The mutants', '', '| mutant | file | what it breaks |', '| --- | --- | --- |']
    for r in results:
        L.append('| `%s` | %s | %s |' % (r['id'], r['file'], r['what']))
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, 'w') as f:
        f.write('\n'.join(L) + '\n')
