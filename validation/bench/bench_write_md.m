function bench_write_md (file, rows, info, peer, reps, lin, core, decode_md, goals_md)
  % BENCH_WRITE_MD  Write the results of run_bench as Markdown.
  %
  %   bench_write_md (file, rows, info, peer, reps, lin, core, decode_md, goals_md)
  %
  %   rows: timed rows (bench_time_row fields added), info: machine_info of
  %   run_bench, peer: bench_peer, lin: bench_linearity, core: the text
  %   printed by the C driver (bench_core), or ''; decode_md: the decode
  %   table of bench_decode, goals_md: the table of bench_goals (both
  %   optional; the goals come first, after the run's description).
  %
  %   See also: run_bench.
  fid = fopen (file, 'w');
  if (fid < 0)
    warning ('run_bench: cannot write %s', file);
    return;
  end
  fprintf (fid, '# Benchmarks\n\nWritten by `make bench` (`validation/run_bench.m`) on %s.\n\n', ...
           datestr (now, 31));
  fprintf (fid, '- Machine: %d cores (nproc), %s; load average at start: %s, at end: %s\n', ...
           info.nproc, info.cpu, info.load, load_now ());
  fprintf (fid, '- Octave %s; BLAS: %s\n', OCTAVE_VERSION, info.blas);
  fprintf (fid, '- BLAS settings: %s\n', info.env);
  fprintf (fid, ['- Each row: %d timed runs after one warm-up, each run right after one ' ...
                 'gemm of the same class (Octave''s A*B, n = %d, all cores) and a pause of 0.25 s ' ...
                 '(OpenBLAS''s workers stop spinning, docs/performance.md); "median", ' ...
                 '"min", "max" of the row; "vs gemm" = nominal GFLOP/s (docs/flops.md) over ' ...
                 'the median gemm GFLOP/s of the same runs.  "faults": seconds to create ' ...
                 'and fill arrays of the row''s output sizes (part of every call).  Decode ' ...
                 'rows (T = 1) time 200 calls per run and give seconds per call.\n'], ...
           reps, info.gemm_n);
  fprintf (fid, ['- Peer (plain PyTorch reference of the recurrence, float32, B=1 T=2048 ' ...
                 'H=4 K=V=128): forward %.3f s (min %s, max %s), forward + backward %.2f s ' ...
                 '(min %s, max %s); %s.\n\n'], peer.fwd, fmt (peer.fwd_lo, '%.3f'), ...
           fmt (peer.fwd_hi, '%.3f'), peer.fwdbwd, fmt (peer.fwdbwd_lo, '%.2f'), ...
           fmt (peer.fwdbwd_hi, '%.2f'), peer.label);
  if (nargin > 8)
    fprintf (fid, '%s\n## Through Octave\n\n', goals_md);
  end
  fprintf (fid, '| case | class | mode | T | H | K=V | C | median s | min s | max s | faults s | GFLOP/s | gemm GFLOP/s | vs gemm | vs peer |\n');
  fprintf (fid, '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n');
  for i = 1:numel (rows)
    r = rows(i);
    fprintf (fid, '| %s | %s | %s | %d | %d | %d | %d | %s | %s | %s | %s | %s | %s | %s | %s |\n', ...
             r.label, r.cls, r.mode, r.T, r.H, r.K, r.C, fmt (r.sec, '%.5f'), ...
             fmt (r.lo, '%.5f'), fmt (r.hi, '%.5f'), fmt (r.fault, '%.5f'), ...
             fmt (r.gflops, '%.1f'), fmt (r.gemm_gf, '%.1f'), fmt (r.vs_gemm, '%.2f'), ...
             fmt (r.vs_peer, '%.1fx'));
  end
  fprintf (fid, '\nGrowth in T (time(T=8192) / time(T=2048), rows paired on every other key; linear: 4):\n\n');
  for i = 1:numel (lin)
    fprintf (fid, '- %s: %s %s\n', lin(i).label, fmt (lin(i).ratio, '%.2f'), lin(i).note);
  end
  if (~isempty (core))
    fprintf (fid, '\n## The core without Octave (`make bench-c`, same run)\n\n%s\n', core);
  end
  if (nargin > 7)
    fprintf (fid, '%s', decode_md);
  end
  fclose (fid);
end

function s = load_now ()
  s = '';
  fid = fopen ('/proc/loadavg', 'r');
  if (fid >= 0)
    s = strtrim (fgetl (fid));
    fclose (fid);
  end
end

function str = fmt (x, f)
  if (isnan (x))
    str = '-';
  else
    str = sprintf (f, x);
  end
end
