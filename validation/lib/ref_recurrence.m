% REF_RECURRENCE  The KDA / GDN recurrence of one sequence and head, step by step.
%
%   [o, S] = ref_recurrence (q, k, v, g, beta, S0, scale)
%   [o, S, st] = ref_recurrence (...)
%
%   q, k: K x T; v: V x T; g: K x T (KDA) or 1 x T (GDN); beta: 1 x T (or
%   T x 1), or V x T (one per value channel: u_t = beta_t .* (v_t - p_t));
%   S0: K x V; scale: the output scale.  Plain loops written straight
%   from docs/recurrence.md, eq. (1) and (12):
%
%       a_t  = exp (g_t)                     (GDN: broadcast over K)
%       S'_t = Diag (a_t) S_{t-1}
%       p_t  = S'_t' k_t,   u_t = beta_t (v_t - p_t)
%       S_t  = S'_t + k_t u_t'
%       o_t  = scale S_t' q_t
%
%   o is V x T, S the final state.  With a third output, st holds the
%   per-step quantities Sp (S'_t) and S (S_t), K x V x T, and p, u, V x T
%   (kept only when asked for: they take T K V numbers).  The inputs are used
%   in their class (call with double for the reference).
%
%   See also: ref_recurrence_bwd, ref_forward, ref_transform.

function [o, S, st] = ref_recurrence (q, k, v, g, beta, S0, scale)
  [K, T] = size (q);
  V = size (v, 1);
  keep = nargout >= 3;
  if (numel (beta) == T)
    beta = reshape (beta, 1, T);  % one per step, broadcast over V
  end
  S = S0;
  o = zeros (V, T, class (q));
  if (keep)
    st.Sp = zeros (K, V, T);  st.S = zeros (K, V, T);
    st.p = zeros (V, T);  st.u = zeros (V, T);
  end
  for t = 1:T
    a = exp (g(:, t)) .* ones (K, 1);
    Sp = a .* S;
    p = Sp' * k(:, t);
    u = beta(:, t) .* (v(:, t) - p);
    S = Sp + k(:, t) * u';
    o(:, t) = scale * (S' * q(:, t));
    if (keep)
      st.Sp(:, :, t) = Sp;  st.S(:, :, t) = S;
      st.p(:, t) = p;  st.u(:, t) = u;
    end
  end
end

%!test
%! % one step from S0 = 0: S_1 = beta k v', o_1 = scale (k' q) beta v
%! [o, S] = ref_recurrence ([1; 0], [1; 0], [2; 3], [-1; -1], 0.5, zeros (2), 1);
%! assert (S, [1 1.5; 0 0]);
%! assert (o, [1; 1.5]);

%!test
%! % a per-channel beta: each value channel its own write strength
%! [o, S] = ref_recurrence ([1; 0], [1; 0], [2; 3], [-1; -1], [0.5; 0.25], zeros (2), 1);
%! assert (S, [1 0.75; 0 0]);
