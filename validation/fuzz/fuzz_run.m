% FUZZ_RUN  The kept fuzzer: malformed and random calls in child processes.
%
%   nfail = fuzz_run (Name, Value, ...)
%
%   Runs the cases 1..Count of fuzz_case (Seed, i) in batches, each batch in
%   a fresh octave-cli (fuzz_child), and prints a summary.  A child that dies
%   (signal, abort, non-zero exit) or hangs is a crash of the case it was
%   running; the run then goes on with the next case in a new child.
%   Options (defaults):
%     'Seed'         1       the same seed gives the same cases
%     'Count'        1000    number of cases (the fixed ones first)
%     'TimeLimit'    60      seconds; no batch is started, and no case
%                            begun, after that (the summary says so)
%     'Batch'        400     cases per child process
%     'CaseTimeout'  30      seconds a case may take (beyond: a hang, and the
%                            child is killed)
%     'MemLimitGiB'  8       virtual memory limit of a child (ulimit -v): a
%                            safety net, the cases need little
%     'OutDir'       'build/fuzz'   logs, and a reproducer .m file per
%                            failing case (at most 20 per verdict)
%     'Octave'       'octave-cli'   the child's Octave
%   Fails on: a crash or hang, an error without identifier, an identifier of
%   the wrong family, a wrong result (see fuzz_verdict), an error of the
%   fuzzer itself.  Without output argument, exits Octave with status 1 if
%   there was any failure, else 0; nfail is their number.
%
%   Example (from the repository root):
%     octave-cli --eval "addpath validation/fuzz; fuzz_run ('Seed', 7, 'Count', 200)"
%
%   See also: fuzz_case, fuzz_child, fuzz_verdict, fuzz_repro.

function nfail = fuzz_run (varargin)
  cfg = struct ('Seed', 1, 'Count', 1000, 'TimeLimit', 60, 'Batch', 400, ...
                'CaseTimeout', 30, 'MemLimitGiB', 8, 'OutDir', 'build/fuzz', ...
                'Octave', 'octave-cli');
  for i = 1:2:numel (varargin)
    cfg.(varargin{i}) = varargin{i + 1};
  end
  here = fileparts (mfilename ('fullpath'));
  addpath (fullfile (fileparts (here), 'lib'));
  if (~exist (cfg.OutDir, 'dir'))
    mkdir (cfg.OutDir);
  end
  t0 = time ();
  deadline = t0 + cfg.TimeLimit;
  fprintf ('fuzz: seed %d, up to %d calls, %g s, batches of %d, log in %s\n', ...
           cfg.Seed, cfg.Count, cfg.TimeLimit, cfg.Batch, cfg.OutDir);
  rows = {};                                    % {i, verdict, kind, detail}
  next = 1;
  nbatch = 0;
  while (next <= cfg.Count && time () < deadline)
    nbatch = nbatch + 1;
    last = min (cfg.Count, next + cfg.Batch - 1);
    [got, next] = run_batch (cfg, next, last, deadline, nbatch);
    rows = [rows; got];
  end
  nfail = fuzz_summary (cfg, rows, time () - t0, next <= cfg.Count);
  if (nargout == 0)
    exit (nfail > 0);
  end
end

