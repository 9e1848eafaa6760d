function d = bench_decode (reps, core_text)
  % BENCH_DECODE  What a decode call (T = 1) costs, and whose cost it is.
  %
  %   d = bench_decode (reps, core_text)
  %
  %   For kda_recurrent and gdn_recurrent at B = 1, H = 4, K = V = 128,
  %   single, state in and out, microseconds per call (200 calls per run,
  %   median, min and max of reps runs after one warm-up; the columns
  %   interleaved run by run, so a burst of load hits them alike):
  %     total   [o, S] = kda_recurrent (q, k, v, g, beta, 'InitialState', S)
  %             (the public function: with the build's kda_recurrent.mex,
  %             the gateway itself, no .m wrapper)
  %     direct  the same call of the private la_mex
  %     host    [o, S] = la_mex ('outputs_like', v, S): a MEX call that only
  %             makes outputs of these sizes, i.e. Octave's own cost for
  %             them (Octave 7 built without PMR copies every output after
  %             the call; MATLAB does not)
  %     o only  o = kda_recurrent (...): no state returned (information)
  %   From core_text, the output of the C driver bench_core (its
  %   "| decode kda |" rows; '' when not run): the core's call and the
  %   arithmetic of one step on the same number of threads.  Then
  %     ours = total - arithmetic - host
  %   is the overhead of this library (gateway, the core's own; the .m
  %   wrapper too where the function's MEX file is absent),
  %   and ours_mex = direct - arithmetic - host its part inside the MEX,
  %   each taken run by run and then the median (bench_paired_overhead:
  %   a burst of load hits a run's total and host alike and cancels).
  %   The same call with a state pool follows in the Markdown
  %   (bench_decode_pool: 64 slots, H = 4 and 32).
  %   d: struct array (fn, total, direct, host, oonly: [median min max];
  %   core, arith, ours, ours_mex: scalars, NaN without core_text;
  %   ours_range, ours_mex_range: [min max] over the runs) and d(1).md,
  %   the Markdown table.
  %
  %   See also: run_bench, bench_write_md, bench_paired_overhead.
  la = private_la_mex ();
  fns = {'kda_recurrent', 'gdn_recurrent'};
  for f = 1:numel (fns)
    [t, raw] = time_calls (str2func (fns{f}), la, fns{f}, reps, 200);
    r.fn = fns{f};
    r.total = t(1, :);
    r.direct = t(2, :);
    r.host = t(3, :);
    r.oonly = t(4, :);
    [r.core, r.arith] = core_figures (core_text, fns{f}(1:3));
    [r.ours, lo, hi] = bench_paired_overhead (raw(:, 1), raw(:, 3), r.arith);
    r.ours_range = [lo hi];
    [r.ours_mex, lo, hi] = bench_paired_overhead (raw(:, 2), raw(:, 3), r.arith);
    r.ours_mex_range = [lo hi];
    d(f) = r;                                          %#ok (two rows)
  end
  d(1).md = [decode_md(d), bench_decode_pool(reps, core_text)];   % the pooled call beside it
end

function la = private_la_mex ()
  % a handle to the gateway itself (it lives in octave/private)
  here = pwd ();
  cd (fullfile (fileparts (which ('kda_recurrent')), 'private'));
  la = @la_mex;
  cd (here);
end

% The inputs of one decode step of a usual model (unit keys, log-sigmoid
% gates, beta in (0, 1)) and a state.
function [in, S] = decode_inputs (fn)
  K = 128;  V = 128;  H = 4;
  randn ('seed', 2);
  rand ('seed', 2);
  q = single (randn (K, 1, H));
  k = single (randn (K, 1, H));
  k = k ./ sqrt (sum (k .^ 2, 1));
  v = single (randn (V, 1, H));
  if (strncmp (fn, 'kda', 3))
    g = single (-log1p (exp (-(2 + randn (K, 1, H)))));
  else
    g = single (-log1p (exp (-(2 + randn (1, H)))));
  end
  beta = single (rand (1, H));
  in = {q, k, v, g, beta};
  S = single (0.1 * randn (K, V, H));
end

% Microseconds per call, [median min max] of total, direct, host, o only
% (rows of t; raw: one row per run, the same four columns); each run times
% the four in turn, ncalls calls each, every call through a function handle
% alike.
function [t, raw] = time_calls (fh, la, name, reps, ncalls)
  [in, S] = decode_inputs (name);
  [q, k, v, g, beta] = in{:};
  raw = zeros (reps + 1, 4);
  for i = 1:reps + 1
    t0 = tic ();
    for j = 1:ncalls
      [o, S1] = fh (q, k, v, g, beta, 'InitialState', S);
    end
    raw(i, 1) = toc (t0);
    t0 = tic ();
    for j = 1:ncalls
      [o, S1] = la (name, q, k, v, g, beta, 'InitialState', S);
    end
    raw(i, 2) = toc (t0);
    t0 = tic ();
    for j = 1:ncalls
      [o, S1] = la ('outputs_like', v, S);
    end
    raw(i, 3) = toc (t0);
    t0 = tic ();
    for j = 1:ncalls
      o = fh (q, k, v, g, beta, 'InitialState', S);
    end
    raw(i, 4) = toc (t0);
  end
  raw = 1e6 * raw(2:end, :) / ncalls;
  t = [median(raw, 1); min(raw, [], 1); max(raw, [], 1)]';
end

% The core's call and the arithmetic of one step (microseconds) from the
% "| decode kda | single | 4 | 128 | call (lo, hi) | step (lo, hi) | ..."
% row of bench_core; NaN when absent.
function [call, step] = core_figures (core_text, op)
  call = NaN;
  step = NaN;
  if (isempty (core_text))
    return;
  end
  tok = regexp (core_text, ['\| decode ' op ' \| single \| 4 \| 128 \| ([\d.]+) \([^)]*\) \| ' ...
                            '([\d.]+) '], 'tokens', 'once');
  if (~isempty (tok))
    call = str2double (tok{1});
    step = str2double (tok{2});
  end
end

function md = decode_md (d)
  md = sprintf (['\n## Decode: one step (T = 1) with the state in and out\n\n' ...
                 'B = 1, H = 4, K = V = 128, single; microseconds per call, median ' ...
                 '(min, max) of runs of 200 calls.  total: `[o, S] = kda_recurrent ' ...
                 '(q, k, v, g, beta, ''InitialState'', S)` (served by kda_recurrent.mex, ' ...
                 'the gateway under the function''s name, no .m wrapper); direct: the same ' ...
                 'call of the private la_mex; host: a MEX call that only ' ...
                 'makes outputs of these sizes (Octave''s own cost: without PMR it copies ' ...
                 'each output after the call); core and arithmetic (one step on the same ' ...
                 'threads): `bench_core`; ours = total - arithmetic - host; in the MEX: ' ...
                 'direct - arithmetic - host; these two run by run (a run times the four ' ...
                 'columns in turn), median (min, max) over the runs.\n\n' ...
                 '| function | total | direct | host (Octave) | o only | core call | ' ...
                 'arithmetic | ours | in the MEX |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n']);
  for i = 1:numel (d)
    md = [md, sprintf('| %s | %s | %s | %s | %s | %.1f | %.1f | %s | %s |\n', d(i).fn, ...
                      spread (d(i).total), spread (d(i).direct), spread (d(i).host), ...
                      spread (d(i).oonly), d(i).core, d(i).arith, ...
                      spread ([d(i).ours d(i).ours_range]), ...
                      spread ([d(i).ours_mex d(i).ours_mex_range]))];   %#ok
  end
end

function s = spread (t)
  s = sprintf ('%.1f (%.1f, %.1f)', t(1), t(2), t(3));
end
