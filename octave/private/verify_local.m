% VERIFY_LOCAL  Judge a tensor's error window by window against a correct kernel's there.
%
%   [level, where, score] = verify_local (name, ref, x, e, warn_tol, problem)
%   [level, where, score] = verify_local (name, R, warn_tol, problem)
%
%   ref: the double reference, x: the dump's tensor, e: ref minus the
%   emulated kernel of the dump's dtype (verify_expected), all in FLA
%   layout; warn_tol: the tensor's global warn bound (verify_tolerance).
%   R: the same reduced over channels (verify_reduce), as kda_verify
%   keeps it for a dump checked slice by slice.
%   A bug confined to one step of one head can leave the global ratio
%   rms(ref - x)/rms(ref) under its bound; here the error is measured in
%   windows, in units of the tensor's rms:
%     tensors with a time axis ([B, T, heads, ...])  every (sequence,
%         chunk, head), and every (sequence, step, head) when a step has
%         more than one value (not beta, dbeta, GDN's g, dg)
%     per-chunk states h, dh ([B, NT, HV, K, V])  every (chunk, head)
%     states ht, dh0 ([N, HV, K, V])  every (sequence, head)
%   A window's score is its error over the emulated kernel's error in the
%   same window (at least FLOOR times the emulated kernel's global error,
%   so that a window where the emulation happens to be nearly exact does
%   not count); only windows whose error is above warn_tol count.
%     level 'fail'  the worst score above FAIL (16)
%           'warn'  above WARN (8)
%   calibrated on correct kernels written independently of the library
%   (validation/lab/lab_verify_calibration.m; docs/verify.md section 4).
%   where: the first window above WARN in order of sequence and time (for
%   gradients also the last: their errors flow backward in time) and the
%   worst score, as FLA's 0-based indices; score: the worst score (0 when
%   no window counts).

function [level, where, score] = verify_local (name, varargin)
  [WARN, FAIL, FLOOR] = deal (8, 16, 0.5);
  level = 'pass';
  where = '';
  score = 0;
  if (numel (varargin) == 5)               % (name, ref, x, e, warn_tol, problem)
    [ref, x, e, warn_tol, problem] = deal (varargin{:});
    if (isempty (e))
      return;
    end
    R = verify_reduce (name, ref, x, e, problem);
    clear ref x e;
  else                                     % (name, R, warn_tol, problem)
    [R, warn_tol, problem] = deal (varargin{:});
  end
  try
    kind = la_fla_kind (name, problem.op, problem.state_v_first);
  catch
    return;                                % a tensor without windows
  end
  scale = sqrt (R.rr / max (1, R.n));
  if (~(scale > 0) || isempty (R.e2) || R.bad)
    return;
  end
  floor_ = FLOOR * sqrt (R.ee / R.n) / scale;
  fams = windows (kind, size (R.s2), R.C, problem);
  hits = zeros (0, 5);                     % [score, family, window, order keys]
  for f = 1:numel (fams)
    id = fams(f).id(:);
    n = accumarray (id, 1) * R.C;
    m = sqrt (accumarray (id, R.s2(:)) ./ n) / scale;
    en = sqrt (accumarray (id, R.e2(:)) ./ n) / scale;
    s = m ./ max (en, floor_);
    s(~(m > warn_tol)) = 0;                % below the global warn bound: fine
    score = max ([score; s]);
    w = find (s > WARN);
    hits = [hits; s(w), repmat(f, numel (w), 1), w, fams(f).order(w, :)];  %#ok<AGROW>
  end
  if (score <= WARN)
    return;
  end
  level = 'warn';
  if (score > FAIL)
    level = 'fail';
  end
  hits = sortrows (hits, [4 5]);           % in order of sequence, then time
  text = @(h) sprintf ('%s (error %.3g x a correct kernel''s there)', fams(h(2)).name (h(3)), h(1));
  where = sprintf ('local check, first window above %g x: %s', WARN, text (hits(1, :)));
  if (verify_carried_back (name))
    where = sprintf (['%s; last (where an error the backward sweep carries back ' ...
                      'begins): %s'], where, text (hits(end, :)));
  end
  where = sprintf (['%s; worst %.3g x (warn above %g x, fail above %g x the emulated ' ...
                    'kernel''s error in the window)'], where, score, WARN, FAIL);
