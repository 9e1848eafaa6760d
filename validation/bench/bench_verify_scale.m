function r = bench_verify_scale (T, H, K, varargin)
  % BENCH_VERIFY_SCALE  kda_verify on a dump of a given size: its time and peak memory.
  %
  %   r = bench_verify_scale (T, H, K)
  %   r = bench_verify_scale (T, H, K, 'Folder', dir, 'Keep', false)
  %
  %   Writes a KDA dump of B = 1, T steps, H heads, K = V as a kernel's
  %   harness would (.npy files in FLA's layout, bfloat16, meta.json): the
  %   inputs q, k, v, g, beta, the output o, and the backward's do with the
  %   gradients dq, dk, dv, dg, dbeta (this library's single-precision
  %   results standing for the kernel's, so the dump passes).  Then, each
  %   in an Octave of its own started for it (so its peak resident memory
  %   is the job's alone, read from /proc/self/status VmHWM at its end):
  %     octave   an Octave with the functions on its path, doing nothing
  %     verify   [ok, report] = kda_verify (folder)
  %     recompute  the bare double recomputation of the same problem:
  %              kda_chunk, then kda_chunk_bwd, in double
  %   r: dump_bytes, and per job sec (wall seconds inside its Octave) and
  %   rss (peak resident bytes); verify_ok; md, a Markdown row.  The
  %   issue's goals (docs/performance.md): verify's peak above Octave's
  %   own at most 6 times the dump, its time at most 3 times recompute's.
  %   'Folder': where to write the dump (default a temporary folder,
  %   removed after unless 'Keep' is true).
  %
  %   See also: kda_verify, la_save, run_bench.
  opt = struct ('Folder', '', 'Keep', false, 'Jobs', {{'octave', 'verify', 'recompute'}});
  for i = 1:2:numel (varargin)
    opt.(varargin{i}) = varargin{i+1};
  end
  if (isempty (opt.Folder))
    opt.Folder = tempname ();
  end
  root = fileparts (fileparts (fileparts (mfilename ('fullpath'))));
  octdir = fullfile (root, 'octave');
  mkdir (opt.Folder);
  r.dump_bytes = write_dump (opt.Folder, T, H, K);
  verify = sprintf ('[ok, rep] = kda_verify (''%s''); printf (''OK %%d\\n'', ok);', opt.Folder);
  recompute = sprintf (['randn (''seed'', 1); K = %d; T = %d; H = %d; ' ...
                        'q = randn (K, T, H); k = randn (K, T, H); k = k ./ sqrt (sum (k .^ 2, 1)); ' ...
                        'v = randn (K, T, H); g = -rand (K, T, H) / 4; beta = rand (T, H); ' ...
                        '[o, S] = kda_chunk (q, k, v, g, beta); ' ...
                        '[dq, dk, dv, dg, db] = kda_chunk_bwd (q, k, v, g, beta, randn (size (o)), zeros (size (S)));'], ...
                       K, T, H);
  jobs = {'octave', ''; 'verify', verify; 'recompute', recompute};
  jobs = jobs(ismember (jobs(:, 1), opt.Jobs), :);
  if (isempty (jobs))
    r.md = '';
    return;
  end
  for j = 1:rows (jobs)
    cmd = sprintf (['addpath (''%s''); t0 = tic (); %s printf (''SEC %%.3f\\n'', toc (t0)); ' ...
                    's = fileread (''/proc/self/status''); ' ...
                    'printf (''HWM %%s\\n'', regexp (s, ''VmHWM:\\s*(\\d+)'', ''tokens'', ''once''){1});'], ...
                   octdir, jobs{j, 2});
    [st, out] = system (sprintf ('octave --no-gui --no-window-system --quiet --norc --eval "%s" 2>&1', cmd));
    sec = regexp (out, 'SEC ([\d.]+)', 'tokens', 'once');
    hwm = regexp (out, 'HWM (\d+)', 'tokens', 'once');
    if (st ~= 0 || isempty (sec) || isempty (hwm))
      error ('bench_verify_scale: the %s job failed (%d):\n%s', jobs{j, 1}, st, out);
    end
    r.(jobs{j, 1}) = struct ('sec', str2double (sec{1}), 'rss', 1024 * str2double (hwm{1}));
    if (strcmp (jobs{j, 1}, 'verify'))
      r.verify_ok = ~isempty (strfind (out, 'OK 1'));
    end
  end
  if (~opt.Keep)
    confirm_recursive_rmdir (false, 'local');
    rmdir (opt.Folder, 's');
  end
  above = r.verify.rss - r.octave.rss;
  verdict = 'passed';
  if (~r.verify_ok)
    verdict = 'FAILED';
  end
  r.md = sprintf (['| %d | %d | %d | %.0f MB | %s | %.1f s | %.1f s (%.1fx) | %.2f GB above ' ...
                   'Octave''s %.0f MB (%.1fx the dump) |\n'], T, H, K, r.dump_bytes / 1e6, ...
                  verdict, r.recompute.sec, r.verify.sec, ...
                  r.verify.sec / r.recompute.sec, above / 1e9, r.octave.rss / 1e6, ...
                  above / r.dump_bytes);
end

% The dump: this library's single-precision forward and backward, saved
% in bfloat16 in FLA's layout; returns the bytes written.
function bytes = write_dump (folder, T, H, K)
  randn ('seed', 1);  rand ('seed', 1);
  q = single (randn (K, T, H));
  k = single (randn (K, T, H));  k = k ./ sqrt (sum (k .^ 2, 1));
  v = single (randn (K, T, H));
  g = single (-rand (K, T, H) / 4);
  beta = single (rand (T, H));
  [o, S] = kda_chunk (q, k, v, g, beta);
  dO = single (randn (size (o)));
  [dq, dk, dv, dg, db] = kda_chunk_bwd (q, k, v, g, beta, dO, zeros (size (S), 'single'));
  names = {'q', q; 'k', k; 'v', v; 'g', g; 'beta', beta; 'o', o; 'do', dO; ...
           'dq', dq; 'dk', dk; 'dv', dv; 'dg', dg; 'dbeta', db};
  bytes = 0;
  for i = 1:rows (names)
    f = fullfile (folder, [names{i, 1} '.npy']);
    la_save (f, la_to_fla (names{i, 1}, names{i, 2}), 'bfloat16');
    d = dir (f);
    bytes = bytes + d.bytes;
  end
  fid = fopen (fullfile (folder, 'meta.json'), 'w');
  fprintf (fid, '{"dtype": "bfloat16", "chunk_size": 64}');
  fclose (fid);
end
