function res = check_index ()
  % res = check_index (): hold the equation index docs/equation_index.md to
  % the pages and the code.  Every equation tagged \tag{X} in a page of the
  % report has a row of the index; every file the index names exists; every
  % function it names is defined in that file (LA_FN(name)( or name( in C,
  % "function ... name" in Octave, #define name for a macro); every script
  % of its last column exists under validation/.
  %
  % Returns a struct array with fields eq, name, file, residual, bound, pass
  % (eq is the string 'index'; the residual counts what is missing).
  F = 'docs/equation_index.md';
  here = fileparts (mfilename ('fullpath'));
  root = fullfile (here, '..', '..');
  res = lab_row ();
  idx = fileread (fullfile (root, F));
  lines = strsplit (idx, "\n");
  rows = lines(strncmp (lines, '| (', 3));

  %% section 'equations': every tag of the report's pages has a row
  pages = {'recurrence', 'background', 'chunk_forward', 'chunk_backward', 'stability', ...
           'error_analysis', 'hazards', 'state_map', 'gdn', 'flops', 'io', 'emulation'};
  listed = cellfun (@(t) t{1}, tokens (rows, 2, '\(([^)]+)\)'), 'UniformOutput', false);
  missing = {};
  ntags = 0;
  for p = 1:numel (pages)
    txt = fileread (fullfile (root, 'docs', [pages{p} '.md']));
    tags = regexp (txt, '\\tag\{([^}]+)\}', 'tokens');
    for t = 1:numel (tags)
      ntags++;
      if (~any (strcmp (listed, tags{t}{1})))
        missing{end+1} = tags{t}{1};
      end
    end
  end
  res(end+1) = lab_row ('derivations', sprintf ('%d tagged equations of %d pages have a row (missing: %s)', ...
                        ntags, numel (pages), strjoin (missing, ' ')), numel (missing), 0, ...
                        'eq', 'index', 'file', F);

  %% section 'functions': every file exists and defines the function named
  bad = {};
  pairs = tokens (rows, 4, '`([^`]+)`: `([^`]+)`');
  for j = 1:numel (pairs)
    file = fullfile (root, pairs{j}{1});
    fn = pairs{j}{2};
    pat = ['LA_FN\(' fn '\)\s*\(|^[a-z][^;\n]*\<' fn '\s*\(|#define\s+' fn ...
           '\>|function[^\n]*\<' fn '\>'];
    if (~exist (file, 'file') || isempty (regexp (fileread (file), pat, 'once', 'lineanchors')))
      bad{end+1} = [pairs{j}{1} ': ' fn];
    end
  end
  res(end+1) = lab_row ('derivations', sprintf ('%d (file, function) pairs named: each defined there (not: %s)', ...
                        numel (pairs), strjoin (bad, ', ')), numel (bad), 0, ...
                        'eq', 'index', 'file', F);

  %% section 'scripts': every script of the last column exists
  gone = {};
  sc = tokens (rows, 5, '([A-Za-z_0-9]+\.(?:m|c))');
  for j = 1:numel (sc)
    hit = [dir(fullfile (root, 'validation', '*', sc{j}{1})); ...
           dir(fullfile (root, 'validation', 'lib', sc{j}{1}))];
    if (isempty (hit))
      gone{end+1} = sc{j}{1};
    end
  end
  res(end+1) = lab_row ('derivations', sprintf ('%d scripts named: each exists under validation/ (not: %s)', ...
                        numel (sc), strjoin (unique (gone), ', ')), numel (gone), 0, ...
                        'eq', 'index', 'file', F);
end

% the regexp tokens of column k (1 = before the first bar) of every row
function t = tokens (rows, k, pat)
  t = {};
  for i = 1:numel (rows)
    cells = strsplit (rows{i}, '|');
    t = [t, regexp(cells{k}, pat, 'tokens')];
  end
end
