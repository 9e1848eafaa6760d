% Tests: decode as servers run it (docs/decode.md): a state pool with
% 'Slots' (per sequence or per step), 'AcceptedTokens' and 'UpdatePool' in
% kda_recurrent / gdn_recurrent, and a per-channel beta (V x T x HV x B)
% in the recurrent paths.  The pooled call against the plain Octave
% reference (ref_decode) and against the equivalent plain calls, bit for
% bit where the operations are the same; the per-token states against the
% step-by-step reference and the chunked path's aux.h; the speculative
% step of the docs (draft of 4, 2 accepted); padding; every refusal;
% per-channel beta against ref_recurrence and its gradient by finite
% differences (fd_check).  Run with  test test_decode_pool  or through
% validation/run_tests.m.

%!function x = steps_of (x, steps_first, steps)
%!  % the given steps of a gate or beta (steps along dimension 1 or 2)
%!  if (steps_first)
%!    x = x(steps, :, :);
%!  else
%!    x = x(:, steps, :);
%!  end
%!endfunction

% ---- the pooled call against the reference and against plain calls ----------
%!test
%! % three sequences of 4, 1, 3 steps; a pool of 7 slots; Slots per step:
%! % seq 1 reads slot 3 (accepted 2) and writes 2, 3, 4, 5; seq 2 is padding;
%! % seq 3 reads slot 7 (accepted 3) and writes 6, (padding), 7
%! cu = [0 4 5 8];  slots = [2 3 4 5; 0 0 0 0; 6 0 7 0]';  acc = [2 1 3];
%! for op = {'kda', 'gdn'}
%!   for pc = [false true]
%!     for V = [8 6]  % the direct path, and the padded one
%!       randn ('seed', 1);  rand ('seed', 1);
%!       [q, k, v, g, beta, pool] = rand_decode (op{1}, 'double', 8, V, 7, pc);
%!       fwd = str2func ([op{1} '_recurrent']);
%!       args = {q, k, v, g, beta, 'CuSeqlens', cu, 'InitialState', pool, 'Slots', slots, ...
%!               'AcceptedTokens', acc};
%!       [o, S] = fwd (args{:});
%!       [ro, rS] = ref_decode (q, k, v, g, beta, pool, slots, acc, true, cu, 1 / sqrt (8));
%!       assert (o, ro, 1e-13 * max (abs (ro(:))));
%!       assert (S, rS, 1e-13 * max (abs (rS(:))));
%!       % slot 1 is nobody's: its bits are the input's
%!       assert (isequal (S(:, :, :, 1), pool(:, :, :, 1)));
%!       % the skipped sequence: zeros
%!       assert (all (o(:, 5, :)(:) == 0));
%!       % sequence 1 as a plain call from its slot: the same bits
%!       [o1, S1] = fwd (q(:, 1:4), k(:, 1:4), v(:, 1:4, :), ...
%!                       steps_of (g, strcmp (op{1}, 'gdn'), 1:4), ...
%!                       steps_of (beta, ! pc, 1:4), 'InitialState', pool(:, :, :, 3));
%!       assert (isequal (o1, o(:, 1:4, :)) && isequal (S1, S(:, :, :, 5)));
%!       % per-token states: the same steps, every state kept
%!       [o2, St] = fwd (args{:}, 'UpdatePool', false);
%!       assert (isequal (o2, o) && isequal (size (St), [8 V 2 8]));
%!       assert (isequal (St(:, :, :, 4), S1) && all (St(:, :, :, 5)(:) == 0));
%!       [~, rSt] = ref_decode (q, k, v, g, beta, pool, slots, acc, false, cu, 1 / sqrt (8));
%!       assert (St, rSt, 1e-13 * max (abs (rSt(:))));
%!       % the V x K layout: the same numbers
%!       [o3, S3] = fwd (q, k, v, g, beta, 'CuSeqlens', cu, 'InitialState', ...
%!                       permute (pool, [2 1 3 4]), 'Slots', slots, 'AcceptedTokens', acc, ...
%!                       'StateLayout', 'VK');
%!       assert (isequal (o3, o) && isequal (permute (S3, [2 1 3 4]), S));
%!     end
%!   end
%! end

