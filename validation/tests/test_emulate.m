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

%!test
%! % where it rounds (lab_emu_placement): the core against the plain chunked
%! % reference with the format (validation/derivation/drv_chunk_fwd, _bwd),
%! % which rounds exactly the tensors docs/emulation.md lists; forward in
%! % bf16 and fp16 (o within eps_f / 16, S within 1e-6), backward in bf16
%! % (gradients within eps_f / 32, dh0 within 2e-5).  The bounds see a
%! % misplaced rounding: the next state built from the rounded snapshot,
%! % the carried dh rounded (the lab's emulation section tries every
%! % rounding left out).
%! addpath (fullfile (fileparts (which ('test_emulate')), '..', 'lab'));
%! for op = {'kda', 'gdn'}
%!   res = [lab_emu_placement(op{1}, 'bf16', 'fwd', {'state from h'}, 100), ...
%!          lab_emu_placement(op{1}, 'fp16', 'fwd', {'state from h'}, 100), ...
%!          lab_emu_placement(op{1}, 'bf16', 'bwd', {'carry rounded dh', 'no dh'}, 100)];
%!   for r = res
%!     assert (r.value <= r.bound, '%s: %g', r.check, r.value);
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
%! assert (numel (checks) == 14 + 2 * 3 && all ([checks.pass]));
%! assert (all (isfinite ([rows.value])) && numel (figs) == 1);
