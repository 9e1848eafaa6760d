function d = bench_decode (reps, core_text)
  % BENCH_DECODE  What a decode call (T = 1) costs, and whose cost it is.
  %
  %   d = bench_decode (reps, core_text)
  %
  %   For kda_recurrent and gdn_recurrent at B = 1, H = 4, K = V = 128,
  %   single, state in and out, microseconds per call (200 calls per run,
  %   median, min and max of max (25, reps) runs after one warm-up; the
  %   columns interleaved run by run, so a burst of load hits them alike):
  %     total   [o, S] = kda_recurrent (q, k, v, g, beta, 'InitialState', S)
  %             (the public function: with the build's kda_recurrent.mex,
  %             the gateway itself, no .m wrapper)
  %     direct  the same call of la_mex_testing (the gateway's test build)
  %     inside  of direct: mexFunction's entry to its return, the mean of
  %             the run's calls (la_mex_testing ('last_call')), split into parse
  %             (arguments parsed, checked, converted), core (the core's
  %             call) and outputs (the outputs made, and the rest)
  %     host    [o, S] = la_mex_testing ('outputs_like', v, S): a MEX call that only
  %             makes outputs of these sizes (information: about Octave's
  %             part below)
  %     o only  o = kda_recurrent (...): no state returned (information)
  %   From core_text, the output of the C driver bench_core (its
  %   "| decode kda |" rows; '' when not run): the core's T = 1 call in C
  %   (the step, reading the caller's state and writing a new one: the
  %   state's trip through memory is part of the step, decided on issue 34)
  %   and the arithmetic of one step with the state in cache, in place.
  %   Then, run by run and then the median (min, max) over the runs,
  %     ours   = inside - the core's call: this library's cost beyond the
  %              step (the gateway's parse and outputs, the call's place in
  %              Octave's sequence of calls)
  %     Octave = direct - inside: the interpreter's call and its conversion
  %              of the outputs (Octave 7 copies each returned array
  %              element by element after mexFunction returns; MATLAB's
  %              interleaved API does not)
  %   The same call with a state pool follows in the Markdown
  %   (bench_decode_pool: 64 slots, H = 4 and 32).
  %   The direct calls are also sorted by where Octave's heap put their
  %   state output (its offset from a 64-byte boundary: the step is slower
  %   at 16 and 48): calls and mean core time per offset, over all runs.
  %   d: struct array (fn, total, direct, inside, parse, core_part,
  %   outputs, host, oonly, octave: [median min max]; core, arith, ours:
  %   scalars, NaN without core_text; ours_range: [min max] over the runs;
  %   by_align: 4 x 3, offset 0, 16, 32, 48 bytes, calls, mean core us),
  %   d(1).md, the Markdown table, and d(1).pool, bench_decode_pool's struct
  %   array.
  %
  %   See also: run_bench, bench_write_md, bench_decode_pool.
  la = private_la_mex ();
  reps = max (25, reps);
  fns = {'kda_recurrent', 'gdn_recurrent'};
  for f = 1:numel (fns)
    [t, raw, r.by_align] = time_calls (str2func (fns{f}), la, fns{f}, reps, 200);
    r.fn = fns{f};
    r.total = t(1, :);
    r.direct = t(2, :);
    r.host = t(3, :);
    r.oonly = t(4, :);
    r.inside = t(5, :);
    r.parse = t(6, :);
    r.core_part = t(7, :);
    r.outputs = t(8, :);
    r.octave = spread3 (raw(:, 2) - raw(:, 5));
    [r.core, r.arith] = core_figures (core_text, fns{f}(1:3));
    ours = spread3 (raw(:, 5) - r.core);
    r.ours = ours(1);
    r.ours_range = ours(2:3);
    d(f) = r;                                          %#ok (two rows)
  end
  [pool_md, d(1).pool] = bench_decode_pool (reps, core_text);   % the pooled call beside it
  d(1).md = [decode_md(d), pool_md];
end

function la = private_la_mex ()
  % a handle to the gateway itself: its test build, which has the call
  % clock ('last_call') and 'outputs_like' (make testing: build/testing)
  repo = fileparts (fileparts (fileparts (mfilename ('fullpath'))));
  addpath (fullfile (repo, 'build', 'testing'));
  la = @la_mex_testing;
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

% Microseconds per call, [median min max] of total, direct, host, o only,
% then direct's inside, parse, core and outputs (rows of t; raw: one row
% per run, the same eight columns); each run times the four calls in turn,
% ncalls calls each, every call through a function handle alike.  by_align:
% the timed runs' direct calls per offset of their state output (rows 0,
% 16, 32, 48 bytes): offset, calls, mean core time (us).
function [t, raw, by_align] = time_calls (fh, la, name, reps, ncalls)
  [in, S] = decode_inputs (name);
  [q, k, v, g, beta] = in{:};
  raw = zeros (reps + 1, 8);
  calls = zeros (4, 1);
  core = zeros (4, 1);
  for i = 1:reps + 1
    t0 = tic ();
    for j = 1:ncalls
      [o, S1] = fh (q, k, v, g, beta, 'InitialState', S);
    end
    raw(i, 1) = toc (t0);
    la ('last_call');                        % its mean restarts here
    t0 = tic ();
    for j = 1:ncalls
      [o, S1] = la (name, q, k, v, g, beta, 'InitialState', S);
    end
    raw(i, 2) = toc (t0);
    x = la ('last_call');
    raw(i, 5:8) = [x.mean.inside x.mean.parse x.mean.core x.mean.outputs];   % us
    if (i > 1)
      calls = calls + x.by_alignment(:, 2);
      core = core + x.by_alignment(:, 2) .* x.by_alignment(:, 3);
    end
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
  raw = raw(2:end, :);
  raw(:, 1:4) = 1e6 * raw(:, 1:4) / ncalls;
  t = [median(raw, 1); min(raw, [], 1); max(raw, [], 1)]';
  mean_core = core ./ max (calls, 1);
  by_align = [(0:16:48)', calls, mean_core];
end

% The core's call and the arithmetic of one step (microseconds) from the
% "| decode kda | single | 4 | 128 | threads | call (lo, hi) | step (lo, hi) | ..."
% row of bench_core; NaN when absent.
function [call, step] = core_figures (core_text, op)
  call = NaN;
  step = NaN;
  if (isempty (core_text))
    return;
  end
  tok = regexp (core_text, ['\| decode ' op ' \| single \| 4 \| 128 \| \d+ \| ([\d.]+) \([^)]*\) \| ' ...
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
                 'call of la_mex_testing (the gateway''s test build); inside: of direct, mexFunction''s entry to ' ...
                 'return (`la_mex_testing (''last_call'')`), of which parse (arguments parsed, ' ...
                 'checked, converted), core (the core''s call) and outputs (made, and the ' ...
                 'rest); arithmetic (one step on the same threads, the state in cache) and ' ...
                 'core call (C): `bench_core`, the T = 1 step reading and writing its state; ' ...
                 'ours = inside - core call (C); Octave = direct - ' ...
                 'inside (the interpreter, and its element-by-element copy of each returned ' ...
                 'array, which no MEX file avoids in Octave 7); these two run by run, median ' ...
                 '(min, max) over the runs.  host: a MEX call that only makes outputs of ' ...
                 'these sizes; o only: no state returned.\n\n' ...
                 '| function | total | direct | inside | parse | core | outputs | arithmetic | ' ...
                 'ours | Octave | host | o only | core call (C) |\n' ...
                 '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n']);
  for i = 1:numel (d)
    md = [md, sprintf('| %s | %s | %s | %s | %.1f | %.1f | %.1f | %.1f | %s | %s | %.1f | %.1f | %.1f |\n', ...
                      d(i).fn, spread (d(i).total), spread (d(i).direct), spread (d(i).inside), ...
                      d(i).parse(1), d(i).core_part(1), d(i).outputs(1), d(i).arith, ...
                      spread ([d(i).ours d(i).ours_range]), spread (d(i).octave), ...
                      d(i).host(1), d(i).oonly(1), d(i).core)];   %#ok
  end
  md = [md, sprintf(['\nThe direct calls by where Octave''s heap put the state output ' ...
                     '(its offset from a 64-byte boundary: the step is slower at 16 and 48; ' ...
                     'the gateway asks for a 32-byte boundary), over all runs: calls, and ' ...
                     'their mean core time in us.\n\n| function | offset 0 | 16 | 32 | 48 |\n' ...
                     '|---|---:|---:|---:|---:|\n'])];
  for i = 1:numel (d)
    cells = '';
    for j = 1:4
      if (d(i).by_align(j, 2) > 0)
        cells = [cells, sprintf(' %d calls, %.1f |', d(i).by_align(j, 2), d(i).by_align(j, 3))];   %#ok
      else
        cells = [cells, ' - |'];   %#ok
      end
    end
    md = [md, sprintf('| %s |%s\n', d(i).fn, cells)];   %#ok
  end
end

function t = spread3 (x)
  t = [median(x) min(x) max(x)];
end

function s = spread (t)
  s = sprintf ('%.1f (%.1f, %.1f)', t(1), t(2), t(3));
end
