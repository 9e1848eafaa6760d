function ok = run_validation (mode, failfast)
% RUN_VALIDATION  The verification lab of KDA / GDN.
%
%   run_validation ()          the full lab (make validate)
%   run_validation ('quick')   small sizes, part of make test
%   ok = run_validation (...)  true when every check passed
%   run_validation (mode, 'failfast')  stop after the first section with a
%                              failed check (make mutants)
%   LAB_SECTIONS=name,name     in the environment: only those sections
%
%   Ten sections: the C core against independent references at hard sizes
%   (and the checkers can fail); every gradient against central finite differences
%   (double); every numbered equation of docs/ reproduced; precision of
%   single and double results against an independent plain-Octave double
%   reference; the cancellation-free gate gradient (51b) at strong gates;
%   the failure modes of fast kernels (validation/hazards/); precision in
%   the non-contractive regimes beside cond(I + A_raw); the expected error
%   of a bf16 / fp16 kernel ('Emulate'); the state maps' merge; every path on
%   seeded random configurations (on two threads in make test).  The list
%   and each section's story are in lab/lab_sections.m.
%   A row with a bound is a check; a row without one is information and is
%   not counted.  Writes validation/report/REPORT.md (quick: under
%   validation/report/quick/), one CSV per section beside it and the
%   figures, prints a progress line per section and the closing line
%   'N passed, N failed', and exits non-zero when a check fails (when run
%   by make, outside a GUI, without an output argument).

  if (nargin < 1)
    mode = 'full';
  end
  failfast = nargin > 1 && strcmp (failfast, 'failfast');
  if (~any (strcmp (mode, {'full', 'quick'})))
    error ('run_validation: mode must be ''full'' or ''quick''');
  end
  here = fileparts (mfilename ('fullpath'));
  addpath (fullfile (here, '..', 'octave'));
  addpath (fullfile (here, 'lib'));
  addpath (fullfile (here, 'lab'));
  addpath (fullfile (here, 'derivation'));
  % the test build of the MEX (make testing): the core's tuning switches
  addpath (fullfile (here, '..', 'build', 'testing'));
  warning ('off', 'Octave:gnuplot-graphics');
  outdir = fullfile (here, 'report');          % the full lab's report is kept in git
  if (strcmp (mode, 'quick'))
    outdir = fullfile (outdir, 'quick');       % the quick one is not (make test)
  end
  figdir = fullfile (outdir, 'figures');
  if (~exist (figdir, 'dir'))
    mkdir (figdir);
  end
  rand ('state', 42);  randn ('state', 42);    % the same inputs every run

  sections = lab_sections ();
  only = strsplit (getenv ('LAB_SECTIONS'), ',');   % e.g. LAB_SECTIONS=random,gradients
  if (~isempty (only{1}))
    sections = sections(ismember ({sections.name}, only));
  end
  rows = lab_row ();
  figs = struct ('file', {}, 'caption', {}, 'section', {});
  times = zeros (1, numel (sections));
  t_all = tic;
  fprintf ('run_validation (%s): %d sections\n', mode, numel (sections));
  for s = 1:numel (sections)
    sec = sections(s);
    fprintf ('[%d/%d] %s: %s\n', s, numel (sections), sec.name, sec.what);
    t0 = tic;
    f = struct ('file', {}, 'caption', {});
    try
      [r, f] = feval (sec.fn, mode, figdir);
    catch err
      r = lab_row (sec.name, 'section crashed', NaN, 0, err.message);
      fprintf ('  ERROR: %s\n', err.message);
    end
    for i = 1:numel (f)
      figs(end+1) = struct ('file', f(i).file, 'caption', f(i).caption, 'section', sec.name);
    end
    times(s) = toc (t0);
    [nchk, nfail, ninfo] = lab_count (r);
    fprintf ('[%d/%d] %s: %d checks, %d failed, %d info rows (%.1f s)\n', s, ...
             numel (sections), sec.name, nchk, nfail, ninfo, times(s));
    rows = [rows, r(:)'];
    if (failfast && nfail > 0)
      fprintf ('failfast: stopping after section %s\n', sec.name);
      break;
    end
  end
  total = toc (t_all);

  report = fullfile (outdir, 'REPORT.md');
  lab_report (report, mode, sections, times, total, rows, figs);
  print_summary (sections, times, rows);
  fprintf ('report: %s\n', report);
  [nchk, nfail] = lab_count (rows);
  fprintf ('%d passed, %d failed\n', nchk - nfail, nfail);
  ok = nfail == 0;
  if (~ok && nargout == 0 && exist ('OCTAVE_VERSION', 'builtin') && ~isguirunning ())
    exit (1);
  end
end

function print_summary (sections, times, rows)
  fprintf ('\nsummary\n');
  fprintf ('  %-14s %7s %7s %5s %10s %10s %8s\n', 'section', 'checks', 'failed', ...
           'info', 'worst', 'its bound', 'seconds');
  for s = 1:numel (sections)
    in = rows(strcmp ({rows.section}, sections(s).name));
    [nchk, nfail, ninfo] = lab_count (in);
    w = lab_worst (in);
    if (isempty (w))
      fprintf ('  %-14s %7d %7d %5d %10s %10s %8.1f\n', sections(s).name, nchk, nfail, ...
               ninfo, '-', '-', times(s));
    else
      fprintf ('  %-14s %7d %7d %5d %10.2e %10.0e %8.1f\n', sections(s).name, nchk, nfail, ...
               ninfo, w.value, w.bound, times(s));
    end
  end
  bad = rows(~[rows.pass]);
  for i = 1:min (numel (bad), 20)
    fprintf ('  FAILED %s: %s = %.3g (bound %.3g) %s\n', bad(i).section, bad(i).name, ...
             bad(i).value, bad(i).bound, bad(i).detail);
  end
end
