% Tests: every example runs as written -- the ```octave blocks of README.md
% and docs/*.md (from the repository root, as a reader would run them; a
% block not meant to run takes another fence language) and the "Example:"
% part of each public function's help.  An example fails on an error and on
% any warning it prints or raises.
% Run with  test test_examples  or through validation/run_tests.m.

%!function root = repo_root ()
%!  root = fileparts (fileparts (fileparts (which ('test_examples'))));
%!endfunction

%!function run_example (code, where)
%!  % code in a workspace of its own, its printout swallowed, from the root;
%!  % the path and the folder are restored (README adds the relative 'octave').
%!  % A warning printed or raised fails the example, as an error does.
%!  here = pwd ();
%!  saved_path = path ();
%!  cd (repo_root ());
%!  lastwarn ('');
%!  try
%!    out = evalc (code);
%!    failure = '';
%!  catch err
%!    out = '';
%!    failure = err.message;
%!  end
%!  [warn_msg, warn_id] = lastwarn ();
%!  printed = regexp (out, '(^|\n)warning: [^\n]*', 'match', 'once');
%!  path (saved_path);
%!  cd (here);
%!  close all;
%!  assert (isempty (failure), '%s: the example fails: %s', where, failure);
%!  assert (isempty (printed), '%s: the example prints %s', where, strtrim (printed));
%!  assert (isempty (warn_msg), '%s: the example warns (%s): %s', where, warn_id, warn_msg);
%!endfunction

%!function code = help_example (name)
%!  % the lines between "Example:" and "See also" of name's help
%!  txt = help (name);
%!  t = regexp (txt, '\n\s*Examples?:\s*\n(.*?)\n\s*See also', 'tokens', 'once');
%!  assert (~isempty (t), '%s: no Example in the help', name);
%!  code = t{1};
%!endfunction

%!test
%! % the octave blocks of README.md and docs/*.md
%! root = repo_root ();
%! d = dir (fullfile (root, 'docs', '*.md'));
%! files = [{fullfile(root, 'README.md')}, fullfile(root, 'docs', {d.name})];
%! nblocks = 0;
%! for i = 1:numel (files)
%!   blocks = regexp (fileread (files{i}), '```octave\n(.*?)```', 'tokens');
%!   for j = 1:numel (blocks)
%!     run_example (blocks{j}{1}, sprintf ('%s, octave block %d', files{i}, j));
%!     nblocks = nblocks + 1;
%!   end
%! end
%! assert (nblocks >= 2);

%!test
%! % the Example of each public function's help
%! d = dir (fullfile (repo_root (), 'octave', '*.m'));
%! names = regexprep ({d.name}, '\.m$', '');
%! for name = setdiff (names, {'Contents', 'kdagdn'})
%!   run_example (help_example (name{1}), [name{1} ' help']);
%! end

%!test
%! % the %!demo blocks of the public functions (demo NAME)
%! d = dir (fullfile (repo_root (), 'octave', '*.m'));
%! ndemos = 0;
%! for name = regexprep ({d.name}, '\.m$', '')
%!   [code, idx] = test (name{1}, 'grabdemo');
%!   for j = 1:numel (idx) - 1
%!     run_example (code(idx(j):idx(j + 1) - 1), sprintf ('%s demo %d', name{1}, j));
%!     ndemos = ndemos + 1;
%!   end
%! end
%! assert (ndemos >= 13);
