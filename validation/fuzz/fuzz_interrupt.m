% FUZZ_INTERRUPT  Ctrl-C test: SIGINT stops every public call within half a second.
%
%   nfail = fuzz_interrupt ()              (make test-interrupt)
%   fuzz_interrupt ('child', logfile, [n j])   the process under test, from
%                                          function n, offset j
%
%   Starts an octave-cli child that runs each of the twelve public MEX
%   functions on a problem long enough to be running (K = V = 128,
%   T = 65536, H = 4, single, UseQKL2Norm: about a second each) inside
%   try/catch, three times, and sends it SIGINT (by its pid) at three
%   offsets into the call: early (0.05 s: the preparation, the L2 norm, the
%   set-up and zero fills), middle (0.4 s) and late (0.9 s).  The child
%   repeats a call that ends before its signal, so the signal always meets
%   a running call.  Passes when each call ends within half a second of its
%   SIGINT with the identifier kda:interrupted / gdn:interrupted, and when
%   the calls made afterwards in the same session (a small valid problem of
%   each of the eight paths, checked against the reference by fuzz_verdict)
%   are right.  A signal that falls between two calls stops the child's
%   script (Octave's try/catch does not take an interrupt); a child gone
%   without a crash message is restarted at that call with the signal
%   0.13 s later (at most three times a call, six times a run), with a note.  Prints one line per check (the delay measured); without
%   output argument exits Octave with status 1 on any failure.
%
%   See also: fuzz_run.

function nfail = fuzz_interrupt (mode, logfile, first)
  if (nargin >= 2 && strcmp (mode, 'child'))
    run_child (logfile, first);
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
  pid = start_child (here, logf, outf, pidf, [1 1]);
  [fns, offsets] = plan ();
  nfail = 0;
  delays = [];
  restarts = 0;
  for n = 1:numel (fns)
    for j = 1:numel (offsets)
      tag = sprintf ('%d %d', n, j);
      offset = offsets(j);
      [ln, t_kill, started] = interrupt_call (logf, tag, offset, pid);
      tries = 0;
      while (started && isempty (ln) && tries < 4 && restarts < 10 && quiet_exit (pid, outf))
        % the signal fell between two calls (or while Octave copied a call's
        % outputs), where Octave itself stops the script (try/catch does not
        % take an interrupt): a new child carries on from this call, the
        % signal later by 0.29 s a try (a call that repeats meets the same
        % boundary at the same offset; three such steps cross any repeating
        % call of up to 0.87 s whose MEX part is 0.3 s or more), at most four
        % times a call and ten times a run
        tries = tries + 1;
        restarts = restarts + 1;
        fprintf ('note %s: SIGINT at %.2f s met the interpreter between calls; child restarted\n', ...
                 fns{n}, offset);
        offset = offsets(j) + 0.29 * tries;
        pid = start_child (here, logf, outf, pidf, [n j]);
        [ln, t_kill, started] = interrupt_call (logf, tag, offset, pid);
      end
      if (~started)
        nfail = nfail + report (false, sprintf ('%s: the child never started it (see %s)', fns{n}, outf));
        break;
      end
      [nf, d] = judge (ln, fns{n}, offset, t_kill, outf);
      nfail = nfail + nf;
      delays(end + 1) = d;
    end
  end
  ln = wait_for (logf, 'next ', 120, pid);
  nfail = nfail + report (strncmp (ln, 'next pass', 9), ...
                          ['the calls after the interrupts: ' fallback(ln, 'none made')]);
  [~] = kill (pid, 9);   % the child may have ended on its own
  fprintf ('interrupt: %d calls, delay from SIGINT to the error: median %.3f s, max %.3f s\n', ...
           numel (delays), median (delays), max (delays));
  fprintf ('interrupt: %d failed\n', nfail);
  if (nargout == 0)
    exit (nfail > 0);
  end
end

% Waits until the child starts call TAG, sends it SIGINT OFFSET seconds in
% and waits for the call's "call" line (ln: '' when none came within 60 s;
% started: false when the call never started).
function [ln, t_kill, started] = interrupt_call (logf, tag, offset, pid)
  ln = '';
  t_kill = NaN;
  started = ~isempty (wait_for (logf, ['ready ' tag], 120, pid));
  if (~started)
    return;
  end
  pause (offset);
  t_kill = time ();
  [~] = kill (pid, 2);   % a child already gone is judged by what it wrote
  ln = wait_for (logf, ['call ' tag ' '], 60, pid);
