function res = check_chunk_bwd_aux ()
  % res = check_chunk_bwd_aux (): reproduce eq. (55)-(58) of
  % docs/chunk_backward.md, the intermediates of the chunked backward
  % ('Intermediates' of kda_chunk_bwd / gdn_chunk_bwd), in double.  Every
  % field is compared with the same quantity of the plain-Octave backward
  % (drv_chunk_bwd); aux.dh also with the recurrent backward run on the
  % suffix from each chunk start (with the forward's aux.h as its initial
  % state) and with central differences of the loss in that state.
  %
  % Returns a struct array with fields eq, name, file, residual, bound, pass.
  drv_lib ();
  F = 'docs/chunk_backward.md';
  res = lab_row ();
  tcore = 1e-10;
  if (~ (drv_have ('kda_chunk_bwd') && drv_have ('gdn_chunk_bwd')))
    names = {'aux.dh', 'aux.dv_new, du, dw', 'aux.dAqk, dA, dA_raw', 'aux.dG'};
    for i = 1:4
      res(end+1) = drv_skip (54 + i, names{i}, F, tcore, 'kda_chunk_bwd not built');
    end
    return;
  end

  %% section 'backward intermediates': (55)-(58) against the plain backward
  r = zeros (1, 4);
  for gdn = [false true]
    e = drv_data (5, 4, 23, gdn, -3, 110 + gdn);
    rand ('state', 111); randn ('state', 111);
    dO = randn (4, 23); dST = randn (5, 4);
    for C = [4 7]
      [~, ~, ~, ~, ~, ~, plain] = drv_chunk_bwd (e.q, e.k, e.v, e.g, e.beta, e.S0, e.s, C, dO, dST);
      core = core_aux (gdn, e, dO, dST, C);
      r = max (r, aux_residuals (plain, core, C));
    end
  end
  names = {'aux.dh: gradient of the state entering each chunk', ...
           'aux.dv_new, aux.du, aux.dw', 'aux.dAqk, aux.dA, aux.dA_raw', ...
           'aux.dG: gradient of the cumulative gate'};
  for i = 1:4
    res(end+1) = lab_row ('derivations', [names{i}, ' vs plain Octave (KDA, GDN, T = 23, C = 4, 7)'], r(i), tcore, ...
                          'eq', 54 + i, 'file', F);
  end

  %% section 'state gradient at the chunk starts': (55) against the recurrent backward
  res(end+1) = lab_row ('derivations', ['aux.dh vs kda_recurrent_bwd on the suffix from each chunk start ', ...
                             '(all transforms, GVA, CuSeqlens, VK)'], dh_vs_suffix (), tcore, ...
                        'eq', 55, 'file', F);
  res(end+1) = lab_row ('derivations', 'aux.dh vs central differences of the loss in the state at each chunk start', ...
                        dh_vs_fd (), 1e-7, 'eq', 55, 'file', F);
end

% ---------------------------------------------------------------- helpers
function baux = core_aux (gdn, e, dO, dST, C)
  % the C core's backward aux for one sequence and head
  out = cell (1, 9);
  if (gdn)
    [out{:}] = gdn_chunk_bwd (e.q, e.k, e.v, e.g(:), e.beta(:), dO, dST, 'InitialState', e.S0, ...
                              'ChunkSize', C, 'Intermediates', true);
  else
    [out{:}] = kda_chunk_bwd (e.q, e.k, e.v, e.g, e.beta(:), dO, dST, 'InitialState', e.S0, ...
                              'ChunkSize', C, 'Intermediates', true);
  end
  baux = out{9};
end

function r = aux_residuals (plain, core, C)
  % worst ratio per group: dh; dv_new, du, dw; dAqk, dA, dA_raw; dG
  r = zeros (1, 4);
  groups = {{}, {'dv_new', 'du', 'dw'}, {'dAqk', 'dA', 'dA_raw'}, {'dG'}};
  for n = 1:numel (plain)
    t0 = core.chunks(n, 2); c = core.chunks(n, 3);
    cols = t0:t0 + c - 1;
    r(1) = max (r(1), la_ratio (plain(n).dh, core.dh(:, :, 1, n)));
    for gi = 2:4
      for f = groups{gi}
        x = core.(f{1});
        if (any (strcmp (f{1}, {'dAqk', 'dA', 'dA_raw'})))
          x = x(1:c, cols).';                         % rows of the c x c matrix
          assert (all (all (core.(f{1})(c + 1:C, cols) == 0)));
        elseif (strcmp (f{1}, 'dG') && size (plain(n).dG, 2) == 1)
          x = x(cols);                                % GDN gate: one per step
          x = x(:);
        else
          x = x(:, cols).';
        end
        r(gi) = max (r(gi), la_ratio (plain(n).(f{1}), x));
      end
    end
  end
