% Tests: kda_verify / gdn_verify with a serving engine's decode rules
% (meta.json "engine", docs/decode.md section 6).  Every dump is written by
% an independent float32 decode kernel of this file (plain Octave, one
% sequence and head at a time, FLA layout; not the library), with the
% engine's rule for padding, its pool layout, output_state_indices,
% disable_state_update, intermediate_states_buffer and EAGLE trees
% (retrieve_parent_token).  Clean dumps pass under their engine; the same
% dump under another engine's rule, or with one planted slip, fails where
% the slip is.  Run with  test test_verify_engines  or through
% validation/run_tests.m.

%!function [o, pool, buf] = kernel (op, x, rule)
%!  % x: q k v g beta [1, T, ...] (FLA), h0 [P, HV, K, V], cu, idx (one per
%!  % sequence, 0-based); rule: pad ('zero', 'skip', 'null0'), out (output
%!  % slots or []), noupdate, buf ([] or the buffer to fill), by ('slot' or
%!  % 'row'), bufidx, parents ([] or N x Tmax), drop ([token head]: no decay)
%!  [~, T, H, K] = size (x.q);  HV = size (x.v, 3);  V = size (x.v, 4);
%!  o = zeros (size (x.v), 'single');  pool = x.h0;  buf = rule.buf;
%!  for n = 1:numel (x.cu) - 1
%!    s = x.idx(n);  w = s;
%!    if (! isempty (rule.out))  w = rule.out(n);  end
%!    if (s < 0)
%!      switch (rule.pad)
%!        case 'skip', continue;
%!        case 'null0', s = 0;  w = 0;
%!        otherwise, w = -1;
%!      end
%!    end
%!    c = s;  if (strcmp (rule.by, 'row'))  c = n - 1;  elseif (! isempty (rule.bufidx))  c = rule.bufidx(n);  end
%!    for hv = 1:HV
%!      h = floor ((hv - 1) / (HV / H)) + 1;
%!      if (s >= 0)  S0 = reshape (x.h0(s + 1, hv, :, :), K, V);  else  S0 = zeros (K, V, 'single');  end
%!      S = S0;  steps = {};
%!      for t = x.cu(n) + 1:x.cu(n + 1)
%!        j = t - x.cu(n);
%!        if (j > 1 && ! isempty (rule.parents))  S = steps{rule.parents(n, j) + 1};  end
%!        qq = reshape (x.q(1, t, h, :), K, 1) / sqrt (single (K));
%!        kk = reshape (x.k(1, t, h, :), K, 1);
%!        if (! isequal (rule.drop, [t - 1, hv - 1]))
%!          if (strcmp (op, 'kda'))  S = S .* exp (reshape (x.g(1, t, hv, :), K, 1));
%!          else  S = S * exp (x.g(1, t, hv));  end
%!        end
%!        u = (reshape (x.v(1, t, hv, :), 1, V) - sum (S .* kk, 1)) * x.beta(1, t, hv);
%!        S = S + kk * u;
%!        o(1, t, hv, :) = reshape (sum (S .* qq, 1), 1, 1, 1, V);
%!        steps{j} = S;
%!        if (! isempty (buf) && c >= 0)  buf(c + 1, j, hv, :, :) = reshape (S, 1, 1, 1, K, V);  end
%!      end
%!      if (w >= 0 && ! rule.noupdate)  pool(w + 1, hv, :, :) = reshape (S, 1, 1, K, V);  end
%!      for j = 1:numel (steps)
%!        if (! isempty (rule.stepslots) && rule.stepslots(n, j) >= 0)
%!          pool(rule.stepslots(n, j) + 1, hv, :, :) = reshape (steps{j}, 1, 1, K, V);
%!        end
%!      end
%!    end
%!  end
%!endfunction

%!function y = verify_round_test (x)
%!  % bf16, round to nearest even, independent of the library
%!  u = typecast (single (x(:)), 'uint32');
%!  r = bitand (u + uint32 (32767) + bitand (bitshift (u, -16), uint32 (1)), uint32 (4294901760));
%!  y = reshape (double (typecast (r, 'single')), size (x));
%!endfunction

