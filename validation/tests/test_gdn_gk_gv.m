% Tests: the per-key and per-value log gates 'GK' and 'GV' of GDN (FLA's gk,
% gv of the fused recurrent GDN), docs/recurrence.md (2b):
%   S'_t = Diag(exp(g_t + GK_t)) S_{t-1} Diag(exp(GV_t))
% gdn_recurrent against a plain loop, gdn_recurrent_bwd (outputs 9, 10:
% dGK, dGV) against finite differences, the chunked functions' refusal,
% bad shapes.  Run with  test test_gdn_gk_gv  or through run_tests.m.

%!function [o, S] = plain_gk_gv (q, k, v, g, beta, gk, gv, S0)
%!  % the plain loop of (2b) in double, per batch and value head (H = 1)
%!  [K, T, ~, B] = size (q);
%!  V = size (v, 1);
%!  HV = size (v, 3);
%!  o = zeros (V, T, HV, B);
%!  S = zeros (K, V, HV, B);
%!  for b = 1:B
%!    for h = 1:HV
%!      St = double (S0(:, :, h, b));
%!      for t = 1:T
%!        St = diag (exp (g(t, h, b) + gk(:, t, h, b))) * St * diag (exp (gv(:, t, h, b)));
%!        kt = double (k(:, t, 1, b));
%!        St = St + kt * (beta(t, h, b) * (v(:, t, h, b) - St' * kt))';
%!        o(:, t, h, b) = St' * (double (q(:, t, 1, b)) / sqrt (K));
%!      end
%!      S(:, :, h, b) = St;
%!    end
%!  end
%!endfunction

%!function P = gkgv_problem (cls, T, B)
%!  % K = 5, V = 4, H = 1, HV = 2; gates in [-1, 0], GK and GV in [-0.5, 0]
%!  P = rand_problem ('gdn', 'K', 5, 'V', 4, 'T', T, 'HV', 2, 'B', B, 'Class', cls, ...
%!                    'Seed', 11, 'InitialState', true);
%!  P.gk = cast (-0.5 * rand (5, T, 2, B), cls);
%!  P.gv = cast (-0.5 * rand (4, T, 2, B), cls);
%!endfunction

%!function varargout = bwd_gkgv (q, k, v, g, beta, S0, gk, gv, dout, dS, C)
%!  % gdn_recurrent_bwd with the eight differentiated inputs in la_gradcheck's order
%!  d = cell (1, 10);
%!  [d{:}] = gdn_recurrent_bwd (q, k, v, g, beta, dout, dS, 'InitialState', S0, ...
%!                              'GK', gk, 'GV', gv, 'ChunkSize', C);
%!  varargout = [d(1:6), d(9:10)];
%!endfunction

%!test
%! % the forward against the plain loop, double and single (B = 2, HV = 2)
%! for cls = {'double', 'single'}
%!   P = gkgv_problem (cls{1}, 11, 2);
%!   S0 = P.opts{find (strcmp (P.opts, 'InitialState')) + 1};
%!   [o, S] = gdn_recurrent (P.q, P.k, P.v, P.g, P.beta, P.opts{:}, 'GK', P.gk, 'GV', P.gv);
%!   [oref, Sref] = plain_gk_gv (P.q, P.k, P.v, P.g, P.beta, P.gk, P.gv, S0);
%!   tol = 1e-13;
%!   if (strcmp (cls{1}, 'single'))
%!     tol = 1e-5;
%!   end
%!   assert (isa (o, cls{1}) && isa (S, cls{1}));
%!   assert (la_ratio (oref, o) < tol && la_ratio (Sref, S) < tol);
%! end

%!test
%! % zero GK and GV change nothing (to rounding: exp(g + 0) may take the
%! % vectorised exp, exp(g) the scalar one); the backward then
%! % returns dGK = dL/dlog(a) per key, which sums to dg
%! P = gkgv_problem ('double', 9, 1);
%! z = {'GK', zeros(size(P.gk)), 'GV', zeros(size(P.gv))};
%! [o1, S1] = gdn_recurrent (P.q, P.k, P.v, P.g, P.beta, P.opts{:});
%! [o2, S2] = gdn_recurrent (P.q, P.k, P.v, P.g, P.beta, P.opts{:}, z{:});
%! assert (la_ratio (o1, o2) < 1e-15 && la_ratio (S1, S2) < 1e-15);
%! d = cell (1, 10);
%! [d{:}] = gdn_recurrent_bwd (P.q, P.k, P.v, P.g, P.beta, P.dout, P.dS, P.opts{:}, z{:});
%! assert (reshape (sum (d{9}, 1), size (d{4})), d{4}, 1e-12 * max (abs (d{4}(:))));
%! [d{:}] = gdn_recurrent_bwd (P.q, P.k, P.v, P.g, P.beta, P.dout, P.dS, P.opts{:});
%! assert (isempty (d{9}) && isempty (d{10}));

%!test
%! % every gradient against central differences, checkpoint intervals 1, 4, T
%! P = gkgv_problem ('double', 9, 2);
%! S0 = P.opts{find (strcmp (P.opts, 'InitialState')) + 1};
%! x = {P.q, P.k, P.v, P.g, P.beta, S0, P.gk, P.gv};
%! names = {'q', 'k', 'v', 'g', 'beta', 'S0', 'GK', 'GV'};
%! for C = [1 4 9]
%!   fwd = @(q, k, v, g, beta, S0, gk, gv) gdn_recurrent (q, k, v, g, beta, ...
%!           'InitialState', S0, 'GK', gk, 'GV', gv);
%!   bwd = @(varargin) bwd_gkgv (varargin{:}, C);
%!   [ok, tab] = la_gradcheck (fwd, bwd, x, 'NumOutputs', 2, 'Names', names, 'Seed', C);
%!   assert (ok, 'C = %d: %s', C, strjoin ({tab([tab.maxerr] > 1e-6).name}, ', '));
%! end

%!test
%! % GK alone in chunked form: kda_chunk with the per-key gate g + GK, and
%! % kda_chunk_bwd's dg = dGK, summed over the keys = dg
%! P = gkgv_problem ('double', 13, 1);
%! S0 = P.opts{find (strcmp (P.opts, 'InitialState')) + 1};
%! g_kda = repmat (reshape (P.g, [1, size(P.g)]), [5 1 1]) + P.gk;
%! [o1, S1] = gdn_recurrent (P.q, P.k, P.v, P.g, P.beta, P.opts{:}, 'GK', P.gk);
%! [o2, S2] = kda_chunk (P.q, P.k, P.v, g_kda, P.beta, P.opts{:}, 'ChunkSize', 4);
%! assert (la_ratio (o1, o2) < 1e-13 && la_ratio (S1, S2) < 1e-13);
%! d1 = cell (1, 10);
%! d2 = cell (1, 8);
%! [d1{:}] = gdn_recurrent_bwd (P.q, P.k, P.v, P.g, P.beta, P.dout, P.dS, P.opts{:}, 'GK', P.gk);
%! [d2{:}] = kda_chunk_bwd (P.q, P.k, P.v, g_kda, P.beta, P.dout, P.dS, P.opts{:}, 'ChunkSize', 4);
%! assert (la_ratio (d1{9}, d2{4}) < 1e-12);
%! assert (la_ratio (d1{4}, reshape (sum (d2{4}, 1), size (d1{4}))) < 1e-12);

%!test
%! % CuSeqlens: each sequence as its own call, with its slice of GK and GV
%! cu = [0 4 11];
%! P = rand_problem ('gdn', 'K', 5, 'V', 4, 'T', 11, 'HV', 2, 'Seed', 12, 'CuSeqlens', cu);
%! gk = -0.5 * rand (5, 11, 2);
%! gv = -0.5 * rand (4, 11, 2);
%! [o, S] = gdn_recurrent (P.q, P.k, P.v, P.g, P.beta, P.opts{:}, 'GK', gk, 'GV', gv);
%! for n = 1:2
%!   t = cu(n) + 1:cu(n + 1);
%!   [on, Sn] = gdn_recurrent (P.q(:, t), P.k(:, t), P.v(:, t, :), P.g(t, :), P.beta(t, :), ...
%!                             'GK', gk(:, t, :), 'GV', gv(:, t, :));
%!   assert (o(:, t, :), on, 1e-14);
%!   assert (S(:, :, :, n), Sn, 1e-14);
%! end

%!test
%! % bad inputs: the chunked functions refuse GK / GV naming the recurrent
%! % ones; shapes; KDA has no GK / GV
%! P = gkgv_problem ('double', 6, 1);
%! a = {P.q, P.k, P.v, P.g, P.beta};
%! g_kda = repmat (reshape (P.g, [1, size(P.g)]), [5 1 1]);   % K x T x HV
%! bad = {@() gdn_chunk (a{:}, 'GK', P.gk), 'gdn:badOption', 'gdn_recurrent and gdn_recurrent_bwd only';
%!        @() gdn_chunk_bwd (a{:}, P.dout, [], 'GV', P.gv), 'gdn:badOption', 'gdn_recurrent';
%!        @() gdn_recurrent (a{:}, 'GK', P.gv), 'gdn:badShape', 'GK must be K x T x HV x B';
%!        @() gdn_recurrent_bwd (a{:}, P.dout, [], 'GV', P.gk), 'gdn:badShape', 'GV must be V';
%!        @() kda_recurrent (P.q, P.k, P.v, g_kda, P.beta, 'GK', P.gk), ...
%!            'kda:badOption', 'GK'};
%! for i = 1:rows (bad)
%!   try
%!     bad{i, 1} ();
%!     error ('case %d: no error', i);
%!   catch err
%!     assert (err.identifier, bad{i, 2});
%!     assert (~isempty (strfind (err.message, bad{i, 3})), err.message);
%!   end
%! end
