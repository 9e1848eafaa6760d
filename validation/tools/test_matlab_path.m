function [npass, nfail] = test_matlab_path (scratch, root)
% TEST_MATLAB_PATH  Test the MEX that build_mex.m builds (make test-matlab-path).
%
%   test_matlab_path (scratch, root)
%   [npass, nfail] = test_matlab_path (...)
%
%   scratch: a folder whose octave/ holds copies of the repository's
%   octave/*.m and octave/private/*.m and the MEX files written there by
%   build_mex ('OutDir', fullfile (scratch, 'octave', 'private')): the
%   build MATLAB users get (BLAS only, no libxsmm, no zlib, -O2), made
%   under Octave with mkoctfile, and scratch/testing its test build
%   (build_mex ('Testing', true, ...)).  root: the repository.
%
%   Puts scratch/octave on the path (and takes the repository's octave/
%   off it), checks that the public functions resolve there, then runs
%   - the test blocks of every function of scratch/octave (the copies);
%   - validation/tests' test_chunk_fwd, test_chunk_bwd, test_recurrent_fwd,
%     test_recurrent_bwd, test_decode, test_decode_pool;
%   - the tensor files without zlib: .npy, .safetensors and stored .npz
%     written and read back; a stored .npz written here read by numpy
%     (whose zipfile checks the CRC-32 the MEX computed in C); numpy's
%     savez and savez_compressed read here: the stored one reads, the
%     deflated one, and la_save (..., 'Compress', true), fail with
%     la:badFile and the documented reason ("built without it",
%     docs/matlab.md).
%   A test block that fails only because it needs zlib (its message is that
%   same documented refusal) is counted apart, not as a pass.  Prints one
%   line per file and the closing line  N passed, M failed.  Without output
%   arguments, exits Octave with status 1 if anything failed.

  here = fileparts (mfilename ('fullpath'));
  if (nargin < 2)
    root = fileparts (fileparts (here));
  end
  oct = fullfile (scratch, 'octave');
  repo_oct = fullfile (root, 'octave');
  if (any (strcmp (strsplit (path (), pathsep ()), repo_oct)))
    rmpath (repo_oct);
  end
  addpath (fullfile (root, 'validation', 'lib'));
  addpath (fullfile (root, 'validation', 'tests'));
  addpath (oct);
  % its test build (build_mex ('Testing', true)): the instruments that some
  % test blocks call through la_mex_testing
  addpath (fullfile (scratch, 'testing'));

  npass = 0;  nfail = 0;  nzlib = 0;
  % the build under test is the one found
  [npass, nfail] = tally (npass, nfail, 'kda_chunk resolves to the scratch copy', ...
                          strcmp (which ('kda_chunk'), fullfile (oct, 'kda_chunk.m')));
  [npass, nfail] = tally (npass, nfail, 'kda_recurrent resolves to the scratch MEX', ...
                          strcmp (which ('kda_recurrent'), fullfile (oct, ['kda_recurrent.' mexext()])));

  d = dir (fullfile (oct, '*.m'));
  files = cellfun (@(f) fullfile (oct, f), sort ({d.name}), 'UniformOutput', false);
  for t = {'test_chunk_fwd', 'test_chunk_bwd', 'test_recurrent_fwd', 'test_recurrent_bwd', ...
           'test_decode', 'test_decode_pool'}
    files{end + 1} = fullfile (root, 'validation', 'tests', [t{1} '.m']);
  end
  for i = 1:numel (files)
    [n, nmax, nz, msg] = run_file (files{i});
    if (nmax == 0)
      continue;
    end
    note = '';
    if (nz > 0)
      note = sprintf (', %d need zlib (refused as documented)', nz);
    end
    fprintf ('%-44s %4d/%-4d passed%s\n', name_of (files{i}, scratch, root), n, nmax, note);
    if (n + nz < nmax)
      fprintf ('%s\n', msg);
    end
    npass = npass + n;
    nfail = nfail + (nmax - n - nz);
    nzlib = nzlib + nz;
  end
  [npass, nfail] = files_without_zlib (npass, nfail);

  fprintf ('(%d test blocks need zlib and were refused with the documented error)\n', nzlib);
  fprintf ('%d passed, %d failed\n', npass, nfail);
  if (nargout == 0 && ~isguirunning ())
    exit (nfail > 0);
  end
end

function [n, nmax, nz, msg] = run_file (f)
  % test () on one file; nz: failed blocks whose message is the no-zlib refusal
  logf = [tempname() '.log'];
  fid = fopen (logf, 'wt');
  try
    [n, nmax] = test (f, 'quiet', fid);
  catch err
    n = 0;  nmax = 1;
    fprintf (fid, '!!!!! test () itself failed: %s\n', err.message);
  end
  fclose (fid);
  msg = fileread (logf);
  delete (logf);
  parts = strsplit (msg, '!!!!! ');
  nz = sum (~cellfun (@isempty, strfind (parts(2:end), 'this MEX file was built without it')));
end

function s = name_of (f, scratch, root)
  s = strrep (strrep (f, [scratch filesep()], '(build) '), [root filesep()], '');
end

function [npass, nfail] = files_without_zlib (npass, nfail)
  t = tempname ();
  mkdir (t);
  c = onCleanup (@() remove_dir (t));
  a = reshape (single (1:6) / 7, 2, 3);
  s = struct ('a', a, 'i', int32 ([-2; 7]));
  [npass, nfail] = tally (npass, nfail, '.npy written and read back', ...
                          isequal (la_load (la_save (fullfile (t, 'a.npy'), a)).a, a));
  [npass, nfail] = tally (npass, nfail, '.safetensors written and read back', ...
                          isequal (la_load (la_save (fullfile (t, 's.safetensors'), s)), s));
  [npass, nfail] = tally (npass, nfail, 'stored .npz written and read back', ...
                          isequal (la_load (la_save (fullfile (t, 's.npz'), s)), s));
  % numpy reads the stored .npz written here (zipfile checks each CRC-32)
  py = sprintf (['import numpy as np, sys; z = np.load (sys.argv[1]); ' ...
                 'ok = z["a"].dtype == np.float32 and z["a"].shape == (2, 3) and ' ...
                 'abs (z["a"][1, 2] - 6 / 7) < 1e-6 and list (z["i"]) == [-2, 7]; ' ...
                 'np.savez (sys.argv[2], a=np.arange (6.0)); ' ...
                 'np.savez_compressed (sys.argv[3], a=np.arange (6.0)); print ("ok" if ok else "differs")']);
  [st, out] = system (sprintf ('/usr/bin/python3 -c ''%s'' %s %s %s 2>&1', py, fullfile (t, 's.npz'), ...
                               fullfile (t, 'np_stored.npz'), fullfile (t, 'np_deflated.npz')));
  [npass, nfail] = tally (npass, nfail, 'numpy reads the stored .npz (CRC-32 in C)', ...
                          st == 0 && strcmp (strtrim (out), 'ok'), out);
  if (st ~= 0)
    return;
  end
  [npass, nfail] = tally (npass, nfail, 'numpy''s savez (stored) read', ...
                          isequal (la_load (fullfile (t, 'np_stored.npz')).a, (0:5)'));
  [npass, nfail] = refused (npass, nfail, 'numpy''s savez_compressed (deflated) refused', ...
                            @() la_load (fullfile (t, 'np_deflated.npz')), 'la_load: ');
  [npass, nfail] = refused (npass, nfail, 'la_save (..., ''Compress'', true) refused', ...
                            @() la_save (fullfile (t, 'c.npz'), s, 'Compress', true), 'la_save: ');
end

function remove_dir (t)
  confirm_recursive_rmdir (false, 'local');
  rmdir (t, 's');
end

function [npass, nfail] = refused (npass, nfail, what, fn, prefix)
  % fn must fail with la:badFile, its function's name first, and the reason
  try
    fn ();
    ok = false;  msg = 'no error';
  catch err
    msg = err.message;
    ok = strcmp (err.identifier, 'la:badFile') && strncmp (msg, prefix, numel (prefix)) ...
         && ~isempty (strfind (msg, 'this MEX file was built without it'));
  end
  [npass, nfail] = tally (npass, nfail, what, ok, msg);
end

function [npass, nfail] = tally (npass, nfail, what, ok, detail)
  if (ok)
    npass = npass + 1;
    fprintf ('%-44s passed\n', what);
  else
    nfail = nfail + 1;
    if (nargin < 5)
      detail = '';
    end
    fprintf ('%-44s FAILED %s\n', what, strtrim (detail));
  end
end
