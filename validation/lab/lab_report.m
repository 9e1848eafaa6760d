function lab_report (file, mode, sections, times, total, rows, figs)
% LAB_REPORT  Write the lab's report: a one-screen summary, then one part per section.
%
%   lab_report (file, mode, sections, times, total, rows, figs)
%
%   file: REPORT.md to write; sections: lab_sections (); times: seconds per
%   section, total: seconds of the whole run; rows: every lab row; figs: the
%   figures (file, caption, section).  The first screen says what was
%   checked, how many checks, the worst residual of each section against
%   its bound, the machine, the time and pass or fail.  Each section then
%   has its narrative, its figures with captions and a table cut to the
%   rows that matter; every row goes to SECTION.csv beside the report.

  fid = fopen (file, 'w');
  if (fid < 0)
    error ('lab_report: cannot write %s', file);
  end
  c = onCleanup (@() fclose (fid));
  outdir = fileparts (file);
  [nchk, nfail, ninfo] = lab_count (rows);
  verdict = 'PASS';
  if (nfail > 0)
    verdict = 'FAIL';
  end
  fprintf (fid, '# Verification report\n\n');
  fprintf (fid, '**%s**: %d checks, %d failed', verdict, nchk, nfail);
  fprintf (fid, ' (plus %d information rows: measurements without a bound, not counted).\n\n', ninfo);
  fprintf (fid, ['Every check compares a result of the library with something independent of ' ...
                 'it (finite differences, a plain-Octave reference, or the other side of an ' ...
                 'equation of docs/) against a stated bound.\n\n']);
  fprintf (fid, '| section | checked | checks | failed | worst residual | its bound | seconds |\n');
  fprintf (fid, '|---|---|---|---|---|---|---|\n');
  for s = 1:numel (sections)
    in = rows(strcmp ({rows.section}, sections(s).name));
    [n, nf] = lab_count (in);
    w = lab_worst (in);
    fprintf (fid, '| %s | %s | %d | %d | %s | %s | %.0f |\n', sections(s).name, ...
             sections(s).what, n, nf, value_str (w, 'value'), value_str (w, 'bound'), times(s));
  end
  fprintf (fid, '\nRun: `%s` (mode %s), %s, %.0f s in all.  ', run_command (mode), mode, ...
           datestr (now (), 'yyyy-mm-dd HH:MM'), total);
  fprintf (fid, 'Machine: %s; %s; BLAS %s.\n', cpu_model (), octave_version (), blas_name ());
  fprintf (fid, ['\nThe worst residual of a section is its check closest to (or past) its ' ...
                 'bound.  Full tables: one CSV per section beside this file.\n']);
  for s = 1:numel (sections)
    in = rows(strcmp ({rows.section}, sections(s).name));
    csv = [strrep(sections(s).name, ' ', '_') '.csv'];
    write_csv (fullfile (outdir, csv), in);
    write_section (fid, sections(s), in, figs(strcmp ({figs.section}, sections(s).name)), csv);
  end
end

function write_section (fid, sec, in, figs, csv)
  [n, nf, ni] = lab_count (in);
  fprintf (fid, '\n## %s\n\n%s\n\n', sec.name, sec.story);
  fprintf (fid, '%d checks, %d failed, %d information rows; every row in [%s](%s).\n', ...
           n, nf, ni, csv, csv);
  for i = 1:numel (figs)
    fprintf (fid, '\n![%s](figures/%s)\n\n*Figure: %s*\n', figs(i).file, figs(i).file, ...
             figs(i).caption);
  end
  if (isempty (in))
    return;
  end
  % the rows that matter: every failure, then the checks nearest their bound,
  % then a few information rows
  chk = in(~isnan ([in.bound]));
  info = in(isnan ([in.bound]));
  q = [chk.value] ./ max ([chk.bound], realmin);
  q(~isfinite ([chk.value])) = Inf;
  [~, order] = sort (q, 'descend');
  chk = chk(order);
  keep = [chk(~[chk.pass]), chk([chk.pass])];
  keep = keep(1:min (end, max (8, sum (~[chk.pass]))));
  keep = [keep, info(1:min (end, 6))];
  fprintf (fid, '\nThe checks nearest their bound%s:\n\n', ...
           pick (isempty (info), '', ' and the first information rows'));
  fprintf (fid, '| row | value | bound | status |\n|---|---|---|---|\n');
  for i = 1:numel (keep)
    r = keep(i);
    fprintf (fid, '| %s | %.3g | %s | %s |\n', strrep (r.name, '|', '/'), r.value, ...
             bound_str (r.bound), status_str (r));
  end
end

function write_csv (file, rows)
  fid = fopen (file, 'w');
  if (fid < 0)
    error ('lab_report: cannot write %s', file);
  end
  fprintf (fid, 'section,row,value,bound,status,detail\n');
  for i = 1:numel (rows)
    r = rows(i);
    fprintf (fid, '%s,%s,%.6g,%s,%s,%s\n', quote (r.section), quote (r.name), r.value, ...
             bound_str (r.bound), status_str (r), quote (r.detail));
  end
  fclose (fid);
end

function s = quote (s)
  s = ['"' strrep(s, '"', '""') '"'];
end

function s = value_str (w, field)
  if (isempty (w))
    s = '-';
  elseif (strcmp (field, 'bound'))
    s = bound_str (w.bound);
  else
    s = sprintf ('%.2g', w.value);
  end
end

function s = bound_str (b)
  if (isnan (b))
    s = '-';
  else
    s = sprintf ('%.0e', b);
  end
end

function s = status_str (r)
  if (isnan (r.bound))
    s = 'info';
  elseif (r.pass)
    s = 'passed';
  else
    s = '**FAILED**';
  end
end


function s = run_command (mode)
  s = pick (strcmp (mode, 'quick'), 'make test-lab', 'make validate');
end

function s = octave_version ()
  if (exist ('OCTAVE_VERSION', 'builtin'))
    s = ['GNU Octave ' OCTAVE_VERSION];
  else
    s = ['MATLAB ' version];
  end
  try
    s = sprintf ('%s, %d cores', s, feature ('numcores'));
  catch
    if (exist ('nproc'))
      s = sprintf ('%s, %d cores', s, nproc ());
    end
  end
end

function s = cpu_model ()
  s = 'unknown CPU';
  [st, out] = system ('grep -m1 ''model name'' /proc/cpuinfo 2>/dev/null');
  if (st == 0 && ~isempty (out))
    s = strtrim (regexprep (out, '^.*:\s*', ''));
  end
end

function s = blas_name ()
  s = 'unknown';
  [st, out] = system ('readlink -f /usr/lib/x86_64-linux-gnu/libblas.so.3 2>/dev/null');
  if (st == 0 && ~isempty (strtrim (out)))
    s = strtrim (out);
  end
end
