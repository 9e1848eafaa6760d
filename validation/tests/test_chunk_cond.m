% Tests: aux.cond of the chunked forward ('Intermediates'): the 1-norm
% condition number of each chunk's unit lower-triangular system I + A_raw
% (docs/stability.md, "Conditioning of the chunk system"), against Octave's
% cond (., 1) of the same matrix taken from aux.A_raw, for KDA and GDN,
% double and single, variable length, a short last chunk.
% Run with  test test_chunk_cond  or through validation/run_tests.m.

%!function ref = cond_of_aux (aux, HV, B)
%!  % cond_1 (I + A_raw) per chunk (rows) and value head (columns), in double;
%!  % chunk n is batch b = sequence (no CuSeqlens) or batch 1 (CuSeqlens)
%!  NC = rows (aux.chunks);
%!  ref = zeros (NC, HV);
%!  for n = 1:NC
%!    t0 = aux.chunks(n, 2);
%!    c = aux.chunks(n, 3);
%!    b = min (aux.chunks(n, 1), B);
%!    for j = 1:HV
%!      Ar = double (aux.A_raw(1:c, t0:t0 + c - 1, j, b)).';
%!      ref(n, j) = cond (eye (c) + Ar, 1);
%!    end
%!  end
%!endfunction

%!test
%! % KDA and GDN, B = 2, T = 21 with C = 8 (a short last chunk), keys not
%! % normalised and AllowNegEigval so that cond is far from 1
%! for op = {'kda', 'gdn'}
%!   P = rand_problem (op{1}, 'K', 6, 'V', 4, 'T', 21, 'HV', 2, 'B', 2, 'Seed', 7, ...
%!                     'GateStrength', 0.05, 'BetaSigmoid', true, 'AllowNegEigval', true);
%!   [~, ~, aux] = feval ([op{1} '_chunk'], P.q, 3 * P.k, P.v, P.g, P.beta, P.opts{:}, ...
%!                        'ChunkSize', 8, 'Intermediates', true);
%!   ref = cond_of_aux (aux, 2, 2);
%!   assert (size (aux.cond), [6, 2]);
%!   assert (aux.cond, ref, 1e-12 * ref);
%!   assert (max (ref(:)) > 100);             % the case is ill-conditioned
%! end

%!test
%! % single: single results, equal to the double cond of its own A_raw to
%! % single rounding times the condition; varlen (CuSeqlens)
%! cu = [0 5 17 30];
%! P = rand_problem ('kda', 'K', 5, 'V', 3, 'T', 30, 'Class', 'single', 'Seed', 8, ...
%!                   'CuSeqlens', cu);
%! [~, ~, aux] = kda_chunk (P.q, P.k, P.v, P.g, P.beta, P.opts{:}, 'ChunkSize', 8, ...
%!                          'Intermediates', true);
%! assert (isa (aux.cond, 'single'));
%! ref = cond_of_aux (aux, 1, 1);
%! assert (size (aux.cond), [rows(aux.chunks), 1]);
%! assert (double (aux.cond), ref, 1e-4 * ref .^ 2);
%! assert (all (aux.cond(:) >= 1));         % cond_1 of anything is >= 1

%!test
%! % a chunk of one step: I + A_raw = 1, cond exactly 1
%! P = rand_problem ('gdn', 'K', 4, 'V', 3, 'T', 5, 'Seed', 9);
%! [~, ~, aux] = gdn_chunk (P.q, P.k, P.v, P.g, P.beta, 'ChunkSize', 1, 'Intermediates', true);
%! assert (aux.cond, ones (5, 1));