%!test
%! % per-token states against the chunked path's aux.h (ChunkSize 1: the
%! % state entering every step), one sequence
%! randn ('seed', 2);  rand ('seed', 2);
%! [q, k, v, g, beta, pool] = rand_decode ('kda', 'double', 5, 8, 3, false);
%! [~, St] = kda_recurrent (q, k, v, g, beta, 'InitialState', pool, 'Slots', 2, 'UpdatePool', false);
%! [~, Sc, aux] = kda_chunk (q, k, v, g, beta, 'InitialState', pool(:, :, :, 2), ...
%!                          'ChunkSize', 1, 'Intermediates', true);
%! assert (St(:, :, :, 1:4), aux.h(:, :, :, 2:5), 1e-12);
%! assert (St(:, :, :, 5), Sc, 1e-12);

%!test
%! % one slot per sequence, single: each step rewrites it, so it ends with
%! % the final state, the plain call's bits; a slot given twice (not in
%! % place) is read by both
%! randn ('seed', 3);  rand ('seed', 3);
%! [q, k, v, g, beta, pool] = rand_decode ('gdn', 'single', 6, 8, 4, false);
%! cu = [0 2 6];
%! [o, S] = gdn_recurrent (q, k, v, g, beta, 'CuSeqlens', cu, 'InitialState', pool, 'Slots', [4 1]);
%! [op, Sp] = gdn_recurrent (q, k, v, g, beta, 'CuSeqlens', cu, ...
%!                           'InitialState', pool(:, :, :, [4 1]));
%! assert (isequal (o, op) && isequal (S(:, :, :, [4 1]), Sp));
%! assert (isequal (S(:, :, :, 2:3), pool(:, :, :, 2:3)) && isa (S, 'single'));
%! o2 = gdn_recurrent (q, k, v, g, beta, 'CuSeqlens', cu, 'InitialState', pool, ...
%!                     'Slots', [3 3], 'UpdatePool', false);
%! op2 = gdn_recurrent (q, k, v, g, beta, 'CuSeqlens', cu, 'InitialState', pool(:, :, :, [3 3]));
%! assert (isequal (o2, op2));

% ---- the speculative step of docs/decode.md -----------------------------------
%!test
%! % a draft of 4 tokens reads slot 2 and writes its states to slots 2..5;
%! % 2 accepted: the next call starts from slot 3 (AcceptedTokens 2) and
%! % equals the plain call over the 2 accepted tokens and its own 4
%! randn ('seed', 4);  rand ('seed', 4);
%! [q, k, v, g, beta, pool] = rand_decode ('kda', 'double', 8, 8, 5, false);
%! slots = [2 3 4 5]';  d = 1:4;  n = 5:8;
%! [od, pool1] = kda_recurrent (q(:, d), k(:, d), v(:, d, :), g(:, d, :), beta(d, :), ...
%!                              'InitialState', pool, 'Slots', slots);
%! [on, pool2] = kda_recurrent (q(:, n), k(:, n), v(:, n, :), g(:, n, :), beta(n, :), ...
%!                              'InitialState', pool1, 'Slots', slots, 'AcceptedTokens', 2);
%! acc = [1 2 5 6 7 8];  % the 2 accepted draft tokens, then the next four
%! [op, Sp] = kda_recurrent (q(:, acc), k(:, acc), v(:, acc, :), g(:, acc, :), beta(acc, :), ...
%!                           'InitialState', pool(:, :, :, 2));
%! assert (isequal (od(:, 1:2, :), op(:, 1:2, :)));
%! assert (on, op(:, 3:6, :), 1e-13);
%! assert (pool2(:, :, :, 5), Sp, 1e-13);
%! assert (isequal (pool2(:, :, :, 1), pool(:, :, :, 1)) && isequal (pool1(:, :, :, 1), pool(:, :, :, 1)));