end

function r = dh_vs_suffix ()
  % aux.dh of chunk n against dS0 of kda_recurrent_bwd run on the steps from
  % the chunk's start to its sequence's end, starting from the forward's aux.h
  rand ('state', 120); randn ('state', 120);
  K = 4; V = 3; T = 23; HV = 2; cu = [0 9 23];
  q = randn (K, T); k = randn (K, T); v = randn (V, T, HV); g = randn (K, T, HV);
  beta = randn (T, HV); dO = randn (V, T, HV); dST = randn (V, K, HV, 2);
  tf = {'UseQKL2Norm', true, 'L2NormEps', 1e-3, 'GateInKernel', true, 'ALog', [0.1, -0.2], ...
        'DtBias', randn(K, HV), 'BetaSigmoid', true, 'StateLayout', 'VK'};
  all_opts = [tf, {'CuSeqlens', cu, 'InitialState', randn(V, K, HV, 2), 'ChunkSize', 5, ...
                   'Intermediates', true}];
  [~, ~, fa] = kda_chunk (q, k, v, g, beta, all_opts{:});
  out = cell (1, 9);
  [out{:}] = kda_chunk_bwd (q, k, v, g, beta, dO, dST, all_opts{:});
  ba = out{9};
  r = 0;
  for n = 1:size (fa.chunks, 1)
    sq = fa.chunks(n, 1); idx = fa.chunks(n, 2):cu(sq + 1);
    h0 = permute (fa.h(:, :, :, n), [2 1 3]);          % 'VK' outside, K x V in aux
    d = cell (1, 6);
    [d{:}] = kda_recurrent_bwd (q(:, idx), k(:, idx), v(:, idx, :), g(:, idx, :), beta(idx, :), ...
                                dO(:, idx, :), dST(:, :, :, sq), tf{:}, 'InitialState', h0);
    r = max (r, la_ratio (permute (d{6}, [2 1 3]), ba.dh(:, :, :, n)));
  end
end

function r = dh_vs_fd ()
  % <aux.dh, D> against central differences of the loss of the suffix from
  % each chunk start in its entering state S, along a random D (the loss is
  % affine in S, so the differences have no truncation error)
  e = drv_data (5, 4, 30, false, -2, 130);
  rand ('state', 131); randn ('state', 131);
  dO = randn (4, 30); dST = randn (5, 4); C = 8;
  opts = {'InitialState', e.S0, 'ChunkSize', C, 'Intermediates', true};
  [~, ~, fa] = kda_chunk (e.q, e.k, e.v, e.g, e.beta(:), opts{:});
  out = cell (1, 9);
  [out{:}] = kda_chunk_bwd (e.q, e.k, e.v, e.g, e.beta(:), dO, dST, opts{:});
  ba = out{9};
  NC = size (fa.chunks, 1);
  fd = zeros (NC, 1); an = fd;
  for n = 1:NC
    idx = fa.chunks(n, 2):30;
    D = randn (5, 4);
    L = @(S) suffix_loss (e, idx, S, dO, dST, C);
    fd(n) = (L (fa.h(:, :, 1, n) + D) - L (fa.h(:, :, 1, n) - D)) / 2;
    an(n) = sum (sum (ba.dh(:, :, 1, n) .* D));
  end
  r = la_ratio (fd, an);
end

function L = suffix_loss (e, idx, S, dO, dST, C)
  [o, ST] = kda_chunk (e.q(:, idx), e.k(:, idx), e.v(:, idx), e.g(:, idx), e.beta(idx)', ...
                       'InitialState', S, 'ChunkSize', C);
  L = sum (sum (dO(:, idx) .* o)) + sum (sum (dST .* ST));
end
