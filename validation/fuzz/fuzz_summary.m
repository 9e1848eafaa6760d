% FUZZ_SUMMARY  Print the table of a fuzz run and write its reproducers.
%
%   nfail = fuzz_summary (cfg, rows, seconds, stopped)
%
%   rows: one row per case, {i, verdict, kind, detail} (fuzz_run).  Prints
%   one line per kind of case (calls and failures by verdict), every failure
%   (at most 20 per verdict on screen; all of them in OUTDIR/failures.txt),
%   writes OUTDIR/repro_SEED_I.m for the first 20 of each verdict
%   (fuzz_repro), and ends with the totals line
%       fuzz: N calls, C crashes (H hangs), U unidentified, W wrong family,
%             R wrong results, F fuzzer errors
%   nfail is the number of cases whose verdict is not 'pass'.
%
%   See also: fuzz_run, fuzz_repro.

function nfail = fuzz_summary (cfg, rows, seconds, stopped)
  verdicts = {'crash', 'hang', 'unidentified', 'wrong-family', 'wrong-result', 'fuzzer-error'};
  kinds = unique (rows(:, 3));
  fprintf ('\n%-16s %6s %6s', 'kind', 'calls', 'pass');
  fprintf (' %13s', verdicts{:});
  fprintf ('\n');
  for k = 1:numel (kinds)
    in = strcmp (rows(:, 3), kinds{k});
    fprintf ('%-16s %6d %6d', kinds{k}, sum (in), sum (in & strcmp (rows(:, 2), 'pass')));
    for v = 1:numel (verdicts)
      fprintf (' %13d', sum (in & strcmp (rows(:, 2), verdicts{v})));
    end
    fprintf ('\n');
  end
  failed = ~strcmp (rows(:, 2), 'pass');
  nfail = sum (failed);
  fid = fopen (fullfile (cfg.OutDir, 'failures.txt'), 'w');
  for v = 1:numel (verdicts)
    idx = find (strcmp (rows(:, 2), verdicts{v}));
    for n = 1:numel (idx)
      r = rows(idx(n), :);
      line = sprintf ('case %d [%s] %s: %s', r{1}, r{3}, r{2}, r{4});
      fprintf (fid, '%s\n', line);
      if (n <= 20)
        fprintf ('  %s\n', line(1:min (end, 300)));
        fuzz_repro (cfg, r{1}, r{2}, r{4});
      end
    end
  end
  fclose (fid);
  count = @(v) sum (strcmp (rows(:, 2), v));
  if (stopped)
    fprintf ('fuzz: stopped at the time limit (%g s)\n', cfg.TimeLimit);
  end
  fprintf (['fuzz: seed %d, %d calls in %.0f s: %d crashes (%d hangs), %d unidentified, ' ...
            '%d wrong family, %d wrong results, %d fuzzer errors\n'], ...
           cfg.Seed, size (rows, 1), seconds, count ('crash') + count ('hang'), count ('hang'), ...
           count ('unidentified'), count ('wrong-family'), count ('wrong-result'), ...
           count ('fuzzer-error'));
  if (nfail > 0)
    fprintf ('fuzz: reproducers in %s/repro_%d_*.m, all failures in %s/failures.txt\n', ...
             cfg.OutDir, cfg.Seed, cfg.OutDir);
  end
end
