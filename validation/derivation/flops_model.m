function f = flops_model (what, T, C, K, V)
  % f = flops_model (what, T, C, K, V): the nominal flop counts of
  % docs/flops.md for one (sequence, value head) of length T, multiply-add = 2
  % flops, elementwise work not counted (except in the full recurrent
  % counts 'rec_fwd_exact', 'rec_bwd_exact', which count every + and * of
  % the loops as transcribed by hand in check_flops).
  %   'rec_fwd'        (65)  7 T K V
  %   'rec_bwd'        (66)  20 T K V + 5 K V R,  R = 2T - c_last - NC recomputed steps
  %   'chunk_fwd'      (67)  6 T K V + (3K + 2V) sum_n c_n^2 + sum_n c_n^3 / 3
  %                          (the last term: the explicit A the core forms)
  %   'chunk_bwd'      (68)  14 T K V + (9K + 5V) sum c_n^2 + (5/3) sum c_n^3
  %                          + 2 (NC - 1) C K V
  %                          (forward sweep: M, A, w, u, v_new of every chunk,
  %                          kept; state updates; reverse sweep: Aqk and the
  %                          gradient steps (40)-(51))
  % c_n are the chunk lengths (C, ..., C, c_last), NC = ceil(T / C); for the
  % recurrent backward C is the checkpoint interval.
  NC = ceil (T / C);
  cl = T - (NC - 1) * C;                       % length of the last chunk
  s2 = (NC - 1) * C ^ 2 + cl ^ 2;
  s3 = (NC - 1) * C ^ 3 + cl ^ 3;
  R = 2 * T - cl - NC;
  switch what
    case 'rec_fwd'
      f = 7 * T * K * V;
    case 'rec_fwd_exact'
      f = T * V * (7 * K + 3) + T * K;
    case 'rec_bwd'
      f = 20 * T * K * V + 5 * K * V * R;
    case 'rec_bwd_exact'
      f = T * V * (20 * K + 10) + 3 * T * K + R * (V * (5 * K + 2) + K);
    case 'chunk_fwd'
      f = 6 * T * K * V + (3 * K + 2 * V) * s2 + s3 / 3;
    case 'chunk_bwd'
      f = 14 * T * K * V + (9 * K + 5 * V) * s2 + 5 * s3 / 3 + 2 * (NC - 1) * C * K * V;
    otherwise
      error ('flops_model: unknown count ''%s''', what);
  end
end