function [rows, next] = run_batch (cfg, first, last, deadline, nbatch)
  % one child for cases first..last; rows of the cases it finished or died in
  here = fileparts (mfilename ('fullpath'));
  base = make_absolute_filename (fullfile (cfg.OutDir, sprintf ('batch_%03d', nbatch)));
  files = struct ('log', [base '.log'], 'out', [base '.out'], 'pid', [base '.pid'], ...
                  'status', [base '.status'], 'sh', [base '.sh']);
  for f = {'log', 'pid', 'status'}
    if (exist (files.(f{1}), 'file'))
      delete (files.(f{1}));
    end
  end
  code = sprintf ('addpath (''%s''); fuzz_child (%d, %d, %d, ''%s'', %.3f);', ...
                  here, cfg.Seed, first, last, files.log, deadline);
  fid = fopen (files.sh, 'w');
  fprintf (fid, 'ulimit -v %d\n', round (cfg.MemLimitGiB * 2^20));
  fprintf (fid, ['%s --no-gui --no-window-system --quiet --norc --no-history ' ...
                 '--eval "%s" > %s 2>&1 &\n'], cfg.Octave, code, sh_quote (files.out));
  fprintf (fid, 'echo $! > %s\nwait $!\necho $? > %s\n', sh_quote (files.pid), ...
           sh_quote (files.status));
  fclose (fid);
  system (sprintf ('sh %s > /dev/null 2>&1 &', sh_quote (files.sh)));
  [status, why] = watch (cfg, files);
  [rows, pending, ended] = read_log (files.log);
  next = last + 1;
  if (~isempty (rows))
    next = rows{end, 1} + 1;
  end
  if (~isempty (pending) || status ~= 0 || ~ended)
    if (isempty (pending))
      pending = next;                            % died before its first case, or at exit
    end
    detail = sprintf ('child %s, exit status %d (%s); last lines of %s: %s', why, ...
                      status, signal_name (status), files.out, tail_of (files.out));
    verdict = 'crash';
    if (strcmp (why, 'hung'))
      verdict = 'hang';
    end
    rows(end+1, :) = {pending, verdict, kind_of(cfg.Seed, pending), detail};
    next = pending + 1;
  end
end

function [status, why] = watch (cfg, files)
  % wait for the child; kill it (by its pid) when one case takes longer than
  % CaseTimeout, or when Octave's crash handler has printed "fatal:" and
  % the process does not go away (it can hang inside the handler)
  why = 'exited';
  last_size = -1;
  since = time ();
  while (~exist (files.status, 'file'))
    pause (0.2);
    d = dir (files.log);
    if (~isempty (d) && d.bytes ~= last_size)
      last_size = d.bytes;
      since = time ();
    end
    fatal = exist (files.out, 'file') && ~isempty (strfind (fileread (files.out), 'fatal:'));
    if (time () - since > cfg.CaseTimeout || (fatal && time () - since > 5))
      why = 'hung';
      if (fatal)
        why = 'crashed, then hung in its crash handler';
      end
      system (sprintf ('kill -KILL %d', str2double (fileread (files.pid))));
      since = Inf;
    end
  end
  pause (0.1);
  status = str2double (fileread (files.status));
  if (strcmp (why, 'exited') && status ~= 0)
    why = 'died';
  end
end

function kind = kind_of (seed, i)
  % the kind of a case whose child died (made again here; no call is made)
  try
    c = fuzz_case (seed, i);
    kind = c.kind;
  catch
    kind = '?';
  end
end

function [rows, pending, ended] = read_log (logf)
  rows = cell (0, 4);
  pending = [];
  ended = false;
  if (~exist (logf, 'file'))
    return;
  end
  lines = strsplit (fileread (logf), sprintf ('\n'));
  for i = 1:numel (lines)
    ln = lines{i};
    if (strncmp (ln, 'begin ', 6))
      pending = str2double (ln(7:end));
    elseif (strncmp (ln, 'done ', 5))
      f = strsplit (ln(6:end), sprintf ('\t'));
      rows(end+1, :) = {str2double(f{1}), f{2}, f{3}, strjoin(f(5:end), ' ')};
      pending = [];
    elseif (strcmp (ln, 'end'))
      ended = true;
    end
  end
end

function s = signal_name (status)
  names = {6, 'SIGABRT'; 9, 'SIGKILL'; 11, 'SIGSEGV'; 7, 'SIGBUS'; 8, 'SIGFPE'; 4, 'SIGILL'};
  s = 'exit';
  if (status > 128)
    hit = find ([names{:, 1}] == status - 128, 1);
    s = sprintf ('signal %d', status - 128);
    if (~isempty (hit))
      s = names{hit, 2};
    end
  end
end

function s = tail_of (f)
  s = '';
  if (exist (f, 'file'))
    t = strtrim (strsplit (strtrim (fileread (f)), sprintf ('\n')));
    s = strjoin (t(max (1, end - 2):end), ' | ');
  end
end
