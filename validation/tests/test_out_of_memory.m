% TEST_OUT_OF_MEMORY  Short memory ends every call with <family>:outOfMemory.
%
%   test test_out_of_memory      (or: cd validation; run_tests ('out_of_memory'))
%   test_out_of_memory (runs_of) the runs of runs_of: 'gate' or 'sweep'
%
%   A child Octave runs under `ulimit -v` with about 450 MB of address space
%   beyond what a fresh session takes, on the caller's threads and on one
%   ('gate', the test block here); and on one OpenMP and one OpenBLAS
%   thread at limits from 420 to 450 MB beyond it, 7.5 MB apart ('sweep':
%   validation/tests/slow/test_out_of_memory_sweep.m, make validate), holds
%   the inputs of a problem of K = V = 128, T = 8192, H = 4 (134 MB in
%   double) and calls the public functions whose outputs, workspace and
%   BLAS buffers do not fit.  Each call either returns or fails with the
%   library's outOfMemory identifier: never the host's "failed to allocate"
%   without one, never a hang in BLAS (the child is killed after 300 s).
%
%   See also: run_tests, test_gateway_args.

function test_out_of_memory (runs_of)
  if (nargin < 1)
    help test_out_of_memory;
    return;
  end
  if (ispc () || system ('bash -c "ulimit -v unlimited" >/dev/null 2>&1') ~= 0)
    return;
  end
  octave = fullfile (OCTAVE_HOME (), 'bin', 'octave-cli');
  if (~exist (octave, 'file'))
    octave = 'octave-cli';
  end
  tmp = tempname ();
  mkdir (tmp);
  cleanup = onCleanup (@() confirm_recursive_rmdir (false, 'local') + rmdir (tmp, 's'));
  script = fullfile (tmp, 'child.m');
  fid = fopen (script, 'w');
  fprintf (fid, 'addpath (''%s'');\n', fileparts (which ('kda_chunk')));
  fprintf (fid, '%s\n', ...
    'randn (''seed'', 1); [K, T, H] = deal (128, 8192, 4);', ...
    'q = randn (K, T, H); k = q ./ sqrt (sum (q .^ 2, 1)); v = randn (K, T, H);', ...
    'g = -rand (K, T, H); b = rand (T, H); gg = squeeze (g(1, :, :));', ...
    'calls = {@() kda_chunk (q, k, v, g, b, ''Intermediates'', true), ', ...
    '         @() kda_chunk_bwd (q, k, v, g, b, v, [], ''Intermediates'', true), ', ...
    '         @() kda_recurrent_bwd (q, k, v, g, b, v, []), ', ...
    '         @() kda_state_map_bwd (q, k, v, g, b, [], []), ', ...
    '         @() gdn_chunk_bwd (q, k, v, gg, b, v, []), ', ...
    '         @() kda_chunk (q, k, v, g, b, ''Emulate'', ''bf16'', ''Intermediates'', true)};', ...
    'for i = 1:numel (calls)', ...
    '  try', ...
    '    [o1, o2, o3] = calls{i} (); id = ''returned''; clear o1 o2 o3;', ...
    '  catch err', ...
    '    id = err.identifier; if (isempty (id)), id = [''none: '' err.message]; end', ...
    '  end', ...
    '  printf (''call %d %s\n'', i, id);', ...
    'end');
  fclose (fid);
  % as the caller's threads are and on one thread (a smaller workspace:
  % the outputs, then the host's copy of them, are what do not fit), each
  % with about 450 MB to spare; then as the mutant harness runs the tests
  % (one OpenMP and one OpenBLAS thread) at limits 7.5 MB apart: the
  % libxsmm registry (10 MB) once mapped after the guard had measured the
  % room, and OpenBLAS's buffer then found too little and spun
  if (strcmp (runs_of, 'gate'))
    runs = [{'', 'OMP_NUM_THREADS=1 '}; {450e3, 450e3}];
  else
    runs = cell (2, 0);
    for extra = 420e3:7.5e3:450e3
      runs(:, end + 1) = {'OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 '; extra};
    end
  end
  for r = runs
    [envs, extra] = r{:};
    % what a fresh session takes (kB), in the same environment
    [~, base] = system (sprintf (['%s%s --no-gui --norc --no-history --quiet --eval ' ...
      '"x = fileread (''/proc/self/status''); disp (regexp (x, ''VmSize:\\s*(\\d+)'', ''tokens''){1}{1})"'], ...
      envs, octave));
    base = str2double (strtrim (base));
    assert (base > 0);
    [~, out] = system (sprintf ('bash -c "ulimit -v %d; %stimeout -s KILL 300 %s --no-gui --norc --no-history --quiet %s" 2>&1', ...
                               round (base + extra), envs, octave, script));
    ids = regexp (out, 'call \d+ (\S+)', 'tokens');
    ids = cellfun (@(c) c{1}, ids, 'UniformOutput', false);
    what = sprintf ('%sulimit -v %d:\n%s', envs, round (base + extra), out);
    assert (numel (ids), 6, what);
    assert (all (ismember (ids, {'returned', 'kda:outOfMemory', 'gdn:outOfMemory'})), what);
    assert (sum (~strcmp (ids, 'returned')) >= 3, what);
  end
end

%!test
%! test_out_of_memory ('gate');
