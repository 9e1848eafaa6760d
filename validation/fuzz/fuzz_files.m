function n_bad = fuzz_files (varargin)
  % FUZZ_FILES  Randomly damaged tensor files through la_load (make fuzz-files).
  %
  %   n_bad = fuzz_files ('Seed', s, 'Count', n, 'TimeLimit', seconds, 'OutDir', dir,
  %                       'Formats', {'.npy', '.npz', '.safetensors', '.mat', '.json'})
  %
  %   Starts from valid files of each format in Formats (default all:
  %   la_save's .npy, .npz stored and deflated, .safetensors; the .mat
  %   files of fuzz_mat_seeds; meta.json text), then damages each
  %   copy at random: bytes flipped, cut, duplicated or inserted, header
  %   numbers (lengths, sizes, offsets, counts) set to extremes, JSON
  %   punctuation repeated.  Each damaged file must either read or raise
  %   'la:badFile' whose text starts with 'la_load: ' (JSON: the parser's
  %   own error) within 10 s; anything else (another identifier, a crash of
  %   the process, a hang) is a failure, whose file is kept in OutDir as
  %   bad_SEED_I.EXT.  Prints how many were read, refused and failed;
  %   returns the number of failures.

  opt = struct ('Seed', 1, 'Count', 2000, 'TimeLimit', 600, 'OutDir', 'build/fuzz-files', ...
                'Formats', {{'.npy', '.npz', '.safetensors', '.mat', '.json'}});
  for i = 1:2:numel (varargin)
    opt.(varargin{i}) = varargin{i + 1};
  end
  here = fileparts (mfilename ('fullpath'));
  addpath (fullfile (here, '..', '..', 'octave'));
  if (~exist (opt.OutDir, 'dir'))
    mkdir (opt.OutDir);
  end
  rand ('seed', opt.Seed);  randn ('seed', opt.Seed);
  d = tempname ();
  mkdir (d);
  s = struct ('q', single (randn (2, 3, 4)), 'i', int64 ([1; -2; 3]), 'b', [true; false]);
  s.("do") = randn (1, 5);
  seeds = {la_save(fullfile (d, 'x.npy'), single (randn (3, 4))), ...
           la_save(fullfile (d, 'x.npz'), s), ...
           la_save(fullfile (d, 'z.npz'), s, 'Compress', true), ...
           la_save(fullfile (d, 'x.safetensors'), s, 'bfloat16'), ...
           fuzz_mat_seeds(d){:}};
  [~, ~, exts] = cellfun (@fileparts, seeds, 'UniformOutput', false);
  seeds = seeds(ismember (exts, opt.Formats));
  with_json = any (strcmp (opt.Formats, '.json'));
  base = cellfun (@read_bytes, seeds, 'UniformOutput', false);
  json = uint8 ('{"chunk_size": 64, "scale": 0.125, "cu_seqlens": [0, 5, 9], "dtype": "bfloat16", "x": {"a": [true, null]}}');
  n_bad = 0;
  n_read = 0;
  t0 = tic ();
  for i = 1:opt.Count
    if (toc (t0) > opt.TimeLimit)
      break;
    end
    k = randi (numel (seeds) + with_json);
    if (k > numel (seeds))
      bytes = damage (json);
      [~, ext] = deal ([], '.json');
    else
      bytes = damage (base{k});
      [~, ~, ext] = fileparts (seeds{k});
    end
    f = fullfile (d, ['f' ext]);
    fid = fopen (f, 'w');  fwrite (fid, bytes, 'uint8');  fclose (fid);
    t1 = tic ();
    ok = true;
    try
      if (strcmp (ext, '.json'))
        la_json_check (bytes);
      else
        la_load (f);
      end
      n_read = n_read + 1;
    catch err
      ok = strcmp (err.identifier, 'la:badFile') && strncmp (err.message, 'la_load: ', 9);
      if (~ok)
        fprintf ('fuzz_files: case %d (%s): %s: %s\n', i, ext, err.identifier, err.message);
      end
    end
    if (toc (t1) > 10)
      fprintf ('fuzz_files: case %d (%s) took %.1f s\n', i, ext, toc (t1));
      ok = false;
    end
    if (~ok)
      n_bad = n_bad + 1;
      copyfile (f, fullfile (opt.OutDir, sprintf ('bad_%d_%d%s', opt.Seed, i, ext)));
    end
  end
  confirm_recursive_rmdir (false);
  rmdir (d, 's');
  fprintf ('fuzz_files: %d damaged files (seed %d) in %.0f s: %d read, %d refused, %d failure(s)\n', ...
           i, opt.Seed, toc (t0), n_read, i - n_read - n_bad, n_bad);
  if (n_bad > 0)
    error ('fuzz_files: %d failure(s), files in %s', n_bad, opt.OutDir);
  end
end

function la_json_check (bytes)
  % meta.json's reader: the bounded parser through kda_verify's folder read
  d = tempname ();
  mkdir (d);
  c = onCleanup (@() rmdir_quiet (d));
  fid = fopen (fullfile (d, 'meta.json'), 'w');  fwrite (fid, bytes, 'uint8');  fclose (fid);
  try
    kda_verify (d);
  catch err
    if (strcmp (err.identifier, 'la:badFile') && strncmp (err.message, 'kda_verify: ', 12))
      error ('la:badFile', 'la_load: %s', err.message);   % an expected refusal
    elseif (any (strcmp (err.identifier, {'kda:badOption', 'la:badFile'})))
      error ('la:badFile', 'la_load: %s', err.message);   % read, then judged
    end
    rethrow (err);
  end
end

function rmdir_quiet (d)
  confirm_recursive_rmdir (false);
  rmdir (d, 's');
end

function b = read_bytes (f)
  fid = fopen (f);
  b = fread (fid, Inf, 'uint8=>uint8')';
  fclose (fid);
end

function b = damage (b)
  % one to three random damages
  for r = 1:randi (3)
    n = numel (b);
    switch (randi (7))
      case 1                              % flip bytes
        p = randi (max (n, 1), 1, randi (8));
        b(p) = uint8 (randi ([0 255], size (p)));
      case 2                              % cut
        b = b(1:randi ([0 n]));
      case 3                              % duplicate a slice
        p = randi (max (n, 1));  q = min (n, p + randi (64));
        b = [b(1:p), b(p:q), b(p + 1:end)];
      case 4                              % extreme little-endian number
        p = randi (max (n - 8, 1));
        v = [0 1 255 65535 2^31 2^32 - 1 2^53 2^63];
        b(p:min (n, p + 7)) = typecast (uint64 (v(randi (numel (v)))), 'uint8')(1:min (8, n - p + 1));
      case 5                              % insert punctuation runs
        c = '[{(,:"';
        p = randi (max (n, 1));
        b = [b(1:p), uint8(repmat (c(randi (numel (c))), 1, randi (3000))), b(p + 1:end)];
      case 6                              % digits changed
        dig = find (b >= 48 & b <= 57);
        if (~isempty (dig))
          b(dig(randi (numel (dig)))) = uint8 ('0' + randi ([0 9]));
        end
      case 7                              % bytes appended
        b = [b, uint8(randi ([0 255], 1, randi (100)))];
    end
  end
end
