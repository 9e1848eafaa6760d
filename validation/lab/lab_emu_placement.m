function res = lab_emu_placement (op, fmt, dir, changes, T)
% LAB_EMU_PLACEMENT  Does 'Emulate' round where docs/emulation.md says?  The core against the emulated reference.
%
%   res = lab_emu_placement (op, fmt, dir, changes, T)
%
%   op 'kda' or 'gdn'; fmt 'bf16' or 'fp16'; dir 'fwd' (kda_chunk /
%   gdn_chunk: o and the final state) or 'bwd' (the chunked backward: dq,
%   dk, dv, dg, dbeta and dh0); changes a cell of changes the reference
%   knows (drv_chunk_fwd, drv_chunk_bwd: 'no QG', ..., 'state from h',
%   'carry rounded dh'); T steps (chunks of 32, K = 16, V = 12, two
%   heads; the reference runs head 1).  The core runs in single with
%   'Emulate', fmt; the reference is the plain chunked one of
%   validation/derivation with fmt, which rounds exactly the tensors of
%   docs/emulation.md.  Bounds (la_ratio of each tensor): forward, o
%   eps_f / 16 and S eps_f / 32 (eps_f = 2^-8 bf16, 2^-11 fp16: what a
%   stored value on the other side of a rounding boundary makes, a v_new
%   of one step feeding the state); backward (bf16
%   only: fp16's last rounding already moves dbeta by 1e-4), the gradients
%   eps_f / 32 and dh0 2e-5.
%   res(1): the core against the reference, value max (error / bound)
%   over the tensors, bound 1.  res(1 + j): the reference with changes{j}
%   against the core, value 1 / max (error / bound): at most 1 when the
%   change breaks a bound (the bound is tight enough to see it).

  here = fileparts (mfilename ('fullpath'));
  addpath (fullfile (here, '..', 'derivation'));
  rand ('seed', 3);  randn ('seed', 3);
  K = 16;  V = 12;  H = 2;  C = 32;  s = single (1 / sqrt (K));
  sg = @(x) single (x);
  q = randn (K, T, H);  k = randn (K, T, H);  k = k ./ sqrt (sum (k .^ 2, 1));
  v = randn (V, T, H);  beta = 0.1 + 0.8 * rand (T, H);
  if (strcmp (op, 'kda'))
    g = -rand (K, T, H) / 2;  g1 = g(:, :, 1);
  else
    g = -rand (T, H) / 2;  g1 = g(:, 1)';
  end
  h0 = randn (K, V, H);  dO = randn (V, T, H);  dS = randn (K, V, H);
  eps_f = 2 ^ -8;
  if (strcmp (fmt, 'fp16'))
    eps_f = 2 ^ -11;
  end
  in = {sg(q(:, :, 1)), sg(k(:, :, 1)), sg(v(:, :, 1)), sg(g1), sg(beta(:, 1)'), sg(h0(:, :, 1)), s, C};
  args = {sg(q), sg(k), sg(v), sg(g), sg(beta)};
  opts = {'InitialState', sg(h0), 'Emulate', fmt, 'ChunkSize', C};
  if (strcmp (dir, 'fwd'))
    [o, S] = feval ([op '_chunk'], args{:}, opts{:});
    core = {o(:, :, 1), S(:, :, 1)};
    bounds = [eps_f / 16, eps_f / 32];
    ref = @(change) fwd_ref (in, fmt, change);
  else
    d = cell (1, 6);
    [d{:}] = feval ([op '_chunk_bwd'], args{:}, sg (dO), sg (dS), opts{:});
    if (strcmp (op, 'kda'))
      d{4} = d{4}(:, :, 1);
    else
      d{4} = d{4}(:, 1)';
    end
    core = {d{1}(:, :, 1), d{2}(:, :, 1), d{3}(:, :, 1), d{4}, d{5}(:, 1)', d{6}(:, :, 1)};
    bounds = [eps_f / 32 * ones(1, 5), 2e-5];
    ref = @(change) bwd_ref (in, sg (dO(:, :, 1)), sg (dS(:, :, 1)), fmt, change);
  end
  what = sprintf ('%s %s %s, T = %d', op, fmt, dir, T);
  e = errors (ref (''), core, bounds);
  res = struct ('check', sprintf ('emulation placement %s: core vs reference', what), ...
                'value', e, 'bound', 1);
  for j = 1:numel (changes)
    e = errors (ref (changes{j}), core, bounds);
    res(end+1) = struct ('check', sprintf ('emulation placement %s: ''%s'' breaks a bound', ...
                                           what, changes{j}), 'value', 1 / e, 'bound', 1);
  end
end

function r = fwd_ref (in, fmt, change)
  [o, S] = drv_chunk_fwd (in{:}, fmt, change);
  r = {o, S};
end

function r = bwd_ref (in, dO, dS, fmt, change)
  r = cell (1, 6);
  [r{:}] = drv_chunk_bwd (in{:}, dO, dS, fmt, change);
end

function e = errors (ref, core, bounds)
  % the largest error / bound over the tensors
  e = 0;
  for i = 1:numel (ref)
    e = max (e, la_ratio (double (ref{i}), double (core{i})) / bounds(i));
  end
end
