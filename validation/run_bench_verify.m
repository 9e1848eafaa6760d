function R = run_bench_verify (varargin)
  % RUN_BENCH_VERIFY  kda_verify at dump scale: time and peak memory (make bench-verify).
  %
  %   run_bench_verify ()
  %   R = run_bench_verify ('Sizes', [T H K; ...], 'Out', file, 'Rounds', 3, 'Env', '')
  %
  %   For each size (B = 1, T steps, H heads, K = V), bench_verify_scale:
  %   a bfloat16 KDA dump with every gradient, kda_verify on it, and the
  %   bare double recomputation of the same problem, each in an Octave of
  %   its own, in turn 'Rounds' times, with its median wall time and peak
  %   resident memory; then a failing copy of the dump verified with and
  %   without heat maps.  Default
  %   sizes: the issue's case (T = 32768, H = 4, K = V = 64, 193 MB) and a
  %   serving-size dump (T = 8192, H = 32, K = V = 128).  'Out': Markdown
  %   file (default validation/bench/results/bench_verify.md; '' for none).
  %   'Env': put before every job's octave command (bench_verify_scale),
  %   e.g. the GLIBC_TUNABLES of docs/performance.md.
  %   The memory needs the machine to have room: the verifier's peak is
  %   about 6 times the dump (docs/performance.md); the serving size's
  %   dump is 0.7 GB.
  %
  %   See also: bench_verify_scale, kda_verify.
  here = fileparts (mfilename ('fullpath'));
  addpath (fullfile (here, 'bench'));
  addpath (fullfile (fileparts (here), 'octave'));
  opt = struct ('Sizes', [32768 4 64; 8192 32 128], 'Rounds', 3, 'Env', '', ...
                'Out', fullfile (here, 'bench', 'results', 'bench_verify.md'));
  for i = 1:2:numel (varargin)
    opt.(varargin{i}) = varargin{i+1};
  end
  started = datestr (now (), 'yyyy-mm-dd HH:MM');
  load0 = strtrim (fileread ('/proc/loadavg'));
  md = '';
  for i = 1:rows (opt.Sizes)
    s = opt.Sizes(i, :);
    R(i) = bench_verify_scale (s(1), s(2), s(3), 'Rounds', opt.Rounds, 'Env', opt.Env);   %#ok
    fprintf ('%s', R(i).md);
    md = [md R(i).md];   %#ok
  end
  head = sprintf (['# kda_verify at dump scale\n\nWritten by `make bench-verify` ' ...
                   '(`validation/run_bench_verify.m`) on %s; CPU: %s; load average at start ' ...
                   '%s, at end %s.\n\nB = 1, K = V, a bfloat16 dump with every gradient (q, k, v, ' ...
                   'g, beta, o, do, dq, dk, dv, dg, dbeta); each job in an Octave of its own, in turn, ' ...
                   'medians of %d rounds: recompute, the bare double kda_chunk and kda_chunk_bwd ' ...
                   '(inputs made before the clock); verify, `kda_verify (folder)` (its time over ' ...
                   'recompute''s in brackets: the goal at most 3x); its peak resident memory above ' ...
                   'an idle Octave''s (the goal at most 6x the dump); failing, the dump with o of ' ...
                   'head 0 wrong at one step, verified once with heat maps and once without (the ' ...
                   'heat maps'' share in brackets: the goal at most 10%%).\n\n| T | H | K = V | ' ...
                   'dump | verdict | recompute | verify | verify''s peak memory | failing |\n' ...
                   '|---:|---:|---:|---:|---|---:|---:|---|---|\n'], ...
                  started, bench_cpu (), load0, strtrim (fileread ('/proc/loadavg')), opt.Rounds);
  if (~isempty (opt.Env))
    md = [md sprintf('\nEvery job ran as `%s octave ...`.\n', opt.Env)];
  end
  bench_report ([head md], opt.Out);
end
