% REF_RECURRENCE_BWD  Backpropagation through time of ref_recurrence, with checkpoints.
%
%   [dq, dk, dv, dg, dbeta, dS0] = ref_recurrence_bwd (q, k, v, g, beta, S0, scale, dO, dST)
%   [..., nstored] = ref_recurrence_bwd (..., C)
%
%   The gradients of L = <dO, o> + <dST, S_T> for one sequence and head
%   (arguments as ref_recurrence; dO V x T, dST K x V or []), line by line as
%   eq. (13)-(18) of docs/recurrence.md, with the checkpointing of eq. (20):
%   states are kept only at the start of every segment of C steps (default
%   T), and a segment is recomputed from its checkpoint before it is
%   reversed.  nstored counts the K x V states actually written and held at
%   the peak: the checkpoints stored plus the most states of one segment.
%   dg is K x T (KDA) or 1 x T (GDN, summed over K); dbeta is 1 x T.
%
%   See also: ref_recurrence, fd_gradient.

function [dq, dk, dv, dg, dbeta, dS0, nstored] = ref_recurrence_bwd (q, k, v, g, beta, S0, s, dO, dST, C)
  [K, T] = size (q);
  V = size (v, 1);
  if (nargin < 10 || isempty (C))
    C = T;
  end
  C = max (1, min (C, max (T, 1)));
  nseg = ceil (T / C);
  ckpt = zeros (K, V, nseg);
  nckpt = 0;
  S = S0;
  for c = 1:nseg                          % forward sweep: checkpoints only
    ckpt(:, :, c) = S;
    nckpt = nckpt + 1;
    for t = (c - 1) * C + 1:min (c * C, T)
      S = step (S, k(:, t), v(:, t), g(:, t), beta(t), K);
    end
  end
  dq = zeros (K, T); dk = zeros (K, T); dv = zeros (V, T);
  dgk = zeros (K, T); dbeta = zeros (1, T);
  dS = dST;
  if (isempty (dS))
    dS = zeros (K, V);
  end
  nseg_max = 0;
  for c = nseg:-1:1                       % reverse sweep
    t0 = (c - 1) * C + 1; t1 = min (c * C, T);
    seg = zeros (K, V, t1 - t0 + 1);      % seg(:,:,i) = S_{t0+i-2} (state before step)
    seg(:, :, 1) = ckpt(:, :, c);
    nheld = 1;
    for t = t0:t1 - 1
      seg(:, :, t - t0 + 2) = step (seg(:, :, t - t0 + 1), k(:, t), v(:, t), g(:, t), beta(t), K);
      nheld = nheld + 1;
    end
    nseg_max = max (nseg_max, nheld);
    for t = t1:-1:t0
      a = exp (g(:, t)) .* ones (K, 1);
      Sp = a .* seg(:, :, t - t0 + 1);    % S'_t
      p = Sp' * k(:, t);
      u = beta(t) * (v(:, t) - p);
      St = Sp + k(:, t) * u';             % S_t
      dS = dS + s * q(:, t) * dO(:, t)';  % (13)
      dq(:, t) = s * St * dO(:, t);       % (13)
      du = dS' * k(:, t);                 % (14)
      dbeta(t) = du' * (v(:, t) - p);     % (15)
      dv(:, t) = beta(t) * du;            % (15)
      dp = -beta(t) * du;                 % (15)
      dk(:, t) = dS * u + Sp * dp;        % (14)
      dSp = dS + k(:, t) * dp';           % (16)
      dgk(:, t) = sum (dSp .* Sp, 2);     % (17)
      dS = a .* dSp;                      % (18)
    end
  end
  dS0 = dS;
  if (size (g, 1) == 1)
    dg = sum (dgk, 1);                    % (17), GDN: sum over k
  else
    dg = dgk;
  end
  nstored = nckpt + nseg_max;
end

function S = step (S, k, v, g, beta, K)
  % one forward step (1), (12)
  Sp = (exp (g) .* ones (K, 1)) .* S;
  S = Sp + k * (beta * (v - Sp' * k))';
end
