function res = drv_peak_rows (eq)
  % res = drv_peak_rows (eq): the memory formulas of the docs against the
  % peak workspace measured in the C core itself (drv_core_count: the bytes
  % the core holds allocated at once during one call, one sequence, one head,
  % one thread, double).  Two rows each:
  %  eq = 20, the recurrent backward (docs/recurrence.md (20)): over T and
  %    the checkpoint interval C, peak/8 minus (ceil(T/C) + min(C, T)) K V4
  %    (V4: V rounded up to a multiple of 4, the core's padded state) must be
  %    the same number R for every (T, C) (residual: its spread, in states of
  %    K x V4; bound 0); and R, the step's own workspace (one working state
  %    and a few vectors of K or V4), at most 3 states.
  %  eq = 63, the chunked backward's store (docs/chunk_backward.md, Memory):
  %    for each C, over T, peak/8 minus ceil(T/C) (K V + 3 C^2 + C (max(K, V) + V))
  %    must not depend on T (residual: its spread, in elements, bound 0); and
  %    that rest, the one-chunk workspace, at most 16 (K V + C (K + V) + C^2).
  %    Every T of the grid is at least C: the core clips C to the longest
  %    sequence, which would change the workspace.
  F = pick (eq == 20, 'docs/recurrence.md', 'docs/chunk_backward.md');
  res = lab_row ();
  K = 5; V = 6; V4 = 4 * ceil (V / 4);
  if (eq == 20)
    grid = [23 1; 23 2; 23 5; 23 7; 23 23; 23 40; 100 16; 130 64; 200 7];   % T C
    states = @(T, C) (ceil (T / C) + min (C, T)) * K * V4;
    names = {['recurrent backward, C core: measured peak - (20) states, ' ...
              'the same for T, C = 23..200, 1..64 (spread, in states of K x V4)'], ...
             'recurrent backward, C core: that rest (working state, step vectors), in states of K x V4'};
    [spread, rest, why] = rest_of ('rec_bwd', grid, K, V, states);
    residual = [spread, max(rest)] / (K * V4);
    bounds = [0, 3];
  else
    grid = [5 4; 9 4; 41 4; 16 16; 41 16; 100 16; 64 64; 130 64; 200 64];
    store = @(T, C) ceil (T / C) * (K * V + 3 * C ^ 2 + C * (max (K, V) + V));
    names = {['chunked backward, C core: measured peak - store ceil(T/C) (KV + 3C^2 + C(max(K,V)+V)), ' ...
              'the same for every T at C = 4, 16, 64 (spread, elements)'], ...
             'chunked backward, C core: that rest (one-chunk workspace) / (KV + C(K+V) + C^2)'};
    [spread, rest, why] = rest_of ('chunk_bwd', grid, K, V, store);
    Cs = grid(:, 2);
    residual = [spread, max(rest ./ (K * V + Cs * (K + V) + Cs .^ 2))];
    bounds = [0, 16];
  end
  for i = 1:2
    if (isempty (why))
      res(end+1) = lab_row ('derivations', names{i}, residual(i), bounds(i), 'eq', eq, 'file', F);
    else
      res(end+1) = drv_skip (eq, names{i}, F, bounds(i), why);
    end
  end
end

function [spread, rest, why] = rest_of (path, grid, K, V, formula)
  % peak (elements) minus formula at each (T, C) of grid, KDA and GDN: the
  % largest spread of that rest among the rows of one C (all rows for
  % rec_bwd, whose rest must not depend on C either), and the rest per
  % row (the larger of KDA and GDN)
  spread = 0;  rest = -Inf (size (grid, 1), 1);  why = '';
  for op = {'kda', 'gdn'}
    r = zeros (size (grid, 1), 1);
    for n = 1:size (grid, 1)
      T = grid(n, 1);  C = grid(n, 2);
      [~, peak, why] = drv_core_count (path, op{1}, T, C, K, V);
      if (~isempty (why))
        return;
      end
      r(n, 1) = peak / 8 - formula (T, C);
    end
    rest = max (rest, r);
    if (strcmp (path, 'rec_bwd'))
      spread = max (spread, max (r) - min (r));
    else
      for C = unique (grid(:, 2))'
        rc = r(grid(:, 2) == C);
        spread = max (spread, max (rc) - min (rc));
      end
    end
  end
end
