% help_html  Write the HTML reference of kdagdn's public functions.
%
%   help_html (OUTDIR)
%
%   OUTDIR/index.html: the functions in the order and groups of
%   octave/Contents.m, each with its one-line summary and its full help
%   text (what `help NAME` prints), names in "See also" lines and in the
%   text linked to their entries, docs/NAME.md linked to docs/NAME.html
%   (make html writes those beside it with pandoc).  Run from the
%   repository's root with octave/ on the path.  Errors when a listed
%   function has no help.

function help_html (outdir)
  contents = fileread (fullfile ('octave', 'Contents.m'));
  lines = strsplit (contents, "\n");
  groups = struct ('title', {}, 'names', {}, 'summaries', {});
  for i = 2:numel (lines)
    head = regexp (lines{i}, '^% ([A-Z].*)$', 'tokens', 'once');
    item = regexp (lines{i}, '^%\s+([a-z_0-9]+)\s+- (.*)$', 'tokens', 'once');
    if (~isempty (head))
      groups(end + 1) = struct ('title', head{1}, 'names', {{}}, 'summaries', {{}});
    elseif (~isempty (item) && ~isempty (groups))
      groups(end).names{end + 1} = item{1};
      groups(end).summaries{end + 1} = item{2};
    end
  end
  names = [groups.names];
  assert (numel (names) >= 20, 'help_html: Contents.m lists %d functions', numel (names));

  html = {};
  html{end + 1} = sprintf (['<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">' ...
                            '<title>kdagdn %s: function reference</title>\n%s</head><body>\n'], ...
                           kdagdn_version (), style ());
  html{end + 1} = sprintf (['<h1>kdagdn %s: function reference</h1>\n<p>The help text of every ' ...
                            'public function, as <code>help NAME</code> prints it in Octave. The ' ...
                            'math and the API in full: <a href="docs/README.html">the docs</a> ' ...
                            '(<a href="docs/api.html">api</a>).</p>\n'], kdagdn_version ());
  html{end + 1} = "<nav>\n";
  for g = groups
    html{end + 1} = sprintf ('<h3>%s</h3><ul>\n', esc (g.title));
    for j = 1:numel (g.names)
      html{end + 1} = sprintf ('<li><a href="#%s"><code>%s</code></a> %s</li>\n', ...
                               g.names{j}, g.names{j}, esc (g.summaries{j}));
    end
    html{end + 1} = "</ul>\n";
  end
  html{end + 1} = "</nav>\n<main>\n";
  for g = groups
    html{end + 1} = sprintf ('<h2>%s</h2>\n', esc (g.title));
    for j = 1:numel (g.names)
      name = g.names{j};
      txt = get_help_text (name);
      assert (~isempty (strtrim (txt)), 'help_html: %s has no help', name);
      html{end + 1} = sprintf ('<section id="%s"><h3><code>%s</code></h3>\n<pre>%s</pre></section>\n', ...
                               name, name, link (esc (txt), names, name));
    end
  end
  html{end + 1} = "</main></body></html>\n";
  if (~exist (outdir, 'dir'))
    mkdir (outdir);
  end
  file = fullfile (outdir, 'index.html');
  fid = fopen (file, 'w');
  fprintf (fid, '%s', [html{:}]);
  fclose (fid);
  printf ('html: %s (%d functions)\n', file, numel (names));
end

function t = esc (t)
  t = strrep (t, '&', '&amp;');
  t = strrep (t, '<', '&lt;');
  t = strrep (t, '>', '&gt;');
end

function t = link (t, names, self)
  % other functions' names as links to their entries; docs/NAME.md to its page
  t = regexprep (t, '\<docs/([A-Za-z_]+)\.md\>', '<a href="docs/$1.html">docs/$1.md</a>');
  for n = setdiff (names, {self})
    t = regexprep (t, ['(?<![\w/#">])' n{1} '(?![\w.])'], ['<a href="#' n{1} '">' n{1} '</a>']);
  end
end

function s = style ()
  s = ['<style>body{font-family:sans-serif;max-width:60em;margin:auto;padding:1em}' ...
       'pre{background:#f6f6f6;padding:0.8em;overflow-x:auto}' ...
       'nav ul{columns:2}section{margin-bottom:2em}</style>'];
end
