function R = run_bench_pkg (varargin)
  % RUN_BENCH_PKG  The installed package beside the build, in one run (make bench-pkg).
  %
  %   run_bench_pkg ('Build', folder, 'Packages', {dir1, ...}, 'Names', {name1, ...})
  %   R = run_bench_pkg (Name, Value, ...)
  %
  %   Times the rows of the goals and the decode step (bench_pkg) through
  %   the clone's build ('Build': its octave/ folder, the reference) and
  %   through each installed package ('Packages': the folders pkg installed
  %   them in; 'Names': how the table calls them), interleaved run by run in
  %   this one Octave, and gives each package's speed over the build's
  %   (median, min-max) and whether its outputs have the build's bits.  The
  %   goal: every row of the first package (`pkg install` as a user runs
  %   it) at least 0.95 of the build's speed.  Options: 'Reps' (default 7),
  %   'Out' (Markdown file, default validation/bench/results/bench_pkg.md;
  %   '' for none), 'Flags' (a line per package saying how it was built,
  %   for the header).  The header also says whether each package's MEX
  %   file holds the build's machine code (objdump -d of both compared):
  %   the same code runs at the same speed, which timings on a shared
  %   machine show only to within their noise.
  %
  %   See also: bench_pkg, bench_cpu.
  here = fileparts (mfilename ('fullpath'));
  addpath (fullfile (here, 'bench'));
  opt = struct ('Build', '', 'Packages', {{}}, 'Names', {{}}, 'Reps', 7, 'Flags', {{}}, ...
                'Out', fullfile (here, 'bench', 'results', 'bench_pkg.md'));
  for i = 1:2:numel (varargin)
    opt.(varargin{i}) = varargin{i+1};
  end
  if (isempty (opt.Build) || isempty (opt.Packages))
    error ('run_bench_pkg: give ''Build'' (the clone''s octave folder) and ''Packages'' (installed folders)');
  end
  started = datestr (now (), 'yyyy-mm-dd HH:MM');
  load0 = strtrim (fileread ('/proc/loadavg'));
  names = [{'build'}, opt.Names(:)'];
  [md, R] = bench_pkg ([{opt.Build}, opt.Packages(:)'], names, opt.Reps);
  code = cellfun (@(d) same_code (opt.Build, d), opt.Packages(:)', 'UniformOutput', false);
  ratios = arrayfun (@(r) r.ratio(1), R(:, 2));
  met = sum (ratios >= 0.95);
  flags = '';
  for j = 1:numel (opt.Packages)
    how = '';
    if (j <= numel (opt.Flags))
      how = [opt.Flags{j} '; '];
    end
    flags = sprintf ('%s- %s%s\n', flags, how, code{j});
  end
  head = sprintf (['# The installed package beside the build\n\nWritten by `make bench-pkg` ' ...
                   '(`validation/run_bench_pkg.m`) on %s; CPU: %s; load average at start %s, ' ...
                   'at end %s.\n\nbuild: the clone''s `make` (octave/); the packages: `make dist`, ' ...
                   'then `pkg install -local` into a temporary HOME:\n\n%s\n' ...
                   'Goal: the package as `pkg install` builds it at least 0.95 of the build''s ' ...
                   'speed on every row: %d of %d rows (median speed %.3f to %.3f).\n\n'], ...
                  started, bench_cpu (), load0, strtrim (fileread ('/proc/loadavg')), flags, ...
                  met, numel (ratios), min (ratios), max (ratios));
  bench_report ([head md], opt.Out);
end

% Whether the package's MEX file holds the build's machine code: the
% disassembly of both (objdump -d, past its header naming the file), the
% same text or not; what a timing on a shared machine cannot show to 5 %.
function s = same_code (build, pkgdir)
  f = @(d) fullfile (d, 'private', ['la_mex.' mexext()]);
  [st1, a] = system (sprintf ('objdump -d "%s" | tail -n +4', f (build)));
  [st2, b] = system (sprintf ('objdump -d "%s" | tail -n +4', f (pkgdir)));
  if (st1 ~= 0 || st2 ~= 0 || isempty (a))
    s = 'machine code not compared (no objdump)';
  elseif (strcmp (a, b))
    s = 'its MEX file holds the build''s machine code, byte for byte (`objdump -d`)';
  else
    s = 'its MEX file''s machine code differs from the build''s (`objdump -d`)';
  end
end
