function T = lab_verify_calibration (root, pattern)
% LAB_VERIFY_CALIBRATION  Where correct and precision-buggy kernels sit against verify's bounds.
%
%   T = lab_verify_calibration ()
%   T = lab_verify_calibration (root)
%
%   Dumps of the independent chunked kernel of
%   validation/tests/python/torch_kernel.py (varlen, two sequences, GVA),
%   KDA and GDN, tf32 and bf16, seeds 1-3 at the sizes 'small' (K = V =
%   16, T = 97), 'slow' (K = V = 32, T = 512, weak gates), 'large' (K = V
%   = 64, T = 2048), 'large_slow' (the same with weak gates), and one seed
%   at 'long' (T = 8192, H = 4, HV = 8) and 'heads' (H = 16, HV = 32), and
%   at dump scale seeds 1-2 at 'long32k' (T = 32768 in two sequences, H =
%   HV = 4, K = V = 64) and 'serving' (T = 8192, H = HV = 32, K = V = 128;
%   kda_verify slices these by heads), are verified; per dump the largest and smallest measured / expected error
%   over its tensors (expected: the emulated kernel's error,
%   verify_expected), the largest local score (verify_local: a window's
%   error over the emulated kernel's there) and the verdict.  Correct
%   kernels must stay below the warn factor of verify_tolerance and the
%   local warn bound of verify_local; the bf16 running state (state16) is
%   the precision bug to flag, gate1 (one step of one head ungated) the
%   local bug.  Prints a Markdown table (docs/verify.md section 4 keeps the
%   numbers); T: a struct array of the rows.  root: where the dumps go (a
%   temporary folder by default); pattern: a regular expression choosing
%   the cases.  `make verify-calibrate` runs it all; `make
%   verify-calibrate-scale` the dump-scale cases alone (an hour or more on
%   2 cores, several GB of memory).

  if (nargin < 1 || isempty (root))
    root = tempname ();
  end
  here = fileparts (mfilename ('fullpath'));
  script = fullfile (here, '..', 'tests', 'python', 'torch_kernel.py');
  cases = {};
  for op = {'kda', 'gdn'}
    for size_ = {'small', 'slow', 'large', 'large_slow'}
      for seed = 1:3
        for mode = {'tf32', 'bf16'}
          cases{end + 1} = sprintf ('%s:%s:none:%d:%s', op{1}, mode{1}, seed, size_{1});  %#ok<AGROW>
        end
      end
      cases{end + 1} = sprintf ('%s:bf16:state16:1:%s', op{1}, size_{1});  %#ok<AGROW>
    end
    for size_ = {'long', 'heads'}               % many windows: T = 8192; 32 heads
      for mode = {'tf32', 'bf16'}
        cases{end + 1} = sprintf ('%s:%s:none:4:%s', op{1}, mode{1}, size_{1});  %#ok<AGROW>
      end
    end
    cases{end + 1} = sprintf ('%s:bf16:gate1:1', op{1});   % a local bug: caught  %#ok<AGROW>
    for size_ = {'long32k', 'serving'}         % dump scale: T = 32768; 32 heads, K = V = 128
      for seed = 1:2
        for mode = {'tf32', 'bf16'}
          cases{end + 1} = sprintf ('%s:%s:none:%d:%s', op{1}, mode{1}, seed, size_{1});  %#ok<AGROW>
        end
      end
    end
  end
  if (nargin > 1)
    cases = cases(~cellfun (@isempty, regexp (cases, pattern)));
  end
  T = struct ('case', {}, 'verdict', {}, 'max_rel', {}, 'max_name', {}, 'min_rel', {}, ...
              'local', {}, 'local_name', {}, 'seconds', {});
  printf (['| dump | verdict | largest measured / expected | smallest | largest local score ' ...
           '| seconds |\n| --- | --- | --- | --- | --- | --- |\n']);
  for i = 1:numel (cases)
    [status, out] = system (sprintf ('/usr/bin/python3 "%s" "%s" %s 2>&1', script, root, cases{i}));
    if (status ~= 0)
      error ('lab_verify_calibration: %s: %s', cases{i}, out);
    end
    folder = fullfile (root, strrep (cases{i}, ':', '_'));
    f = str2func ([cases{i}(1:3) '_verify']);
    t0 = tic ();
    [~, r] = f (folder, 'ReportDir', '');
    rel = [r.rows.ratio] ./ [r.rows.expected];
    [mx, j] = max (rel);
    [lx, k] = max ([r.rows.local]);
    T(end + 1) = struct ('case', cases{i}, 'verdict', r.verdict, 'max_rel', mx, ...
                         'max_name', r.rows(j).name, 'min_rel', min (rel), 'local', lx, ...
                         'local_name', r.rows(k).name, 'seconds', toc (t0));  %#ok<AGROW>
    printf ('| %s | %s | %.2f (%s) | %.2f | %.2f (%s) | %.0f |\n', cases{i}, r.verdict, mx, ...
            r.rows(j).name, min (rel), lx, r.rows(k).name, T(end).seconds);
    fflush (stdout);
    confirm_recursive_rmdir (false, 'local');
    rmdir (folder, 's');
  end
end
