function rows = run_bench (varargin)
  % RUN_BENCH  Time the KDA / GDN functions against the BLAS gemm (make bench).
  %
  %   run_bench ()
  %   rows = run_bench (Name, Value, ...)
  %
  %   Every row (validation/bench/bench_rows.m) is timed run by run, each run
  %   right after one gemm of Octave's BLAS in the row's class, so the ratio
  %   "vs gemm" compares two figures of the same moment (the machine may be
  %   shared).  Per row: median, min and max seconds of the runs, the cost
  %   of the page faults of fresh outputs (measured apart), nominal GFLOP/s
  %   (docs/flops.md), the median gemm rate of the same runs and the ratio,
  %   and at the peer's size the speed-up over the peer.  The peer (a plain
  %   PyTorch reference, validation/bench/peer_torch.py) is measured in the
  %   same run when Debian's python3-torch is installed, else its recorded
  %   figures are used and labelled so.  The core's own driver (make bench-c)
  %   runs too when given, so the MEX overhead shows as the difference of
  %   two rows; it runs twice, with the machine's BLAS kernels and with
  %   OpenBLAS's AVX2 ones, and its tables go into the same file.  The
  %   decode table (bench_decode) splits a T = 1 call into Octave's cost and
  %   ours; bench_goals puts the goals of docs/performance.md against the
  %   figures, at the top of the file.
  %
  %   Options: 'Reps' (timed runs per row, at least 9; default 9), 'Out'
  %   (Markdown file, default validation/bench/results/bench.md; '' for none),
  %   'Core' (path of the bench_core program, '' for none), 'CoreBlas'
  %   (path of bench_core_blas, the core with its gemm calls timed: the
  %   GEMMs' share of each chunked row; '' for none), 'Peer' (true:
  %   measure the peer if possible), 'Quick' (true: four rows only),
  %   'GemmN' (size of the gemm, default 1024).
  %
  %   See also: bench_rows, bench_time_row, bench_linearity, bench_peer, bench_decode,
  %   bench_goals, bench_core_run.
  here = fileparts (mfilename ('fullpath'));
  addpath (fullfile (here, '..', 'octave'));
  addpath (fullfile (here, 'bench'));
  addpath (fullfile (here, 'derivation'));   % flops_model: the counts of docs/flops.md
  opt = struct ('Reps', 9, 'Out', fullfile (here, 'bench', 'results', 'bench.md'), 'Core', '', ...
                'CoreBlas', '', 'Peer', true, 'Quick', false, 'GemmN', 1024);
  for i = 1:2:numel (varargin)
    opt.(varargin{i}) = varargin{i+1};
  end
  reps = max (9, opt.Reps);
  info = machine_info ();
  info.gemm_n = opt.GemmN;
  fprintf ('run_bench: %s, %d cores, load %s\n  BLAS %s\n  %s\n', info.cpu, info.nproc, ...
           info.load, info.blas, info.env);
  peer = bench_peer (opt.Peer && ~opt.Quick, reps);
  fprintf ('  peer: forward %.3f s, forward + backward %.2f s, %s\n', peer.fwd, peer.fwdbwd, ...
           peer.label);
  rows = time_rows (bench_rows (opt.Quick), reps, opt.GemmN, peer);
  lin = bench_linearity (rows);
  for i = 1:numel (lin)
    fprintf ('  growth %s: %.2f (linear: 4) %s\n', lin(i).label, lin(i).ratio, lin(i).note);
  end
  core = '';
  core2 = '';
  core3 = '';
  if (~isempty (opt.Core))   % the machine's BLAS kernels, then OpenBLAS's AVX2 ones
    core = bench_core_run (opt.Core, reps);
    fprintf ('%s', core);
    core2 = bench_core_run (opt.Core, reps, '', 'Haswell');
    fprintf ('%s', core2);
  end
  if (~isempty (opt.CoreBlas))  % the GEMMs' share, with the AVX2 kernels of the goals
    core3 = bench_core_run (opt.CoreBlas, reps, '', 'Haswell');
    fprintf ('%s', core3);
  end
  dec = bench_decode (reps, core);                  % where a decode call's time goes
  fprintf ('%s', dec(1).md);
  goals = bench_goals (core, core2, dec, core3);
  fprintf ('%s', goals);
  if (~isempty (opt.Out))
    if (~isempty (core2))
      core = [core sprintf('\n### The same with OPENBLAS_CORETYPE=Haswell (AVX2 kernels)\n\n') core2];
    end
    if (~isempty (core3))
      core = [core sprintf('\n### The GEMMs alone\n\n') core3];
    end
    bench_write_md (opt.Out, rows, info, peer, reps, lin, core, dec(1).md, goals);
    fprintf ('written: %s\n', opt.Out);
  end
  if (nargout == 0)
    clear rows;
  end
end

function rows = time_rows (spec, reps, gemm_n, peer)
  fprintf ('\n%-22s %-6s %-6s %5s %2s %4s %3s %9s %9s %9s %8s %7s %7s %8s\n', 'case', ...
           'class', 'mode', 'T', 'H', 'K=V', 'C', 'median s', 'min s', 'max s', 'faults', ...
           'GF/s', 'vs gemm', 'vs peer');
  rows = spec;
  for i = 1:numel (spec)
    s = spec(i);
    r = bench_time_row (s, reps, gemm_n);
    chunked = any (strcmp (s.fn, {'kda_chunk', 'gdn_chunk'}));
    f = flops_model (ifelse_str (chunked, 'chunk_fwd', 'rec_fwd'), s.T, s.C, s.K, s.V);
    if (strcmp (s.mode, 'fwdbwd'))
      f = f + flops_model (ifelse_str (chunked, 'chunk_bwd', 'rec_bwd'), s.T, s.C, s.K, s.V);
    end
    r.gflops = s.B * s.H * f / r.sec / 1e9;
    r.vs_gemm = r.gflops / r.gemm_gf;
    r.vs_peer = NaN;
    if (s.T == 2048 && s.H == 4 && s.K == 128 && strcmp (s.cls, 'single'))
      r.vs_peer = peer.(s.mode) / r.sec;
    end
    for f = fieldnames (r)'
      rows(i).(f{1}) = r.(f{1});
    end
    fprintf ('%-22s %-6s %-6s %5d %2d %4d %3d %9.5f %9.5f %9.5f %8.5f %7.1f %7.2f %8.1f\n', ...
             s.label, s.cls, s.mode, s.T, s.H, s.K, s.C, r.sec, r.lo, r.hi, r.fault, ...
             r.gflops, r.vs_gemm, r.vs_peer);
  end
end

function s = ifelse_str (c, a, b)
  if (c)
    s = a;
  else
    s = b;
  end
end

function info = machine_info ()
  info.nproc = nproc ();
  info.cpu = regexp (fileread ('/proc/cpuinfo'), 'model name\s*:\s*([^\n]*)', 'tokens', 'once');
  info.cpu = strtrim ([info.cpu{:}]);
  info.load = strtrim (fileread ('/proc/loadavg'));
  info.blas = 'unknown';
  try
    info.blas = strtrim (version ('-blas'));
  catch
  end
  env = {'OPENBLAS_CORETYPE', 'OPENBLAS_NUM_THREADS', 'OMP_NUM_THREADS'};
  info.env = '';
  for i = 1:numel (env)
    v = getenv (env{i});
    if (isempty (v))
      v = '(unset)';
    end
    info.env = sprintf ('%s%s=%s ', info.env, env{i}, v);
  end
  info.env = [info.env '(kernels actually used: see the core table, "core type")'];
end
