function text = bench_core_run (prog, reps, mode, coretype)
  % BENCH_CORE_RUN  Run the bench_core program once and return what it printed.
  %
  %   text = bench_core_run (prog, reps)
  %   text = bench_core_run (prog, reps, mode)
  %   text = bench_core_run (prog, reps, mode, coretype)
  %
  %   Runs `prog reps` (with mode, `prog reps 1024 mode`: 'goals', 'decode',
  %   'idle'; the gemm reference stays 1024 x 1024), under
  %   OPENBLAS_CORETYPE=coretype when coretype is given and not empty
  %   ('Haswell': OpenBLAS's AVX2 kernels, those of the goals, and with it
  %   LIBXSMM_TARGET=hsw, libxsmm's AVX2 kernels).  An error
  %   when the program fails, with what it printed.  run_bench and
  %   run_bench_goals build every bench_core command line here.
  %
  %   See also: run_bench, run_bench_goals.
  if (nargin < 2 || ~ischar (prog) || isempty (prog) || ~isscalar (reps))
    error ('bench_core_run: give the program''s path and the number of reps');
  end
  cmd = sprintf ('%s %d', prog, reps);
  if (nargin >= 3 && ~isempty (mode))
    cmd = sprintf ('%s 1024 %s', cmd, mode);
  end
  if (nargin >= 4 && ~isempty (coretype))
    cmd = sprintf ('OPENBLAS_CORETYPE=%s %s', coretype, cmd);
    if (strcmp (coretype, 'Haswell'))   % libxsmm's AVX2 kernels with OpenBLAS's
      cmd = ['LIBXSMM_TARGET=hsw ' cmd];
    end
  end
  [st, text] = system (cmd);
  if (st ~= 0)
    error ('bench_core_run: %s failed (%d):\n%s', cmd, st, text);
  end
end

%!test
%! % echo stands in for the program: the command line as built
%! assert (bench_core_run ('echo', 9), sprintf ('9\n'));
%! assert (bench_core_run ('echo', 9, 'goals'), sprintf ('9 1024 goals\n'));
%! assert (bench_core_run ('echo', 11, '', 'Haswell'), sprintf ('11\n'));
%!test
%! % the kernel type reaches the program's environment
%! t = bench_core_run ('printenv OPENBLAS_CORETYPE LIBXSMM_TARGET; echo', 9, 'goals', 'Haswell');
%! assert (t, sprintf ('Haswell\nhsw\n9 1024 goals\n'));
%!error <false 9 failed> bench_core_run ('false', 9)
%!error <give the program> bench_core_run ('', 9)
