% FUZZ_CHILD  Run fuzz cases first..last in this process (started by fuzz_run).
%
%   fuzz_child (seed, first, last, logfile, deadline)
%   fuzz_child (seed, first, last, logfile, deadline, octdir)
%
%   Makes each case with fuzz_case (seed, i), calls it, judges it with
%   fuzz_verdict and appends to logfile, flushed at once:
%       begin I                                    before the call
%       done I <TAB> VERDICT <TAB> KIND <TAB> SECONDS <TAB> DETAIL
%       end                                        after the last case
%   so that when this process dies (a crash of the MEX), the parent knows
%   the case that killed it: the last "begin" without its "done".  Stops
%   before a case once time () passes deadline (seconds since the epoch).
%   The public functions come from octdir (default: the repository's
%   octave/; make valgrind passes a copy with its own build of the MEX); the
%   working directory is octdir/private, so that the MEX itself can be
%   called.  Errors of the fuzzer's own code (generator, checks) are logged
%   with verdict 'fuzzer-error', so that they fail the run too.
%
%   See also: fuzz_run, fuzz_case, fuzz_verdict.

function fuzz_child (seed, first, last, logfile, deadline, octdir)
  here = fileparts (mfilename ('fullpath'));
  root = fileparts (fileparts (here));
  if (nargin < 6)
    octdir = fullfile (root, 'octave');
  end
  addpath (octdir);
  addpath (fullfile (root, 'validation', 'lib'));
  addpath (here);
  cd (fullfile (octdir, 'private'));
  fid = fopen (logfile, 'a');
  for i = first:last
    if (time () > deadline)
      break;
    end
    fprintf (fid, 'begin %d\n', i);
    fflush (fid);
    kind = '?';
    secs = 0;
    t_start = tic ();
    try
      c = fuzz_case (seed, i);
      kind = c.kind;
      [err, outs] = call (c);
      secs = toc (t_start);
      [verdict, detail] = fuzz_verdict (c, err, outs);
    catch e
      verdict = 'fuzzer-error';
      detail = sprintf ('%s (%s)', e.message, where (e));
    end
    fprintf (fid, 'done %d\t%s\t%s\t%.3f\t%s\n', i, verdict, kind, secs, ...
             regexprep (detail, '[\t\r\n]+', ' '));
    fflush (fid);
  end
  fprintf (fid, 'end\n');
  fclose (fid);
end

function [err, outs] = call (c)
  % the call itself, with its error caught (an MException or [])
  err = [];
  outs = {};
  try
    if (c.nout == 0)
      feval (c.fname, c.args{:});
    else
      outs = cell (1, c.nout);
      [outs{:}] = feval (c.fname, c.args{:});
    end
  catch e
    err = e;
  end
end

function s = where (e)
  s = '';
  if (~isempty (e.stack))
    s = sprintf ('%s line %d', e.stack(1).name, e.stack(1).line);
  end
end
