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
%   The result is computed in double whatever the class of the inputs: the
%   transforms by ref_transform (UseQKL2Norm: an all-zero column stays zero;
%   GateInKernel: -exp(ALog) softplus (g + DtBias), or lb sigmoid (exp (ALog)
%   (g + DtBias)) with LowerBound lb < 0, both without overflow; BetaSigmoid:
%   sigmoid (beta), times 2 with AllowNegEigval), then, per sequence and value
%   head j (reading q/k head ref_head_map (H, HV)(j)), the plain loops of
%   ref_recurrence:
%
%       S   = diag (exp (g_t)) * S          (GDN: exp (g_t) * S)
%       S   = S + beta_t * k_t * (v_t - S' * k_t)'
%       o_t = S' * (scale * q_t)
%
%   It shares no code with the C core; it is the independent reference of the
%   tests, the lab and the notebooks.  CuSeqlens = [0 t1 ... T] splits the
%   single batch into independent sequences; 'StateLayout','VK' transposes
%   the K x V states on the way in and out.
%
%   o is V x T x HV x B and S is K x V x HV x N (V x K x HV x N with 'VK'),
%   both double.
%
%   See also: ref_transform, ref_recurrence, la_ratio, fd_check, rand_problem.

function [o, S] = ref_forward (op, q, k, v, g, beta, varargin)
  if (nargin < 6)
    error ('ref_forward: needs op, q, k, v, g, beta');
  end
  U = ref_transform (op, q, k, v, g, beta, varargin{:});
  [K, T, ~, B] = size (U.q);
  V = size (U.v, 1);
  HV = size (U.v, 3);
  o = zeros (V, T, HV, B);
  S = zeros (K, V, HV, U.N);
  for n = 1:U.N
    b = U.seqs(n, 1);
    t = U.seqs(n, 2):U.seqs(n, 3);
    for j = 1:HV
      h = U.map(j);
      [o(:, t, j, b), S(:, :, j, n)] = ref_recurrence (U.q(:, t, h, b), U.k(:, t, h, b), ...
          U.v(:, t, j, b), U.g(:, t, j, b), U.beta(t, j, b), U.S0(:, :, j, n), U.scale);
    end
  end
  if (U.vk)
    S = permute (S, [2 1 3 4]);
  end
end

%!test
%! % GVA: two value heads reading one q/k head = two separate calls
%! q = randn (3, 4);  k = randn (3, 4);  v = randn (2, 4, 2);
%! g = -rand (3, 4, 2);  beta = rand (4, 2);
%! o = ref_forward ('kda', q, k, v, g, beta);
%! o2 = ref_forward ('kda', q, k, v(:, :, 2), g(:, :, 2), beta(:, 2));
%! assert (o(:, :, 2), o2);
