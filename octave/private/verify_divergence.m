% VERIFY_DIVERGENCE  Where a failing tensor goes wrong (0-based, FLA's indices).
%
%   [where, err_map] = verify_divergence (name, R, tol, problem)
%
%   R: the tensor's error reduced over its channels (verify_reduce).
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
%   else above the bound).  For the tensors the backward sweep carries back
%   in time (verify_carried_back) also the LAST wrong step (chunk): an
%   error that sweep carries begins there and spoils every step before it,
%   while one of the forward state begins at the first.  err_map: the relative error over
%   (step, head) for the heat map, rms over batch and channels (time axis
%   only).

function [where, err_map] = verify_divergence (name, R, tol, problem)
  err_map = [];
  scale = max (sqrt (R.rr / R.n), realmin);
  if (strcmp (R.layout, 'whole'))                       % dA_log, ddt_bias
    d = abs (R.d);
    [~, i] = max (d(:));
    idx = cell (1, ndims (d));
    [idx{:}] = ind2sub (size (d), i);
    where = sprintf ('largest error %.3g at index [%s]', d(i), num2str ([idx{:}] - 1));
    return;
  end
  s2 = R.s2;                                            % sum over channels of d .^ 2
  if (strcmp (R.layout, 'state'))
    H = size (s2, 2);
    per_seq = sqrt (sum (s2, 2) / (H * R.C)) / scale;   % N x 1
    [n, ~] = first_over (per_seq, tol);
    where = sprintf ('first wrong sequence %d (error %.3g x rms)%s', n - 1, per_seq(n), ...
                     heads_over (s2, 2, R.C, scale, tol));
    return;
  end
  H = size (s2, 3);
  per_step = sqrt (sum (s2, 3) / (H * R.C)) / scale;     % B x T (or B x NT)
  if (any (strcmp (name, {'h', 'dh'})))
    [b, n] = first_over (per_step, tol);
    [seq, chunk] = chunk_of (b, n, problem);
    where = sprintf ('first wrong state: sequence %d, chunk %d (error %.3g x rms)', ...
                     seq, chunk, per_step(b, n));
    if (verify_carried_back (name))
      [b, n] = last_over (per_step, tol);
      [seq, chunk] = chunk_of (b, n, problem);
      where = sprintf (['%s; last wrong state (where an error the backward sweep carries ' ...
                        'back begins): sequence %d, chunk %d (error %.3g x rms)'], ...
                       where, seq, chunk, per_step(b, n));
    end
    where = [where heads_over(s2, 3, R.C, scale, tol)];
    return;
  end
  err_map = reshape (sqrt (sum (s2, 1) / (size (s2, 1) * R.C)) / scale, size (s2, 2), H);
  [b, t] = first_over (per_step, tol);
  where = ['first divergence: ' step_text(R, per_step, b, t, problem)];
  if (verify_carried_back (name))
    [b, t] = last_over (per_step, tol);
    where = sprintf (['%s; last wrong step (where an error the backward sweep carries ' ...
                      'back begins): %s'], where, step_text (R, per_step, b, t, problem));
  end
  where = [where heads_over(s2, 3, R.C, scale, tol)];
end


function s = step_text (R, per_step, b, t, problem)
  % 'sequence 1, chunk 0, step 3 of the chunk (t = 3 of the sequence), head 1,
  % channel 2 (error 0.5, 1.2 x rms)' for step t of batch entry b
  [seq, t0] = sequence_of (b, t, problem.cu_seqlens);
  step = t - t0;                                      % 0-based in the sequence
  [err, h] = max (reshape (R.mx(b, t, :), [], 1));
  c = R.arg(b, t, h);
  s = sprintf (['sequence %d, chunk %d, step %d of the chunk (t = %d of the sequence), ' ...
                'head %d, channel %d (error %.3g, %.3g x rms)'], ...
               seq, floor (step / problem.chunk_size), mod (step, problem.chunk_size), ...
               step, h - 1, c - 1, err, per_step(b, t));
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

function s = heads_over (s2, dim, C, scale, tol)
  % '; failing heads: 0, 2' for the heads (dimension dim of s2) above tol
  per_head = s2;
  for k = setdiff (1:ndims (s2), dim)
    per_head = sum (per_head, k);
  end
  per_head = sqrt (per_head(:) / (numel (s2) / size (s2, dim) * C)) / scale;
  bad = find (per_head > tol) - 1;
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