%!function x = inputs (op, seed, cu, P)
%!  randn ('seed', seed);  rand ('seed', seed);
%!  K = 16;  V = 16;  H = 1;  HV = 2;  T = cu(end);
%!  k = randn (1, T, H, K);
%!  x = struct ('q', single (randn (1, T, H, K)), 'k', single (k ./ sqrt (sum (k .^ 2, 4))), ...
%!              'v', single (randn (1, T, HV, V)), 'beta', single (rand (1, T, HV)), ...
%!              'h0', single (randn (P, HV, K, V)), 'cu', cu);
%!  if (strcmp (op, 'kda'))  x.g = single (-0.5 * rand (1, T, HV, K));
%!  else  x.g = single (-0.5 * rand (1, T, HV));  end
%!endfunction

%!function r = rule (varargin)
%!  r = struct ('pad', 'zero', 'out', [], 'noupdate', false, 'buf', [], 'by', 'slot', ...
%!              'bufidx', [], 'parents', [], 'drop', [], 'stepslots', []);
%!  for i = 1:2:numel (varargin)  r.(varargin{i}) = varargin{i + 1};  end
%!endfunction

%!function d = dump (x, o, pool, engine, idx)
%!  d = struct ('q', x.q, 'k', x.k, 'v', x.v, 'g', x.g, 'beta', x.beta, 'h0', x.h0, ...
%!              'ssm_state_indices', int32 (idx(:)), 'o', o, 'ht', pool);
%!  d.meta = struct ('cu_seqlens', x.cu, 'engine', engine);
%!  if (strcmp (engine, 'sglang'))                % SGLang's pool: [slots, HV, V, K]
%!    d.h0 = vk (d.h0);  d.ht = vk (d.ht);
%!  end
%!endfunction

%!function y = vk (x)
%!  % states [.., K, V] -> [.., V, K] (a 4-D pool or a 5-D buffer)
%!  y = permute (x, [1:ndims(x) - 2, ndims(x), ndims(x) - 1]);
%!endfunction

%!function [ok, r] = check (op, d)
%!  verify = str2func ([op '_verify']);
%!  [ok, r] = verify (d);
%!endfunction

%!function w = where_of (r, name)
%!  i = find (strcmp ({r.rows.name}, name));
%!  assert (! isempty (i), 'no row %s', name);
%!  w = r.rows(i).where;
%!endfunction

%!error <engine 'tgi' is not known \(allowed: fla, vllm, sglang, flashinfer\)>
%! x = inputs ('gdn', 1, [0 1 2], 3);
%! [o, p] = kernel ('gdn', setfield (x, 'idx', [0 2]), rule ());
%! kda_verify (dump (x, o, p, 'tgi', [0 2]));

%!test
%! % SGLang: padding (-1) starts from a zero state, o computed, nothing
%! % written; one slot per sequence [N], N = 4.  Clean passes; under FLA's
%! % rule (o = 0 for padding) the same dump fails at the padding sequence;
%! % a dropped decay at token 4, head 1 fails there
%! for op = {'kda', 'gdn'}
%!   cu = [0 2 3 4 6];  idx = [3 -1 0 5];
%!   x = setfield (inputs (op{1}, 21, cu, 6), 'idx', idx);
%!   [o, p] = kernel (op{1}, x, rule ('pad', 'zero'));
%!   [ok, r] = check (op{1}, dump (x, o, p, 'sglang', idx));
%!   assert (ok && strcmp (r.verdict, 'pass'), r.markdown);
%!   [ok, r] = check (op{1}, dump (x, o, p, 'fla', idx));
%!   assert (! ok);
%!   assert (! isempty (strfind (where_of (r, 'o'), 'sequence 1, step 0, skipped')), where_of (r, 'o'));
%!   [o, p] = kernel (op{1}, x, rule ('pad', 'zero', 'drop', [4 1]));
%!   [ok, r] = check (op{1}, dump (x, o, p, 'sglang', idx));
%!   assert (! ok);
%!   assert (! isempty (strfind (where_of (r, 'o'), 'sequence 3, step 0, reading slot 5')), where_of (r, 'o'));
%!   assert (! isempty (strfind (where_of (r, 'ht'), 'sequence 3, step 1, writing slot 5')), where_of (r, 'ht'));
%! end

%!test
%! % SGLang: a kernel that writes the padding sequence's state into a slot
%! % (here: slot 1, which no sequence owns) fails on that slot
%! cu = [0 1 2 3];  idx = [2 -1 0];
%! x = setfield (inputs ('gdn', 22, cu, 4), 'idx', idx);
%! [o, p] = kernel ('gdn', x, rule ('pad', 'zero'));
%! [ok, r] = check ('gdn', dump (x, o, p, 'sglang', idx));
%! assert (ok, r.markdown);
%! p(2, :, :, :) += 0.5;                         % a stray write into slot 1
%! [ok, r] = check ('gdn', dump (x, o, p, 'sglang', idx));
%! assert (! ok);
%! assert (! isempty (strfind (where_of (r, 'ht'), 'slot 1 changed')), where_of (r, 'ht'));

