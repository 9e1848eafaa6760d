function [rows, figs] = lab_random (mode, figdir)
% LAB_RANDOM  The lab's random section: every path on random configurations.
%
%   [rows, figs] = lab_random (mode, figdir)
%
%   Draws configurations from the space of issue 36 (lab_random_draw: batch,
%   V against K, odd V, T against the chunk and the two-phase schedule's
%   windows, varlen batches with empty and length-1 sequences, grouped value
%   heads, every option, single and double) and runs each through
%   lab_random_case: every forward against the plain reference, the state
%   map, every backward against finite differences and, without transforms,
%   against the plain backpropagation of ref_recurrence_bwd.  Seeded
%   (LAB_RANDOM_SEED, default 36) and sized (LAB_RANDOM_COUNT; quick 30,
%   full 300), so a run is the same wherever the thread count is the same
%   (the draws aim at the schedule the threads give).  Then the draws at
%   the core's edges (lab_edge_case: scheduler windows, K or V of 256,
%   decode with B > 1 and T > 1 in every pool mode, option pairs, the
%   verdict's rules), each kind once per 30 configurations (quick: once).  One row per check
%   kind with its worst configuration; every failure a row of its own whose
%   detail is the configuration as a line to paste into Octave (from
%   validation/, with lib/, lab/ and ../octave on the path).

  figs = struct ('file', {}, 'caption', {});
  sec = 'random';
  count = 300;
  if (strcmp (mode, 'quick'))
    count = 30;
  end
  if (~isempty (getenv ('LAB_RANDOM_COUNT')))
    count = str2double (getenv ('LAB_RANDOM_COUNT'));
  end
  seed = 36;
  if (~isempty (getenv ('LAB_RANDOM_SEED')))
    seed = str2double (getenv ('LAB_RANDOM_SEED'));
  end
  threads = nproc ('overridable');
  kinds = struct ('check', {}, 'value', {}, 'bound', {}, 'n', {}, 'worst', {});
  fails = lab_row ();
  t0 = tic;
  % the draws at the core's edges (lab_edge_case, validation/lab/README.md):
  % each kind every `every` configurations, at least once
  edges = {'windows', 'wide', 'decode', 'pairs', 'verify'};
  every = 6;
  nedge = numel (edges) * max (1, floor (count / every / numel (edges)));
  for i = 1:count + nedge
    if (i <= count)
      cfg = lab_random_draw (seed, i, threads);
      lit = lab_random_literal (cfg);
    else
      j = i - count - 1;
      kind = edges{mod (j, numel (edges)) + 1};
      lit = sprintf ('lab_edge_case (''%s'', %d)', kind, seed * 1000 + j);
    end
    try
      if (i <= count)
        res = lab_random_case (cfg);
      else
        res = lab_edge_case (kind, seed * 1000 + j);
      end
    catch err
      fails(end+1) = lab_row (sec, sprintf ('configuration %d crashed', i), NaN, 0, ...
                              [err.message ': ' lit]);
      continue;
    end
    for j = 1:numel (res)
      name = regexprep (res(j).check, ' \(worst [^)]*\)', '');
      k = find (strcmp ({kinds.check}, name));
      if (isempty (k))
        kinds(end+1) = struct ('check', name, 'value', -Inf, 'bound', res(j).bound, 'n', 0, ...
                               'worst', '');
        k = numel (kinds);
      end
      kinds(k).n = kinds(k).n + 1;
      v = res(j).value;
      if (isnan (v))
        v = Inf;
      end
      if (kinds(k).n == 1 || v / max (res(j).bound, realmin) > ...
                             kinds(k).value / max (kinds(k).bound, realmin))
        kinds(k).value = v;
        kinds(k).worst = lit;
      end
      if (~(res(j).value <= res(j).bound))
        fails(end+1) = lab_row (sec, sprintf ('configuration %d: %s', i, res(j).check), ...
                                res(j).value, res(j).bound, lit);
      end
    end
  end
  rows = lab_row ();
  for k = 1:numel (kinds)
    rows(end+1) = lab_row (sec, sprintf ('%s: worst of %d configurations', kinds(k).check, ...
                                         kinds(k).n), kinds(k).value, kinds(k).bound, ...
                           kinds(k).worst);
  end
  rows = [rows, fails];
  rows(end+1) = lab_row (sec, sprintf ('%d configurations and %d at the edges (seed %d) on %d threads', ...
                                       count, nedge, seed, threads), toc (t0), NaN, 'seconds');
end
