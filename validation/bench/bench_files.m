function md = bench_files (varargin)
  % BENCH_FILES  la_save / la_load beside numpy on one 34 MB tensor (make bench).
  %
  %   md = bench_files ()
  %   md = bench_files ('Reps', 3, 'Out', file)
  %
  %   One float32 tensor [1, 4096, 16, 128] (33.6 MB, normal random values,
  %   so deflate finds little to squeeze, as in a real dump) written and
  %   read as .npy, .npz stored (numpy's savez), .npz deflated
  %   (savez_compressed) and .safetensors, by la_save / la_load and by numpy
  %   (/usr/bin/python3: np.save / np.load, savez, savez_compressed; numpy
  %   has no safetensors writer).  Each cell is the median of Reps runs,
  %   both sides timed inside their own process (no interpreter start-up),
  %   the two alternating per format.  The files go to a temporary folder;
  %   the page cache makes reads memory-bound.  A second table times the
  %   same tensor as .mat (Octave's save -v7 and -v6): Octave's load
  %   beside la_load, which reads the file itself in C, never through load
  %   (mex/files/la_files_mat.c).
  %   Returns (and prints) Markdown tables; 'Out' also writes them to a file.

  opt = struct ('Reps', 3, 'Out', '');
  for i = 1:2:numel (varargin)
    opt.(varargin{i}) = varargin{i + 1};
  end
  shape = [1, 4096, 16, 128];
  mb = prod (shape) * 4 / 1e6;
  d = tempname ();
  mkdir (d);
  cleanup = onCleanup (@() confirm_recursive_rmdir (false) || rmdir (d, 's'));
  x = single (randn (shape));
  la_save (fullfile (d, 'x.npy'), x);            % numpy reads the same values
  cases = {'.npy', {}, 'npy'; '.npz', {}, 'savez'; '.npz', {'Compress', true}, 'savez_compressed'; ...
           '.safetensors', {}, ''};
  lines = {};
  for c = 1:rows (cases)
    f = fullfile (d, ['t' cases{c, 1}]);
    tw = zeros (1, opt.Reps);
    tr = tw;
    pw = NaN (1, opt.Reps);
    pr = pw;
    for r = 1:opt.Reps
      t0 = tic ();  la_save (f, struct ('x', x), cases{c, 2}{:});  tw(r) = toc (t0);
      t0 = tic ();  s = la_load (f);  tr(r) = toc (t0);
      v = struct2cell (s);
      assert (isequal (v{1}, x));
      if (~isempty (cases{c, 3}))
        [pw(r), pr(r)] = numpy_time (d, cases{c, 3});
      end
    end
    label = cases{c, 1};
    if (~isempty (cases{c, 2}))
      label = [label ' deflated'];
    elseif (strcmp (label, '.npz'))
      label = [label ' stored'];
    end
    lines{end + 1} = sprintf ('| %s | %.2f | %.0f | %.2f | %.0f | %s | %s |', label, ...
                              median (tw), mb / median (tw), median (tr), mb / median (tr), ...
                              cell_str (median (pw), mb), cell_str (median (pr), mb));
  end
  md = sprintf (['\n### Tensor files: one float32 tensor of %.1f MB (median of %d, seconds and MB/s)\n\n' ...
                 '| format | la_save s | MB/s | la_load s | MB/s | numpy save s (MB/s) | numpy load s (MB/s) |\n' ...
                 '|---|---:|---:|---:|---:|---:|---:|\n%s\n'], mb, opt.Reps, strjoin (lines, "\n"));
  md = [md, mat_table(d, x, mb, opt.Reps)];
  fprintf ('%s', md);
  if (~isempty (opt.Out))
    fid = fopen (opt.Out, 'w');
    fprintf (fid, '# Tensor files\n\nWritten by `make bench` (`validation/bench/bench_files.m`) on %s; load average %s.\n%s', ...
             datestr (now ()), strtrim (fileread ('/proc/loadavg')), md);
    fclose (fid);
  end
end

function md = mat_table (d, x, mb, reps)
  % load and la_load of one .mat, alternating
  lines = {};
  for v = {'-v7', '-v6'}
    f = fullfile (d, ['m' v{1} '.mat']);
    save (v{1}, f, 'x');
    info = dir (f);
    tl = zeros (1, reps);
    tc = tl;
    for r = 1:reps
      t0 = tic ();  s = load ('-mat', f);  tl(r) = toc (t0);
      t0 = tic ();  s = la_load (f);  tc(r) = toc (t0);
      assert (isequal (s.x, x));
    end
    lines{end + 1} = sprintf ('| save %s | %.1f | %.2f | %.2f | %+.2f |', v{1}, info.bytes / 1e6, ...
                              median (tl), median (tc), median (tc) - median (tl));
  end
  md = sprintf (['\n### .mat: Octave''s load and la_load (its own reader in C) on the same %.1f MB tensor (median of %d, seconds)\n\n' ...
                 '| file | MB on disk | load s | la_load s | la_load - load s |\n|---|---:|---:|---:|---:|\n%s\n'], ...
                mb, reps, strjoin (lines, "\n"));
end

function [tw, tr] = numpy_time (d, how)
  % numpy's own write and read of the same array, timed in Python
  py = ['import numpy as np, sys, time; d = sys.argv[1]; x = np.load(d + "/x.npy"); ' ...
        'how = sys.argv[2]; f = d + ("/p.npy" if how == "npy" else "/p.npz"); ' ...
        't = time.perf_counter(); ' ...
        'np.save(f, x) if how == "npy" else getattr(np, how)(f, x=x); ' ...
        'tw = time.perf_counter() - t; t = time.perf_counter(); ' ...
        'y = np.load(f) if how == "npy" else np.load(f)["x"]; ' ...
        'tr = time.perf_counter() - t; assert (y == x).all(); print(tw, tr)'];
  [status, out] = system (sprintf ('/usr/bin/python3 -c ''%s'' %s %s', py, d, how));
  if (status ~= 0)
    tw = NaN;
    tr = NaN;
  else
    v = sscanf (out, '%f');
    tw = v(1);
    tr = v(2);
  end
end

function s = cell_str (t, mb)
  if (isnan (t))
    s = 'n/a';
  else
    s = sprintf ('%.2f (%.0f)', t, mb / t);
  end
end