% ---- a per-channel beta --------------------------------------------------------
%!test
%! % against ref_recurrence, and equal channels give the scalar beta's bits
%! randn ('seed', 5);  rand ('seed', 5);
%! for op = {'kda', 'gdn'}
%!   [q, k, v, g, beta, pool] = rand_decode (op{1}, 'double', 7, 6, 2, true);
%!   fwd = str2func ([op{1} '_recurrent']);
%!   [o, S] = fwd (q, k, v, g, beta, 'InitialState', pool(:, :, :, 1));
%!   for hv = 1:2
%!     if (strcmp (op{1}, 'kda'))
%!       gh = g(:, :, hv);
%!     else
%!       gh = g(:, hv)';
%!     end
%!     [ro, rS] = ref_recurrence (q, k, v(:, :, hv), gh, beta(:, :, hv), ...
%!                                pool(:, :, hv, 1), 1 / sqrt (8));
%!     assert (o(:, :, hv), ro, 1e-13);
%!     assert (S(:, :, hv), rS, 1e-13);
%!   end
%!   b1 = rand (7, 2);
%!   [o1, S1] = fwd (q, k, v, g, b1, 'InitialState', pool(:, :, :, 1));
%!   [o2, S2] = fwd (q, k, v, g, repmat (reshape (b1, 1, 7, 2), 6, 1), ...
%!                   'InitialState', pool(:, :, :, 1));
%!   assert (isequal (o1, o2) && isequal (S1, S2));
%! end

%!test
%! % every gradient with a per-channel beta by central differences, with
%! % and without BetaSigmoid, GVA (H = 1, HV = 2), V not a multiple of 4
%! for op = {'kda', 'gdn'}
%!   for sig = [false true]
%!     P = rand_problem (op{1}, 'T', 6, 'H', 1, 'HV', 2, 'B', 2, 'K', 5, 'V', 3, ...
%!                       'InitialState', true);
%!     P.beta = randn (3, 6, 2, 2);
%!     if (! sig)
%!       P.beta = 0.5 + 0.4 * tanh (P.beta);
%!     end
%!     res = fd_check (P.fwd, P.bwd, P, [P.opts, {'BetaSigmoid', sig}]);
%!     assert (all ([res.pass]), '%s BetaSigmoid %d: %s', op{1}, sig, ...
%!             strjoin ({res(! [res.pass]).name}, ', '));
%!   end
%! end

%!test
%! % dbeta has beta's shape; the chunked paths refuse it with the reason
%! randn ('seed', 6);  rand ('seed', 6);
%! [q, k, v, g, beta] = rand_decode ('kda', 'double', 4, 8, 1, true);
%! [o, S] = kda_recurrent (q, k, v, g, beta);
%! [~, ~, ~, ~, db] = kda_recurrent_bwd (q, k, v, g, beta, o, S);
%! assert (size (db), size (beta));
%! try
%!   kda_chunk (q, k, v, g, beta);
%!   error ('no error');
%! catch err
%!   assert (err.identifier, 'kda:badShape');
%!   assert (! isempty (strfind (err.message, 'recurrent paths only')));
%! end

