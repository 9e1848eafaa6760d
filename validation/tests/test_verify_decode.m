% Tests: kda_verify / gdn_verify on dumps of fused recurrent decode calls
% (docs/decode.md): ssm_state_indices, num_accepted_tokens (integer
% tensors), the pool before the call as h0 and after it as ht, meta.json's
% inplace_final_state, a per-channel beta [B, T, HV, V].  A correct
% float32 kernel (our double result rounded) passes; a wrong output, a
% wrong written slot, a touched slot nobody writes, each fails with the
% first sequence, step and slot that goes wrong (0-based, as FLA).  One
% dump through a folder of .npy files and meta.json.  Run with  test
% test_verify_decode  or through validation/run_tests.m.

%!function [d, o, S] = decode_dump (op, inplace, per_channel)
%!  % three sequences of 4, 1, 3 steps (the second padding), a pool of 7
%!  % slots, Slots per step; FLA layout, float32 outputs
%!  randn ('seed', 11);  rand ('seed', 11);
%!  K = 8;  V = 8;  HV = 2;  T = 8;
%!  cu = [0 4 5 8];  slots = [2 3 4 5; 0 0 0 0; 6 0 7 0]';  acc = [2 1 3];
%!  [q, k, v, g, beta, pool] = rand_decode (op, 'double', T, V, 7, per_channel);
%!  fwd = str2func ([op '_recurrent']);
%!  [o, S] = fwd (q, k, v, g, beta, 'CuSeqlens', cu, 'InitialState', pool, 'Slots', slots, ...
%!                'AcceptedTokens', acc, 'UpdatePool', inplace);
%!  c = {'Op', op};
%!  d = struct ('q', la_to_fla ('q', q, c{:}), 'k', la_to_fla ('k', k, c{:}), ...
%!              'v', la_to_fla ('v', v, c{:}), 'g', la_to_fla ('g', g, c{:}), ...
%!              'h0', single (la_to_fla ('h0', pool, c{:})), ...
%!              'ssm_state_indices', int32 (slots' - 1), ...
%!              'num_accepted_tokens', int32 (acc(:)), ...
%!              'o', single (la_to_fla ('o', o, c{:})));
%!  if (per_channel)
%!    d.beta = permute (beta, [4 2 3 1]);       % [B, T, HV, V]
%!  else
%!    d.beta = la_to_fla ('beta', beta, c{:});
%!  end
%!  if (inplace)
%!    d.ht = single (la_to_fla ('ht', S, c{:}));
%!  else
%!    d.ht = single (la_to_fla ('ht', reshape (S, K, V, HV, T), c{:}));   % [B*T, HV, K, V]
%!  end
%!  d.meta = struct ('cu_seqlens', cu, 'inplace_final_state', inplace, 'dtype', 'float32');
%!endfunction

%!function y = verify_round_bf16 (x)
%!  u = typecast (single (x(:)), 'uint32');
%!  r = bitand (u + uint32 (32767) + bitand (bitshift (u, -16), uint32 (1)), uint32 (4294901760));
%!  y = reshape (double (typecast (r, 'single')), size (x));
%!endfunction

%!function where = failing (op, d, name)
%!  verify = str2func ([op '_verify']);
%!  [ok, r] = verify (d);
%!  assert (! ok, 'a wrong %s passed', name);
%!  i = find (strcmp ({r.rows.name}, name));
%!  assert (! r.rows(i).pass);
%!  where = r.rows(i).where;
%!endfunction

%!test
%! % correct float32 kernels pass, in place and per token, both ops, both betas
%! for op = {'kda', 'gdn'}
%!   for inplace = [true false]
%!     for pc = [false true]
%!       d = decode_dump (op{1}, inplace, pc);
%!       verify = str2func ([op{1} '_verify']);
%!       [ok, r] = verify (d);
%!       assert (ok, '%s inplace %d per-channel %d: %s', op{1}, inplace, pc, r.markdown);
%!       assert (isequal (sort ({r.rows.name}), {'ht', 'o'}));
%!     end
%!   end
%! end

%!test
%! % a wrong output at sequence 2, step 1 (token 6)
%! d = decode_dump ('kda', true, false);
%! d.o(1, 7, :, :) += 0.5;
%! w = failing ('kda', d, 'o');
%! assert (! isempty (strfind (w, 'sequence 2, step 1, reading slot 6, writing no slot (padding -1)')), w);

%!test
%! % the skipped sequence must give zeros
%! d = decode_dump ('gdn', true, true);
%! d.o(1, 5, :, :) = 1;
%! w = failing ('gdn', d, 'o');
%! assert (! isempty (strfind (w, 'sequence 1, step 0, skipped')), w);

%!test
%! % a wrong state in the slot sequence 0 writes at step 2 (slot 3)
%! d = decode_dump ('kda', true, false);
%! d.ht(4, :, :, :) *= 1.1;
%! w = failing ('kda', d, 'ht');
%! assert (! isempty (strfind (w, 'sequence 0, step 2, writing slot 3')), w);

%!test
%! % a slot nobody writes (slot 0) touched by one ulp: a failure, named
%! d = decode_dump ('kda', true, false);
%! d.ht(1, 1, 1, 1) = d.ht(1, 1, 1, 1) * (1 + eps ('single'));
%! w = failing ('kda', d, 'ht');
%! assert (! isempty (strfind (w, 'slot 0 changed although no sequence writes it')), w);

%!test
%! % per-token states (not in place): the first wrong token
%! d = decode_dump ('kda', false, false);
%! d.ht(3, :, :, :) *= 1.1;   % sequence 0, step 2
%! w = failing ('kda', d, 'ht');
%! assert (! isempty (strfind (w, 'sequence 0, step 2')), w);

%!test
%! % through the front door: a folder of .npy files and meta.json
%! d = decode_dump ('kda', true, true);
%! dir = tempname ();
%! mkdir (dir);
%! cleanup = onCleanup (@() confirm_recursive_rmdir (false, 'local') || rmdir (dir, 's'));
%! names = setdiff (fieldnames (d), {'meta'});
%! for i = 1:numel (names)
%!   la_save (fullfile (dir, [names{i} '.npy']), d.(names{i}));
%! end
%! fid = fopen (fullfile (dir, 'meta.json'), 'w');
%! fprintf (fid, '{"cu_seqlens": [0, 4, 5, 8], "inplace_final_state": true, "dtype": "float32"}');
%! fclose (fid);
%! [ok, r] = kda_verify (dir);
%! assert (ok, r.markdown);
%! assert (exist (fullfile (dir, 'verify_report.md'), 'file') == 2);

%!test
%! % one slot per sequence, stored 1-D ([N], FLA's usual serving layout),
%! % N >= 2: read as one slot per sequence; passes clean, fails wrong
%! randn ('seed', 12);  rand ('seed', 12);
%! K = 8;  V = 8;  HV = 2;  T = 3;
%! cu = [0 1 2 3];  slots = [4 0 2];
%! for op = {'kda', 'gdn'}
%!   [q, k, v, g, beta, pool] = rand_decode (op{1}, 'double', T, V, 5, false);
%!   fwd = str2func ([op{1} '_recurrent']);
%!   [o, S] = fwd (q, k, v, g, beta, 'CuSeqlens', cu, 'InitialState', pool, 'Slots', slots + 1);
%!   c = {'Op', op{1}};
%!   d = struct ('q', la_to_fla ('q', q, c{:}), 'k', la_to_fla ('k', k, c{:}), ...
%!               'v', la_to_fla ('v', v, c{:}), 'g', la_to_fla ('g', g, c{:}), ...
%!               'beta', la_to_fla ('beta', beta, c{:}), ...
%!               'h0', single (la_to_fla ('h0', pool, c{:})), ...
%!               'ssm_state_indices', int32 (slots(:)), ...
%!               'o', single (la_to_fla ('o', o, c{:})), 'ht', single (la_to_fla ('ht', S, c{:})));
%!   d.meta = struct ('cu_seqlens', cu, 'inplace_final_state', true, 'dtype', 'float32');
%!   verify = str2func ([op{1} '_verify']);
%!   [ok, r] = verify (d);
%!   assert (ok, r.markdown);
%!   assert (! isempty (strfind (r.markdown, 'one slot per sequence')));
%!   d.ht(1, :, :, :) *= 1.1;            % slot 0: sequence 1's
%!   w = failing (op{1}, d, 'ht');
%!   assert (! isempty (strfind (w, 'sequence 1, step 0, writing slot 0')), w);
%! end

%!error <no h0> kda_verify (rmfield (decode_dump ('kda', true, false), 'h0'))

%!test
%! % a float32 decode dump is judged by the same call in single, not FLA's
%! % 0.005: a decay 2% off on one step of one head (per-token states, 2-D
%! % slots, N = 3; below FLA's threshold) fails, located; the clean dump passes
%! d = decode_dump ('gdn', false, false);
%! [ok, r] = gdn_verify (d);
%! assert (ok, r.markdown);
%! i = find (strcmp ({r.rows.name}, 'o'));
%! assert (r.rows(i).tol < 1e-5, 'tol %g', r.rows(i).tol);
%! randn ('seed', 11);  rand ('seed', 11);
%! [q, k, v, g, beta, pool] = rand_decode ('gdn', 'double', 8, 8, 7, false);
%! g(7, 1) *= 0.98;                               % token 6 (sequence 2, step 1), head 0
%! [o, S] = gdn_recurrent (q, k, v, g, beta, 'CuSeqlens', [0 4 5 8], 'InitialState', pool, ...
%!                         'Slots', [2 3 4 5; 0 0 0 0; 6 0 7 0]', 'AcceptedTokens', [2 1 3], ...
%!                         'UpdatePool', false);
%! d.o = single (la_to_fla ('o', o, 'Op', 'gdn'));
%! d.ht = single (la_to_fla ('ht', reshape (S, 8, 8, 2, 8), 'Op', 'gdn'));
%! [ok, r] = gdn_verify (d);
%! assert (! ok);
%! i = find (strcmp ({r.rows.name}, 'o'));
%! assert (r.rows(i).ratio < 0.005, 'ratio %g: FLA''s threshold would catch it', r.rows(i).ratio);
%! assert (! isempty (strfind (r.rows(i).where, 'sequence 2, step 1')), r.rows(i).where);

%!function y = stochastic_bf16 (x)
%!  % round to a bfloat16 neighbour, up with the probability of the fraction
%!  s = single (x(:));
%!  lo = bitand (typecast (s, 'uint32'), uint32 (4294901760));
%!  a = double (typecast (lo, 'single'));  b = double (typecast (lo + uint32 (65536), 'single'));
%!  y = a;
%!  up = rand (size (a)) < (double (s) - a) ./ (b - a);
%!  y(up) = b(up);
%!  y = reshape (y, size (x));
%!endfunction

%!test
%! % a bf16 state pool rounded stochastically (SGLang's option): its ht
%! % error is about sqrt(2) x what rounding to nearest gives; meta.json
%! % state_rounding = 'stochastic' widens ht's expected error to match, o's
%! % not
%! randn ('seed', 13);  rand ('seed', 13);
%! r16 = @(x) verify_round_bf16 (x);
%! [q, k, v, g, beta, pool] = rand_decode ('kda', 'double', 8, 32, 9, false);
%! [q, k, v, g, beta, pool] = deal (r16 (q), r16 (k), r16 (v), r16 (g), r16 (beta), r16 (pool));
%! slots = [2 3 4 5; 0 0 0 0; 6 0 7 0]';
%! [o, S] = kda_recurrent (q, k, v, g, beta, 'CuSeqlens', [0 4 5 8], 'InitialState', pool, ...
%!                         'Slots', slots, 'AcceptedTokens', [2 1 3]);
%! c = {'Op', 'kda'};
%! d = struct ('q', la_to_fla ('q', q, c{:}), 'k', la_to_fla ('k', k, c{:}), 'v', la_to_fla ('v', v, c{:}), ...
%!             'g', la_to_fla ('g', g, c{:}), 'beta', la_to_fla ('beta', beta, c{:}), ...
%!             'h0', la_to_fla ('h0', pool, c{:}), 'ssm_state_indices', int32 (slots' - 1), ...
%!             'num_accepted_tokens', int32 ([2; 1; 3]), 'o', r16 (la_to_fla ('o', o, c{:})), ...
%!             'ht', stochastic_bf16 (la_to_fla ('ht', S, c{:})));
%! d.meta = struct ('cu_seqlens', [0 4 5 8], 'dtype', 'bfloat16');
%! [~, r1] = kda_verify (d);
%! d.meta.state_rounding = 'stochastic';
%! [~, r2] = kda_verify (d);
%! row = @(r, n) r.rows(strcmp ({r.rows.name}, n));
%! assert (row (r2, 'o').expected, row (r1, 'o').expected);
%! m1 = row (r1, 'ht').ratio / row (r1, 'ht').expected;
%! m2 = row (r2, 'ht').ratio / row (r2, 'ht').expected;
%! assert (m1 > 1.15 && m2 > 0.8 && m2 < 1.2, 'measured / expected: nearest %g, stochastic %g', m1, m2);
