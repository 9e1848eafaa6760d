function [o, S, st] = drv_rec_fwd (q, k, v, g, beta, S0, s)
  % [o, S, st] = drv_rec_fwd (q, k, v, g, beta, S0, s): the recurrence of
  % docs/recurrence.md, eq. (1) and (12), step by step in plain Octave, for one
  % (sequence, head).  q, k: K x T; v: V x T; g: K x T (KDA) or 1 x T (GDN);
  % beta: 1 x T; S0: K x V.  Returns o (V x T), the final state S and in st the
  % per-step quantities Sp (S'_t), S (S_t), p, u (each stacked along dim 3 or 2).
  [K, T] = size (q);
  V = size (v, 1);
  S = S0;
  o = zeros (V, T);
  st.Sp = zeros (K, V, T); st.S = zeros (K, V, T);
  st.p = zeros (V, T); st.u = zeros (V, T);
  for t = 1:T
    a = exp (g(:, t)) .* ones (K, 1);      % (1): a_t = exp(g_t), GDN broadcast
    Sp = a .* S;                           % S'_t = Diag(a_t) S_{t-1}
    p = Sp' * k(:, t);                     % p_t = S'_t^T k_t
    u = beta(t) * (v(:, t) - p);           % (12): the delta
    S = Sp + k(:, t) * u';                 % S_t = S'_t + k_t u_t^T
    o(:, t) = s * (S' * q(:, t));          % o_t = s S_t^T q_t
    st.Sp(:, :, t) = Sp; st.S(:, :, t) = S; st.p(:, t) = p; st.u(:, t) = u;
  end
end
