% Tests: option 'Emulate' of the chunked functions (docs/emulation.md) and
% the tolerances kda_verify takes from it (verify_tolerance).
% Run with  test test_emulate  or through validation/run_tests.m.

%!function [q, k, v, g, beta, dout] = data_ (op, T)
%!  rand ('seed', 3);  randn ('seed', 3);
%!  K = 16; V = 12; H = 2;
%!  q = randn (K, T, H);  k = randn (K, T, H);  k = k ./ sqrt (sum (k .^ 2, 1));
%!  v = randn (V, T, H);  beta = rand (T, H);  dout = randn (V, T, H);
%!  if (strcmp (op, 'kda'))
%!    g = -rand (K, T, H) / 2;
%!  else
%!    g = -rand (T, H) / 2;
%!  end
%!endfunction

%!function tf = on_grid_ (x, fmt)
%!  % every value representable in the format (ref_round leaves it alone)
%!  tf = isequal (single (x), ref_round (single (x), fmt));
%!endfunction

%!function r = ratio_ (ref, x)
%!  r = norm (ref(:) - double (x(:))) / norm (ref(:));
%!endfunction

%!test
%! % 'none' changes nothing, bit for bit, in both classes
%! [q, k, v, g, beta, dout] = data_ ('kda', 37);
%! assert (isequal (kda_chunk (q, k, v, g, beta, 'Emulate', 'none'), kda_chunk (q, k, v, g, beta)));
%! s = @single;
%! a = cell (1, 5);  b = cell (1, 5);
%! [a{:}] = kda_chunk_bwd (s (q), s (k), s (v), s (g), s (beta), s (dout), [], 'Emulate', 'None');
%! [b{:}] = kda_chunk_bwd (s (q), s (k), s (v), s (g), s (beta), s (dout), []);
%! assert (isequal (a, b));

%!test
%! % double in, double out; the same values as single inputs (the work is single)
%! for fmt = {'bf16', 'fp16'}
%!   [q, k, v, g, beta, dout] = data_ ('kda', 37);
%!   [o, S, aux] = kda_chunk (q, k, v, g, beta, 'Emulate', fmt{1}, 'Intermediates', true, 'ChunkSize', 16);
%!   assert (isa (o, 'double') && isa (S, 'double') && isa (aux.w, 'double') && isa (aux.h, 'double'));
%!   s = @single;
%!   o1 = kda_chunk (s (q), s (k), s (v), s (g), s (beta), 'Emulate', fmt{1}, 'ChunkSize', 16);
%!   assert (isa (o1, 'single') && isequal (double (o1), o));
%! end

%!test
%! % the inputs are rounded: pre-rounded inputs give the very same result
%! for fmt = {'bf16', 'fp16'}
%!   [q, k, v, g, beta, dout] = data_ ('kda', 37);
%!   r = @(x) double (ref_round (single (x), fmt{1}));
%!   o1 = kda_chunk (q, k, v, g, beta, 'Emulate', fmt{1});
%!   o2 = kda_chunk (r (q), r (k), r (v), r (g), r (beta), 'Emulate', fmt{1});
%!   assert (isequal (o1, o2));
%!   [q, k, v, g, beta, dout] = data_ ('gdn', 37);
%!   d1 = cell (1, 5);  d2 = cell (1, 5);
%!   [d1{:}] = gdn_chunk_bwd (q, k, v, g, beta, dout, [], 'Emulate', fmt{1});
%!   [d2{:}] = gdn_chunk_bwd (r (q), r (k), r (v), r (g), r (beta), r (dout), [], 'Emulate', fmt{1});
%!   assert (isequal (d1, d2));
%! end

