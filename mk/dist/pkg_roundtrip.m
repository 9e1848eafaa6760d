% pkg_roundtrip  Install, use, test and uninstall the kdagdn package.
%
%   pkg_roundtrip (TGZ, README)
%
%   In the Octave user directory of the current HOME (make test-pkg gives
%   it a fresh one): pkg install TGZ, pkg load kdagdn, checks that the MEX
%   file is private to the package, runs the quick example of README (its
%   first octave block, without its addpath line), pkg test kdagdn (every
%   test block of the package must pass), then pkg uninstall kdagdn and
%   checks that nothing of the package is left.  Errors on the first
%   failure.

function pkg_roundtrip (tgz, readme)
  work = tempname ();
  mkdir (work);
  cd (work);   % not the repository: its octave/ must not shadow the package
  % -local: as root, pkg would install for every user of the machine
  pkg ('install', '-local', tgz);
  pkg ('load', 'kdagdn');
  info = pkg ('describe', '-verbose', 'kdagdn');
  installed = pkg ('list', 'kdagdn');
  pkg_dir = installed{1}.dir;
  fprintf ('installed kdagdn %s in %s\n', kdagdn_version (), pkg_dir);
  assert (strcmp (info{1}.version, kdagdn_version ()));
  assert (strncmp (which ('kda_chunk'), pkg_dir, numel (pkg_dir)));
  assert (strncmp (pkg_dir, getenv ('HOME'), numel (getenv ('HOME'))), ...
          'installed outside HOME: %s', pkg_dir);
  assert (~isempty (dir (fullfile (pkg_dir, 'private', ['la_mex.' mexext()]))));
  assert (isempty (which ('la_mex')), 'la_mex is visible outside the package');
  % the decode path's functions are served by their MEX files, next to their help
  for f = {'kda_recurrent', 'gdn_recurrent'}
    assert (strcmp (which (f{1}), fullfile (pkg_dir, [f{1} '.' mexext()])), ...
            '%s is not its MEX file: %s', f{1}, which (f{1}));
    assert (~isempty (strfind (evalc (['help ' f{1}]), 'recurrent form')), 'no help for %s', f{1});
  end

  run_quick_example (readme);
  fprintf ('README quick example: ran\n');

  report = evalc ('pkg (''test'', ''kdagdn'')');
  fprintf ('%s', report);
  nfail = regexp (report, 'FAIL\s+(\d+)', 'tokens', 'once');
  npass = regexp (report, 'PASS\s+(\d+)', 'tokens', 'once');
  assert (~isempty (npass) && str2double (npass{1}) > 0, 'pkg test ran no test');
  assert (isempty (nfail) || str2double (nfail{1}) == 0, 'pkg test: failures');

  pkg ('unload', 'kdagdn');
  pkg ('uninstall', '-local', 'kdagdn');
  listed = cellfun (@(d) d.name, pkg ('list'), 'UniformOutput', false);
  assert (~any (strcmp (listed, 'kdagdn')), 'still listed after uninstall');
  [~, left] = system (['find ' getenv('HOME') ' -path "*kdagdn*"']);
  left = strtrim (left);
  assert (isempty (left), 'left after uninstall:\n%s', left);
  assert (~exist (pkg_dir, 'dir'), 'left after uninstall: %s', pkg_dir);
  assert (isempty (which ('kda_chunk')), 'kda_chunk still on the path');
  cd (tempdir ());
  rmdir (work, 's');
  fprintf ('pkg install / load / example / test / uninstall: all passed\n');
end

function run_quick_example (readme)
  % the first ```octave block of README, its addpath lines dropped
  txt = fileread (readme);
  blk = regexp (txt, '```octave\n(.*?)```', 'tokens', 'once');
  assert (~isempty (blk), 'no octave block in %s', readme);
  code = regexprep (blk{1}, '(^|\n)\s*addpath[^\n]*', '$1');
  eval (code);
end
