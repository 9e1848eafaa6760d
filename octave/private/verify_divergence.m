% VERIFY_DIVERGENCE  Where a failing tensor first goes wrong (0-based, FLA's indices).
%
%   [where, err_map] = verify_divergence (name, ref, x, tol, problem)
%
%   For tensors with a step axis ([B, T, heads, ...]) the first step, in
%   order of batch then time, whose error rms over heads and channels
%   exceeds tol * rms(ref) of the whole tensor, named by sequence (batch
%   entry or cu_seqlens segment), chunk and step inside the sequence, with
%   the head and channel of the largest error there; err_map is that
%   relative error over (step, head), rms over batch and channels.  For
%   states and per-chunk states the entry of the largest error.

function [where, err_map] = verify_divergence (name, ref, x, tol, problem)
  err_map = [];
  d = abs (ref - x);
  d(isnan (d)) = Inf;
  scale = max (norm (ref(:)) / sqrt (numel (ref)), realmin);
  if (~has_steps (name))
    [~, i] = max (d(:));
    idx = cell (1, ndims (d));
    [idx{:}] = ind2sub (size (d), i);
    where = sprintf ('largest error %.3g at index [%s]', d(i), num2str ([idx{:}] - 1));
    return;
  end
  sz = [size(d), 1, 1];
  d3 = reshape (d, sz(1), sz(2), sz(3), []);             % B, T, heads, channels
  per_step = sqrt (mean (mean (d3 .^ 2, 4), 3)) / scale; % B x T
  err_map = reshape (sqrt (mean (mean (d3 .^ 2, 4), 1)) / scale, sz(2), sz(3));  % T x heads
  [bs, ts] = find (per_step > tol);
  if (isempty (bs))
    [~, i] = max (per_step(:));
    [bs, ts] = ind2sub (size (per_step), i);
  end
  order = sortrows ([bs(:), ts(:)]);
  b = order(1, 1);
  t = order(1, 2);
  [seq, t0] = sequence_of (b, t, problem.cu_seqlens);
  step = t - t0;                                         % 0-based in the sequence
  [~, hc] = max (reshape (d3(b, t, :, :), [], 1));
  [h, c] = ind2sub ([sz(3), size(d3, 4)], hc);
  where = sprintf (['first divergence: sequence %d, chunk %d, step %d of the chunk ' ...
                    '(t = %d of the sequence), head %d, channel %d (error %.3g, %.3g x rms)'], ...
                   seq, floor (step / problem.chunk_size), mod (step, problem.chunk_size), ...
                   step, h - 1, c - 1, d3(b, t, h, c), per_step(b, t));
end

function yes = has_steps (name)
  yes = ~any (strcmp (name, {'ht', 'dh0', 'h', 'dh', 'dA_log', 'ddt_bias'}));
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
