function T = lab_verify_calibration (root)
% LAB_VERIFY_CALIBRATION  Where correct and precision-buggy kernels sit against verify's bounds.
%
%   T = lab_verify_calibration ()
%   T = lab_verify_calibration (root)
%
%   Dumps of the independent chunked kernel of
%   validation/tests/python/torch_kernel.py (varlen, two sequences, GVA
%   H = 2, HV = 4), KDA and GDN, several seeds and sizes ('slow': K = V =
%   32, T = 512, weak gates; 'large': K = V = 64, T = 2048; 'large_slow':
%   the same with weak gates), are verified; per dump the largest and
%   smallest measured / expected error over its tensors (expected: the
%   emulated kernel's error, verify_expected) and the verdict.  Correct
%   kernels (tf32, bf16) must stay below the warn factor of
%   verify_tolerance; the bf16 running state (state16) is the precision bug
%   to flag.  Prints a Markdown table (docs/verify.md section 4 keeps the
%   numbers); T: a struct array of the rows.  root: where the dumps go (a
%   temporary folder by default).  `make verify-calibrate` runs it.

  if (nargin < 1)
    root = tempname ();
  end
  here = fileparts (mfilename ('fullpath'));
  script = fullfile (here, '..', 'tests', 'python', 'torch_kernel.py');
  cases = {};
  for op = {'kda', 'gdn'}
    for size_ = {'slow', 'large', 'large_slow'}
      for seed = 1:3
        for mode = {'tf32', 'bf16'}
          cases{end + 1} = sprintf ('%s:%s:none:%d:%s', op{1}, mode{1}, seed, size_{1});  %#ok<AGROW>
        end
      end
      cases{end + 1} = sprintf ('%s:bf16:state16:1:%s', op{1}, size_{1});  %#ok<AGROW>
    end
  end
  T = struct ('case', {}, 'verdict', {}, 'max_rel', {}, 'max_name', {}, 'min_rel', {});
  printf ('| dump | verdict | largest measured / expected | smallest |\n| --- | --- | --- | --- |\n');
  for i = 1:numel (cases)
    [status, out] = system (sprintf ('/usr/bin/python3 %s %s %s 2>&1', script, root, cases{i}));
    if (status ~= 0)
      error ('lab_verify_calibration: %s: %s', cases{i}, out);
    end
    folder = fullfile (root, strrep (cases{i}, ':', '_'));
    f = str2func ([cases{i}(1:3) '_verify']);
    [~, r] = f (folder, 'ReportDir', '');
    rel = [r.rows.ratio] ./ [r.rows.expected];
    [mx, j] = max (rel);
    T(end + 1) = struct ('case', cases{i}, 'verdict', r.verdict, 'max_rel', mx, ...
                         'max_name', r.rows(j).name, 'min_rel', min (rel));  %#ok<AGROW>
    printf ('| %s | %s | %.2f (%s) | %.2f |\n', cases{i}, r.verdict, mx, r.rows(j).name, min (rel));
    fflush (stdout);
    confirm_recursive_rmdir (false, 'local');
    rmdir (folder, 's');
  end
end
