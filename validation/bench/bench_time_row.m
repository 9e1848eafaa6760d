function r = bench_time_row (s, reps, gemm_n)
  % BENCH_TIME_ROW  Time one row of run_bench next to the gemm, rep by rep.
  %
  %   r = bench_time_row (s, reps, gemm_n)
  %
  %   s: a row of bench_rows.  Each of the reps runs (after one warm-up run)
  %   is a pause of 0.25 s, one gemm_n x gemm_n product A*B of Octave's BLAS
  %   in the row's class, the pause again, then the row, so a burst of load
  %   hits both.  The pauses let idle threads stop spinning first: OpenBLAS's
  %   workers spin for about 0.1 s after a threaded call, the row's OpenMP
  %   workers for a few ms after it, and either would share the cores with
  %   the next kernel (bench_core's hot rows and "next gemm" column measure
  %   what that costs).  Returned: sec (median),
  %   lo, hi (min, max), gemm_gf (median gemm GFLOP/s of the same reps),
  %   fault (seconds to allocate and fill arrays of the row's output sizes:
  %   the page faults every call pays for its fresh outputs, included in
  %   sec), calls (calls per timed run: decode rows, T = 1, repeat the call
  %   200 times and report seconds per call).
  %
  %   See also: run_bench, bench_rows, bench_inputs.
  [args, in] = bench_inputs (s);
  fwd = str2func (s.fn);
  bwd = str2func ([s.fn '_bwd']);
  r.calls = 1;
  if (s.T == 1)
    r.calls = 200;
  end
  A = cast (randn (gemm_n), s.cls);
  B = cast (randn (gemm_n), s.cls);
  t = zeros (reps + 1, 1);
  tg = t;
  for i = 1:reps + 1
    pause (0.25);
    t0 = tic ();
    C = A * B;                                       %#ok (timed)
    tg(i) = toc (t0);
    pause (0.25);
    t0 = tic ();
    for c = 1:r.calls
      [o, S] = fwd (in{:}, args{:});
      if (strcmp (s.mode, 'fwdbwd'))
        [dq, dk, dv, dg, db, dS0] = bwd (in{:}, o, S, args{:}); %#ok (timed)
      end
    end
    t(i) = toc (t0) / r.calls;
  end
  t = sort (t(2:end));
  r.sec = median (t);
  r.lo = t(1);
  r.hi = t(end);
  r.gemm_gf = 2 * gemm_n ^ 3 / median (tg(2:end)) / 1e9;
  r.fault = fault_cost (s, in, strcmp (s.mode, 'fwdbwd'));
end

% Median seconds to make and fill arrays of the sizes a call returns.
function f = fault_cost (s, in, backward)
  sizes = {[s.V, s.T, s.H, s.B], [s.K, s.V, s.H, s.B]};
  if (backward)
    sizes = [sizes, cellfun(@size, in, 'UniformOutput', false), {[s.K, s.V, s.H, s.B]}];
  end
  t = zeros (5, 1);
  for i = 1:5
    t0 = tic ();
    for j = 1:numel (sizes)
      x = ones (sizes{j}, s.cls);                    %#ok (timed)
    end
    t(i) = toc (t0);
  end
  f = median (t);
end
