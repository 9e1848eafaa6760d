% Tests: the options of each public function's help, and docs/api.md's
% option table, agree with the one option table mex/gateway/la_options.c,
% read as the MEX answers it (la_mex_testing ('options'), the test build).  Adding a row there
% without its help lines and its docs row fails here (make sync-options
% writes them).
% Run with  test test_help_options  or through validation/run_tests.m.

%!function rows = table_rows ()
%!  % the option table as the MEX answers it: name, default, description,
%!  % functions, ... (the test build's la_mex_testing ('options'), from
%!  % mex/gateway/la_options.c)
%!  rows = la_mex_testing ('options');
%!endfunction

%!function opts = help_options (fname)
%!  % the Options block of fname's help: one entry per line at the block's
%!  % indentation, "Name  default  description", the description wrapped
%!  % onto deeper-indented lines
%!  lines = strsplit (help (fname), char (10));
%!  first = find (~cellfun (@isempty, regexp (lines, '^\s*Options \(', 'once')), 1);
%!  assert (~isempty (first), '%s: no Options block in the help', fname);
%!  lead = @(ln) numel (ln) - numel (regexprep (ln, '^\s+', ''));
%!  head_indent = lead (lines{first});
%!  opts = struct ('name', {}, 'default', {}, 'description', {});
%!  indent = -1;
%!  for i = first + 1:numel (lines)
%!    ln = lines{i};
%!    % the block ends at a blank line or at the next heading (help ()
%!    % may drop blank lines); a wrapped heading comes before any entry
%!    if (isempty (strtrim (ln)) || (indent > 0 && lead (ln) <= head_indent))
%!      break;
%!    elseif (lead (ln) <= head_indent)
%!      continue;
%!    end
%!    % the first entry sets the indentation of all entries
%!    if (indent < 0)
%!      indent = lead (ln);
%!    end
%!    if (lead (ln) == indent)
%!      t = regexp (ln, '^\s*(\S+)\s+(\S+)\s+(.*)$', 'tokens', 'once');
%!      opts(end + 1) = struct ('name', t{1}, 'default', t{2}, 'description', t{3});
%!    else
%!      opts(end).description = [opts(end).description ' ' strtrim(ln)];
%!    end
%!  end
%!endfunction

%!function same_text (got, want, where)
%!  assert (strcmp (got, want), '%s: "%s" where la_options.c has "%s" (make sync-options writes the table into the docs)', where, got, want);
%!endfunction

%!function rows = api_rows ()
%!  % docs/api.md's option table: | `Name` | `default` | functions | meaning |
%!  root = fileparts (fileparts (fileparts (which ('test_help_options'))));
%!  txt = fileread (fullfile (root, 'docs', 'api.md'));
%!  sec = regexp (txt, '\n## Options[^\n]*\n(.*?)\n## ', 'tokens', 'once');
%!  assert (~isempty (sec), 'docs/api.md: no "## Options" section');
%!  t = regexp (sec{1}, '\n\| `(\w+)` \| `([^`]*)` \| ([^|]*) \|', 'tokens');
%!  all8 = {'kda_recurrent', 'kda_recurrent_bwd', 'kda_chunk', 'kda_chunk_bwd', ...
%!          'gdn_recurrent', 'gdn_recurrent_bwd', 'gdn_chunk', 'gdn_chunk_bwd'};
%!  maps = {'kda_state_map', 'kda_state_map_bwd', 'gdn_state_map', 'gdn_state_map_bwd'};
%!  rows = struct ('name', {}, 'default', {}, 'functions', {});
%!  for i = 1:numel (t)
%!    if (strcmp (strtrim (t{i}{3}), 'all'))
%!      fns = [all8, maps];
%!    elseif (strcmp (strtrim (t{i}{3}), 'the eight paths'))
%!      fns = all8;
%!    else
%!      fns = regexp (t{i}{3}, '`(\w+)`', 'tokens');
%!      fns = cellfun (@(c) c{1}, fns, 'UniformOutput', false);
%!    end
%!    rows(end + 1) = struct ('name', t{i}{1}, 'default', t{i}{2}, 'functions', {fns});
%!  end
%!endfunction

%!test
%! % the table answers: Scale is an option of the eight paths; a choice
%! % lists its values and its default is one of them
%! rows = table_rows ();
%! scale = rows(strcmp ({rows.name}, 'Scale'));
%! assert (numel (scale), 1);
%! assert (numel (scale.functions), 8);
%! for r = rows(strcmp ({rows.kind}, 'choice'))'
%!   assert (numel (r.choices) >= 2);
%!   assert (any (strcmp (r.default, strcat ("'", r.choices, "'"))));
%! end

%!test
%! % each function's help lists exactly its options, with the table's text
%! rows = table_rows ();
%! for f = {'kda_recurrent', 'kda_recurrent_bwd', 'kda_chunk', 'kda_chunk_bwd', ...
%!          'gdn_recurrent', 'gdn_recurrent_bwd', 'gdn_chunk', 'gdn_chunk_bwd', ...
%!          'kda_state_map', 'kda_state_map_bwd', 'gdn_state_map', 'gdn_state_map_bwd'}
%!   fname = f{1};
%!   want = rows(cellfun (@(fs) any (strcmp (fs, fname)), {rows.functions}));
%!   got = help_options (fname);
%!   missing = setdiff ({want.name}, {got.name});
%!   extra = setdiff ({got.name}, {want.name});
%!   assert (isempty (missing) && isempty (extra), ...
%!           '%s: help lacks {%s}, has extra {%s}', fname, ...
%!           strjoin (missing, ', '), strjoin (extra, ', '));
%!   for i = 1:numel (want)
%!     h = got(strcmp ({got.name}, want(i).name));
%!     where = [fname ' help, ' want(i).name];
%!     same_text (h.default, want(i).default, where);
%!     same_text (h.description, want(i).description, where);
%!   end
%! end

%!test
%! % docs/api.md's option table: the same names, defaults and functions
%! rows = table_rows ();
%! docs = api_rows ();
%! assert (sort ({docs.name}), sort ({rows.name}));
%! for i = 1:numel (rows)
%!   d = docs(strcmp ({docs.name}, rows(i).name));
%!   same_text (d.default, rows(i).default, ['docs/api.md, ' rows(i).name]);
%!   same_text (strjoin (sort (d.functions), ' '), ...
%!              strjoin (sort (rows(i).functions), ' '), ['docs/api.md, ' rows(i).name]);
%! end
