"""The report of run_mutants.py: validation/mutants/mutants.md."""
import os
import time


def _rate(k, n):
    return '%d of %d (%.0f%%)' % (k, n, 100.0 * k / max(n, 1))


def counts(results):
    """Valid mutants (not stale), killed by tier 1 by how, killed by the gate."""
    valid = [r for r in results if r['result'] in ('killed', 'survived')]
    t1 = {h: sum(r.get('tier1') == h for r in valid) for h in ('test', 'build', 'timeout')}
    surv1 = [r for r in valid if r.get('tier1') == 'survived']
    gate = {h: sum(r.get('gate') == h for r in surv1) for h in ('test', 'timeout')}
    return valid, t1, surv1, gate


def write_report(out, results, reasons, args, seconds, host):
    valid, t1, surv1, gate = counts(results)
    k1 = sum(t1.values())
    kg = sum(gate.values())
    n = len(valid)
    L = ['# Mutation testing: do the test tiers notice a planted bug?', '',
         'Written by `make mutants` (validation/mutants/run_mutants.py) on %s, %s, '
         'in %.0f min of this run with %d mutants at a time.' % (
             time.strftime('%Y-%m-%d'), host, seconds / 60, args.jobs), '',
         '- tier 1 (`%s`, on %s threads): %s killed (test %d, build %d, timeout %d)' % (
             ' && '.join(args.tier1_cmds), ' then '.join(args.threads), _rate(k1, n),
             t1['test'], t1['build'], t1['timeout']),
         ('- the gate (`%s`) on tier 1\'s %d survivors: %s killed (test %d, timeout %d)' % (
             args.gate, len(surv1), _rate(kg, len(surv1)), gate['test'], gate['timeout'])
          if args.gate else '- the gate: not run (--no-gate)'),
         '- both tiers: %s killed' % _rate(k1 + kg, n), '']
    stale = [r for r in results if r['result'] not in ('killed', 'survived')]
    if stale:
        L += ['%d mutants are stale (their text is no longer found once) and not counted.'
              % len(stale), '']
    L += ['Killed means: test, a command of the tier failed (a test, a lab check, a crash); '
          'build, the MEX did not build with the mutant; timeout, a command ran past '
          '%d s.' % args.timeout, '',
          '| mutant | file | tier 1 | gate | where | s |', '| --- | --- | --- | --- | --- | --- |']
    for r in results:
        L.append('| `%s` | %s | %s | %s | %s | %.0f |' % (
            r['id'], os.path.basename(r['file']), r.get('tier1', r['result']),
            r.get('gate', ''), (r.get('detail') or r.get('gate_detail', '')).replace('|', '/'),
            r.get('seconds', 0)))
    surv = [r for r in valid if r['result'] == 'survived']
    L += ['', '## Survivors of both tiers', '']
    if not surv:
        L.append('None.')
    else:
        L += ['| mutant | what it breaks | why no test kills it |', '| --- | --- | --- |']
        for r in surv:
            L.append('| `%s` | %s | %s |' % (r['id'], r['what'],
                                             reasons.get(r['id'], 'not yet analysed')))
    L += ['', '## Survivors of tier 1 only', '']
    L += ['| mutant | what it breaks | killed by the gate |', '| --- | --- | --- |']
    for r in surv1:
        L.append('| `%s` | %s | %s |' % (r['id'], r['what'], r.get('gate', '')))
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, 'w') as f:
        f.write('\n'.join(L) + '\n')