%!test
%! % what a kernel stores in the format is on its grid: o, w, u, A, Aqk, v_new, h, gradients
%! for fmt = {'bf16', 'fp16'}
%!   [q, k, v, g, beta, dout] = data_ ('kda', 37);
%!   [o, S, aux] = kda_chunk (q, k, v, g, beta, 'Emulate', fmt{1}, 'Intermediates', true, 'ChunkSize', 16);
%!   for f = {'w', 'u', 'A', 'Aqk', 'v_new', 'h'}
%!     assert (on_grid_ (aux.(f{1}), fmt{1}), '%s: aux.%s not rounded', fmt{1}, f{1});
%!   end
%!   assert (on_grid_ (o, fmt{1}));
%!   assert (~on_grid_ (aux.G, fmt{1}) && ~on_grid_ (S, fmt{1}));   % fp32 in FLA too
%!   d = cell (1, 5);
%!   [d{:}] = kda_chunk_bwd (q, k, v, g, beta, dout, [], 'Emulate', fmt{1});
%!   assert (all (cellfun (@(x) on_grid_ (x, fmt{1}), d)));
%! end

%!function [o, S, d] = emulated_ (op, q, k, v, g, beta, h0, dO, dS, fmt, C, change)
%!  % the plain chunked reference with 'Emulate' (drv_chunk_fwd / _bwd), per
%!  % head, single inputs; d: dq, dk, dv, dg, dbeta, dh0 (with dO)
%!  addpath (fullfile (fileparts (which ('test_emulate')), '..', 'derivation'));
%!  [K, T, H] = size (q);  V = size (v, 1);  sg = @single;  s = 1 / sqrt (K);
%!  o = zeros (V, T, H, 'single');  S = zeros (K, V, H, 'single');
%!  d = {zeros(K, T, H, 'single'), zeros(K, T, H, 'single'), zeros(V, T, H, 'single'), ...
%!       zeros(size(g), 'single'), zeros(T, H, 'single'), zeros(K, V, H, 'single')};
%!  for h = 1:H
%!    if (strcmp (op, 'kda')), gh = sg (g(:, :, h)); else, gh = sg (g(:, h)'); end
%!    in = {sg(q(:, :, h)), sg(k(:, :, h)), sg(v(:, :, h)), gh, sg(beta(:, h)'), sg(h0(:, :, h)), s, C};
%!    [o(:, :, h), S(:, :, h)] = drv_chunk_fwd (in{:}, fmt, change);
%!    if (~isempty (dO))
%!      x = cell (1, 6);
%!      [x{:}] = drv_chunk_bwd (in{:}, sg (dO(:, :, h)), sg (dS(:, :, h)), fmt, change);
%!      d{1}(:, :, h) = x{1};  d{2}(:, :, h) = x{2};  d{3}(:, :, h) = x{3};  d{6}(:, :, h) = x{6};
%!      if (strcmp (op, 'kda')), d{4}(:, :, h) = x{4}; else, d{4}(:, h) = x{4}'; end
%!      d{5}(:, h) = x{5}';
%!    end
%!  end
%!endfunction

%!test
%! % where it rounds, forward: against the plain chunked reference rounding
%! % exactly what docs/emulation.md lists (drv_chunk_fwd with fmt: QG, KC,
%! % Aqk, w, u, the state snapshot, v_new, o; the carried state in single).
%! % Bounds: o within eps_f / 16 (eps_f = 2^-8 bf16, 2^-11 fp16: a stored
%! % value that lands on the other side of a rounding boundary), S within
%! % 1e-6 (single's sums).  Each bound is tight: the reference with one
%! % rounding left out, the state carried from the rounded snapshot, or the
%! % carried state rounded too, misses the core by more (KG and A feed only
%! % the backward and aux in the WY form: the backward's test has them).
%! ratio = @(a, b) norm (double (a(:)) - double (b(:))) / norm (double (a(:)));
%! s = @single;
%! changes = {'no QG', 'no KC', 'no Aqk', 'no w', 'no u', 'no h', 'no vnew', 'no o', ...
%!            'state from h', 'round S', 'no in'};
%! for op = {'kda', 'gdn'}
%!   [q, k, v, g, beta] = data_ (op{1}, 100);
%!   h0 = randn (16, 12, 2);
%!   for fmt = {'bf16', 'fp16'}
%!     bo = 2 ^ -8 / 16;
%!     if (strcmp (fmt{1}, 'fp16')), bo = 2 ^ -11 / 16; end
%!     bS = 1e-6;
%!     [o, S] = feval ([op{1} '_chunk'], s (q), s (k), s (v), s (g), s (beta), ...
%!                     'InitialState', s (h0), 'Emulate', fmt{1}, 'ChunkSize', 32);
%!     [ro, rS] = emulated_ (op{1}, q, k, v, g, beta, h0, [], [], fmt{1}, 32, '');
%!     assert (ratio (ro, o) <= bo && ratio (rS, S) <= bS, '%s %s: o %g (<= %g), S %g (<= %g)', ...
%!             op{1}, fmt{1}, ratio (ro, o), bo, ratio (rS, S), bS);
%!     for c = changes
%!       [xo, xS] = emulated_ (op{1}, q, k, v, g, beta, h0, [], [], fmt{1}, 32, c{1});
%!       assert (ratio (xo, o) > bo || ratio (xS, S) > bS, '%s %s: %s within the bounds', ...
%!               op{1}, fmt{1}, c{1});
%!     end
%!   end
%! end

%!test
%! % where it rounds, backward (bf16): against drv_chunk_bwd with fmt, which
%! % recomputes the forward as above, rounds dO on entry, the intra-chunk dv
%! % and dv_new where FLA stores them, lets the chunk read dh rounded while
%! % the carried term keeps it single, and rounds the gradients last.
%! % Bounds: dq, dk, dv, dg, dbeta within eps_f / 32, dh0 within 2e-5.
%! % Tight: one rounding left out (the backward's or the forward's), or the
%! % carried dh rounded, misses the core by more.  (fp16 is left out here:
%! % its gradients' last rounding flips more often, 1e-4 apart already.)
%! ratio = @(a, b) norm (double (a(:)) - double (b(:))) / norm (double (a(:)));
%! s = @single;
%! bg = 2 ^ -8 / 32;  bh = 2e-5;
%! changes = {'no dh', 'no dv', 'no dvnew', 'no grads', 'carry rounded dh', 'no in', 'no h', ...
%!            'no vnew', 'no w', 'no u', 'no A', 'no Aqk', 'no QG', 'no KG', 'no KC'};
%! for op = {'kda', 'gdn'}
%!   [q, k, v, g, beta, dO] = data_ (op{1}, 100);
%!   h0 = randn (16, 12, 2);  dS = randn (16, 12, 2);
%!   d = cell (1, 6);
%!   [d{:}] = feval ([op{1} '_chunk_bwd'], s (q), s (k), s (v), s (g), s (beta), s (dO), s (dS), ...
%!                   'InitialState', s (h0), 'Emulate', 'bf16', 'ChunkSize', 32);
%!   err = @(r) [max(cellfun (ratio, r(1:5), d(1:5))), ratio(r{6}, d{6})];
%!   [~, ~, r] = emulated_ (op{1}, q, k, v, g, beta, h0, dO, dS, 'bf16', 32, '');
%!   e = err (r);
%!   assert (e(1) <= bg && e(2) <= bh, '%s: gradients %g (<= %g), dh0 %g (<= %g)', op{1}, e, bg, bh);
%!   for c = changes
%!     [~, ~, r] = emulated_ (op{1}, q, k, v, g, beta, h0, dO, dS, 'bf16', 32, c{1});
%!     e = err (r);
%!     assert (e(1) > bg || e(2) > bh, '%s: %s within the bounds', op{1}, c{1});
%!   end
%! end

%!test
%! % the error has the size of the format: bf16 > fp16 > single, each near its unit roundoff
%! [q, k, v, g, beta, dout] = data_ ('kda', 200);
%! o = kda_chunk (q, k, v, g, beta);
%! s = @single;
%! e32 = ratio_ (o, kda_chunk (s (q), s (k), s (v), s (g), s (beta)));
%! e16 = ratio_ (o, kda_chunk (q, k, v, g, beta, 'Emulate', 'fp16'));
%! ebf = ratio_ (o, kda_chunk (q, k, v, g, beta, 'Emulate', 'bf16'));
%! assert (e32 < e16 / 100 && e16 < ebf / 4);
%! assert (ebf > 2 ^ -9 / 4 && ebf < 2 ^ -9 * 8);
%! assert (e16 > 2 ^ -12 / 4 && e16 < 2 ^ -12 * 8);
%! d = cell (1, 5);  de = cell (1, 5);
%! [d{:}] = kda_chunk_bwd (q, k, v, g, beta, dout, []);
%! [de{:}] = kda_chunk_bwd (q, k, v, g, beta, dout, [], 'Emulate', 'bf16');
%! e = cellfun (@ratio_, d, de);
%! assert (all (e > 2 ^ -9 / 4 & e < 2 ^ -9 * 8), sprintf ('%g ', e));

%!test
%! % fp16 overflows as the hardware does (a value past 65520 is Inf); bf16 does not
%! [q, k, v, g, beta] = data_ ('kda', 8);
%! v(1) = 7e4;
%! o = kda_chunk (q, k, v, g, beta, 'Emulate', 'fp16');
%! assert (any (~isfinite (o(:))));
%! o = kda_chunk (q, k, v, g, beta, 'Emulate', 'bf16');
%! assert (all (isfinite (o(:))));

%!error <not an option of kda_recurrent \(only of kda_chunk, kda_chunk_bwd, gdn_chunk, gdn_chunk_bwd\)>
%! [q, k, v, g, beta] = data_ ('kda', 8);
%! kda_recurrent (q, k, v, g, beta, 'Emulate', 'bf16');
%!error <'Emulate' must be 'none', 'bf16', 'fp16' or 'tf32'>
%! [q, k, v, g, beta] = data_ ('kda', 8);
%! kda_chunk (q, k, v, g, beta, 'Emulate', 'fp8');

%!test
%! % kda_verify: a kernel with the emulated error passes, one with 6x it fails
%! [q, k, v, g, beta] = data_ ('kda', 64);
%! r = @(x) double (ref_round (single (x), 'bf16'));
%! [q, k, v, g, beta] = deal (r (q), r (k), r (v), r (g), r (beta));
%! o = kda_chunk (q, k, v, g, beta);
%! oe = kda_chunk (q, k, v, g, beta, 'Emulate', 'bf16');
%! dump = struct ('q', la_to_fla ('q', q), 'k', la_to_fla ('k', k), 'v', la_to_fla ('v', v), ...
%!                'g', la_to_fla ('g', g), 'beta', la_to_fla ('beta', beta), ...
%!                'o', la_to_fla ('o', oe), 'meta', struct ('dtype', 'bfloat16'));
%! [ok, report] = kda_verify (dump);
%! row = report.rows(strcmp ({report.rows.name}, 'o'));
%! assert (ok && abs (row.ratio / row.expected - 1) < 1e-6);
%! assert (row.tol, max (4 * row.expected, 2 ^ -9), 1e-15);
%! randn ('seed', 5);
%! noise = randn (size (o));
%! bad = o + noise * (6 * row.expected * norm (o(:)) / norm (noise(:)));
%! dump.o = la_to_fla ('o', bad);
%! [ok, report] = kda_verify (dump);
%! assert (~ok);
%! assert (~isempty (strfind (report.markdown, 'max(4 x emulated')));

%!test
%! % the lab section (validation/lab/lab_emulation.m) in its quick form:
%! % every check passes and every point is measured
%! addpath (fullfile (fileparts (which ('test_emulate')), '..', 'lab'));
%! [rows, figs] = lab_emulation ('quick', '');
%! checks = rows(~isnan ([rows.bound]));
%! assert (numel (checks) == 14 && all ([checks.pass]));
%! assert (all (isfinite ([rows.value])) && numel (figs) == 1);
