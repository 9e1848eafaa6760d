% pkg_roundtrip  Install, use, test and uninstall the kdagdn package.
%
%   pkg_roundtrip (TGZ, README)
%
%   With package lists of its own (pkg local_list / global_list in a scratch
%   folder, so no kdagdn the user installed, locally or globally as root,
%   is seen or touched) and from an empty folder: pkg install -local TGZ
%   (README's install line must be the same), pkg load kdagdn; checks that
%   the MEX file is private to the package, that every function of its
%   INDEX has test blocks of its own or is called by a test file the
%   package ships (tests/), and that the help names only doc/ pages the
%   package has; runs README's first example (its first octave block),
%   real calls of la_save, la_load and kda_verify, and pkg test kdagdn
%   (every test block must pass); then pkg uninstall kdagdn and checks that
%   nothing of the package is left.  Errors on the first failure.

function pkg_roundtrip (tgz, readme)
  work = tempname ();
  mkdir (work);
  lists = tempname ();
  mkdir (lists);
  cd (work);   % not the repository: its octave/ must not shadow the package
  % private package lists: pkg sees none of the user's or the machine's
  % packages, and the user's kdagdn, if any, stays installed
  pkg ('local_list', fullfile (lists, 'octave_packages'));
  pkg ('global_list', fullfile (lists, 'global_packages'));
  assert (isempty (pkg ('list')), 'packages listed before install');
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

  check_every_function_tested (pkg_dir, info{1}.provides);

  check_install_line (readme, tgz);
  run_quick_example (readme);
  fprintf ('README first example: ran\n');
  run_file_and_verify_calls ();
  fprintf ('la_save / la_load / kda_verify: ran\n');
  check_help_pointers (pkg_dir);

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
  % paths below HOME only: HOME itself may lie in a clone named kdagdn
  [~, left] = system (sprintf ('cd "%s" && find . -path "*kdagdn*"', getenv ('HOME')));
  left = strtrim (left);
  assert (isempty (left), 'left after uninstall:\n%s', left);
  assert (~exist (pkg_dir, 'dir'), 'left after uninstall: %s', pkg_dir);
  assert (isempty (which ('kda_chunk')), 'kda_chunk still on the path');
  cd (tempdir ());
  confirm_recursive_rmdir (false, 'local');
  rmdir (work, 's');
  rmdir (lists, 's');
  fprintf ('pkg install / load / example / test / uninstall: all passed\n');
end

function check_install_line (readme, tgz)
  % the README installs this file with -local (as root a plain pkg install
  % would install for every user, and make test-pkg tests -local)
  [~, name, ext] = fileparts (tgz);
  line = regexp (fileread (readme), ['[^\n]*pkg install[^\n]*' regexptranslate('escape', [name ext])], 'match', 'once');
  assert (~isempty (line), 'README: no "pkg install ... %s%s" line', name, ext);
  assert (~isempty (strfind (line, '-local')), 'README installs without -local: %s', line);
end

function run_quick_example (readme)
  % the first ```octave block of README, its addpath lines dropped
  txt = fileread (readme);
  blk = regexp (txt, '```octave\n(.*?)```', 'tokens', 'once');
  assert (~isempty (blk), 'no octave block in %s', readme);
  code = regexprep (blk{1}, '(^|\n)\s*addpath[^\n]*', '$1');
  eval (code);
end

function check_every_function_tested (pkg_dir, provides)
  % a function is tested when its file has test blocks, or when a test
  % block of a shipped test file (pkg_dir/tests/*.m) calls it
  blocks = @(file) strjoin (regexp (fileread (file), '(?m)^%!.*$', 'match'), "\n");
  shipped = dir (fullfile (pkg_dir, 'tests', '*.m'));
  assert (~isempty (shipped), 'no test file shipped in %s', fullfile (pkg_dir, 'tests'));
  shipped_tests = strjoin (cellfun (@(f) blocks (fullfile (pkg_dir, 'tests', f)), ...
                                    {shipped.name}, 'UniformOutput', false), "\n");
  names = {};
  for i = 1:numel (provides)
    names = [names, provides{i}.functions];
  end
  untested = {};
  for name = names
    own = blocks (fullfile (pkg_dir, [name{1} '.m']));
    if (isempty (regexp (own, '(?m)^%!(test|assert|error|fail)', 'once')) && ...
        isempty (regexp (shipped_tests, ['\<' name{1} '\s*\('], 'once')))
      untested{end + 1} = name{1};
    end
  end
  assert (isempty (untested), 'functions without tests in the package: %s', ...
          strjoin (untested, ', '));
  fprintf ('every one of the %d functions has tests\n', numel (names));
end

function run_file_and_verify_calls ()
  % a dump in FLA layout written with la_save, read back with la_load, and
  % checked with kda_verify, as docs/verify.md has a kernel's author do
  K = 8; V = 8; T = 40; H = 2;
  q = randn (K, T, H);  k = randn (K, T, H);  k = k ./ sqrt (sum (k .^ 2, 1));
  v = randn (V, T, H);  g = -rand (K, T, H) / 4;  beta = rand (T, H);
  o = kda_chunk (q, k, v, g, beta);
  dump = tempname ();
  mkdir (dump);
  s = struct ('q', la_to_fla ('q', q), 'k', la_to_fla ('k', k), ...
              'v', la_to_fla ('v', v), 'g', la_to_fla ('g', g), ...
              'beta', la_to_fla ('beta', beta), 'o', la_to_fla ('o', single (o)));
  la_save (fullfile (dump, 'tensors.npz'), s);
  fid = fopen (fullfile (dump, 'meta.json'), 'w');
  fprintf (fid, '{"dtype": "float32"}');
  fclose (fid);
  back = la_load (fullfile (dump, 'tensors.npz'));
  assert (isequal (back.q, s.q) && isequal (back.o, s.o), 'la_load: not what la_save wrote');
  [ok, report] = kda_verify (dump);
  assert (ok, 'kda_verify fails the library''s own output:\n%s', report.markdown);
  check_mat (dump);
  confirm_recursive_rmdir (false, 'local');
  rmdir (dump, 's');
end

function check_mat (dump)
  % a .mat of save -v7 reads back; one whose zlib stream is cut short (its
  % element shortened to match) is refused by the check that inflates it,
  % so the installed MEX has zlib for .mat files too
  f = fullfile (dump, 'x.mat');
  x = randn (50, 3);
  save ('-v7', f, 'x');
  back = la_load (f);
  assert (isequal (back.x, x), 'la_load: not what save -v7 wrote');
  fid = fopen (f);  b = fread (fid, Inf, 'uint8=>uint8')';  fclose (fid);
  n = double (typecast (b(133:136), 'uint32'));
  fid = fopen (f, 'w');
  fwrite (fid, [b(1:132), typecast(uint32 (n - 6), 'uint8'), b(137:136 + n - 6)]);
  fclose (fid);
  try
    la_load (f);
    error ('la_load read a .mat whose zlib stream is cut short');
  catch err
    assert (~isempty (strfind (err.message, 'cut short')), 'la_load: %s', err.message);
  end
  delete (f);
end

function check_help_pointers (pkg_dir)
  % every doc/NAME.md that an installed help text names is in the package
  files = dir (fullfile (pkg_dir, '*.m'));
  for f = {files.name}
    txt = fileread (fullfile (pkg_dir, f{1}));
    assert (isempty (regexp (txt, '\<docs/[a-z_]+\.md', 'once')), ...
            '%s points to docs/ (the package has doc/)', f{1});
    for ref = unique ([regexp(txt, '\<doc/([A-Za-z_]+\.md)', 'tokens'){:}])
      assert (exist (fullfile (pkg_dir, 'doc', ref{1}), 'file') == 2, ...
              '%s points to doc/%s, which the package lacks', f{1}, ref{1});
    end
  end
end
