function [rows, figs] = lab_state_map (mode, figdir)
% LAB_STATE_MAP  The context-parallel state map: maps of any split merge to the whole.
%
%   [rows, figs] = lab_state_map (mode, figdir)
%
%   Checks the equations of docs/state_map.md, in double, for KDA and GDN,
%   with grouped value heads (H = 2, HV = 4); every whole-sequence result
%   comes from the independent plain-Octave reference ref_forward.  The
%   sections (comment lines %% section '...'):
%     'product'   (SM1)-(SM4): P is the product of the steps' transitions,
%                 R the final state from zero; one chunk's P in the WY form
%     'merge'     (SM5): the maps of a split, merged from S_0, give the
%                 whole sequence's final state, for splits into 1 to 8
%                 segments (segments of one step, cuts inside and at chunk
%                 ends), varlen batches whose sequences are split again,
%                 'VK' states and gates of -30
%     'outputs'   (SM6): each segment's chunked o from its merged entering
%                 state equals the whole sequence's o
%     'backward'  (SM7): the segments' backward, chained through P_n',
%                 equals the whole sequence's gradients; and the map's
%                 backward against central differences, all transforms on
%     'segments'  the merged state's error over the number of segments, in
%                 double (checked) and single (information), with a figure
%   Bounds: 1e-10 for comparisons with the C core in double, 1e-6 for the
%   central differences through every transform (docs/README.md).

  rows = lab_row ();
  for op = {'kda', 'gdn'}
    rows = [rows, product_rows(op{1}), merge_rows(op{1}, mode), output_rows(op{1}), ...
            backward_rows(op{1})];
  end
  [r, R, nsegs] = segment_rows (mode);
  rows = [rows, r];
  figs = plot_segments (nsegs, R, figdir);
end

function row = check (name, value, bound, detail)
  if (nargin < 4)
    detail = '';
  end
  row = lab_row ('state map', name, value, bound, detail);
end

function [q, k, v, g, beta] = problem (op, T, strength)
  % K = 6, V = 5, H = 2, HV = 4: K ~= V and grouped value heads.  Mild
  % gates (strength < 0.1) come with small write strengths too, so that
  % over a few hundred steps S_0 still weighs in S_T and P is tested
  [q, k, v, g, beta] = rand_qkvgb (op, 6, 5, T, 2, 4, 1, strength);
  if (strength < 0.1)
    beta = beta / 20;
  end
end

