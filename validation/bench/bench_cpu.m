function s = bench_cpu ()
  % BENCH_CPU  The machine's CPU in one line, for the benches' headers.
  %
  %   s = bench_cpu ()
  %
  %   From /proc/cpuinfo: the model name, family and model (a VM's model
  %   name can be as plain as "AMD EPYC": the family tells Zen 4 (25) from
  %   Zen 5 (26)), the widest vector extension (AVX-512, AVX2 or neither)
  %   and the number of CPUs, e.g. "AMD EPYC (family 26, model 2; AVX-512;
  %   2 CPUs)".  'unknown' where /proc/cpuinfo cannot be read.
  %
  %   See also: run_bench, run_bench_goals, run_bench_pkg.
  s = 'unknown';
  try
    txt = fileread ('/proc/cpuinfo');
  catch
    return;
  end
  field = @(name) strtrim (regexp (txt, [name '\s*:\s*([^\n]*)'], 'tokens', 'once'){1});
  try
    s = field ('model name');
  catch
    return;
  end
  try
    s = sprintf ('%s (family %s, model %s', s, field ('cpu family'), field ('model'));
    flags = [' ' field('flags') ' '];
    if (~isempty (strfind (flags, ' avx512f ')))
      s = [s '; AVX-512'];
    elseif (~isempty (strfind (flags, ' avx2 ')))
      s = [s '; AVX2'];
    end
    s = sprintf ('%s; %d CPUs)', s, nproc ());
  catch
    s = [s ')'];
  end
end

%!test
%! addpath (fullfile (fileparts (which ('test_bench_goals')), '..', 'bench'));   % as run_tests runs it
%! s = bench_cpu ();
%! assert (ischar (s) && ~isempty (s));
%! if (exist ('/proc/cpuinfo', 'file'))
%!   assert (~isempty (regexp (s, sprintf ('%d CPUs\\)$', nproc ()), 'once')), s);
%! end
