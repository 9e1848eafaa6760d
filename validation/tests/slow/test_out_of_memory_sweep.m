% TEST_OUT_OF_MEMORY_SWEEP  Short memory at limits 7.5 MB apart, one thread.
%
%   The slow runs of test_out_of_memory (make validate; about 50 s): on one
%   OpenMP and one OpenBLAS thread, as the mutant harness runs the tests, at
%   limits from 420 to 450 MB beyond a fresh session, 7.5 MB apart, where the
%   libxsmm registry (10 MB) once mapped after the guard had measured the
%   room, and OpenBLAS's buffer then found too little and spun.  Each call
%   returns or fails with <family>:outOfMemory.
%
%   See also: test_out_of_memory, run_tests.

%!test
%! test_out_of_memory ('sweep');