%!test
%! % vLLM's update kernel pads like SGLang; pad_slot_id 0 (a build that
%! % pads with slot 0) maps 0 to padding, and slot 0 is then no real slot
%! cu = [0 1 2 3];  idx = [0 2 3];
%! x = setfield (inputs ('kda', 23, cu, 4), 'idx', [-1 2 3]);
%! [o, p] = kernel ('kda', x, rule ('pad', 'zero'));
%! d = dump (x, o, p, 'vllm', idx);
%! d.meta.pad_slot_id = 0;
%! [ok, r] = check ('kda', d);
%! assert (ok && strcmp (r.verdict, 'pass'), r.markdown);
%! d.meta = rmfield (d.meta, 'pad_slot_id');     % slot 0 read as a real slot
%! assert (! check ('kda', d));

%!test
%! % FlashInfer's bf16 pool [slots, HV, V, K]: -1 reads and writes slot 0
%! % (the null buffer), its o undefined.  Through a folder of bfloat16 .npy
%! % files: clean passes; a dropped decay on sequence 2 fails there
%! r16 = @(y) single (verify_round_test (y));
%! cu = [0 1 2 3];  idx = [3 -1 1];
%! for drop = {[], [2 0]}
%!   x = setfield (inputs ('gdn', 24, cu, 5), 'idx', idx);
%!   for f = {'q', 'k', 'v', 'g', 'beta', 'h0'}  x.(f{1}) = r16 (x.(f{1}));  end
%!   [o, p] = kernel ('gdn', x, rule ('pad', 'null0', 'drop', drop{1}));
%!   o(1, 2, :, :) = 7;                          % undefined: any value
%!   d = dump (x, r16 (o), r16 (p), 'flashinfer', idx);
%!   d.h0 = permute (d.h0, [1 2 4 3]);  d.ht = permute (d.ht, [1 2 4 3]);
%!   dir = tempname ();  mkdir (dir);
%!   cleanup = onCleanup (@() confirm_recursive_rmdir (false, 'local') || rmdir (dir, 's'));
%!   for f = {'q', 'k', 'v', 'g', 'beta', 'h0', 'o', 'ht'}
%!     la_save (fullfile (dir, [f{1} '.npy']), double (d.(f{1})), 'bfloat16');
%!   end
%!   la_save (fullfile (dir, 'ssm_state_indices.npy'), int32 (idx(:)));
%!   fid = fopen (fullfile (dir, 'meta.json'), 'w');
%!   fprintf (fid, '{"cu_seqlens": [0, 1, 2, 3], "engine": "flashinfer"}');  fclose (fid);
%!   [ok, r] = gdn_verify (dir, 'ReportDir', '');
%!   if (isempty (drop{1}))
%!     assert (ok && strcmp (r.verdict, 'pass'), r.markdown);
%!     assert (! isempty (strfind (r.markdown, 'null buffer')));
%!   else
%!     assert (! ok, r.markdown);
%!     assert (! isempty (strfind (where_of (r, 'o'), 'sequence 2, step 0, reading slot 1')), where_of (r, 'o'));
%!   end
%!   clear cleanup;
%! end

%!test
%! % FlashInfer float32: output_state_indices writes elsewhere than it reads;
%! % disable_state_update leaves the pool as it was (a kernel that writes
%! % anyway fails); -1 is skipped, o = 0
%! cu = [0 2 4 5];  idx = [1 4 -1];  out = [0 3 -1];
%! x = setfield (inputs ('kda', 25, cu, 5), 'idx', idx);
%! [o, p] = kernel ('kda', x, rule ('pad', 'skip', 'out', out));
%! d = dump (x, o, p, 'flashinfer', idx);
%! d.h0 = permute (d.h0, [1 2 4 3]);  d.ht = permute (d.ht, [1 2 4 3]);
%! d.output_state_indices = int32 (out(:));
%! [ok, r] = check ('kda', d);
%! assert (ok && strcmp (r.verdict, 'pass'), r.markdown);
%! d.meta.disable_state_update = true;
%! [ok, r] = check ('kda', d);
%! assert (! ok);
%! assert (! isempty (strfind (where_of (r, 'ht'), 'changed although no sequence writes it')), where_of (r, 'ht'));
%! d.ht = d.h0;
%! assert (check ('kda', d));

