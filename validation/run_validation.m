## -*- texinfo -*-
## @deftypefn  {} {} run_validation ()
## @deftypefnx {} {} run_validation (@var{mode})
## The verification lab: every gradient against finite differences, every
## numbered equation of docs/ reproduced, and precision in fp32 and fp64.
##
## @var{mode} is "full" (default; @code{make validate}) or "quick" (small
## sizes; part of @code{make test}).  A second argument 'failfast' stops
## after the first section with a failed check (make mutants).  Writes validation/report/REPORT.md
## with PNG plots in validation/report/figures/ (quick: the same under
## validation/report/quick/), prints a progress line per section and a
## summary table, and exits non-zero when any check fails (when run from the
## command line by make).
## @end deftypefn
function ok = run_validation (mode, failfast)
  if (nargin < 1), mode = "full"; endif
  failfast = nargin > 1 && strcmp (failfast, 'failfast');
  if (! any (strcmp (mode, {"full", "quick"})))
    error ("run_validation: mode must be 'full' or 'quick'");
  endif
  here = fileparts (mfilename ("fullpath"));
  addpath (fullfile (here, "..", "octave"));
  addpath (fullfile (here, "lib"));
  addpath (fullfile (here, "lab"));
  addpath (fullfile (here, "derivation"));
  warning ("off", "Octave:gnuplot-graphics");
  outdir = fullfile (here, "report");          # the full lab's report is kept in git
  if (strcmp (mode, "quick"))
    outdir = fullfile (outdir, "quick");       # the quick one is not (make test)
  endif
  figdir = fullfile (outdir, "figures");
  if (! exist (figdir, "dir")), mkdir (figdir); endif   # (mkdir makes the parents too)
  rand ("seed", 42);  randn ("seed", 42);   # the same inputs every run

  sections = {"reference", @lab_reference, "C core vs independent references at hard sizes; the checkers can fail"; ...
              "gradients", @lab_gradients,   "every backward output vs central finite differences (double)"; ...
              "derivations", @lab_derivations, "every numbered equation of docs/, both sides from random inputs"; ...
              "precision", @lab_precision,   "fp32 vs fp64 of every path; chunked vs recurrent"};
  all_rows = struct ("section", {}, "name", {}, "value", {}, "bound", {}, "pass", {}, "detail", {});
  times = zeros (1, size (sections, 1));
  fprintf ("run_validation (%s): %d sections\n", mode, size (sections, 1));
  for s = 1:size (sections, 1)
    fprintf ("[%d/%d] %s: %s\n", s, size (sections, 1), sections{s, 1}, sections{s, 3});
    t0 = tic;
    try
      r = sections{s, 2} (mode, figdir);
    catch err
      r = struct ("section", sections{s, 1}, "name", "section crashed", "value", NaN, ...
                  "bound", NaN, "pass", false, "detail", err.message);
      fprintf ("  ERROR: %s\n", err.message);
    end_try_catch
    times(s) = toc (t0);
    nf = sum (! [r.pass]);
    fprintf ("[%d/%d] %s: %d checks, %d failed (%.1f s)\n", s, size (sections, 1), ...
             sections{s, 1}, numel (r), nf, times(s));
    all_rows = [all_rows, r(:)'];
    if (failfast && nf > 0)
      fprintf ('failfast: stopping after section %s\n', sections{s, 1});
      break;
    end
  endfor

  report = fullfile (outdir, "REPORT.md");
  lab_report (report, mode, sections, times, all_rows);

  fprintf ("\nsummary\n");
  fprintf ("  %-12s %8s %8s %8s\n", "section", "checks", "failed", "seconds");
  for s = 1:size (sections, 1)
    in = strcmp ({all_rows.section}, sections{s, 1});
    fprintf ("  %-12s %8d %8d %8.1f\n", sections{s, 1}, sum (in), sum (in & ! [all_rows.pass]), times(s));
  endfor
  nfail = sum (! [all_rows.pass]);
  bad = find (! [all_rows.pass]);
  for i = bad(1:min (end, 20))
    fprintf ("  FAILED %s: %s = %.3g (bound %.3g) %s\n", all_rows(i).section, all_rows(i).name, ...
             all_rows(i).value, all_rows(i).bound, all_rows(i).detail);
  endfor
  fprintf ("report: %s\n", report);
  fprintf ("%d passed, %d failed\n", numel (all_rows) - nfail, nfail);
  ok = nfail == 0;
  if (! ok && ! isguirunning () && nargout == 0)
    exit (1);
  endif
endfunction

