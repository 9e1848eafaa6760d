function peer = bench_peer (run, reps)
  % BENCH_PEER  The peer (a plain PyTorch reference, float32) at the peer size.
  %
  %   peer = bench_peer (run, reps)
  %
  %   With run true and Debian's python3-torch installed, runs
  %   validation/bench/peer_torch.py (B = 1, T = 2048, H = 4, K = V = 128;
  %   reps forward runs, one forward + backward run: it takes 10 s or more) and
  %   labels its figures 'measured DATE'; otherwise returns the recorded
  %   figures of issue 14, labelled 'recorded 2026-11-22'.  Fields: fwd,
  %   fwdbwd (median seconds), fwd_lo, fwd_hi, fwdbwd_lo, fwdbwd_hi, label.
  %
  %   See also: run_bench.
  peer = struct ('fwd', 0.35, 'fwdbwd', 12, 'fwd_lo', NaN, 'fwd_hi', NaN, ...
                 'fwdbwd_lo', NaN, 'fwdbwd_hi', NaN, ...
                 'label', 'recorded 2026-11-22 (2 cores; not measured in this run)');
  if (~run)
    return;
  end
  script = fullfile (fileparts (mfilename ('fullpath')), 'peer_torch.py');
  [st, out] = system (sprintf ('/usr/bin/python3 "%s" 2048 4 128 128 %d 1', script, reps));
  measured = {};
  for line = strsplit (out, sprintf ('\n'))
    tok = regexp (line{1}, '^peer (fwd|fwdbwd) (\S+) (\S+) (\S+) (\d+)', 'tokens', 'once');
    if (numel (tok) == 5)
      peer.(tok{1}) = str2double (tok{2});
      peer.([tok{1} '_lo']) = str2double (tok{3});
      peer.([tok{1} '_hi']) = str2double (tok{4});
      measured{end+1} = sprintf ('%s measured %s in this run (%s runs)', tok{1}, ...
                                 datestr (now, 29), tok{5});
    end
  end
  if (numel (measured) < 2)
    measured{end+1} = 'the rest recorded 2026-11-22 (2 cores)';
    fprintf ('  peer not fully measured (status %d): recorded figures for the rest\n', st);
  end
  peer.label = strjoin (measured, '; ');
end
