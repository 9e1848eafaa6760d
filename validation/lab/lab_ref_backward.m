function [dq, dk, dv, dg, dbeta, dS0] = lab_ref_backward (op, q, k, v, g, beta, S0, s, dO, dST, rnd)
% LAB_REF_BACKWARD  Independent plain-Octave backward of one KDA / GDN head.
%
%   [dq, dk, dv, dg, dbeta, dS0] = lab_ref_backward (op, q, k, v, g, beta, S0, s, dO, dST)
%
%   op 'kda' or 'gdn'; one sequence, one head, no transforms: q, k are K x T,
%   v and dO are V x T, g is K x T (KDA) or a T-vector (GDN), beta a T-vector,
%   S0 and dST are K x V (dST may be []), s the scale.  Backpropagation
%   through time written straight from the recurrence (S' = Diag(a) S,
%   S = S' + beta k (v - S'^T k)^T, o = S^T s q), one step at a time.
%
%   It is the exact-decay reference of the lab: the gate gradient of step t
%   is formed directly as a_t .* rowsum (S_{t-1} .* dS'_t), a product of
%   terms that all carry their own decay, so nothing cancels however strong
%   the gates (unlike the chunked (51), a reverse sum of terms that cancel).
%   It shares no code with the C core.  The work is done in the class of the
%   inputs, so the same code run in single estimates its own rounding error.
%   States are kept every CK = 64 steps and recomputed inside each segment,
%   so memory stays at T/64 states.
%
%   lab_ref_backward (..., rnd): rnd, a function handle (e.g. @(x) ref_round
%   (x, 'bf16')), rounds every state S_t and every dS after a step, as a
%   plain kernel that stores them in a 16-bit format would: the emulated
%   plain reference of the lab's emulation section.

  if (nargin < 11 || isempty (rnd))
    rnd = @(x) x;
  end
  is_kda = strcmp (op, 'kda');
  [K, T] = size (q);
  V = size (v, 1);
  beta = beta(:)';
  if (~is_kda)
    g = g(:)';
  end
  if (isempty (dST))
    dST = zeros (K, V, class (q));
  end
  dST = cast (dST, class (q));
  CK = 64;
  nseg = ceil (T / CK);
  % forward: the state entering every segment
  Sck = zeros (K, V, nseg, class (q));
  S = cast (S0, class (q));
  for n = 1:nseg
    Sck(:, :, n) = S;
    for t = (n - 1) * CK + 1:min (n * CK, T)
      S = rnd (ref_step (S, k, v, g, beta, t, is_kda));
    end
  end
  dq = zeros (size (q), class (q));  dk = dq;
  dv = zeros (size (v), class (q));  dg = zeros (size (g), class (q));
  dbeta = zeros (size (beta), class (q));
  dS = dST;
  for n = nseg:-1:1
    t0 = (n - 1) * CK + 1;  t1 = min (n * CK, T);
    Sseg = zeros (K, V, t1 - t0 + 2, class (q));   % S_{t0-1} .. S_{t1}
    Sseg(:, :, 1) = Sck(:, :, n);
    for t = t0:t1
      Sseg(:, :, t - t0 + 2) = rnd (ref_step (Sseg(:, :, t - t0 + 1), k, v, g, beta, t, is_kda));
    end
    for t = t1:-1:t0
      Sprev = Sseg(:, :, t - t0 + 1);  St = Sseg(:, :, t - t0 + 2);
      a = decay (g, t, is_kda);
      Sp = a .* Sprev;
      p = Sp' * k(:, t);
      u = beta(t) * (v(:, t) - p);
      % o_t = S_t' (s q_t)
      dS = dS + s * q(:, t) * dO(:, t)';
      dq(:, t) = s * (St * dO(:, t));
      % S_t = S'_t + k_t u_t'
      du = dS' * k(:, t);
      dk(:, t) = dS * u;
      dbeta(t) = (v(:, t) - p)' * du;
      dv(:, t) = beta(t) * du;
      dp = -beta(t) * du;
      dSp = dS + k(:, t) * dp';
      dk(:, t) = dk(:, t) + Sp * dp;
      % S'_t = Diag(a_t) S_{t-1}: the gate gradient keeps its own decay
      da = sum (Sprev .* dSp, 2);
      if (is_kda)
        dg(:, t) = a .* da;
      else
        dg(t) = a * sum (da);
      end
      dS = rnd (a .* dSp);
    end
  end
  dS0 = dS;
end

function S = ref_step (S, k, v, g, beta, t, is_kda)
  Sp = decay (g, t, is_kda) .* S;
  S = Sp + beta(t) * k(:, t) * (v(:, t) - Sp' * k(:, t))';
end

function a = decay (g, t, is_kda)
  if (is_kda)
    a = exp (g(:, t));
  else
    a = exp (g(t));
  end
end
