function res = check_flops ()
  % res = check_flops (): the flop counts of docs/flops.md against the counts
  % of the C core itself.  The core is built with -DLA_COUNT_FLOPS behind a
  % small driver (drv_core_count.m, build/flops_driver: mex/core/la_flops.h counts every
  % BLAS call at its size, each recurrent step, and the loop nests of the
  % gated products); each path runs on one (sequence, head) for several
  % (T, C, K, V), T not a multiple of C included.  Rows:
  %  - (65), (66): the recurrent counts, exact (with V rounded up to a
  %    multiple of 4, the kernels' padding), residual |count - formula| / formula;
  %  - (67), (68): the chunked counts against the executed count of section 5
  %    (flops_exec.m), exact, in both forms of v_new (direct, and WY with
  %    the core's tuning wy_form); and the nominal (67), (68) must not exceed what the core
  %    executes in the form they count, WY (residual: the excess, 0 when it
  %    holds);
  %  - the simplified forms of (67), (68) for T a multiple of C.
  % Without a C compiler or make the count rows are skipped (NaN, failed).
  %
  % Returns a struct array with fields eq, name, file, residual, bound, pass.
  F = 'docs/flops.md';
  res = lab_row ();
  cases = [1 1 1 1; 7 3 2 3; 23 7 5 4; 64 64 8 8; 100 16 6 5; 130 64 4 7; 200 48 6 5];   % T C K V
  names = {65, 'rec_fwd', 'recurrent forward: count of the core vs T V4 (7K + 3) + T K'; ...
           66, 'rec_bwd', 'recurrent backward with checkpoints: count of the core vs (66) with V4'; ...
           67, 'chunk_fwd', 'chunked forward (direct form): count of the core vs its executed count (section 5)'; ...
           67, 'chunk_fwd_wy', 'chunked forward (WY form): count of the core vs its executed count (section 5)'; ...
           68, 'chunk_bwd', 'chunked backward (direct form): count of the core vs its executed count (section 5)'; ...
           68, 'chunk_bwd_wy', 'chunked backward (WY form): count of the core vs its executed count (section 5)'};
  [~, ~, why] = drv_core_count ('rec_fwd', 'kda', 1, 1, 1, 1);
  for i = 1:size (names, 1)
    if (~isempty (why))
      res(end+1) = drv_skip (names{i, 1}, names{i, 3}, F, 0, why);
      continue;
    end
    worst = 0;  excess = 0;
    for n = 1:size (cases, 1)
      T = cases(n, 1); C = min (cases(n, 2), T); K = cases(n, 3); V = cases(n, 4);
      for op = {'kda', 'gdn'}
        counted = drv_core_count (names{i, 2}, op{1}, T, C, K, V);
        r = rel (counted, flops_exec (names{i, 2}, T, C, K, V));
        if (isnan (r))
          r = Inf;      % the driver failed: max () would drop a NaN
        end
        worst = max (worst, r);
        nominal = flops_model (strrep (names{i, 2}, '_wy', ''), T, C, K, V);
        excess = max (excess, max (0, nominal - counted) / counted);
      end
    end
    res(end+1) = lab_row ('derivations', names{i, 3}, worst, 0, 'eq', names{i, 1}, 'file', F);
    if (~isempty (strfind (names{i, 2}, '_wy')))   % (67), (68) count the WY form
      res(end+1) = lab_row ('derivations', [names{i, 2} ': the nominal count does not exceed the executed one'], ...
                            excess, 0, 'eq', names{i, 1}, 'file', F);
    end
  end
  % the simplified forms for T a multiple of C
  T = 512; C = 64; K = 128; V = 96;
  r = rel (flops_model ('chunk_fwd', T, C, K, V), T * (6 * K * V + C * (3 * K + 2 * V) + C ^ 2 / 3)) + ...
      rel (flops_model ('chunk_bwd', T, C, K, V), T * (16 * K * V + C * (9 * K + 5 * V) + 5 * C ^ 2 / 3) ...
                                                  - 2 * C * K * V);
  res(end+1) = lab_row ('derivations', 'T multiple of C: simplified forms of (67) and (68)', r, 1e-15, ...
                        'eq', 68, 'file', F);
end

function r = rel (a, b)
  r = abs (a - b) / max (abs (b), 1);
end
