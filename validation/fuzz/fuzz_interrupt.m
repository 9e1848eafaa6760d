% FUZZ_INTERRUPT  Ctrl-C test: SIGINT stops a long call within a second.
%
%   nfail = fuzz_interrupt ()              (make test-interrupt)
%   fuzz_interrupt ('child', logfile)      the process under test
%
%   Starts an octave-cli child that runs, one after the other, two calls of
%   several seconds (kda_recurrent_bwd at K = V = 256, T = 64000, and
%   gdn_chunk_bwd at T = 192000, single) inside try/catch, and sends it SIGINT
%   (by its pid) 1.5 s into each.  Passes when each call ends within one
%   second of its SIGINT with the error identifier kda:interrupted /
%   gdn:interrupted, and when the calls made afterwards in the same session
%   (a small valid problem of each of the eight functions, checked against
%   the reference by fuzz_verdict) are right.  Prints one line per check;
%   without output argument exits Octave with status 1 on any failure.
%
%   See also: fuzz_run.

function nfail = fuzz_interrupt (mode, logfile)
  if (nargin == 2 && strcmp (mode, 'child'))
    run_child (logfile);
    return;
  end
  here = fileparts (mfilename ('fullpath'));
  root = fileparts (fileparts (here));
  dir_out = fullfile (root, 'build', 'interrupt');
  if (~exist (dir_out, 'dir'))
    mkdir (dir_out);
  end
  logf = fullfile (dir_out, 'child.log');
  pidf = fullfile (dir_out, 'child.pid');
  outf = fullfile (dir_out, 'child.out');
  if (exist (logf, 'file'))
    delete (logf);
  end
  system (sprintf (['octave-cli --no-gui --no-window-system --quiet --norc --no-history ' ...
                    '--eval "addpath (''%s''); fuzz_interrupt (''child'', ''%s'');" ' ...
                    '> %s 2>&1 & echo $! > %s'], here, logf, outf, pidf));
  pid = str2double (fileread (pidf));
  nfail = 0;
  for n = 1:2
    if (isempty (wait_for (logf, sprintf ('ready %d', n), 120, pid)))
      nfail = nfail + report (false, sprintf ('call %d: the child never started it (see %s)', n, outf));
      break;
    end
    pause (1.5);
    t_kill = time ();
    system (sprintf ('kill -INT %d', pid));
    ln = wait_for (logf, sprintf ('call %d ', n), 60, pid);
    nfail = nfail + judge (ln, n, t_kill, outf);
  end
  ln = wait_for (logf, 'next ', 120, pid);
  nfail = nfail + report (strncmp (ln, 'next pass', 9), ...
                          ['the calls after the interrupts: ' fallback(ln, 'none made')]);
  system (sprintf ('kill -KILL %d 2>/dev/null', pid));
  fprintf ('interrupt: %d failed\n', nfail);
  if (nargout == 0)
    exit (nfail > 0);
  end
end

function nf = judge (ln, n, t_kill, outf)
  % "call N ID T_END": the identifier, and the time from SIGINT to the end
  want = {'kda:interrupted', 'gdn:interrupted'};
  if (isempty (ln))
    nf = report (false, sprintf ('call %d: no return after SIGINT (the child died? see %s)', n, outf));
    return;
  end
  f = strsplit (ln);
  delay = str2double (f{4}) - t_kill;
  nf = report (strcmp (f{3}, want{n}) && delay <= 1, ...
               sprintf ('call %d returned %.2f s after SIGINT with %s (needs %s within 1 s)', ...
                        n, delay, f{3}, want{n}));
end

function nf = report (ok, what)
  tags = {'FAIL', 'ok  '};
  fprintf ('%s %s\n', tags{ok + 1}, what);
  nf = ~ok;
end

function s = fallback (s, other)
  if (isempty (s))
    s = other;
  end
end

function ln = wait_for (logf, prefix, seconds, pid)
  % the first line of logf starting with prefix, or '' after that many
  % seconds or once the process pid is gone
  t0 = time ();
  ln = '';
  alive = true;
  while (alive && time () - t0 < seconds)
    alive = exist (sprintf ('/proc/%d', pid), 'dir');
    if (exist (logf, 'file'))
      lines = strsplit (fileread (logf), sprintf ('\n'));
      hit = find (strncmp (lines, prefix, numel (prefix)), 1);
      if (~isempty (hit))
        ln = lines{hit};
        return;
      end
    end
    pause (0.05);
  end
end

function run_child (logfile)
  here = fileparts (mfilename ('fullpath'));
  root = fileparts (fileparts (here));
  addpath (fullfile (root, 'octave'));
  addpath (fullfile (root, 'validation', 'lib'));
  fid = fopen (logfile, 'w');
  randn ('state', 1);
  rand ('state', 1);
  K = 256;
  % long enough to be running 1.5 s in on an idle machine (the chunked
  % backward is fast: T = 48000 took about 1.3 s here, the recurrent
  % backward at T = 16000 about 1.2 s)
  calls = {'kda_recurrent_bwd', 64000; 'gdn_chunk_bwd', 192000};
  for n = 1:2
    T = calls{n, 2};
    q = randn (K, T, 'single');
    k = q ./ sqrt (sum (q .^ 2, 1));
    if (n == 1)
      g = -rand (K, T, 'single') / 10;
    else
      g = -rand (T, 1, 'single') / 10;
    end
    beta = rand (T, 1, 'single');
    fprintf (fid, 'ready %d\n', n);
    fflush (fid);
    id = 'none(the-call-finished)';
    try
      feval (calls{n, 1}, q, k, q, g, beta, q, []);
    catch err
      id = fallback (err.identifier, 'no-identifier');
    end
    fprintf (fid, 'call %d %s %.3f\n', n, id, time ());
    fflush (fid);
  end
  % the session must still compute right
  failed = {};
  for f = fuzz_functions ()
    c = fuzz_valid (f{1});
    outs = cell (1, c.nout);
    err = [];
    try
      [outs{:}] = feval (c.fname, c.args{:});
    catch err
    end
    if (~strcmp (fuzz_verdict (c, err, outs), 'pass'))
      failed{end + 1} = f{1};
    end
  end
  verdict = fallback (strjoin (failed, ' '), 'pass: eight functions right');
  fprintf (fid, 'next %s\n', verdict);
  fclose (fid);
end