%!test
%! % intermediate_states_buffer: SGLang's [slots, cache_steps, HV, K, V]
%! % indexed by intermediate_state_indices, FlashInfer's [B, T, HV, V, K] by
%! % batch row; clean passes, a wrong step-2 state fails
%! cu = [0 3 6];  idx = [1 0];
%! x = setfield (inputs ('gdn', 26, cu, 3), 'idx', idx);
%! [o, p, b] = kernel ('gdn', x, rule ('buf', zeros (4, 3, 2, 16, 16, 'single'), 'bufidx', [3 1]));
%! d = dump (x, o, p, 'sglang', idx);
%! d.intermediate_states_buffer = vk (b);  d.intermediate_state_indices = int32 ([3; 1]);
%! d.meta.cache_steps = 3;
%! [ok, r] = check ('gdn', d);
%! assert (ok && strcmp (r.verdict, 'pass'), r.markdown);
%! assert (any (strcmp ({r.rows.name}, 'intermediate_states_buffer')));
%! d.intermediate_states_buffer(4, 2, :, :, :) *= 1.01;
%! assert (! check ('gdn', d));
%! [o, p, b] = kernel ('gdn', x, rule ('pad', 'skip', 'buf', zeros (2, 3, 2, 16, 16, 'single'), 'by', 'row'));
%! d = dump (x, o, p, 'flashinfer', idx);
%! d.h0 = permute (d.h0, [1 2 4 3]);  d.ht = permute (d.ht, [1 2 4 3]);
%! d.intermediate_states_buffer = permute (b, [1 2 3 5 4]);
%! [ok, r] = check ('gdn', d);
%! assert (ok && strcmp (r.verdict, 'pass'), r.markdown);
%! d.meta.engine = 'sglang';                     % the buffer read by slot: wrong
%! d.meta.state_v_first = true;
%! assert (! check ('gdn', d));

%!test
%! % an EAGLE draft tree (retrieve_parent_token, SGLang and vLLM): token 2
%! % and 3 hang off token 0 and 1; clean passes, a kernel that runs the
%! % tokens as a chain fails
%! cu = [0 4 7];  idx = [1 0];  par = [-1 0 0 1; -1 0 1 -1];
%! x = setfield (inputs ('kda', 27, cu, 2), 'idx', idx);
%! buf = zeros (2, 4, 2, 16, 16, 'single');
%! [o, p, b] = kernel ('kda', x, rule ('buf', buf, 'parents', par));
%! d = dump (x, o, p, 'sglang', idx);
%! d.intermediate_states_buffer = vk (b);  d.retrieve_parent_token = int32 (par);
%! [ok, r] = check ('kda', d);
%! assert (ok && strcmp (r.verdict, 'pass'), r.markdown);
%! [o, p, b] = kernel ('kda', x, rule ('buf', buf));
%! d.o = o;  d.ht = vk (p);  d.intermediate_states_buffer = vk (b);
%! [ok, r] = check ('kda', d);
%! assert (! ok);
%! assert (! isempty (strfind (where_of (r, 'o'), 'sequence 0, step 2')), where_of (r, 'o'));

