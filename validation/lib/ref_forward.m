% REF_FORWARD  Independent double-precision reference of the KDA / GDN recurrences.
%
%   [o, S] = ref_forward (op, q, k, v, g, beta)
%   [o, S] = ref_forward (op, q, k, v, g, beta, Name, Value, ...)
%
%   op is 'kda' or 'gdn'.  The arguments and the Name/Value options are those
%   of kda_recurrent / gdn_recurrent (Scale, InitialState, CuSeqlens,
%   UseQKL2Norm, GateInKernel, ALog, DtBias, LowerBound, BetaSigmoid,
%   AllowNegEigval, StateLayout; ChunkSize and Intermediates are accepted and
%   ignored).
%
%   The result is computed in double whatever the class of the inputs, by
%   plain loops written straight from the math (SPEC section 1), one step and
%   one value head at a time:
%
%       S   = diag (exp (g_t)) * S          (GDN: exp (g_t) * S)
%       S   = S + beta_t * k_t * (v_t - S' * k_t)'
%       o_t = S' * (scale * q_t)
%
%   It shares no code with the C core; it is the independent reference of the
%   tests and of the lab.  Transforms as the project defines them:
%   UseQKL2Norm divides by the exact 2-norm (an all-zero column stays zero);
%   GateInKernel uses -exp(ALog) * softplus (g + DtBias), or with LowerBound
%   lb < 0, lb * sigmoid (exp (ALog) * (g + DtBias)) (softplus and sigmoid
%   evaluated without overflow); BetaSigmoid uses sigmoid (beta), times 2 with
%   AllowNegEigval (AllowNegEigval alone has no effect); value head j reads
%   q/k head floor ((j-1) / (HV/H)) + 1; CuSeqlens = [0 t1 ... T] splits the
%   single batch into independent sequences; 'StateLayout','VK' transposes
%   the K x V states on the way in and out.
%
%   o is V x T x HV x B and S is K x V x HV x N (V x K x HV x N with 'VK'),
%   both double.
%
%   See also: kda_recurrent, gdn_recurrent, la_ratio, fd_check, rand_problem.

function [o, S] = ref_forward (op, q, k, v, g, beta, varargin)

  if (nargin < 6)
    error ('ref_forward: needs op, q, k, v, g, beta');
  end
  op = lower (op);
  if (~any (strcmp (op, {'kda', 'gdn'})))
    error ('ref_forward: op must be ''kda'' or ''gdn''');
  end
  is_kda = strcmp (op, 'kda');

  q = double (q);  k = double (k);  v = double (v);
  K = size (q, 1);  T = size (q, 2);  H = size (q, 3);  B = size (q, 4);
  V = size (v, 1);  HV = size (v, 3);
  if (~isequal (size (k, 1), K) || size (k, 2) ~= T || size (k, 3) ~= H ...
      || size (k, 4) ~= B || size (v, 2) ~= T || size (v, 4) ~= B ...
      || mod (HV, H) ~= 0)
    error ('ref_forward: inconsistent sizes of q, k, v');
  end
  if (is_kda)
    g = reshape (double (g), K, T, HV, B);
  else
    g = reshape (double (g), T, HV, B);
  end
  beta = reshape (double (beta), T, HV, B);

  o_ = parse_options (varargin);

  % ---- in-kernel transforms, on whole arrays ----------------------------
  if (o_.UseQKL2Norm)
    q = l2n (q);
    k = l2n (k);
  end
  if (isempty (o_.Scale))
    scale = 1 / sqrt (K);
  else
    scale = double (o_.Scale);
  end

  if (o_.GateInKernel)
    if (isempty (o_.ALog))
      error ('ref_forward: GateInKernel needs ALog');
    end
    a = exp (double (o_.ALog(:)));                 % HV x 1
    if (is_kda)
      if (isempty (o_.DtBias))
        dtb = zeros (K, HV);
      else
        dtb = reshape (double (o_.DtBias), K, HV);
      end
      x = g + reshape (dtb, K, 1, HV);
      a = reshape (a, 1, 1, HV);
    else
      if (isempty (o_.DtBias))
        dtb = zeros (HV, 1);
      else
        dtb = double (o_.DtBias(:));
      end
      x = g + reshape (dtb, 1, HV);
      a = reshape (a, 1, HV);
    end
    if (isempty (o_.LowerBound))
      g = -a .* softplus (x);
    else
      g = double (o_.LowerBound) * sigm (a .* x);
    end
  end

  if (o_.BetaSigmoid)
    beta = sigm (beta);
    if (o_.AllowNegEigval)
      beta = 2 * beta;
    end
  end

  % ---- sequences: (batch index, first step, last step) -------------------
  if (isempty (o_.CuSeqlens))
    N = B;
    seqs = [(1:B)', ones(B, 1), T * ones(B, 1)];
  else
    cu = double (o_.CuSeqlens(:));
    if (B ~= 1 || cu(1) ~= 0 || cu(end) ~= T || any (diff (cu) <= 0) ...
        || any (cu ~= round (cu)))
      error ('ref_forward: bad CuSeqlens');
    end
    N = numel (cu) - 1;
    seqs = [ones(N, 1), cu(1:end-1) + 1, cu(2:end)];
  end

  vk = strcmpi (o_.StateLayout, 'VK');
  if (isempty (o_.InitialState))
    S0 = zeros (K, V, HV, N);
  else
    if (vk)
      S0 = permute (reshape (double (o_.InitialState), V, K, HV, N), [2 1 3 4]);
    else
      S0 = reshape (double (o_.InitialState), K, V, HV, N);
    end
  end

  % ---- the recurrence ----------------------------------------------------
  o = zeros (V, T, HV, B);
  S = zeros (K, V, HV, N);
  grp = HV / H;
  for n = 1:N
    b = seqs(n, 1);
    for j = 1:HV
      h = floor ((j - 1) / grp) + 1;
      St = S0(:, :, j, n);                       % K x V
      for t = seqs(n, 2):seqs(n, 3)
        if (is_kda)
          St = exp (g(:, t, j, b)) .* St;        % row i scaled by exp(g_i)
        else
          St = exp (g(t, j, b)) * St;
        end
        kt = k(:, t, h, b);
        err = v(:, t, j, b) - St' * kt;          % V x 1
        St = St + beta(t, j, b) * (kt * err');
        o(:, t, j, b) = St' * (scale * q(:, t, h, b));
      end
      S(:, :, j, n) = St;
    end
  end
  if (vk)
    S = permute (S, [2 1 3 4]);
  end
end

function o_ = parse_options (args)
  o_ = struct ('Scale', [], 'InitialState', [], 'CuSeqlens', [], ...
               'UseQKL2Norm', false, 'GateInKernel', false, 'ALog', [], ...
               'DtBias', [], 'LowerBound', [], 'BetaSigmoid', false, ...
               'AllowNegEigval', false, 'StateLayout', 'KV', ...
               'ChunkSize', [], 'Intermediates', false);
  names = fieldnames (o_);
  if (mod (numel (args), 2) ~= 0)
    error ('ref_forward: options must come in Name, Value pairs');
  end
  for i = 1:2:numel (args)
    nm = args{i};
    hit = [];
    if (ischar (nm))
      hit = find (strcmpi (nm, names));
    end
    if (isempty (hit))
      error ('ref_forward: unknown option');
    end
    o_.(names{hit}) = args{i + 1};
  end
  for f = {'UseQKL2Norm', 'GateInKernel', 'BetaSigmoid', 'AllowNegEigval'}
    o_.(f{1}) = logical (o_.(f{1}));
  end
  if (~any (strcmpi (o_.StateLayout, {'KV', 'VK'})))
    error ('ref_forward: StateLayout must be ''KV'' or ''VK''');
  end
end

function x = l2n (x)
  % divide every column (over dimension 1) by its exact 2-norm; zero stays zero
  nr = sqrt (sum (x .^ 2, 1));
  nr(nr == 0) = 1;
  x = x ./ nr;
end

function y = softplus (x)
  % log (1 + exp (x)) without overflow
  y = max (x, 0) + log1p (exp (-abs (x)));
end

function y = sigm (x)
  % 1 / (1 + exp (-x)) without overflow
  y = zeros (size (x));
  p = x >= 0;
  y(p) = 1 ./ (1 + exp (-x(p)));
  e = exp (x(~p));
  y(~p) = e ./ (1 + e);
end
