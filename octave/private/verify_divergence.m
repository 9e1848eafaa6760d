% VERIFY_DIVERGENCE  Where a failing tensor goes wrong (0-based, FLA's indices).
%
%   [where, err_map] = verify_divergence (name, ref, x, tol, problem)
%
%   Errors are measured against tol * rms(ref) of the whole tensor.
%     time axis ([B, T, heads, ...]): the first step, in order of sequence
%       (batch entry or cu_seqlens segment) then time, whose error rms over
%       heads and channels exceeds it, named by sequence, chunk, step in the
%       chunk, with the head and channel of the largest error there
%     per-chunk states h, dh ([B, NT, HV, K, V]): the first wrong (sequence,
%       chunk)
%     states ht, dh0, dht ([N, HV, K, V]): the first wrong sequence
%     others (dA_log, ddt_bias): the entry of the largest error
%   and, for the first three, every failing head (error rms over everything
%   else above the bound).  For gradients (dq, dk, dv, dg, dbeta, the
%   backward's intermediates) and dh also the LAST wrong step (chunk),
%   said to be where the error starts: a gradient's error flows backward
%   in time, so the first wrong step lies before the bug.  err_map: the relative error over (step, head)
%   for the heat map, rms over batch and channels (time axis only).

function [where, err_map] = verify_divergence (name, ref, x, tol, problem)
  err_map = [];
  d = abs (ref - x);
  d(isnan (d)) = Inf;
  scale = max (norm (ref(:)) / sqrt (numel (ref)), realmin);
  sz = [size(d), 1, 1];
  if (any (strcmp (name, {'h', 'dh'})))
    d3 = reshape (d, sz(1), sz(2), sz(3), []);          % B, NT, HV, K*V
    per_chunk = sqrt (mean (mean (d3 .^ 2, 4), 3)) / scale;
    [b, n] = first_over (per_chunk, tol);
    [seq, chunk] = chunk_of (b, n, problem);
    where = sprintf ('first wrong state: sequence %d, chunk %d (error %.3g x rms)', ...
                     seq, chunk, per_chunk(b, n));
    if (strcmp (name, 'dh'))
      [b, n] = last_over (per_chunk, tol);
      [seq, chunk] = chunk_of (b, n, problem);
      where = sprintf (['%s; last wrong state (a gradient flows backward in time: its error ' ...
                        'starts here): sequence %d, chunk %d (error %.3g x rms)'], ...
                       where, seq, chunk, per_chunk(b, n));
    end
    where = [where heads_over(d3, 3, scale, tol)];
  elseif (any (strcmp (name, {'ht', 'dh0', 'dht'})))
    d3 = reshape (d, sz(1), sz(2), []);                 % N, HV, K*V
    per_seq = sqrt (mean (mean (d3 .^ 2, 3), 2)) / scale;
    [n, ~] = first_over (per_seq, tol);
    where = sprintf ('first wrong sequence %d (error %.3g x rms)%s', n - 1, per_seq(n), ...
                     heads_over (d3, 2, scale, tol));
  elseif (any (strcmp (name, {'dA_log', 'ddt_bias'})))
    [~, i] = max (d(:));
    idx = cell (1, ndims (d));
    [idx{:}] = ind2sub (size (d), i);
    where = sprintf ('largest error %.3g at index [%s]', d(i), num2str ([idx{:}] - 1));
  else
    d3 = reshape (d, sz(1), sz(2), sz(3), []);          % B, T, heads, channels
    per_step = sqrt (mean (mean (d3 .^ 2, 4), 3)) / scale;
    err_map = reshape (sqrt (mean (mean (d3 .^ 2, 4), 1)) / scale, sz(2), sz(3));
    [b, t] = first_over (per_step, tol);
    where = ['first divergence: ' step_text(d3, per_step, b, t, problem)];
    if (is_gradient (name))
      [b, t] = last_over (per_step, tol);
      where = sprintf (['%s; last wrong step (a gradient flows backward in time: its error ' ...
                        'starts here): %s'], where, step_text (d3, per_step, b, t, problem));
    end
    where = [where heads_over(d3, 3, scale, tol)];
  end
end

function tf = is_gradient (name)
  % the gradients and the backward's intermediates: errors flow backward in time
  tf = any (strcmp (name, {'dq', 'dk', 'dv', 'dg', 'dbeta', 'db', 'dgk', 'dgv', 'dAqk', ...
                           'dAkk', 'dw', 'du', 'dv_new'}));
end

function s = step_text (d3, per_step, b, t, problem)
  % 'sequence 1, chunk 0, step 3 of the chunk (t = 3 of the sequence), head 1,
  % channel 2 (error 0.5, 1.2 x rms)' for step t of batch entry b
  [seq, t0] = sequence_of (b, t, problem.cu_seqlens);
  step = t - t0;                                      % 0-based in the sequence
  [~, hc] = max (reshape (d3(b, t, :, :), [], 1));
  [h, c] = ind2sub ([size(d3, 3), size(d3, 4)], hc);
  s = sprintf (['sequence %d, chunk %d, step %d of the chunk (t = %d of the sequence), ' ...
                'head %d, channel %d (error %.3g, %.3g x rms)'], ...
               seq, floor (step / problem.chunk_size), mod (step, problem.chunk_size), ...
               step, h - 1, c - 1, d3(b, t, h, c), per_step(b, t));
end


function [i, j] = first_over (e, tol)
  % the first entry (rows first: sequence, then time or chunk) above tol,
  % else the largest
  [i, j] = over (e, tol, 1);
end

function [i, j] = last_over (e, tol)
  % the last entry above tol (in the same order), else the largest
  [i, j] = over (e, tol, 0);
end

function [i, j] = over (e, tol, first)
  [is, js] = find (e > tol);
  if (isempty (is))
    [~, k] = max (e(:));
    [is, js] = ind2sub (size (e), k);
  end
  order = sortrows ([is(:), js(:)]);
  if (first)
    order = order(1, :);
  else
    order = order(end, :);
  end
  i = order(1);
  j = order(2);
end

function s = heads_over (d, dim, scale, tol)
  % '; failing heads: 0, 2' for the heads (dimension dim) above tol
  others = setdiff (1:ndims (d), dim);
  e = d .^ 2;
  for k = others
    e = mean (e, k);
  end
  bad = find (sqrt (e(:)) / scale > tol) - 1;
  s = '';
  if (~isempty (bad))
    s = sprintf ('; failing heads: %s', strjoin (arrayfun (@num2str, bad(:)', ...
                                                         'UniformOutput', false), ', '));
  end
end

function [seq, chunk] = chunk_of (b, n, problem)
  % 0-based sequence and chunk of chunk n (1-based) of batch entry b
  cu = problem.cu_seqlens;
  if (isempty (cu))
    seq = b - 1;
    chunk = n - 1;
    return;
  end
  first = [0, cumsum(ceil (diff (cu) / problem.chunk_size))];   % chunks before each sequence
  seq = find (first < n, 1, 'last') - 1;
  chunk = n - 1 - first(seq + 1);
end

function [seq, t0] = sequence_of (b, t, cu)
  % 0-based sequence number and 1-based first step of the sequence holding t
  if (isempty (cu))
    seq = b - 1;
    t0 = 1;
  else
    seq = find (cu < t, 1, 'last') - 1;
    t0 = cu(seq + 1) + 1;
  end
end
