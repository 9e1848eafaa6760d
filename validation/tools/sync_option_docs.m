function changed = sync_option_docs (root)
% SYNC_OPTION_DOCS  Write the option table into the help texts and docs/api.md.
%
%   changed = sync_option_docs ()        (make sync-options)
%   changed = sync_option_docs (root)
%
%   The one table of options is la_options[] in mex/gateway/la_options.c;
%   the MEX answers it as la_mex_testing ('options') (the test build).  This rewrites, from it:
%     - the Options block of the help of each function of the gateway in
%       octave/ (one entry per option the function takes: name, default,
%       description, wrapped at 78 columns);
%     - the rows of the option table of docs/api.md: one per option, in the
%       table's order, with its default and functions; the meaning column of
%       a row that is already there is kept (it may say more than the
%       table's one line), a new row gets the table's description.
%   Adding an option is a row of la_options.c, the code that uses it, and
%   `make sync-options`; validation/tests/test_help_options.m fails until
%   the files agree.  changed lists the files written.

  if (nargin < 1)
    root = fullfile (fileparts (mfilename ('fullpath')), '..', '..');
  end
  opts = option_table (root);
  names = unique ([opts.functions]);          % every function of the gateway
  changed = {};
  for i = 1:numel (names)
    file = fullfile (root, 'octave', [names{i} '.m']);
    takes = arrayfun (@(o) any (strcmp (o.functions, names{i})), opts);
    if (rewrite (file, @(txt) help_block (txt, opts(takes))))
      changed{end + 1} = file;
    end
  end
  file = fullfile (root, 'docs', 'api.md');
  if (rewrite (file, @(txt) api_table (txt, opts, numel (names))))
    changed{end + 1} = file;
  end
  for i = 1:numel (changed)
    fprintf ('sync_option_docs: wrote %s\n', changed{i});
  end
end

function opts = option_table (root)
  % the test build's instrument (make testing: build/testing)
  addpath (fullfile (root, 'build', 'testing'));
  opts = la_mex_testing ('options');
end

function did = rewrite (file, edit)
  txt = fileread (file);
  new = edit (txt);
  did = ~strcmp (new, txt);
  if (did)
    fid = fopen (file, 'w');
    fwrite (fid, new);
    fclose (fid);
  end
end

function txt = help_block (txt, opts)
  % the entries (lines indented by five or more) after the "Options ("
  % heading and its wrapped second line
  lines = strsplit (txt, char (10), 'CollapseDelimiters', false);
  h = find (strncmp (lines, '%   Options (', 13), 1);
  first = h + 1;
  while (~strncmp (lines{first}, '%     ', 6))
    first = first + 1;
  end
  last = first;                         % entries and their continuations
  while (strncmp (lines{last + 1}, '%     ', 6))
    last = last + 1;
  end
  entries = {};
  for i = 1:numel (opts)
    head = sprintf ('%%     %-16s%-11s', opts(i).name, opts(i).default);
    entries = [entries, wrap(head, repmat (' ', 1, numel (head) - 1), opts(i).description)];
  end
  txt = strjoin ([lines(1:first - 1), entries, lines(last + 1:end)], char (10));
end

function out = wrap (head, indent, text)
  % text after head, continued on lines '%' indent, at most 78 columns
  words = strsplit (text, ' ');
  out = {};
  line = head;
  fresh = true;
  for w = words
    if (~fresh && numel (line) + 1 + numel (w{1}) > 78)
      out{end + 1} = line;
      line = ['%' indent];
      fresh = true;
    end
    if (fresh)
      line = [line w{1}];
    else
      line = [line ' ' w{1}];
    end
    fresh = false;
  end
  out{end + 1} = line;
end

function txt = api_table (txt, opts, nfun)
  % the rows "| `Name` | `default` | functions | meaning |" of the table
  % after "## Options"
  lines = strsplit (txt, char (10), 'CollapseDelimiters', false);
  paths = {'kda_recurrent', 'kda_recurrent_bwd', 'kda_chunk', 'kda_chunk_bwd', ...
           'gdn_recurrent', 'gdn_recurrent_bwd', 'gdn_chunk', 'gdn_chunk_bwd'};
  sec = find (strncmp (lines, '## Options', 10), 1);
  hdr = sec + find (strncmp (lines(sec + 1:end), '| name |', 8), 1);
  first = hdr + 2;                      % after the header and the | --- | line
  last = first;
  while (last + 1 <= numel (lines) && strncmp (lines{last + 1}, '| `', 3))
    last = last + 1;
  end
  old = containers.Map ();
  for i = first:last
    t = regexp (lines{i}, '^\| `([^`]+)` \| [^|]* \| [^|]* \| (.*) \|$', 'tokens', 'once');
    if (~isempty (t))
      old(t{1}) = t{2};
    end
  end
  rows = cell (1, numel (opts));
  for i = 1:numel (opts)
    if (isKey (old, opts(i).name))
      meaning = old(opts(i).name);
    else
      meaning = opts(i).description;
    end
    if (numel (opts(i).functions) == nfun)
      fns = 'all';
    elseif (isequal (sort (opts(i).functions), sort (paths)))
      fns = 'the eight paths';
    else
      fns = strjoin (cellfun (@(f) ['`' f '`'], opts(i).functions, 'UniformOutput', false), ', ');
    end
    rows{i} = sprintf ('| `%s` | `%s` | %s | %s |', opts(i).name, opts(i).default, fns, meaning);
  end
  txt = strjoin ([lines(1:first - 1), rows, lines(last + 1:end)], char (10));
end
