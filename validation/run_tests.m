% RUN_TESTS  Run the Octave test blocks of the project, by tier.
%
%   run_tests ()
%   run_tests (pattern)
%   run_tests (pattern, tier)
%   [npass, nfail] = run_tests (...)
%
%   Runs Octave's test () on every octave/*.m, the octave/private/*.m that
%   hold test blocks, every validation/tests/*.m and
%   every other .m file under validation/ that holds test blocks (lines
%   starting with %!), after adding octave/, validation/lib and
%   validation/tests to the path.  With pattern (a string; '' for all),
%   only the files whose path contains it are run.
%
%   tier picks the files (default 'test'):
%     'check'  the developer's loop (make check): the files of 'test' but
%              those of check_skip below (each over about 5 s on a 2-core
%              machine; make test runs them)
%     'test'   the gate (make test): every file but validation/tests/slow/
%     'slow'   validation/tests/slow/ only (make validate): blocks split out
%              of the gate's files for their time (each file says which)
%     'all'    every file
%
%   Prints one line per file (blocks passed / total, seconds) as it goes, the
%   messages of any failed block, and then exactly one closing line
%       N passed, M failed
%   counting test blocks over all files.  Without output arguments it then
%   exits Octave with status 1 if any block failed and 0 otherwise (this is
%   what `make test-octave` relies on); with output arguments it returns the
%   counts and does not exit.
%
%   See also: test.

function [npass, nfail] = run_tests (pattern, tier)
  if (nargin < 1)
    pattern = '';
  end
  if (nargin < 2)
    tier = 'test';
  end
  if (~any (strcmp (tier, {'check', 'test', 'slow', 'all'})))
    error ('run_tests: tier must be ''check'', ''test'', ''slow'' or ''all'', not ''%s''', tier);
  end
  here = fileparts (mfilename ('fullpath'));
  root = fileparts (here);
  addpath (fullfile (root, 'octave'));
  addpath (fullfile (here, 'lib'));
  addpath (fullfile (here, 'tests'));
  % the test build of the MEX (make testing): la_mex_testing's instruments
  addpath (fullfile (root, 'build', 'testing'));

  files = [list_m(fullfile (root, 'octave'), false); ...
           list_m(fullfile (here, 'tests'), false)];
  % the private functions' own test blocks (test () runs a private file
  % given by its path)
  priv = list_m (fullfile (root, 'octave', 'private'), false);
  files = [files; priv(cellfun (@has_tests, priv))];
  % any other file under validation/ with test blocks
  others = list_m (here, true);
  for i = 1:numel (others)
    f = others{i};
    if (~any (strcmp (f, files)) && has_tests (f))
      files{end + 1, 1} = f;
    end
  end
  if (~isempty (pattern))
    files = files(~cellfun (@isempty, strfind (files, pattern)));
  end
  slow = ~cellfun (@isempty, strfind (files, [filesep 'tests' filesep 'slow' filesep]));
  switch (tier)
    case 'check'
      rel = cellfun (@(f) f(numel (root) + 2:end), files, 'UniformOutput', false);
      files = files(~slow & ~ismember (rel, check_skip ()));
    case 'test'
      files = files(~slow);
    case 'slow'
      files = files(slow);
  end

  npass = 0;
  nfail = 0;
  t_all = tic ();
  for i = 1:numel (files)
    f = files{i};
    rel = f(numel (root) + 2:end);
    fprintf ('%-44s ', rel);
    fflush (stdout);
    logf = [tempname() '.log'];
    fid = fopen (logf, 'wt');
    t0 = tic ();
    back = pwd ();
    try
      if (strcmp (fileparts (f), fullfile (root, 'octave', 'private')))
        cd (fileparts (f));   % a private function is callable from its own folder
      end
      [n, nmax] = test (f, 'quiet', fid);
    catch err
      n = 0;
      nmax = 1;
      fprintf (fid, '!!!!! test () itself failed: %s\n', err.message);
    end
    cd (back);
    dt = toc (t0);
    fclose (fid);
    fprintf ('%4d/%-4d passed  %6.1f s\n', n, nmax, dt);
    if (n < nmax)
      txt = fileread (logf);
      % drop the ">>>>> processing" header line of test ()
      txt = regexprep (txt, '^>>>>> processing[^\n]*\n', '');
      fprintf ('%s\n', txt);
    end
    delete (logf);
    npass = npass + n;
    nfail = nfail + (nmax - n);
  end
  fprintf ('(%d files, %.1f s)\n', numel (files), toc (t_all));
  fprintf ('%d passed, %d failed\n', npass, nfail);
  fflush (stdout);
  if (nargout == 0)
    exit (double (nfail > 0));
  end
end

function c = list_m (d, recursive)
  % sorted full paths of the .m files in folder d (and below if recursive)
  c = cell (0, 1);
  if (~exist (d, 'dir'))
    return;
  end
  e = dir (d);
  names = sort ({e.name});
  for i = 1:numel (names)
    nm = names{i};
    if (nm(1) == '.')
      continue;
    end
    p = fullfile (d, nm);
    if (exist (p, 'dir'))
      if (recursive)
        c = [c; list_m(p, true)];
      end
    elseif (numel (nm) > 2 && strcmp (nm(end-1:end), '.m'))
      c{end + 1, 1} = p;
    end
  end
end

function tf = has_tests (f)
  txt = fileread (f);
  tf = ~isempty (regexp (txt, '(^|\n)%!', 'once'));
end

function c = check_skip ()
  % the gate's files that make check leaves out for their time (each over
  % about 5 s on a 2-core machine); make test runs them
  c = {'validation/tests/test_chunk_bwd.m', 'validation/tests/test_emulate.m', ...
       'validation/tests/test_examples.m', 'validation/tests/test_gateway_args.m', ...
       'validation/tests/test_hostile_files.m', 'validation/tests/test_out_of_memory.m', ...
       'validation/tests/test_recurrent_bwd.m', 'validation/tests/test_tensor_files.m', ...
       'validation/tests/test_verify.m', 'validation/tests/test_verify_kernels.m', ...
       'validation/tests/test_verify_decode_local.m', 'validation/tests/test_verify_qgkg.m'};
end
