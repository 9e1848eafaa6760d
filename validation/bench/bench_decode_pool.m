function [md, r] = bench_decode_pool (reps, core_text)
  % BENCH_DECODE_POOL  What a decode call with a state pool costs (docs/decode.md).
  %
  %   [md, r] = bench_decode_pool (reps, core_text)
  %
  %   kda_recurrent at B = 1, T = 1, K = V = 128, single, H = 4 and 32, a
  %   pool of 64 slots (InitialState K x V x H x 64), the sequence in slot
  %   7, every call through la_mex_testing (the test build of the gateway that
  %   kda_recurrent.mex is a copy of) so that la_mex_testing ('last_call') reads
  %   its time inside the MEX.  Four calls, timed in turn within each of
  %   reps runs (after one warm-up), so a burst of load hits them alike:
  %     plain   [o, S] = kda_recurrent (..., 'InitialState', S)
  %     tokens  [o, S] = kda_recurrent (..., 'InitialState', pool,
  %             'Slots', 7, 'UpdatePool', false): the state after the step
  %             (K x V x H), as the plain call returns it
  %     assign  the same, then pool(:, :, :, 7) = S: Octave writes the slot
  %             in place (the pool is not shared)
  %     pool    [o, pool] = kda_recurrent (..., 'InitialState', pool,
  %             'Slots', 7): the pool returned, a copy of 64 slots
  %   For each, microseconds per call, run by run, median (min, max) over
  %   the runs:
  %     total    the call as Octave times it
  %     inside   mexFunction's entry to its return (la_mex_testing ('last_call'),
  %              the mean over the run's calls), split into parse (the
  %              arguments parsed, checked, converted), core (the core's
  %              call) and outputs (the outputs made, and the rest)
  %     step     the core's T = 1 call in C, on the threads the call runs
  %              on (one at H = 4, both at H = 32), reading the caller's
  %              state and writing a new one (bench_core's decode rows,
  %              "core call"), when given; else the core part of a
  %              T = 1024 call / 1024 timed here (the arithmetic alone)
  %     ours     inside - step: the library's own cost
  %     Octave   total - inside: the interpreter's call and its conversion
  %              of the returned arrays (Octave 7 copies each one, element
  %              by element, after mexFunction returns; for the pool column
  %              that is the 64-slot pool, 16 MB at H = 4)
  %   The goal (docs/performance.md): ours at most 15 us in every column.
  %   r: struct array, one per H (H, arith: the step, and per column name a struct
  %   of [median min max] vectors total, inside, parse, core, outputs, ours,
  %   octave).
  %
  %   See also: bench_decode, bench_goals.
  la = private_la_mex ();
  md = sprintf (['\n## Decode with a state pool (T = 1, 64 slots)\n\n' ...
                 'kda_recurrent through the private la_mex, B = 1, K = V = 128, single; ' ...
                 'microseconds per call, median (min, max) of %d runs (the four calls timed ' ...
                 'in turn within each run). plain: `''InitialState'', S`; tokens: ' ...
                 '`''InitialState'', pool, ''Slots'', 7, ''UpdatePool'', false` (the state ' ...
                 'after the step returned); assign: tokens then `pool(:, :, :, 7) = S` (in ' ...
                 'place in Octave); pool: the pool returned (`''Slots'', 7`). inside: ' ...
                 'mexFunction''s entry to return (`la_mex_testing (''last_call'')`), of which parse ' ...
                 '(arguments parsed, checked, converted), core (the core''s call) and ' ...
                 'outputs (made, and the rest); step: the core''s T = 1 call in C, reading ' ...
                 'and writing its state (bench_core, "core call"); ours = inside - step; ' ...
                 'Octave = total - ' ...
                 'inside (the interpreter and its copy of every returned array). The pool ' ...
                 'column''s Octave part is the copy of the returned 64-slot pool (16 MB at ' ...
                 'H = 4, 128 MB at H = 32): a decode loop avoids it with `''UpdatePool'', ' ...
                 'false` and the slot assignment (the assign column), which Octave does in ' ...
                 'place (docs/decode.md, section 5).\n\n' ...
                 '| H | call | total | inside | parse | core | outputs | step (C) | ours | ' ...
                 'Octave | ours <= 15 us |\n' ...
                 '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n'], reps);
  Hs = [4 32];
  names = {'plain', 'tokens', 'assign', 'pool'};
  for i = 1:numel (Hs)
    [x, raw] = time_pool (la, Hs(i), reps);
    x.arith = arithmetic (core_text, Hs(i), x.arith_here);
    for j = 1:numel (names)
      c = struct ();
      c.total = spread3 (raw.total(:, j));
      c.inside = spread3 (raw.inside(:, j));
      c.parse = spread3 (raw.parse(:, j));
      c.core = spread3 (raw.core(:, j));
      c.outputs = spread3 (raw.outputs(:, j));
      c.ours = spread3 (raw.inside(:, j) - x.arith);
      c.octave = spread3 (raw.total(:, j) - raw.inside(:, j));
      x.(names{j}) = c;
      met = 'yes';
      if (c.ours(1) > 15)
        met = 'no';
      end
      md = [md, sprintf('| %d | %s | %s | %s | %.1f | %.1f | %.1f | %.1f | %s | %s | %s |\n', ...
                        x.H, names{j}, spread (c.total), spread (c.inside), c.parse(1), ...
                        c.core(1), c.outputs(1), x.arith, spread (c.ours), ...
                        spread (c.octave), met)];   %#ok
    end
    r(i) = x;                                           %#ok (one per H)
  end