% ---- refusals -----------------------------------------------------------------
%!shared q, k, v, g, b, pool, cu
%! randn ('seed', 7);  rand ('seed', 7);
%! [q, k, v, g, b, pool] = rand_decode ('kda', 'double', 3, 8, 4, false);
%! cu = [0 1 3];
%!error <beyond the pool's last slot 4> kda_recurrent (q, k, v, g, b, 'CuSeqlens', cu, 'InitialState', pool, 'Slots', [1 5])
%!error id=kda:badSlot kda_recurrent (q, k, v, g, b, 'CuSeqlens', cu, 'InitialState', pool, 'Slots', [1 5])
%!error <written by sequences 1 and 2> kda_recurrent (q, k, v, g, b, 'CuSeqlens', cu, 'InitialState', pool, 'Slots', [2 2])
%!error <read by sequence 1 and written by sequence 2> kda_recurrent (q, k, v, g, b, 'CuSeqlens', cu, 'InitialState', pool, 'Slots', [3 1; 1 2], 'AcceptedTokens', [2 1])
%!error id=kda:badSlot kda_recurrent (q, k, v, g, b, 'CuSeqlens', cu, 'InitialState', pool, 'Slots', [1 2; 3 4], 'AcceptedTokens', [1 3])
%!error id=kda:badShape kda_recurrent (q, k, v, g, b, 'CuSeqlens', cu, 'InitialState', pool, 'Slots', [1 2 3])
%!error id=kda:badShape kda_recurrent (q, k, v, g, b, 'CuSeqlens', cu, 'InitialState', pool, 'Slots', [1 2], 'AcceptedTokens', 1)
%!error id=kda:badOption kda_recurrent (q, k, v, g, b, 'CuSeqlens', cu, 'Slots', [1 2])
%!error id=kda:badOption kda_recurrent (q, k, v, g, b, 'CuSeqlens', cu, 'InitialState', pool(:, :, :, 1:2), 'UpdatePool', true)
%!error id=kda:badOption kda_recurrent (q, k, v, g, b, 'CuSeqlens', cu, 'InitialState', pool(:, :, :, 1:2), 'UpdatePool', false)
%!error id=kda:badOption kda_recurrent (q, k, v, g, b, 'CuSeqlens', cu, 'InitialState', pool, 'Slots', [1.5 2])
%!error id=kda:badOption kda_recurrent_bwd (q, k, v, g, b, v, [], 'CuSeqlens', cu, 'Slots', [1 2])
%!error id=kda:badOption kda_chunk (q, k, v, g, b, 'CuSeqlens', cu, 'Slots', [1 2])
%!test
%! % the sequence that starts from padding is skipped, its slots free; a
%! % slot given as int32 (a dump's tensor) is read like a double
%! [o, S] = kda_recurrent (q, k, v, g, b, 'CuSeqlens', cu, 'InitialState', pool, ...
%!                         'Slots', int32 ([0 0; 2 2]), 'AcceptedTokens', [1 2]);
%! assert (all (o(:, 1, :)(:) == 0) && isequal (S(:, :, :, [1 3 4]), pool(:, :, :, [1 3 4])));
% ---- T = 0: AcceptedTokens and Slots are checked before any use ---------------
%!test
%! % no step: nothing is read, so counts outside [1, rows] of a sequence with
%! % no step are not an error (a padded batch), and the pool comes back as it was
%! for op = {'kda', 'gdn'}
%!   z = zeros (4, 0, 2, 2);
%!   if (strcmp (op{1}, 'kda')) gz = z; else gz = zeros (0, 2, 2); end
%!   pool = randn (4, 4, 2, 8);
%!   fwd = str2func ([op{1} '_recurrent']);
%!   for acc = {[1e15 1], [-3 0], [1 2^62], [NaN 1]}
%!     try
%!       [o, S] = fwd (z, z, z, gz, zeros (0, 2, 2), 'InitialState', pool, 'Slots', [1 2], ...
%!                     'AcceptedTokens', acc{1});
%!       assert (size (o), [4 0 2 2]);
%!       assert (isequal (S, pool));
%!     catch err
%!       assert (any (strcmp (err.identifier, {[op{1} ':badSlot'], [op{1} ':badOption']})), err.message);
%!     end
%!   end
%! end
%!test
%! % a count that points past a short sequence's own rows: the slot it reads
%! % is checked against the pool too
%! randn ('seed', 3);  rand ('seed', 3);
%! [q, k, v, g, b, pool] = rand_decode ('kda', 'double', 3, 8, 4, false);
%! cu = [0 1 3];
%! try
%!   kda_recurrent (q, k, v, g, b, 'CuSeqlens', cu, 'InitialState', pool, ...
%!                  'Slots', [1 2; 99 3], 'AcceptedTokens', [2 1]);
%!   error ('test:noError', 'a read slot beyond the pool was accepted');
%! catch err
%!   assert (err.identifier, 'kda:badSlot');
%!   assert (! isempty (strfind (err.message, 'Slots(2, 1) = 99')), err.message);
%! end