end

function fams = windows (kind, sz, C, problem)
  % window families over the reduced entries (verify_reduce: [B, T, heads]
  % or [N, HV], each the sum over C channels): id, an array of sz
  % numbering the windows from 1; name (w), the text of window w; order,
  % one row per window: [sequence (or batch entry), first step (or chunk)]
  sz(end + 1:3) = 1;
  fams = struct ('id', {}, 'name', {}, 'order', {});
  switch (kind)
    case {'qk', 'v', 'gk', 'tri', 'bt'}
      [B, T, H] = deal (sz(1), sz(2), sz(3));
      [seq, t0] = sequences (B, T, problem.cu_seqlens);   % B x T, 0-based
      step = repmat (0:T - 1, B, 1) - t0;
      chunk = floor (step / problem.chunk_size);
      nc = max (chunk(:)) + 1;
      key = seq * nc + chunk;                            % B x T, 0-based
      [u, ~, j] = unique (key(:));
      cid = reshape (j, B, T) + numel (u) * reshape (0:H - 1, 1, 1, H);   % B x T x H
      order = @(id) [accumarray(id(:), repmat (seq(:), H, 1), [], @min), ...
                     accumarray(id(:), repmat (step(:), H, 1), [], @min)];
      fams(end + 1) = struct ('id', cid, 'name', @(w) chunk_name (w, u, nc, H), ...
                              'order', order (cid));
      if (C > 1)
        sid = reshape (1:B * T, B, T) + B * T * reshape (0:H - 1, 1, 1, H);
        fams(end + 1) = struct ('id', sid, ...
                                'name', @(w) step_name (w, B, T, H, seq, step, problem.chunk_size), ...
                                'order', [repmat(seq(:), H, 1), repmat(step(:), H, 1)]);
      end
    case 'chunkstate'
      R = sz(1) * sz(2);
      id = reshape (1:R * sz(3), sz(1), sz(2), sz(3));
      [b, c] = ndgrid (0:sz(1) - 1, 0:sz(2) - 1);
      fams(1) = struct ('id', id, ...
                        'name', @(w) sprintf ('chunk %d of batch entry %d, head %d', ...
                                              floor (mod (w - 1, R) / sz(1)), mod (w - 1, sz(1)), ...
                                              floor ((w - 1) / R)), ...
                        'order', repmat ([b(:), c(:)], sz(3), 1));
    case 'state'
      id = reshape (1:sz(1) * sz(2), sz(1), sz(2));
      fams(1) = struct ('id', id, ...
                        'name', @(w) sprintf ('sequence %d, head %d', mod (w - 1, sz(1)), ...
                                              floor ((w - 1) / sz(1))), ...
                        'order', [repmat((0:sz(1) - 1)', sz(2), 1), zeros(sz(1) * sz(2), 1)]);
  end
end

function [seq, t0] = sequences (B, T, cu)
  % per (batch entry, step): the 0-based sequence and the 0-based first step of it
  if (isempty (cu))
    seq = repmat ((0:B - 1)', 1, T);
    t0 = zeros (B, T);
  else
    t = 0:T - 1;
    seq = sum (cu(:) <= t, 1) - 1;        % the last sequence starting at or before t
    t0 = cu(seq + 1);
  end
end

function s = chunk_name (w, u, nc, H)
  key = u(mod (w - 1, numel (u)) + 1);
  s = sprintf ('sequence %d, chunk %d, head %d', floor (key / nc), mod (key, nc), ...
               floor ((w - 1) / numel (u)));
end

function s = step_name (w, B, T, H, seq, step, C)
  bt = mod (w - 1, B * T) + 1;
  [b, t] = ind2sub ([B, T], bt);
  s = sprintf ('sequence %d, chunk %d, step %d of the chunk (t = %d of the sequence), head %d', ...
               seq(b, t), floor (step(b, t) / C), mod (step(b, t), C), step(b, t), ...
               floor ((w - 1) / (B * T)));
end
