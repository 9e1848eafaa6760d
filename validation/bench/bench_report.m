function said = bench_report (text, out)
  % BENCH_REPORT  Print a bench's Markdown report and write it to its file.
  %
  %   bench_report (text, out)
  %   said = bench_report (text, out)
  %
  %   Prints text; when out is not empty, writes it there (replacing the
  %   file) and says so.  With an output, returns what it would print
  %   instead of printing it.  An error names the file when it cannot be
  %   written.
  %
  %   See also: run_bench_goals, run_bench_pkg.
  said = sprintf ('\n%s', text);
  if (~isempty (out))
    [fid, msg] = fopen (out, 'w');
    if (fid < 0)
      error ('bench_report: cannot write %s: %s', out, msg);
    end
    fprintf (fid, '%s', text);
    fclose (fid);
    said = sprintf ('%swritten: %s\n', said, out);
  end
  if (nargout == 0)
    fprintf ('%s', said);
    clear said;
  end
end

%!test
%! addpath (fullfile (fileparts (which ('test_bench_goals')), '..', 'bench'));   % as run_tests runs it
%! f = [tempname() '.md'];
%! said = bench_report ('# a', f);
%! assert (said, sprintf ('\n# awritten: %s\n', f));
%! assert (fileread (f), '# a');
%! delete (f);
%! assert (bench_report ('# b', ''), sprintf ('\n# b'));
%!error <cannot write>
%! addpath (fullfile (fileparts (which ('test_bench_goals')), '..', 'bench'));   % as run_tests runs it
%! s = bench_report ('x', fullfile (tempname (), 'no', 'x.md'));