function M = transition (op, k, g, beta, t, j, HV)
  % one step's K x K transition (I - beta k k') Diag (exp (g)) of value head j
  K = size (k, 1);
  h = floor ((j - 1) / (HV / size (k, 3))) + 1;
  if (strcmp (op, 'kda'))
    a = exp (g(:, t, j));
  else
    a = exp (g(t, j)) * ones (K, 1);
  end
  M = (eye (K) - beta(t, j) * k(:, t, h) * k(:, t, h)') * diag (a);
end

%% section 'product'
function rows = product_rows (op)
  T = 37;
  [q, k, v, g, beta] = problem (op, T, 1);
  [P, R] = feval ([op '_state_map'], q, k, v, g, beta, 'ChunkSize', 16);
  HV = size (v, 3);
  P_ref = zeros (size (P));
  for j = 1:HV
    M = eye (size (k, 1));
    for t = 1:T
      M = transition (op, k, g, beta, t, j, HV) * M;
    end
    P_ref(:, :, j) = M;
  end
  [~, R_ref] = ref_forward (op, q, k, v, g, beta);
  rows = [chunk_factor_row(op), ...
          check(sprintf ('(SM1)-(SM3) %s: P = M_T ... M_1 (plain Octave), T = %d, C = 16', op, T), ...
                la_ratio (P_ref, P), 1e-10), ...
          check(sprintf ('(SM2), (SM3) %s: R = final state from S_0 = 0 (ref_forward)', op), ...
                la_ratio (R_ref, R), 1e-10)];
end

function row = chunk_factor_row (op)
  % one chunk of c = 16 steps: P = Diag (gamma) - K_C' w, with w and the
  % cumulative gates G from 'Intermediates' (SM4)
  c = 16;
  [q, k, v, g, beta] = problem (op, c, 1);
  [~, ~, aux] = feval ([op '_chunk'], q, k, v, g, beta, 'ChunkSize', c, 'Intermediates', true);
  P = feval ([op '_state_map'], q, k, v, g, beta);
  K = size (k, 1);  HV = size (v, 3);
  P_wy = zeros (size (P));
  for j = 1:HV
    h = floor ((j - 1) / (HV / size (k, 3))) + 1;
    if (strcmp (op, 'kda'))
      G = aux.G(:, :, j);                  % K x c, column i = G_i
    else
      G = repmat (aux.G(:, j)', K, 1);
    end
    KC = (exp (G(:, c) - G) .* k(:, :, h))';   % c x K, row i = e^{G_c - G_i} k_i'
    P_wy(:, :, j) = diag (exp (G(:, c))) - KC' * aux.w(:, :, j)';
  end
  row = check (sprintf ('(SM4) %s: one chunk''s P = Diag(gamma) - K_C'' w (Intermediates)', op), ...
               la_ratio (P_wy, P), 1e-10);
end

%% section 'merge'
function rows = merge_rows (op, mode)
  T = 200;
  random_cuts = sort ([0, randperm(T - 1, 7), T]);
  splits = {[0 T], [0 100 T], [0 1 2 3 T], [0 32 64 65 150 T], random_cuts};
  names = {'1 segment', '2 segments', '1-step segments', 'cuts at and beside chunk ends', ...
           '8 random segments'};
  if (strcmp (mode, 'quick'))
    splits = splits([2 4]);  names = names([2 4]);
  end
  rows = lab_row ();
  for strength = [0.02 30]     % mild: P S_0 stays of the size of R; strong
    [q, k, v, g, beta] = problem (op, T, strength);
    S0 = randn (6, 5, 4);
    [~, S_ref] = ref_forward (op, q, k, v, g, beta, 'InitialState', S0);
    for i = 1:numel (splits)
      [P, R] = feval ([op '_state_map'], q, k, v, g, beta, 'CuSeqlens', splits{i}, ...
                      'ChunkSize', 32);
      % how much S_0 still weighs in S_T: the part the P_n must carry
      weight = la_ratio (S_ref, la_state_map_merge (P, R));
      rows(end+1) = check (sprintf ('(SM5) %s, gates -%g rand: merge of %s = whole S_T', ...
                                    op, strength, names{i}), ...
                           la_ratio (S_ref, la_state_map_merge (P, R, S0)), 1e-10, ...
                           sprintf ('S_T without S_0 differs by %.2g', weight));
    end
  end
  rows = [rows, varlen_row(op, T), vk_row(op, T)];
end

function row = varlen_row (op, T)
  % three sequences of a batch (CuSeqlens), each split again into segments
  seqs = [0 70 71 T];
  cuts = [0 20 70 71 100 101 160 T];
  [q, k, v, g, beta] = problem (op, T, 0.02);
  S0 = randn (6, 5, 4, 3);
  [~, S_ref] = ref_forward (op, q, k, v, g, beta, 'CuSeqlens', seqs, 'InitialState', S0);
  [P, R] = feval ([op '_state_map'], q, k, v, g, beta, 'CuSeqlens', cuts, 'ChunkSize', 16);
  S = zeros (size (S_ref));
  for n = 1:3      % the segments of sequence n: the cuts in [seqs(n), seqs(n+1))
    in = find (cuts >= seqs(n) & cuts < seqs(n + 1));
    S(:, :, :, n) = la_state_map_merge (P(:, :, :, in), R(:, :, :, in), S0(:, :, :, n));
  end
  row = check (sprintf ('(SM5) %s, varlen: 3 sequences split into 7 segments, merged', op), ...
               la_ratio (S_ref, S), 1e-10);
end

function row = vk_row (op, T)
  [q, k, v, g, beta] = problem (op, T, 0.02);
  S0 = randn (5, 6, 4);      % V x K
  [~, S_ref] = ref_forward (op, q, k, v, g, beta, 'InitialState', S0, 'StateLayout', 'VK');
  [P, R] = feval ([op '_state_map'], q, k, v, g, beta, 'CuSeqlens', [0 50 130 T], ...
                  'StateLayout', 'VK');
  row = check (sprintf ('(SM5) %s, ''VK'' states: merge of 3 segments = whole S_T', op), ...
               la_ratio (S_ref, la_state_map_merge (P, R, S0, 'VK')), 1e-10);
end

%% section 'outputs'
function rows = output_rows (op)
  T = 150;  cuts = [0 40 41 100 T];
  rows = lab_row ();
  for strength = [0.02 30]     % mild: P S_0 stays of the size of R; strong
    [q, k, v, g, beta] = problem (op, T, strength);
    S0 = randn (6, 5, 4);
    o_ref = ref_forward (op, q, k, v, g, beta, 'InitialState', S0);
    [P, R] = feval ([op '_state_map'], q, k, v, g, beta, 'CuSeqlens', cuts);
    [~, S_in] = la_state_map_merge (P, R, S0);
    o = zeros (size (o_ref));
    for n = 1:numel (cuts) - 1
      t = cuts(n) + 1:cuts(n + 1);
      o(:, t, :) = feval ([op '_chunk'], q(:, t, :), k(:, t, :), v(:, t, :), ...
                          gate_steps (op, g, t), beta(t, :), 'ChunkSize', 16, ...
                          'InitialState', S_in(:, :, :, n));
    end
    rows(end+1) = check (sprintf (['(SM6) %s, gates -%g rand: o of 4 segments from ' ...
                                   'their merged entering states = whole o'], op, strength), ...
                         la_ratio (o_ref, o), 1e-10);
  end
end

function gt = gate_steps (op, g, t)
  if (strcmp (op, 'kda'))
    gt = g(:, t, :);
  else
    gt = g(t, :);
  end
end

%% section 'backward'
function rows = backward_rows (op)
  % L = <W, S_T> of the whole sequence, from its segments: the gradient
  % reaching segment n's end, dS_n, gives dR_n = dS_n, dP_n = dS_n S_in_n'
  % and passes on P_n' dS_n (SM7)
  T = 120;  cuts = [0 30 31 90 T];  N = numel (cuts) - 1;
  [q, k, v, g, beta] = problem (op, T, 0.05);
  S0 = randn (6, 5, 4);  W = randn (6, 5, 4);
  whole = cell (1, 6);
  [~, whole{:}] = feval ([op '_chunk_bwd'], q, k, v, g, beta, zeros (size (v)), W, ...
                         'InitialState', S0);
  [P, R] = feval ([op '_state_map'], q, k, v, g, beta, 'CuSeqlens', cuts);
  [~, S_in] = la_state_map_merge (P, R, S0);
  dP = zeros (size (P));  dR = zeros (size (R));  dS = W;
  for n = N:-1:1
    dR(:, :, :, n) = dS;
    for j = 1:size (P, 3)
      dP(:, :, j, n) = dS(:, :, j) * S_in(:, :, j, n)';
      dS(:, :, j) = P(:, :, j, n)' * dS(:, :, j);
    end
  end
  seg = cell (1, 4);
  [seg{:}] = feval ([op '_state_map_bwd'], q, k, v, g, beta, dP, dR, 'CuSeqlens', cuts);
  names = {'dk', 'dv', 'dg', 'dbeta', 'dS0'};
  r = cellfun (@la_ratio, whole(1:5), [seg, {dS}]);
  [worst, at] = max (r);
  rows = check (sprintf (['(SM7) %s: gradients of <W, S_T> from 4 segments'' backward ' ...
                          '= whole sequence''s (worst: %s)'], op, names{at}), worst, 1e-10);
  % the map's own backward against differences, every transform on
  K = 6;  HV = 4;
  opts = {'UseQKL2Norm', true, 'GateInKernel', true, 'ALog', randn(HV, 1) / 4, ...
          'BetaSigmoid', true, 'AllowNegEigval', true, 'CuSeqlens', [0 7 16], 'ChunkSize', 4};
  if (strcmp (op, 'kda'))
    opts = [opts, {'DtBias', randn(K, HV) / 4}];
  else
    opts = [opts, {'DtBias', randn(HV, 1) / 4}];
  end
  [q, k, v, g, beta] = problem (op, 16, 1);
  g = randn (size (g));  beta = randn (size (beta));
  [err, names] = fd_state_map (op, q, k, v, g, beta, randn (K, K, HV, 2), ...
                               randn (K, 5, HV, 2), opts);
  [worst, at] = max (err);
  rows(end+1) = check (sprintf (['(SM7) %s: state-map backward vs central differences, ' ...
                                 'all transforms, varlen (worst: d%s)'], op, names{at}), ...
                       worst, 1e-6);
end

%% section 'segments'
function [rows, R, nsegs] = segment_rows (mode)
  % the merged state's error over the number of segments, KDA, T = 512
  T = 512;  nsegs = [1 2 4 8 16 32 64];
  if (strcmp (mode, 'quick'))
    nsegs = [1 8 64];
  end
  [q, k, v, g, beta] = problem ('kda', T, 0.01);
  S0 = randn (6, 5, 4);
  [~, S_ref] = ref_forward ('kda', q, k, v, g, beta, 'InitialState', S0);
  R = zeros (numel (nsegs), 2);      % [double, single]
  rows = lab_row ();
  for i = 1:numel (nsegs)
    cuts = round (linspace (0, T, nsegs(i) + 1));
    [P, Rd] = kda_state_map (q, k, v, g, beta, 'CuSeqlens', cuts);
    R(i, 1) = la_ratio (S_ref, la_state_map_merge (P, Rd, S0));
    [P, Rs] = kda_state_map (single (q), single (k), single (v), single (g), ...
                             single (beta), 'CuSeqlens', cuts);
    R(i, 2) = la_ratio (S_ref, la_state_map_merge (P, Rs, single (S0)));
    rows(end+1) = check (sprintf ('(SM5) kda, T = %d in %d equal segments, double', T, ...
                                  nsegs(i)), R(i, 1), 1e-10);
    rows(end+1) = check (sprintf ('(SM5) kda, T = %d in %d equal segments, single', T, ...
                                  nsegs(i)), R(i, 2), NaN, 'information');
  end
end

function figs = plot_segments (nsegs, R, figdir)
  file = 'state_map_segments.png';
  figs = struct ('file', file, 'caption', ...
    ['Error of the merged final state (la_state_map_merge of the kda_state_map of each ' ...
     'segment) against the whole sequence''s (ref_forward), KDA, T = 512, K = 6, V = 5, ' ...
     'HV = 4, over the number of equal segments; single solid, double dashed, the bound ' ...
     'of double results in orange.  The error does not grow with the number of segments: ' ...
     'merging is as accurate as running through.']);
  if (isempty (figdir))
    return;
  end
  st = lab_styles ();
  sty = st.kda_chunk;
  h = figure ('visible', 'off', 'position', [0 0 800 400]);
  loglog (nsegs, max (R(:, 2), 1e-18), [st.single_line sty.marker], 'color', sty.color, ...
          'markerfacecolor', sty.color, 'linewidth', 1.2);
  hold on;
  loglog (nsegs, max (R(:, 1), 1e-18), [st.double_line sty.marker], 'color', sty.color, ...
          'markerfacecolor', sty.color, 'linewidth', 1.2);
  loglog ([nsegs(1) nsegs(end)], [1e-10 1e-10], '-', 'color', st.bound_color, 'linewidth', 2);
  text (nsegs(1), 3e-10, ' bound 1e-10 (double)', 'color', st.bound_color);
  hold off;
  grid on;
  set (gca, 'xtick', nsegs, 'xticklabel', arrayfun (@num2str, nsegs, 'UniformOutput', false));
  xlim ([0.8, 1.25 * nsegs(end)]);
  ylim ([1e-17, 1e-3]);
  xlabel ('number of segments');
  ylabel ('rms(ref - S) / rms(ref)');
  title ('merged final state vs the whole sequence, KDA, T = 512');
  legend ({'single', 'double'}, 'location', 'east');
  print (h, '-dpng', '-r80', fullfile (figdir, file));
  close (h);
end

