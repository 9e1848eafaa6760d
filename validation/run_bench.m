## -*- texinfo -*-
## @deftypefn  {} {} run_bench ()
## @deftypefnx {} {@var{rows} =} run_bench (@var{name}, @var{value}, @dots{})
## Time the KDA / GDN functions and the gemm of Octave's own BLAS.
##
## Run by @code{make bench}.  Every timing is the median of at least 5 runs
## after one warm-up run, on all cores (the MEX uses OpenMP, the gemm uses
## the BLAS's own threads).  Printed per row: median seconds, tokens/s
## (= B*T / median seconds), for the chunked rows a GFLOP/s figure from a
## nominal flop count and its ratio to the gemm throughput measured in the
## same run, and for the rows of the peer's size (B=1, T=2048, H=4,
## K=V=128) the speed-up over the peer's figures (PyTorch reference, float32,
## 2 cores: about 0.35 s forward, 12 s forward+backward; goals 10x and 100x).
##
## The results are also written to @file{validation/results/bench.md}.
##
## Options: @qcode{'Reps'} (number of timed runs, default 9, at least 5),
## @qcode{'Out'} (the Markdown file, '' for none).
## @end deftypefn

function rows = run_bench (varargin)
  here = fileparts (mfilename ('fullpath'));
  addpath (fullfile (here, '..', 'octave'));
  addpath (fullfile (here, 'derivation'));   % flops_model: the counts of docs/flops.md
  opt = struct ('Reps', 9, 'Out', fullfile (here, 'results', 'bench.md'));
  for i = 1:2:numel (varargin)
    opt.(varargin{i}) = varargin{i+1};
  end
  reps = max (5, opt.Reps);

  % The peer's figures (float32, 2 cores) and the goals, at B=1, T=2048, H=4, K=V=128.
  peer = struct ('fwd', 0.35, 'fwdbwd', 12, 'goal_fwd', 10, 'goal_fwdbwd', 100);

  % ---- the rows ------------------------------------------------------------
  % One row per line: label, function, class, B, T, H, K, V, mode, chunk size
  % (mode 'fwd' = forward, 'fwdbwd' = forward then backward).  Rows of the
  % chunked path are added below when kda_chunk exists; add more rows by
  % adding lines.
  spec = {
    'kda recurrent', 'kda_recurrent', 'single', 1, 2048, 4, 128, 128, 'fwd',    64
    'kda recurrent', 'kda_recurrent', 'double', 1, 2048, 4, 128, 128, 'fwd',    64
    'gdn recurrent', 'gdn_recurrent', 'single', 1, 2048, 4, 128, 128, 'fwd',    64
    'gdn recurrent', 'gdn_recurrent', 'double', 1, 2048, 4, 128, 128, 'fwd',    64
    'kda recurrent', 'kda_recurrent', 'single', 1, 2048, 4, 128, 128, 'fwdbwd', 64
    'kda recurrent', 'kda_recurrent', 'double', 1, 2048, 4, 128, 128, 'fwdbwd', 64
    'gdn recurrent', 'gdn_recurrent', 'single', 1, 2048, 4, 128, 128, 'fwdbwd', 64
    'gdn recurrent', 'gdn_recurrent', 'double', 1, 2048, 4, 128, 128, 'fwdbwd', 64
  };
  if (exist ('kda_chunk') == 2 || exist ('kda_chunk') == 3)
    for fn = {'kda_chunk', 'gdn_chunk'}
      for T = [2048, 8192]
        for KV = [128, 64]
          for cls = {'single', 'double'}
            for mode = {'fwd', 'fwdbwd'}
              spec(end+1, :) = {strrep(fn{1}, '_', ' '), fn{1}, cls{1}, 1, T, 4, KV, KV, mode{1}, 64};
            end
          end
        end
      end
    end
  end
  % the chunk size trade-off (the default is 64): single, T = 2048, K = V = 128
  if (exist ('kda_chunk') == 2 || exist ('kda_chunk') == 3)
    for C = [16, 32, 128]
      for mode = {'fwd', 'fwdbwd'}
        spec(end+1, :) = {sprintf('kda chunk C=%d', C), 'kda_chunk', 'single', 1, 2048, 4, 128, 128, mode{1}, C};
      end
    end
  end
  % the memory case: a long sequence through the recurrent backward
  spec(end+1, :) = {'kda recurrent (memory)', 'kda_recurrent', 'single', 1, 65536, 4, 128, 128, 'fwdbwd', 64};

  % ---- machine, BLAS, gemm -------------------------------------------------
  info = machine_info ();
  printf ('run_bench: %s\n', info.cpu);
  printf ('  nproc %d, Octave %s, BLAS %s\n', info.nproc, OCTAVE_VERSION, info.blas);
  printf ('  load average at start: %s (other processes distort the timings)\n', info.load);
  gemm = struct ('n', 2048, 'single', 0, 'double', 0);
  for cls = {'single', 'double'}
    gemm.(cls{1}) = gemm_gflops (gemm.n, cls{1}, reps);
    printf ('  gemm %dx%d %s: %.1f GFLOP/s (median of %d)\n', gemm.n, gemm.n, cls{1}, ...
            gemm.(cls{1}), reps);
  end

  % ---- the timings ---------------------------------------------------------
  rows = struct ('label', {}, 'fn', {}, 'cls', {}, 'B', {}, 'T', {}, 'H', {}, 'K', {}, ...
                 'V', {}, 'mode', {}, 'C', {}, 'sec', {}, 'tps', {}, 'gflops', {}, ...
                 'vs_gemm', {}, 'vs_peer', {}, 'goal', {}, 'note', {});
  printf ('\n%-24s %-6s %-6s %5s %3s %4s %4s %9s %12s %8s %8s %9s %s\n', 'case', 'class', ...
          'mode', 'T', 'H', 'K', 'V', 'median s', 'tokens/s', 'GFLOP/s', 'vs gemm', 'vs peer', 'goal');
  for r = 1:size (spec, 1)
    s = cell2struct (spec(r, :)', {'label', 'fn', 'cls', 'B', 'T', 'H', 'K', 'V', 'mode', 'C'});
    row = s;
    row.sec = NaN; row.tps = NaN; row.gflops = NaN; row.vs_gemm = NaN;
    row.vs_peer = NaN; row.goal = ''; row.note = '';
    try
      row.sec = time_row (s, reps);
      row.tps = s.B * s.T / row.sec;
      row.gflops = nominal_flops (s) / row.sec / 1e9;
      row.vs_gemm = row.gflops / gemm.(s.cls);
      if (s.B == 1 && s.T == 2048 && s.H == 4 && s.K == 128 && s.V == 128)
        row.vs_peer = peer.(s.mode) / row.sec;
      end
      row.goal = goal_of (row, peer);
    catch err
      row.note = err.message;
    end
    rows(end+1) = row;
    print_row (row);
  end

  % growth in T of the chunked path: linear means time(8192) / time(2048) = 4
  lin = {};
  for fn = {'kda_chunk', 'gdn_chunk'}
    for cls = {'single', 'double'}
      for mode = {'fwd', 'fwdbwd'}
        pick = @(T) find (strcmp ({rows.fn}, fn{1}) & strcmp ({rows.cls}, cls{1}) & ...
                          strcmp ({rows.mode}, mode{1}) & [rows.T] == T & [rows.K] == 128);
        a = pick (2048); b = pick (8192);
        if (numel (a) == 1 && numel (b) == 1)
          lin{end+1} = sprintf ('%s %s %s: time(T=8192) / time(T=2048) = %.2f (linear: 4)', ...
                                fn{1}, cls{1}, mode{1}, rows(b).sec / rows(a).sec);
          printf ('  %s\n', lin{end});
        end
      end
    end
  end

  if (! isempty (opt.Out))
    write_md (opt.Out, rows, info, gemm, peer, reps, lin);
    printf ('\nwritten: %s\n', opt.Out);
  end
  if (nargout == 0)
    clear rows;
  end
end

% ---------------------------------------------------------------------------

function t = time_row (s, reps)
  % Inputs of a usual model: q, k unit columns, g = log(sigmoid(x)) per
  % channel (KDA) or per step (GDN), beta in (0, 1).
  mk = @(varargin) cast (randn (varargin{:}), s.cls);
  randn ('seed', 1); rand ('seed', 1);
  q = mk (s.K, s.T, s.H, s.B); q = q ./ sqrt (sum (q .^ 2, 1));
  k = mk (s.K, s.T, s.H, s.B); k = k ./ sqrt (sum (k .^ 2, 1));
  v = mk (s.V, s.T, s.H, s.B);
  if (strncmp (s.fn, 'kda', 3))
    g = cast (-log1p (exp (-(2 + randn (s.K, s.T, s.H, s.B)))), s.cls);
  else
    g = cast (-log1p (exp (-(2 + randn (s.T, s.H, s.B)))), s.cls);
  end
  beta = cast (rand (s.T, s.H, s.B), s.cls);
  fwd = str2func (s.fn);
  bwd = str2func ([s.fn '_bwd']);
  chunked = any (strcmp (s.fn, {'kda_chunk', 'gdn_chunk'}));
  if (chunked)
    args = {'ChunkSize', s.C};
  else
    args = {};
  end
  dout = mk (s.V, s.T, s.H, s.B);
  dS = mk (s.K, s.V, s.H, s.B);
  n = reps + 1;                          % the first run is the warm-up
  t = zeros (n, 1);
  for i = 1:n
    if (strcmp (s.mode, 'fwd'))
      t0 = tic ();
      [o, S] = fwd (q, k, v, g, beta, args{:});
      t(i) = toc (t0);
    else
      t0 = tic ();
      [o, S] = fwd (q, k, v, g, beta, args{:});
      [dq, dk, dv, dg, db, dS0] = bwd (q, k, v, g, beta, dout, dS, args{:});
      t(i) = toc (t0);
    end
    clear o S dq dk dv dg db dS0;
  end
  t = median (t(2:end));
end

function f = nominal_flops (s)
  % Nominal flop count of docs/flops.md (eq. 55-58, flops_model), per
  % (sequence, value head), times B * H: multiply-add = 2 flops, elementwise
  % work not counted.  'fwdbwd' = forward + backward (the backward's own
  % forward sweep and recomputation included, as in (56) and (58)).
  chunk = any (strcmp (s.fn, {'kda_chunk', 'gdn_chunk'}));
  if (chunk)
    f = flops_model ('chunk_fwd', s.T, s.C, s.K, s.V);
    if (strcmp (s.mode, 'fwdbwd'))
      f = f + flops_model ('chunk_bwd', s.T, s.C, s.K, s.V);
    end
  else
    f = flops_model ('rec_fwd', s.T, s.C, s.K, s.V);
    if (strcmp (s.mode, 'fwdbwd'))
      f = f + flops_model ('rec_bwd', s.T, s.C, s.K, s.V);
    end
  end
  f = s.B * s.H * f;
end

% The goal of a row and whether this run met it (issues 2-4): the recurrent
% path against the peer's PyTorch reference, the chunked path against the
% same-run gemm (and the peer's autograd tokens/s); single precision only.
function g = goal_of (r, peer)
  chunk = any (strcmp (r.fn, {'kda_chunk', 'gdn_chunk'}));
  g = '';
  if (! strcmp (r.cls, 'single')), return; end
  at_peer = r.T == 2048 && r.K == 128 && r.V == 128 && r.H == 4;
  if (chunk && strcmp (r.mode, 'fwd'))
    g = sprintf ('>= 0.50 gemm: %s', met (r.vs_gemm >= 0.5));
  elseif (chunk && at_peer)
    g = sprintf ('>= 0.40 gemm: %s; >= 200x peer: %s', met (r.vs_gemm >= 0.4), ...
                 met (r.vs_peer >= 200));
  elseif (chunk)
    g = sprintf ('>= 0.40 gemm: %s', met (r.vs_gemm >= 0.4));
  elseif (at_peer)
    gx = peer.(['goal_' r.mode]);
    g = sprintf ('>= %dx peer: %s', gx, met (r.vs_peer >= gx));
  end
end

function s = met (c)
  if (c), s = 'met'; else, s = 'NOT met'; end
end

function g = gemm_gflops (n, cls, reps)
  randn ('seed', 2);
  A = cast (randn (n), cls);
  B = cast (randn (n), cls);
  t = zeros (reps + 1, 1);
  for i = 1:reps + 1
    t0 = tic ();
    C = A * B;
    t(i) = toc (t0);
  end
  g = 2 * n ^ 3 / median (t(2:end)) / 1e9;
end

function info = machine_info ()
  info.nproc = nproc ();
  info.cpu = 'unknown CPU';
  fid = fopen ('/proc/cpuinfo', 'r');
  if (fid >= 0)
    txt = fread (fid, Inf, 'char=>char')';
    fclose (fid);
    tok = regexp (txt, 'model name\s*:\s*([^\n]*)', 'tokens', 'once');
    if (! isempty (tok))
      info.cpu = strtrim (tok{1});
    end
  end
  info.load = '';
  fid = fopen ('/proc/loadavg', 'r');
  if (fid >= 0)
    info.load = strtrim (fgetl (fid));
    fclose (fid);
  end
  info.blas = '';
  try
    info.blas = strtrim (version ('-blas'));
  catch
  end
  % the library actually loaded
  lib = '';
  fid = fopen ('/proc/self/maps', 'r');
  if (fid >= 0)
    txt = fread (fid, Inf, 'char=>char')';
    fclose (fid);
    tok = regexp (txt, '(/\S*lib(?:open)?blas[^\s]*\.so[^\s]*)', 'tokens', 'once');
    if (! isempty (tok))
      lib = tok{1};
    end
  end
  if (isempty (info.blas))
    info.blas = lib;
  elseif (! isempty (lib))
    info.blas = sprintf ('%s (%s)', info.blas, lib);
  end
  if (isempty (info.blas))
    info.blas = 'unknown';
  end
end

function str = fmt (x, f)
  if (isnan (x))
    str = '-';
  else
    str = sprintf (f, x);
  end
end

function print_row (r)
  if (! isempty (r.note))
    printf ('%-24s %-6s %-6s %5d %3d %4d %4d   error: %s\n', r.label, r.cls, r.mode, r.T, ...
            r.H, r.K, r.V, r.note);
    return;
  end
  goal = r.goal;
  printf ('%-24s %-6s %-6s %5d %3d %4d %4d %9.4f %12.0f %8s %8s %9s %s\n', r.label, r.cls, ...
          r.mode, r.T, r.H, r.K, r.V, r.sec, r.tps, fmt (r.gflops, '%.1f'), ...
          fmt (r.vs_gemm, '%.2f'), fmt (r.vs_peer, '%.1fx'), goal);
end


function write_md (file, rows, info, gemm, peer, reps, lin)
  d = fileparts (file);
  if (! isempty (d) && ! exist (d, 'dir'))
    mkdir (d);
  end
  fid = fopen (file, 'w');
  if (fid < 0)
    warning ('run_bench: cannot write %s', file);
    return;
  end
  fprintf (fid, '# Benchmarks\n\n');
  fprintf (fid, 'Written by `make bench` (`validation/run_bench.m`) on %s.\n\n', datestr (now, 31));
  fprintf (fid, '- Machine: %d cores (nproc), %s\n', info.nproc, info.cpu);
  fprintf (fid, '- Load average at start (/proc/loadavg): %s -- anything else running on the machine distorts the timings.\n', info.load);
  fprintf (fid, '- Octave %s\n', OCTAVE_VERSION);
  fprintf (fid, '- BLAS: %s\n', info.blas);
  fprintf (fid, '- Timings: median of %d runs after one warm-up, all cores.\n', reps);
  fprintf (fid, '- gemm of that BLAS, %dx%d: single %.1f GFLOP/s, double %.1f GFLOP/s.\n', ...
           gemm.n, gemm.n, gemm.single, gemm.double);
  fprintf (fid, ['- Peer (PyTorch reference, float32, 2 cores, B=1 T=2048 H=4 K=V=128): ' ...
                 'forward %.2f s, forward+backward %.0f s; goals %dx and %dx faster. ' ...
                 '"vs peer" = peer seconds / our seconds (double rows compared with the ' ...
                 'same float32 figures).\n'], peer.fwd, peer.fwdbwd, peer.goal_fwd, peer.goal_fwdbwd);
  fprintf (fid, ['- GFLOP/s: the nominal flop counts of docs/flops.md (eq. 55-58: recurrent ' ...
                 '7TKV forward, 20TKV + 5KVR backward; chunked 6TKV + (3K+2V) sum c^2 + sum c^3/3 ' ...
                 'forward, eq. 58 backward), multiply-add = 2, elementwise work not counted; ' ...
                 '"vs gemm" = that / gemm GFLOP/s of the same class in the same run.\n\n']);
  fprintf (fid, '| case | class | mode | B | T | H | K | V | median s | tokens/s | GFLOP/s | vs gemm | vs peer | goal |\n');
  fprintf (fid, '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n');
  for i = 1:numel (rows)
    r = rows(i);
    if (! isempty (r.note))
      fprintf (fid, '| %s | %s | %s | %d | %d | %d | %d | %d | error: %s | | | | | |\n', r.label, ...
               r.cls, r.mode, r.B, r.T, r.H, r.K, r.V, r.note);
      continue;
    end
    goal = r.goal;
    fprintf (fid, '| %s | %s | %s | %d | %d | %d | %d | %d | %.4f | %.0f | %s | %s | %s | %s |\n', ...
             r.label, r.cls, r.mode, r.B, r.T, r.H, r.K, r.V, r.sec, r.tps, ...
             fmt (r.gflops, '%.1f'), fmt (r.vs_gemm, '%.2f'), fmt (r.vs_peer, '%.1fx'), goal);
  end
  if (! isempty (lin))
    fprintf (fid, '\nGrowth in T of the chunked path (same run):\n\n');
    fprintf (fid, '- %s\n', lin{:});
  end
  fclose (fid);
end
