function [md, r] = bench_decode_pool (reps, core_text)
  % BENCH_DECODE_POOL  What a decode call with a state pool costs (docs/decode.md).
  %
  %   [md, r] = bench_decode_pool (reps, core_text)
  %
  %   kda_recurrent at B = 1, T = 1, K = V = 128, single, H = 4 and 32, a
  %   pool of 64 slots (InitialState K x V x H x 64), the sequence in slot
  %   7; microseconds per call, median (min, max) over reps runs after one
  %   warm-up, the columns interleaved run by run:
  %     plain   [o, S] = kda_recurrent (..., 'InitialState', S): the plain
  %             decode row of bench_decode
  %     tokens  [o, S] = kda_recurrent (..., 'InitialState', pool,
  %             'Slots', 7, 'UpdatePool', false): the state after the step
  %             (K x V x H), as the plain call returns it
  %     assign  the same, then pool(:, :, :, 7) = S: Octave writes the slot
  %             in place (the pool is not shared)
  %     pool    [o, pool] = kda_recurrent (..., 'InitialState', pool,
  %             'Slots', 7): the pool returned, a copy of 64 slots
  %     host    la_mex ('outputs_like', v, X): Octave's own cost for the
  %             outputs, X a state (host S) or the pool (host pool)
  %   arithmetic: one step's, from bench_core's decode row at H = 4 (one
  %   thread, as a T = 1 call at H = 4 runs), else a T = 1024 call / 1024
  %   timed here (its threads: an upper bound of the arithmetic at H = 4 on
  %   one thread, so "ours" errs high).  ours = column - arithmetic - host
  %   (host S for plain, tokens, assign; host pool for pool), run by run
  %   (bench_paired_overhead), median (min, max).  The goal: at most 15 us
  %   (docs/performance.md).  r: struct array, one per H.
  %
  %   See also: bench_decode, bench_paired_overhead.
  la = private_la_mex ();
  md = sprintf (['\n## Decode with a state pool (T = 1, 64 slots)\n\n' ...
                 'kda_recurrent, B = 1, K = V = 128, single; microseconds per call, median ' ...
                 '(min, max) of %d runs (columns interleaved run by run). plain: ' ...
                 '`''InitialState'', S`; tokens: `''InitialState'', pool, ''Slots'', 7, ' ...
                 '''UpdatePool'', false` (the state after the step returned); assign: tokens ' ...
                 'then `pool(:, :, :, 7) = S` (in place in Octave); pool: the pool returned ' ...
                 '(`''Slots'', 7`, a 64-slot copy); host: `outputs_like` of a state / of the ' ...
                 'pool; ours = column - arithmetic - host, paired run by run ' ...
                 '(docs/decode.md, section 5).\n\n' ...
                 '| H | plain | tokens | assign | pool | host S | host pool | arithmetic | ' ...
                 'ours plain | ours tokens | ours assign | ours pool |\n' ...
                 '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n'], reps);
  Hs = [4 32];
  for i = 1:numel (Hs)
    x = time_pool (la, Hs(i), reps);
    x.arith = arithmetic (core_text, Hs(i), x.arith_here);
    names = {'plain', 'tokens', 'assign', 'pool'};
    hosts = [5 5 5 6];
    for j = 1:4
      [m, lo, hi] = bench_paired_overhead (x.raw(:, j), x.raw(:, hosts(j)), x.arith);
      x.ours.(names{j}) = [m lo hi];
    end
    r(i) = x;                                            %#ok (one per H)
    md = [md, sprintf('| %d | %s | %s | %s | %s | %s | %s | %.1f | %s | %s | %s | %s |\n', ...
                      x.H, spread (x.t(1, :)), spread (x.t(2, :)), spread (x.t(3, :)), ...
                      spread (x.t(4, :)), spread (x.t(5, :)), spread (x.t(6, :)), x.arith, ...
                      spread (x.ours.plain), spread (x.ours.tokens), spread (x.ours.assign), ...
                      spread (x.ours.pool))];            %#ok
  end
end

function la = private_la_mex ()
  here = pwd ();
  cd (fullfile (fileparts (which ('kda_recurrent')), 'private'));
  la = @la_mex;
  cd (here);
end

% Microseconds per call of the six columns (rows of x.t: median min max;
% x.raw: one row per run), and a T = 1024 call's time per step.
function x = time_pool (la, H, reps)
  K = 128;  V = 128;  P = 64;  slot = 7;
  randn ('seed', 3);  rand ('seed', 3);
  q = single (randn (K, 1, H));
  k = single (randn (K, 1, H));  k = k ./ sqrt (sum (k .^ 2, 1));
  v = single (randn (V, 1, H));
  g = single (-log1p (exp (-(2 + randn (K, 1, H)))));
  beta = single (rand (1, H));
  pool = single (0.1 * randn (K, V, H, P));
  S = pool(:, :, :, slot);
  % fewer calls where one copies the whole pool (128 MB at H = 32)
  ncalls = [200 200 200 max(5, round (200 * 4 / H / 8)) 200 max(5, round (200 * 4 / H / 8))];
  raw = zeros (reps + 1, 6);
  for i = 1:reps + 1
    t0 = tic ();
    for j = 1:ncalls(1)
      [o, S1] = kda_recurrent (q, k, v, g, beta, 'InitialState', S);
    end
    raw(i, 1) = toc (t0) / ncalls(1);
    t0 = tic ();
    for j = 1:ncalls(2)
      [o, S1] = kda_recurrent (q, k, v, g, beta, 'InitialState', pool, 'Slots', slot, ...
                               'UpdatePool', false);
    end
    raw(i, 2) = toc (t0) / ncalls(2);
    t0 = tic ();
    for j = 1:ncalls(3)
      [o, S1] = kda_recurrent (q, k, v, g, beta, 'InitialState', pool, 'Slots', slot, ...
                               'UpdatePool', false);
      pool(:, :, :, slot) = S1;
    end
    raw(i, 3) = toc (t0) / ncalls(3);
    t0 = tic ();
    for j = 1:ncalls(4)
      [o, P1] = kda_recurrent (q, k, v, g, beta, 'InitialState', pool, 'Slots', slot);
    end
    raw(i, 4) = toc (t0) / ncalls(4);
    t0 = tic ();
    for j = 1:ncalls(5)
      [o, S1] = la ('outputs_like', v, S);
    end
    raw(i, 5) = toc (t0) / ncalls(5);
    t0 = tic ();
    for j = 1:ncalls(6)
      [o, P1] = la ('outputs_like', v, pool);
    end
    raw(i, 6) = toc (t0) / ncalls(6);
  end
  raw = 1e6 * raw(2:end, :);
  x.H = H;
  x.raw = raw;
  x.t = [median(raw, 1); min(raw, [], 1); max(raw, [], 1)]';
  % the arithmetic of one step: a long call / its steps
  T = 1024;
  ql = repmat (q, 1, T);  kl = repmat (k, 1, T);  vl = repmat (v, 1, T);
  gl = repmat (g, 1, T);  bl = repmat (beta, T, 1);
  tl = zeros (1, 3);
  for i = 1:3
    t0 = tic ();
    kda_recurrent (ql, kl, vl, gl, bl, 'InitialState', S);
    tl(i) = toc (t0);
  end
  x.arith_here = 1e6 * min (tl) / T;
end

% bench_core's one-thread arithmetic for H = 4 when given, else ours
function a = arithmetic (core_text, H, here)
  a = here;
  if (H ~= 4 || isempty (core_text))
    return;
  end
  tok = regexp (core_text, ['\| decode kda \| single \| 4 \| 128 \| [\d.]+ \([^)]*\) \| ' ...
                            '([\d.]+) '], 'tokens', 'once');
  if (~isempty (tok))
    a = str2double (tok{1});
  end
end

function s = spread (t)
  s = sprintf ('%.1f (%.1f, %.1f)', t(1), t(2), t(3));
end
