function [md, R] = bench_pkg (dirs, names, reps, rows)
  % BENCH_PKG  The same calls through several installs of kdagdn, interleaved.
  %
  %   [md, R] = bench_pkg (dirs, names, reps)
  %   [md, R] = bench_pkg (dirs, names, reps, rows)
  %
  %   dirs: the folders of the public functions of each install, the first
  %   the reference (the clone's octave/ of `make`; then a package's
  %   installed folder, pkg ('list'){i}.dir); names: a label for each.  In
  %   one Octave, for each row and each of reps + 1 runs (the first a
  %   warm-up, not counted), every install in turn (the order rotating run
  %   by run, so a burst of load hits them alike): its folder put first on
  %   the path (which() checked), one untimed call (Octave loads the
  %   install's MEX file and the core its workspaces), a pause of 0.25 s
  %   (idle threads stop spinning), then the timed call.  Each install's
  %   MEX file is linked -Bsymbolic (mkoctfile's default), so each calls
  %   its own core although all are loaded at once.
  %
  %   rows: struct array as bench_rows gives (label, fn, cls, B, T, H, K, V,
  %   mode, C), mode 'fwd', 'fwdbwd' or 'decode' (T = 1, state in and out,
  %   timed over 200 calls); default: the rows of the goals and the decode
  %   step at H = 4 and 32 (bench_pkg_rows below).
  %
  %   R(i, j): row i, install j: sec ([median min max] seconds per call),
  %   ratio (speed of install j over the reference's, run by run: [median
  %   min max]), bits ('same bits' when every output equals the
  %   reference's, else the largest difference relative to the output's
  %   largest element).  md: the Markdown table.
  %
  %   See also: run_bench_pkg, bench_inputs.
  if (nargin < 4 || isempty (rows))
    rows = bench_pkg_rows ();
  end
  if (numel (dirs) ~= numel (names) || numel (dirs) < 2)
    error ('bench_pkg: DIRS and NAMES need one entry per install, at least two; got %d and %d', ...
           numel (dirs), numel (names));
  end
  for j = 1:numel (dirs)
    if (~exist (fullfile (dirs{j}, 'kda_chunk.m'), 'file'))
      error ('bench_pkg: DIRS{%d} has no kda_chunk.m: %s', j, dirs{j});
    end
  end
  saved = path ();
  cleanup = onCleanup (@() path (saved));
  n = numel (dirs);
  R = struct ('sec', cell (numel (rows), n), 'ratio', [], 'bits', '');
  for i = 1:numel (rows)
    s = rows(i);
    [args, in] = bench_inputs (s);
    if (strcmp (s.mode, 'decode'))
      randn ('seed', 2);
      S0 = cast (0.1 * randn (s.K, s.V, s.H, s.B), s.cls);
      args = [args, {'InitialState', S0}];
    end
    t = zeros (reps + 1, n);
    out = cell (1, n);
    for r = 1:reps + 1
      for j = circshift (1:n, [0, -(r - 1)])
        use (dirs, j, s.fn);
        y = run_row (s, in, args);                   % untimed: load, workspaces
        pause (0.25);
        t0 = tic ();
        run_row (s, in, args);
        t(r, j) = toc (t0) / calls (s);
        if (r == 1)
          out{j} = y;
        end
      end
    end
    t = t(2:end, :);
    for j = 1:n
      R(i, j).sec = [median(t(:, j)) min(t(:, j)) max(t(:, j))];
      q = t(:, 1) ./ t(:, j);
      R(i, j).ratio = [median(q) min(q) max(q)];
      R(i, j).bits = compare (out{1}, out{j});
    end
    fprintf ('%-52s', sprintf ('%s (%s):', s.label, s.cls));
    for j = 2:n
      fprintf (' %s %.3f, %s;', names{j}, R(i, j).ratio(1), R(i, j).bits);
    end
    fprintf ('\n');
  end
  md = table_md (rows, names, R, reps);
end

function rows = bench_pkg_rows ()
  r = {
    % label                                   fn              cls       T     H   KV   mode
    'forward, H = 4, K = V = 128',            'kda_chunk',     'single', 2048, 4,  128, 'fwd'
    'forward, H = 4, K = V = 64',             'kda_chunk',     'single', 2048, 4,  64,  'fwd'
    'forward, H = 1, K = V = 128',            'kda_chunk',     'single', 2048, 1,  128, 'fwd'
    'forward + backward, H = 4, K = V = 128', 'kda_chunk',     'single', 2048, 4,  128, 'fwdbwd'
    'double forward',                         'kda_chunk',     'double', 2048, 4,  128, 'fwd'
    'double forward + backward',              'kda_chunk',     'double', 2048, 4,  128, 'fwdbwd'
    'decode step, H = 4',                     'kda_recurrent', 'single', 1,    4,  128, 'decode'
    'decode step, H = 32',                    'kda_recurrent', 'single', 1,    32, 128, 'decode'
  };
  rows = struct ('label', r(:, 1), 'fn', r(:, 2), 'cls', r(:, 3), 'B', 1, 'T', r(:, 4), ...
                 'H', r(:, 5), 'K', r(:, 6), 'V', r(:, 6), 'mode', r(:, 7), 'C', 64);
end

function c = calls (s)
  c = 1;
  if (strcmp (s.mode, 'decode'))
    c = 200;
  end
end

% Install j's folder first on the path, the others off it.
function use (dirs, j, fn)
  for d = dirs(:)'
    if (~isempty (strfind ([pathsep path() pathsep], [pathsep d{1} pathsep])))
      rmpath (d{1});
    end
  end
  addpath (dirs{j});
  w = which (fn);
  if (~strncmp (w, dirs{j}, numel (dirs{j})))
    error ('bench_pkg: %s resolves to %s, not to the install in %s', fn, w, dirs{j});
  end
end

function y = run_row (s, in, args)
  fwd = str2func (s.fn);
  y = cell (1, 2);
  for c = 1:calls (s)
    [y{:}] = fwd (in{:}, args{:});
  end
  if (strcmp (s.mode, 'fwdbwd'))
    bwd = str2func ([s.fn '_bwd']);
    g = cell (1, 6);
    [g{:}] = bwd (in{:}, y{1}, y{2}, args{:});
    y = [y, g];
  end
end

function b = compare (a, c)
  if (isequal (a, c))
    b = 'same bits';
    return;
  end
  d = 0;
  for m = 1:numel (a)
    d = max (d, double (max (abs (a{m}(:) - c{m}(:)))) / max (double (max (abs (a{m}(:)))), realmin));
  end
  b = sprintf ('differ by %.1e', d);
end

function md = table_md (rows, names, R, reps)
  n = numel (names);
  md = sprintf ('| row | %s, s per call |', names{1});
  sep = '|---|---:|';
  for j = 2:n
    md = sprintf ('%s %s, s | speed vs %s | bits |', md, names{j}, names{1});
    sep = [sep '---:|---:|---|'];
  end
  md = sprintf ('%s\n%s\n', md, sep);
  for i = 1:numel (rows)
    md = sprintf ('%s| %s | %s |', md, rows(i).label, sec3 (R(i, 1).sec));
    for j = 2:n
      md = sprintf ('%s %s | %.3f (%.3f-%.3f) | %s |', md, sec3 (R(i, j).sec), R(i, j).ratio, ...
                    R(i, j).bits);
    end
    md = sprintf ('%s\n', md);
  end
  md = sprintf (['%s\nMedians (min-max) over %d interleaved runs after a warm-up; ' ...
                 'speed: the reference''s time over the install''s, run by run.\n'], md, reps);
end

function s = sec3 (t)
  s = sprintf ('%.4g (%.4g-%.4g)', t(1), t(2), t(3));
end

%!error <at least two>
%! addpath (fullfile (fileparts (which ('test_bench_goals')), '..', 'bench'));   % as run_tests runs it
%! bench_pkg ({'a'}, {'a'}, 1)
%!error <has no kda_chunk.m>
%! addpath (fullfile (fileparts (which ('test_bench_goals')), '..', 'bench'));   % as run_tests runs it
%! bench_pkg ({tempdir(), tempdir()}, {'a', 'b'}, 1)
