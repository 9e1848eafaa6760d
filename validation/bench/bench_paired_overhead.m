function [ours, lo, hi] = bench_paired_overhead (total, host, arith)
  % BENCH_PAIRED_OVERHEAD  A call's overhead from runs timed in pairs.
  %
  %   [ours, lo, hi] = bench_paired_overhead (total, host, arith)
  %
  %   total, host: vectors of the same length, microseconds per call of run
  %   i of the full call and of Octave's own share of it (bench_decode
  %   times the two in turn within each run); arith: the arithmetic of the
  %   call (a scalar).  The overhead of run i is total(i) - host(i) - arith:
  %   a burst of load from other jobs that slows run i slows both of its
  %   timings and cancels in their difference.  ours is the median of these
  %   run-by-run overheads, lo and hi their min and max.  The difference of
  %   the two medians pairs nothing: when a burst hits more runs of one
  %   column than of the other, it reads the burst as overhead.
  %
  %   See also: bench_decode, bench_goals.
  if (numel (total) ~= numel (host) || isempty (total))
    error ('bench_paired_overhead: total and host must be non-empty and of one length');
  end
  d = total(:) - host(:) - arith;
  ours = median (d);
  lo = min (d);
  hi = max (d);
end

%!test
%! % a burst slows runs 2 and 3 by 50 us in both timings: it cancels
%! total = [70 120 125 71 69];  host = [46 96 101 47 45];
%! [o, lo, hi] = bench_paired_overhead (total, host, 16);
%! assert (o, 8);  assert ([lo hi], [8 8]);
%! % the burst in total's runs 2, 3, 4 but host's 2, 3 only: the
%! % difference of the medians reads 120 - 47 - 16 = 57, the paired one 8
%! total(4) = 121;
%! assert (median (total) - median (host) - 16, 57);
%! assert (bench_paired_overhead (total, host, 16), 8);
%!error <one length> bench_paired_overhead ([1 2], 1, 0)
%!error <non-empty> bench_paired_overhead ([], [], 0)
