% ENGINE_DUMPS  Decode dumps written by python/engine_decode.py (tests' helper).
%
%   [root, cleanup] = engine_dumps (cases)
%
%   Runs validation/tests/python/engine_decode.py (torch, independent of
%   this library) for the cases (a cell of its case names) into a new
%   temporary folder root, removed when cleanup is cleared.  Without
%   python3-torch: root = '' and a warning (the caller skips).

function [root, cleanup] = engine_dumps (cases)
  root = '';
  cleanup = [];
  [st, ~] = system ('/usr/bin/python3 -c "import torch" 2>&1');
  if (st ~= 0)
    warning ('engine_dumps: python3-torch is missing, the test is skipped');
    return;
  end
  root = tempname ();
  cleanup = onCleanup (@() confirm_recursive_rmdir (false, 'local') || rmdir (root, 's'));
  here = fileparts (mfilename ('fullpath'));
  [st, out] = system (sprintf ('/usr/bin/python3 "%s" "%s" %s 2>&1', ...
                      fullfile (here, 'python', 'engine_decode.py'), root, strjoin (cases, ' ')));
  assert (st == 0, '%s', out);
end
