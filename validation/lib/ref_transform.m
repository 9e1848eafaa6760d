% REF_TRANSFORM  The inputs as the kernel uses them: every in-kernel transform, in double.
%
%   U = ref_transform (op, q, k, v, g, beta, Name, Value, ...)
%
%   op is 'kda' or 'gdn'; the arguments and options are those of the public
%   functions (Scale, InitialState, CuSeqlens, UseQKL2Norm, L2NormEps,
%   GateInKernel, ALog, DtBias, LowerBound, BetaSigmoid, AllowNegEigval,
%   StateLayout; ChunkSize and Intermediates are accepted and ignored).  Everything is
%   converted to double and transformed as the project defines it:
%   UseQKL2Norm by ref_l2norm, GateInKernel by ref_gate, BetaSigmoid /
%   AllowNegEigval by ref_beta.
%
%   U is a struct with fields
%     q, k          K x T x H x B, the used queries and keys
%     v             V x T x HV x B
%     g             K x T x HV x B (KDA) or 1 x T x HV x B (GDN), the used gate
%     beta          T x HV x B, the used beta
%     scale         the Scale (default 1 / sqrt (K))
%     S0            K x V x HV x N initial states in the K x V layout (zeros
%                   when not given)
%     seqs          N x 3: (batch index, first step, last step) per sequence
%     N             number of sequences (B, or numel (CuSeqlens) - 1)
%     map           1 x HV, the q/k head of each value head (ref_head_map)
%     vk            true for 'StateLayout', 'VK'
%
%   See also: ref_forward, ref_recurrence, ref_gate, ref_l2norm, ref_beta.

function U = ref_transform (op, q, k, v, g, beta, varargin)
  op = lower (op);
  if (~any (strcmp (op, {'kda', 'gdn'})))
    error ('ref_transform: op must be ''kda'' or ''gdn''');
  end
  opt = parse_options (varargin);
  q = double (q);  k = double (k);  v = double (v);
  [K, T, H, B] = size (q);
  V = size (v, 1);  HV = size (v, 3);
  if (size (k, 1) ~= K || size (k, 2) ~= T || size (k, 3) ~= H ...
      || size (k, 4) ~= B || size (v, 2) ~= T || size (v, 4) ~= B ...
      || mod (HV, H) ~= 0)
    error ('ref_transform: inconsistent sizes of q, k, v');
  end
  if (strcmp (op, 'kda'))
    g = reshape (double (g), K, T, HV, B);
  else
    g = reshape (double (g), T, HV, B);
  end
  beta = reshape (double (beta), T, HV, B);

  if (opt.UseQKL2Norm)
    q = ref_l2norm (q, opt.L2NormEps);
    k = ref_l2norm (k, opt.L2NormEps);
  end
  if (opt.GateInKernel)
    if (isempty (opt.ALog) && isempty (opt.LowerBound))
      error ('ref_transform: GateInKernel needs ALog or LowerBound');
    end
    g = ref_gate (op, g, opt.ALog, opt.DtBias, double (opt.LowerBound));
  end
  if (opt.BetaSigmoid)
    beta = ref_beta (beta, opt.AllowNegEigval);
  end

  U = struct ('q', q, 'k', k, 'v', v, 'g', reshape (g, [], T, HV, B), ...
              'beta', beta, 'scale', 1 / sqrt (K), 'S0', [], 'seqs', [], ...
              'N', B, 'map', ref_head_map (H, HV), ...
              'vk', strcmpi (opt.StateLayout, 'VK'));
  if (~isempty (opt.Scale))
    U.scale = double (opt.Scale);
  end
  [U.seqs, U.N] = sequences (opt.CuSeqlens, B, T);
  if (isempty (opt.InitialState))
    U.S0 = zeros (K, V, HV, U.N);
  elseif (U.vk)
    U.S0 = permute (reshape (double (opt.InitialState), V, K, HV, U.N), [2 1 3 4]);
  else
    U.S0 = reshape (double (opt.InitialState), K, V, HV, U.N);
  end
end

function [seqs, N] = sequences (cu, B, T)
  % (batch index, first step, last step) of every sequence
  if (isempty (cu))
    N = B;
    seqs = [(1:B)', ones(B, 1), T * ones(B, 1)];
    return;
  end
  cu = double (cu(:));
  if (B ~= 1 || cu(1) ~= 0 || cu(end) ~= T || any (diff (cu) <= 0) ...
      || any (cu ~= round (cu)))
    error ('ref_transform: bad CuSeqlens');
  end
  N = numel (cu) - 1;
  seqs = [ones(N, 1), cu(1:end-1) + 1, cu(2:end)];
end

function opt = parse_options (args)
  defaults = struct ('Scale', [], 'InitialState', [], 'CuSeqlens', [], ...
                     'UseQKL2Norm', false, 'L2NormEps', 0, 'GateInKernel', false, 'ALog', [], ...
                     'DtBias', [], 'LowerBound', [], 'BetaSigmoid', false, ...
                     'AllowNegEigval', false, 'StateLayout', 'KV', ...
                     'ChunkSize', [], 'Intermediates', false);
  [opt, rest] = take_option (args, defaults);
  if (~isempty (rest))
    error ('ref_transform: unknown option ''%s''', num2str (rest{1}));
  end
  for f = {'UseQKL2Norm', 'GateInKernel', 'BetaSigmoid', 'AllowNegEigval'}
    opt.(f{1}) = logical (opt.(f{1}));
  end
  if (~any (strcmpi (opt.StateLayout, {'KV', 'VK'})))
    error ('ref_transform: StateLayout must be ''KV'' or ''VK''');
  end
end

%!test
%! U = ref_transform ('gdn', ones (2, 3), ones (2, 3), ones (4, 3), -ones (3, 1), zeros (3, 1), ...
%!                    'BetaSigmoid', true, 'UseQKL2Norm', true, 'CuSeqlens', [0 1 3]);
%! assert (U.beta, 0.5 * ones (3, 1));
%! assert (U.q, ones (2, 3) / sqrt (2), eps);
%! assert (U.seqs, [1 1 1; 1 2 3]);
%! assert (size (U.S0), [2 4 1 2]);
%!error <unknown option> ref_transform ('kda', 1, 1, 1, 1, 1, 'Bogus', 1)