end

function la = private_la_mex ()
  % the gateway's test build, which has the call clock (make testing)
  repo = fileparts (fileparts (fileparts (mfilename ('fullpath'))));
  addpath (fullfile (repo, 'build', 'testing'));
  la = @la_mex_testing;
end

% Per run (rows) and call (columns, as names above): microseconds per call
% of the whole call and of its parts inside the MEX; and the core's time
% of a T = 1024 call per step.
function [x, raw] = time_pool (la, H, reps)
  K = 128;  V = 128;  P = 64;  slot = 7;
  randn ('seed', 3);  rand ('seed', 3);
  q = single (randn (K, 1, H));
  k = single (randn (K, 1, H));  k = k ./ sqrt (sum (k .^ 2, 1));
  v = single (randn (V, 1, H));
  g = single (-log1p (exp (-(2 + randn (K, 1, H)))));
  beta = single (rand (1, H));
  pool = single (0.1 * randn (K, V, H, P));
  S = pool(:, :, :, slot);
  f = 'kda_recurrent';
  % fewer calls where one copies the whole pool (128 MB at H = 32)
  ncalls = [200 200 200 max(5, round (200 * 4 / H / 8))];
  parts = {'total', 'inside', 'parse', 'core', 'outputs'};
  for p = 1:numel (parts)
    raw.(parts{p}) = zeros (reps + 1, 4);
  end
  for i = 1:reps + 1
    for j = 1:4
      la ('last_call');                      % the mean restarts here
      t0 = tic ();
      switch (j)
        case 1
          for n = 1:ncalls(j)
            [o, S1] = la (f, q, k, v, g, beta, 'InitialState', S);
          end
        case 2
          for n = 1:ncalls(j)
            [o, S1] = la (f, q, k, v, g, beta, 'InitialState', pool, 'Slots', slot, ...
                          'UpdatePool', false);
          end
        case 3
          for n = 1:ncalls(j)
            [o, S1] = la (f, q, k, v, g, beta, 'InitialState', pool, 'Slots', slot, ...
                          'UpdatePool', false);
            pool(:, :, :, slot) = S1;
          end
        case 4
          for n = 1:ncalls(j)
            [o, P1] = la (f, q, k, v, g, beta, 'InitialState', pool, 'Slots', slot);
          end
          clear P1;
      end
      raw.total(i, j) = 1e6 * toc (t0) / ncalls(j);
      t = la ('last_call');
      raw.inside(i, j) = t.mean.inside;
      raw.parse(i, j) = t.mean.parse;
      raw.core(i, j) = t.mean.core;
      raw.outputs(i, j) = t.mean.outputs;
    end
  end
  for p = 1:numel (parts)
    raw.(parts{p}) = raw.(parts{p})(2:end, :);
  end
  x.H = H;
  % the arithmetic of one step: the core's time of a long call / its steps
  T = 1024;
  ql = repmat (q, 1, T);  kl = repmat (k, 1, T);  vl = repmat (v, 1, T);
  gl = repmat (g, 1, T);  bl = repmat (beta, T, 1);
  tl = zeros (1, 3);
  for i = 1:3
    la (f, ql, kl, vl, gl, bl, 'InitialState', S);
    t = la ('last_call');
    tl(i) = t.core;
  end
  x.arith_here = min (tl) / T;
end

% bench_core's T = 1 call (its column "core call us": the step, reading and
% writing its state, on the threads a T = 1 call runs on) when given, else
% the arithmetic timed here
function a = arithmetic (core_text, H, here)
  a = here;
  if (isempty (core_text))
    return;
  end
  tok = regexp (core_text, sprintf ('\\| decode kda \\| single \\| %d \\| 128 \\| \\d+ \\| ([\\d.]+) \\(', ...
                                    H), 'tokens', 'once');
  if (~isempty (tok))
    a = str2double (tok{1});
  end
end

function t = spread3 (x)
  t = [median(x) min(x) max(x)];
end

function s = spread (t)
  s = sprintf ('%.1f (%.1f, %.1f)', t(1), t(2), t(3));
end