end

function [fns, offsets] = plan ()
  fns = {'kda_recurrent', 'kda_recurrent_bwd', 'kda_chunk', 'kda_chunk_bwd', ...
         'gdn_recurrent', 'gdn_recurrent_bwd', 'gdn_chunk', 'gdn_chunk_bwd', ...
         'kda_state_map', 'kda_state_map_bwd', 'gdn_state_map', 'gdn_state_map_bwd'};
  offsets = [0.05 0.4 0.9];
end

function [nf, delay] = judge (ln, fname, offset, t_kill, outf)
  % "call N J ID T_END REPS": the identifier, the time from SIGINT to the
  % end, and how many calls had ended before it (0: the signal met the first)
  want = [fname(1:3) ':interrupted'];
  what = sprintf ('%-18s SIGINT at %.2f s', fname, offset);
  delay = NaN;
  if (isempty (ln))
    nf = report (false, sprintf ('%s: no return (the child died? see %s)', what, outf));
    return;
  end
  f = strsplit (ln);
  delay = str2double (f{5}) - t_kill;
  nf = report (strcmp (f{4}, want) && delay <= 0.5, ...
               sprintf ('%s: %s %.3f s later (needs %s within 0.5 s)%s', what, f{4}, delay, ...
                        want, repeats (str2double (f{6}))));
end

function s = repeats (n)
  s = '';
  if (n > 0)
    s = sprintf ('; %d whole call(s) before it', n);
  end
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

function pid = start_child (here, logf, outf, pidf, first)
  % an octave-cli child running the plan from function first(1), offset first(2)
  if (exist (logf, 'file'))
    delete (logf);
  end
  system (sprintf (['octave-cli --no-gui --no-window-system --quiet --norc --no-history ' ...
                    '--eval "addpath (''%s''); fuzz_interrupt (''child'', ''%s'', [%d %d]);" ' ...
                    '> %s 2>&1 & echo $! > %s'], here, logf, first, sh_quote (outf), sh_quote (pidf)));
  pid = str2double (fileread (pidf));
end

function tf = quiet_exit (pid, outf)
  % the child is gone without a word of a crash (a fatal signal, a panic)
  pause (0.5);
  tf = ~exist (sprintf ('/proc/%d', pid), 'dir') && ...
       isempty (regexp (fileread (outf), 'fatal|panic|Segmentation|Abort', 'once'));
end

function run_child (logfile, first)
  here = fileparts (mfilename ('fullpath'));
  root = fileparts (fileparts (here));
  addpath (fullfile (root, 'octave'));
  addpath (fullfile (root, 'validation', 'lib'));
  fid = fopen (logfile, 'w');
  randn ('state', 1);
  rand ('state', 1);
  [K, T, H] = deal (128, 65536, 4);
  q = randn (K, T, H, 'single');
  v = randn (K, T, H, 'single');
  beta = rand (T, H, 'single');
  gates = {-rand(K, T, H, 'single') / 10, -rand(T, H, 'single') / 10};
  [fns, offsets] = plan ();
  for n = first(1):numel (fns)
    f = fns{n};
    args = {q, q, v, gates{1 + strncmp(f, 'gdn', 3)}, beta};
    if (strcmp (f(end-3:end), '_bwd'))
      if (~isempty (strfind (f, 'state_map')))
        args = [args, {[], []}];   % dP, dR
      else
        args = [args, {v, []}];    % do, dS
      end
    end
    for j = (n == first(1)) * (first(2) - 1) + 1:numel (offsets)
      id = 'none(the-calls-finished)';
      done = 0;
      fprintf (fid, 'ready %d %d\n', n, j);
      fflush (fid);
      try
        for r = 1:20   % a call that ends before the signal: the next one meets it
          feval (f, args{:}, 'UseQKL2Norm', true);
          done = done + 1;
        end
      catch err
        id = fallback (err.identifier, 'no-identifier');
      end
      fprintf (fid, 'call %d %d %s %.3f %d\n', n, j, id, time (), done);
      fflush (fid);
    end
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
