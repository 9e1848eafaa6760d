% test_l2norm_eps.m -- the 'L2NormEps' option: with eps > 0, 'UseQKL2Norm'
% divides q_t and k_t by sqrt(sum x^2 + eps) (flash-linear-attention's
% in-kernel L2 norm, eps = 1e-6 there), forward and backward, on all four
% paths; eps = 0 (the default) is the exact norm, bit for bit.  Run with
%   addpath ('octave', 'validation/lib'); test ('validation/tests/test_l2norm_eps.m')

%!shared P
%! rand ('state', 7); randn ('state', 7);
%! % small columns, so that eps = 1e-2 changes the norm by a visible amount
%! P = rand_problem ('kda', 'K', 5, 'V', 4, 'T', 11, 'UseQKL2Norm', true, 'InitialState', true);
%! P.q = 0.1 * P.q;  P.k = 0.1 * P.k;

%!test
%! % eps = 0 is bit-identical to the option not given, forward and backward
%! for fn = {'kda_recurrent', 'kda_chunk'}
%!   [o1, S1] = feval (fn{1}, P.q, P.k, P.v, P.g, P.beta, P.opts{:});
%!   [o2, S2] = feval (fn{1}, P.q, P.k, P.v, P.g, P.beta, P.opts{:}, 'L2NormEps', 0);
%!   assert (isequal (o1, o2) && isequal (S1, S2));
%! end
%! dout = randn (size (o1));
%! X = cell (1, 6);  Y = X;
%! [X{:}] = kda_chunk_bwd (P.q, P.k, P.v, P.g, P.beta, dout, [], P.opts{:});
%! [Y{:}] = kda_chunk_bwd (P.q, P.k, P.v, P.g, P.beta, dout, [], P.opts{:}, 'L2NormEps', 0);
%! assert (isequal (X, Y));

%!test
%! % the forward against the plain reference with the same eps, all four
%! % paths, double and single
%! for e2 = [1e-6 1e-2]
%!   [oref, Sref] = ref_forward ('kda', P.q, P.k, P.v, P.g, P.beta, P.opts{:}, 'L2NormEps', e2);
%!   [o0, S0] = ref_forward ('kda', P.q, P.k, P.v, P.g, P.beta, P.opts{:});
%!   if (e2 == 1e-2)   % the eps is really used
%!     assert (la_ratio (o0, oref) > 1e-3);
%!   end
%!   for fn = {'kda_recurrent', 'kda_chunk'}
%!     [o, S] = feval (fn{1}, P.q, P.k, P.v, P.g, P.beta, P.opts{:}, 'L2NormEps', e2);
%!     assert (la_ratio (oref, o) < 1e-12 && la_ratio (Sref, S) < 1e-12);
%!     [o, S] = feval (fn{1}, single (P.q), single (P.k), single (P.v), single (P.g), ...
%!                     single (P.beta), P.opts{:}, 'L2NormEps', e2);
%!     assert (isa (o, 'single') && la_ratio (oref, o) < 1e-4 && la_ratio (Sref, S) < 1e-4);
%!   end
%! end

%!test
%! % every gradient against central differences in double, KDA and GDN,
%! % recurrent and chunked
%! for e2 = [1e-6 1e-2]
%!   opts = [P.opts, {'L2NormEps', e2, 'ChunkSize', 4}];
%!   for pr = {{'kda_recurrent', 'kda_recurrent_bwd'}, {'kda_chunk', 'kda_chunk_bwd'}}
%!     res = fd_check (pr{1}{1}, pr{1}{2}, P, opts, 'Seed', 3, 'Print', false);
%!     assert (all ([res.pass]), '%s, eps %g: %s', pr{1}{2}, e2, strjoin ({res(~[res.pass]).name}, ' '));
%!   end
%!   G = rand_problem ('gdn', 'K', 4, 'V', 3, 'T', 9, 'UseQKL2Norm', true);
%!   gopts = [G.opts, {'L2NormEps', e2, 'ChunkSize', 4}];
%!   res = fd_check ('gdn_chunk', 'gdn_chunk_bwd', G, gopts, 'Seed', 4, 'Print', false);
%!   assert (all ([res.pass]));
%! end

%!test
%! % a zero column: y = 0 and, with eps > 0, dx = dy / sqrt(eps) (with eps = 0
%! % the library's convention: zero gradient)
%! q = P.q;  q(:, 3) = 0;
%! dout = randn (size (P.v));
%! d = cell (1, 2);
%! [d{:}] = kda_recurrent_bwd (q, P.k, P.v, P.g, P.beta, dout, [], P.opts{:}, 'L2NormEps', 1e-2);
%! q2 = q;  q2(:, 3) = 1e-30;   % the same used q up to 1e-28, another code path
%! d2 = cell (1, 2);
%! [d2{:}] = kda_recurrent_bwd (q2, P.k, P.v, P.g, P.beta, dout, [], P.opts{:}, 'L2NormEps', 1e-2);
%! assert (any (d{1}(:, 3) ~= 0));
%! assert (d{1}(:, 3), d2{1}(:, 3), 1e-12 * max (abs (d{1}(:))));

%!test
%! % columns so small that eps / max|x|^2 overflows: the norm is sqrt(eps)
%! q = P.q;  q(:, 2) = 1e-300 * q(:, 2);  q(:, 5) = 4e-320;
%! for e2 = [1e-6 1e-2]
%!   oref = ref_forward ('kda', q, P.k, P.v, P.g, P.beta, P.opts{:}, 'L2NormEps', e2);
%!   o = kda_chunk (q, P.k, P.v, P.g, P.beta, P.opts{:}, 'L2NormEps', e2);
%!   assert (la_ratio (oref, o) < 1e-12);
%! end

%!error id=kda:badOption kda_chunk (P.q, P.k, P.v, P.g, P.beta, 'L2NormEps', -1)
%!error id=kda:badOption kda_chunk (P.q, P.k, P.v, P.g, P.beta, 'L2NormEps', Inf)
%!error id=gdn:badOption gdn_recurrent (1, 1, 1, -1, 0.5, 'L2NormEps', [1 2])
