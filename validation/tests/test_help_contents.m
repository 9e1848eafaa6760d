% Tests: the public functions of octave/ are listed by help kdagdn (all
% but itself) and by Contents.m with their H1 lines, lookfor finds the eight algorithms, and
% every .m file of octave/ (and build_mex.m) keeps to the syntax that MATLAB
% parses too.
% Run with  test test_help_contents  or through validation/run_tests.m.

%!function [names, root] = public_functions ()
%!  % the .m files of octave/, without the extension
%!  root = fileparts (fileparts (fileparts (which ('test_help_contents'))));
%!  d = dir (fullfile (root, 'octave', '*.m'));
%!  names = regexprep (sort ({d.name}), '\.m$', '');
%!  names = names(~strcmp (names, 'Contents'));
%!endfunction

%!function h1 = h1_text (name)
%!  % the text after the name on the first help line ("name  Text.")
%!  lines = strsplit (strtrim (help (name)), char (10));
%!  t = regexp (lines{1}, ['^' name '  (\S.*\.)$'], 'tokens', 'once');
%!  assert (~isempty (t), '%s: the first help line is not "%s  Sentence."', name, name);
%!  h1 = t{1};
%!endfunction

%!function check_listing (file, names)
%!  % file lists every name as "name  - H1 text", and nothing else
%!  txt = fileread (file);
%!  listed = regexp (txt, '\n%\s+(\w+)\s+- ([^\n]*)', 'tokens');
%!  listed_names = cellfun (@(c) c{1}, listed, 'UniformOutput', false);
%!  missing = setdiff (names, listed_names);
%!  extra = setdiff (listed_names, names);
%!  assert (isempty (missing) && isempty (extra), '%s lacks {%s}, lists extra {%s}', ...
%!          file, strjoin (missing, ', '), strjoin (extra, ', '));
%!  for i = 1:numel (listed)
%!    assert (strcmp (listed{i}{2}, h1_text (listed{i}{1})), ...
%!            '%s: the line of %s is not its H1 text', file, listed{i}{1});
%!  end
%!endfunction

%!test
%! % help kdagdn and Contents.m list every public function with its H1 line
%! [names, root] = public_functions ();
%! check_listing (fullfile (root, 'octave', 'kdagdn.m'), setdiff (names, {'kdagdn'}));
%! check_listing (fullfile (root, 'octave', 'Contents.m'), names);

%!test
%! % lookfor finds the eight algorithms by a word of their H1 lines
%! found = evalc ('lookfor delta');
%! for f = {'kda_recurrent', 'kda_recurrent_bwd', 'kda_chunk', 'kda_chunk_bwd', ...
%!          'gdn_recurrent', 'gdn_recurrent_bwd', 'gdn_chunk', 'gdn_chunk_bwd'}
%!   assert (~isempty (regexp (found, ['(^|\n)' f{1} '\s'], 'once')), ...
%!           'lookfor delta misses %s', f{1});
%! end

%!test
%! % syntax that MATLAB parses too, outside the %! test blocks
%! [names, root] = public_functions ();
%! files = [fullfile(root, 'octave', strcat (names, '.m')), ...
%!          {fullfile(root, 'octave', 'Contents.m'), fullfile(root, 'build_mex.m')}];
%! bad = {'#', 'comment with #'; ...
%!        '\<end(function|if|for|while|switch|_try_catch|_unwind_protect)\>', 'end keyword'; ...
%!        '\<unwind_protect\>', 'unwind_protect'; ...
%!        '!=', '!='; '\+\+|\+=|-=', '++ or +='; ...
%!        '(^|[^fs\w])printf\s*\(', 'printf'; '"', 'double quote'};
%! for i = 1:numel (files)
%!   lines = strsplit (fileread (files{i}), char (10));
%!   for j = find (~strncmp (lines, '%!', 2))
%!     code = regexprep (lines{j}, '''[^'']*''', '''''');   % strings out
%!     code = regexprep (code, '%.*$', '');                 % comments out
%!     for b = 1:size (bad, 1)
%!       assert (isempty (regexp (code, bad{b, 1}, 'once')), '%s:%d: %s', ...
%!               files{i}, j, bad{b, 2});
%!     end
%!   end
%! end

%!test
%! % the version kdagdn_version holds is the one README.md, CITATION.cff and
%! % NEWS.md's newest release name (a release bumps them together)
%! [~, root] = public_functions ();
%! v = kdagdn_version ();
%! readme = fileread (fullfile (root, 'README.md'));
%! named = regexp (readme, 'kdagdn-(\d+\.\d+\.\d+)\.tar\.gz', 'tokens');
%! named = [named{:}, regexp(readme, 'Version (\d+\.\d+\.\d+)', 'tokens', 'once')];
%! assert (~isempty (named) && all (strcmp (named, v)), ...
%!         'README.md names %s, kdagdn_version is %s', strjoin (named, ', '), v);
%! cff = regexp (fileread (fullfile (root, 'CITATION.cff')), ...
%!               '\nversion: "([^"]*)"', 'tokens', 'once');
%! assert (strcmp (cff{1}, v), 'CITATION.cff names %s, kdagdn_version is %s', cff{1}, v);
%! news = regexp (fileread (fullfile (root, 'NEWS.md')), ...
%!                '\n## kdagdn (\S+) \(\d{4}-\d\d-\d\d\)', 'tokens', 'once');
%! assert (strcmp (news{1}, v), 'NEWS.md''s newest release is %s, kdagdn_version is %s', news{1}, v);