%!test
%! % vLLM, one slot per step ([N, Tmax], N = 2) with accepted tokens: FLA's
%! % fused_recurrent rules (one slot per step, the read one picked by the count)
%! randn ('seed', 28);  rand ('seed', 28);
%! [q, k, v, g, beta, pool] = rand_decode ('kda', 'double', 5, 8, 6, false);
%! slots = [1 2 3; 4 5 0]';                      % Tmax x N, from 1
%! cu = [0 3 5];
%! [o, S] = kda_recurrent (q, k, v, g, beta, 'CuSeqlens', cu, 'InitialState', pool, ...
%!                         'Slots', slots, 'AcceptedTokens', [1 2]);
%! c = {'Op', 'kda'};
%! d = struct ('q', la_to_fla ('q', q, c{:}), 'k', la_to_fla ('k', k, c{:}), 'v', la_to_fla ('v', v, c{:}), ...
%!             'g', la_to_fla ('g', g, c{:}), 'beta', la_to_fla ('beta', beta, c{:}), ...
%!             'h0', single (la_to_fla ('h0', pool, c{:})), 'ssm_state_indices', int32 (slots' - 1), ...
%!             'num_accepted_tokens', int32 ([1; 2]), 'o', single (la_to_fla ('o', o, c{:})), ...
%!             'ht', single (la_to_fla ('ht', S, c{:})));
%! d.meta = struct ('cu_seqlens', cu, 'engine', 'vllm', 'dtype', 'float32');
%! [ok, r] = kda_verify (d);
%! assert (ok && strcmp (r.verdict, 'pass'), r.markdown);
%! d1 = d;                                        % one sequence: [1, Tmax]
%! d1.ssm_state_indices = d.ssm_state_indices(1, :);  d1.num_accepted_tokens = int32 (1);
%! for f = {'q', 'k', 'v', 'g', 'beta', 'o'}  d1.(f{1}) = d.(f{1})(:, 1:3, :, :);  end
%! d1.ht(4:5, :, :, :) = d1.h0(4:5, :, :, :);    % slots of sequence 1: untouched
%! d1.meta.cu_seqlens = [0 3];
%! [ok, r] = kda_verify (d1);
%! assert (ok && strcmp (r.verdict, 'pass'), r.markdown);
%! d.ht(3, :, :, :) *= 1.01;                      % slot 2: sequence 0, step 2
%! [ok, r] = kda_verify (d);
%! assert (! ok);
%! assert (! isempty (strfind (where_of (r, 'ht'), 'sequence 0, step 2, writing slot 2')), where_of (r, 'ht'));

%!test
%! % FlashInfer's MTP kernel: reads initial_state_indices [N], writes the
%! % state after step t to ssm_state_indices [N, T]; clean passes, a wrong
%! % state at step 1 of sequence 1 fails there
%! cu = [0 3 6];  idx = [1 4];  steps = [0 2 3; 5 6 7];
%! x = setfield (inputs ('gdn', 29, cu, 8), 'idx', idx);
%! [o, p] = kernel ('gdn', x, rule ('pad', 'skip', 'noupdate', true, 'stepslots', steps));
%! d = dump (x, o, p, 'flashinfer', idx);
%! d = rmfield (d, 'ssm_state_indices');
%! d.initial_state_indices = int32 (idx(:));  d.ssm_state_indices = int32 (steps);
%! d.h0 = permute (d.h0, [1 2 4 3]);  d.ht = permute (d.ht, [1 2 4 3]);
%! [ok, r] = check ('gdn', d);
%! assert (ok && strcmp (r.verdict, 'pass'), r.markdown);
%! d.ht(7, :, :, :) *= 1.01;
%! [ok, r] = check ('gdn', d);
%! assert (! ok);
%! assert (! isempty (strfind (where_of (r, 'ht'), 'sequence 1, step 1, writing slot 6')), where_of (r, 'ht'));

%!test
%! % through the front door: python/engine_decode.py (torch, independent of
%! % this library) dumps SGLang's and FlashInfer's bf16 decode calls with the
%! % shipped kdagdn_dump.py (safetensors, bfloat16 stored as such); clean
%! % dumps pass, one missing decay (token 3, head 1) fails at sequence 2
%! cases = {'sglang_bf16', 'flashinfer_bf16', 'sglang_bf16_bug', 'flashinfer_bf16_bug'};
%! [root, cleanup] = engine_dumps (cases);
%! if (isempty (root))  return;  end
%! ops = {'gdn', 'kda', 'gdn', 'kda'};
%! for i = 1:4
%!   verify = str2func ([ops{i} '_verify']);
%!   [ok, r] = verify (fullfile (root, cases{i}), 'ReportDir', '');
%!   assert (strcmp (r.dtype, 'bfloat16'));
%!   if (i <= 2)
%!     assert (ok && strcmp (r.verdict, 'pass'), r.markdown);
%!   else
%!     assert (! ok, r.markdown);
%!     assert (! isempty (strfind (where_of (r, 'o'), 'sequence 2, step 1')), where_of (r, 'o'));
%!   end
%! end

%!test
%! % vLLM's CUDA-graph padding: rows of zero length with slot -1 read and
%! % write nothing (its fused_recurrent returns when T == 0); N = 5
%! cu = [0 2 3 3 5 5];  idx = [1 3 -1 0 -1];
%! x = setfield (inputs ('gdn', 30, cu, 4), 'idx', idx);
%! [o, p] = kernel ('gdn', x, rule ('pad', 'zero'));
%! [ok, r] = check ('gdn', dump (x, o, p, 'vllm', idx));
%! assert (ok && strcmp (r.verdict, 'pass'), r.markdown);
%! p(3, :, :, :) += 0.1;                         % slot 2: no sequence owns it
%! [ok, r] = check ('gdn', dump (x, o, p, 'vllm', idx));
%! assert (! ok);
%! assert (! isempty (strfind (where_of (r, 'ht'), 'slot 2 changed')), where_of (r, 'ht'));

%!error <slot 2 is written by sequences 0 and 1>
%! % two sequences writing one slot: the kernel's result would depend on
%! % the order of its programs; the dump cannot be judged
%! cu = [0 1 2];  idx = [0 1];  out = [2 2];
%! x = setfield (inputs ('kda', 31, cu, 3), 'idx', idx);
%! [o, p] = kernel ('kda', x, rule ('pad', 'skip', 'out', out));
%! d = dump (x, o, p, 'flashinfer', idx);
%! d.output_state_indices = int32 (out(:));  d.meta.state_v_first = false;
%! kda_verify (d);

%!test
%! % bf16 / fp16 state pools, every engine, through the front door:
%! % python/engine_decode.py (torch, independent of this library) stores the
%! % pool in its own dtype (FLA's per-step slots; vLLM's padding and
%! % zero-length rows; SGLang's EAGLE tree reading its parents back from a
%! % bf16 buffer, its stochastic rounding, a float16 pool; vLLM's tree
%! % reading them back from the bf16 pool slots, a padding row's o left
%! % as garbage).  Each clean
%! % dump sits at the emulated error of its storage (measured / expected
%! % near 1: the tree's read-back rounding and the stochastic rounding are
%! % in the bound) and passes; one missing decay (token 3, head 1) fails
%! % at its sequence and step
%! cases = {'fla_bf16pool', 'kda', 'sequence 1, step 1';
%!          'vllm_bf16pool', 'gdn', 'sequence 4, step 0';
%!          'sglang_tree_bf16', 'gdn', 'sequence 0, step 3';
%!          'sglang_sr_bf16', 'gdn', 'sequence 3, step 0';
%!          'sglang_fp16pool', 'kda', 'sequence 1, step 1';
%!          'vllm_tree_bf16', 'gdn', 'sequence 0, step 3'};
%! [root, cleanup] = engine_dumps ([cases(:, 1)', strcat(cases(:, 1), '_bug')']);
%! if (isempty (root))  return;  end
%! for i = 1:rows (cases)
%!   verify = str2func ([cases{i, 2} '_verify']);
%!   [ok, r] = verify (fullfile (root, cases{i, 1}), 'ReportDir', '');
%!   assert (ok && strcmp (r.verdict, 'pass'), r.markdown);
%!   for j = 1:numel (r.rows)
%!     m = r.rows(j).ratio / r.rows(j).expected;
%!     assert (m > 0.8 && m < 1.25, '%s %s: measured / expected %g', cases{i, 1}, r.rows(j).name, m);
%!   end
%!   [ok, r] = verify (fullfile (root, [cases{i, 1} '_bug']), 'ReportDir', '');
%!   assert (! ok, r.markdown);
%!   assert (! isempty (strfind (where_of (r, 'o'), cases{i, 3})), '%s: %s', cases{i, 1}, where_of (r, 'o'));
%! end

%!test
%! % vLLM's fused_recurrent with one slot per step ([N, Tmax]): a padding
%! % row's program returns, its o never written (here 1e6, garbage that
%! % must weigh in no ratio); clean passes, a dropped decay at token 4,
%! % head 1 fails there.  Under the 1-D rule (a zero start, o computed)
%! % the garbage fails.
%! cu = [0 2 4 6];  steps = [1 2; -1 -1; 3 4];
%! x = setfield (inputs ('gdn', 32, cu, 5), 'idx', steps(:, 1)');
%! for drop = {[], [4 1]}
%!   [o, p] = kernel ('gdn', x, rule ('pad', 'skip', 'noupdate', true, 'stepslots', steps, 'drop', drop{1}));
%!   o(1, 3:4, :, :) = 1e6;
%!   d = dump (x, o, p, 'vllm', steps(:, 1));
%!   d.ssm_state_indices = int32 (steps);
%!   [ok, r] = check ('gdn', d);
%!   if (isempty (drop{1}))
%!     assert (ok && strcmp (r.verdict, 'pass'), r.markdown);
%!     verify_has (r.markdown, 'not checked: vllm leaves it undefined');
%!     d.ssm_state_indices = int32 (steps(:, 1));    % 1-D: SGLang's and the update kernel's rule
%!     assert (! check ('gdn', d));
%!   else
%!     assert (! ok, r.markdown);
%!     assert (! isempty (strfind (where_of (r, 'o'), 'sequence 2, step 0')), where_of (r, 'o'));
%!   end
%! end
