% FUZZ_VALGRIND  Errors of a valgrind XML report whose stack is in the MEX.
%
%   nfail = fuzz_valgrind (xmlfile)
%   nfail = fuzz_valgrind (xmlfile, logfile)
%
%   Reads the memcheck report written with --xml=yes (make valgrind), keeps
%   every <error> (invalid read or write, use of uninitialised values,
%   invalid free, definite leak, ...) with a frame in la_mex.mex, and prints
%   its kind, what, and stack.  Octave's own errors (no frame in the MEX)
%   are counted, not shown.  With logfile (the fuzz_child log of the calls
%   made under valgrind), also fails when a call did not come back (the
%   process died) or was judged other than 'pass' by fuzz_verdict.  Without
%   output argument exits Octave with status 1 on any failure.
%
%   See also: fuzz_child, fuzz_run.

function nfail = fuzz_valgrind (xmlfile, logfile)
  xml = fileread (xmlfile);
  blocks = regexp (xml, '<error>.*?</error>', 'match');
  in_mex = blocks(~cellfun (@isempty, strfind (blocks, 'la_mex.mex')));
  fprintf ('valgrind: %d errors in all, %d with the MEX in their stack\n', ...
           numel (blocks), numel (in_mex));
  for i = 1:numel (in_mex)
    b = in_mex{i};
    fprintf ('\n%s: %s\n', tag (b, 'kind'), strtrim (regexprep ([tag(b, 'what') tag(b, 'text')], '<[^>]*>', '')));
    frames = regexp (b, '<frame>.*?</frame>', 'match');
    for f = frames(1:min (end, 12))
      fprintf ('    %s  %s:%s  (%s)\n', tag (f{1}, 'fn'), tag (f{1}, 'file'), ...
               tag (f{1}, 'line'), tag (f{1}, 'obj'));
    end
  end
  nfail = numel (in_mex);
  if (nargin > 1)
    nfail = nfail + calls_failed (logfile);
  end
  fprintf ('valgrind: %d failed\n', nfail);
  if (nargout == 0)
    exit (nfail > 0);
  end
end

function n = calls_failed (logfile)
  % calls that did not pass, or did not come back, under valgrind
  if (~exist (logfile, 'file'))
    fprintf ('valgrind: no call was made (no %s)\n', logfile);
    n = 1;
    return;
  end
  lines = strsplit (fileread (logfile), sprintf ('\n'));
  done = lines(strncmp (lines, 'done ', 5));
  bad = done(cellfun (@isempty, regexp (done, '^done \d+\tpass\t')));
  nbegin = sum (strncmp (lines, 'begin ', 6));
  n = numel (bad) + (nbegin - numel (done));
  fprintf ('valgrind: %d calls made, %d came back, %d did not pass\n', nbegin, numel (done), numel (bad));
  for i = 1:numel (bad)
    fprintf ('  %s\n', strrep (bad{i}(1:min (end, 250)), sprintf ('\t'), ' '));
  end
end

function s = tag (text, name)
  s = regexp (text, sprintf ('<%s>(.*?)</%s>', name, name), 'tokens', 'once');
  if (isempty (s))
    s = '';
  else
    s = s{1};
  end
end
