% Tests: every example runs as written -- the ```octave blocks of README.md
% and docs/*.md (from the repository root, as a reader would run them; a
% block not meant to run takes another fence language) and the "Example:"
% part of each public function's help, and the %!demo blocks.  An example
% fails on an error and on any warning it prints or raises; one that the
% page follows with its printout ("prints ...:" and a ```text block) fails
% when it prints anything else.
% Run with  test test_examples  or through validation/run_tests.m.

%!function root = repo_root ()
%!  root = fileparts (fileparts (fileparts (which ('test_examples'))));
%!endfunction

%!function out = run_example (code, where)
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

%!function same_printout (out, shown, where)
%!  % what a block prints against the ```text block the page shows after it:
%!  % the same words, the same numbers to 4 digits, and numbers below 1e-10
%!  % (rounding differences) below 1e-10 in both
%!  got = strsplit (strtrim (out), "\n");
%!  want = strsplit (strtrim (shown), "\n");
%!  assert (numel (got) == numel (want), '%s: prints %d lines, the page shows %d', ...
%!          where, numel (got), numel (want));
%!  num = '[-+]?\d+\.?\d*(?:[eE][-+]?\d+)?';
%!  for i = 1:numel (want)
%!    assert (strcmp (regexprep (got{i}, num, '#'), regexprep (want{i}, num, '#')), ...
%!            '%s: prints "%s", the page shows "%s"', where, got{i}, want{i});
%!    a = str2double (regexp (got{i}, num, 'match'));
%!    b = str2double (regexp (want{i}, num, 'match'));
%!    tiny = abs (b) < 1e-10;
%!    ok = all (abs (a(tiny)) < 1e-10) && ...
%!         all (abs (a(~tiny) - b(~tiny)) <= 5e-4 * abs (b(~tiny)));
%!    assert (ok, '%s: prints "%s", the page shows "%s"', where, got{i}, want{i});
%!  end
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
%! nshown = 0;
%! for i = 1:numel (files)
%!   % a block, and the ```text block of its printout when the page shows one
%!   % next ("prints ...:")
%!   blocks = regexp (fileread (files{i}), ...
%!                    '```octave\n(.*?)```(\s*\n[^`\n]*prints[^`\n]*:\s*\n+```text\n.*?```)?', ...
%!                    'tokens');
%!   for j = 1:numel (blocks)
%!     where = sprintf ('%s, octave block %d', files{i}, j);
%!     out = run_example (blocks{j}{1}, where);
%!     if (numel (blocks{j}) > 1 && ~isempty (blocks{j}{2}))
%!       shown = regexp (blocks{j}{2}, '```text\n(.*?)```', 'tokens', 'once'){1};
%!       same_printout (out, shown, where);
%!       nshown = nshown + 1;
%!     end
%!     nblocks = nblocks + 1;
%!   end
%! end
%! assert (nblocks >= 2);
%! assert (nshown >= 1);   % README's first example

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
