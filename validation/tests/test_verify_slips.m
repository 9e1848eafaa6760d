% Tests: the named slips of kda_verify / gdn_verify (verify_slips.m).  Each
% dump is made by this library's own chunked kernel with one slip a
% kernel developer makes, applied on purpose (a missing or extra scale,
% exp2 gates, a [V, K] state, another chunk_size, the L2 norm, beta and g
% swapped, a head-first layout, interleaved GVA heads, cu_seqlens
% ignored); the dump must fail and the report must name that slip, in
% FLA's terms, in report.slips and in the Markdown.  A passing dump has no
% slips; a dump with a bug that is no slip names none.  Run with  test
% test_verify_slips  or through validation/run_tests.m.

%!function d = dump_ (x, o, S, varargin)
%!  % FLA layout; varargin: more fields of the dump
%!  c = {'Op', x.op};
%!  d = struct ('q', la_to_fla ('q', x.q, c{:}), 'k', la_to_fla ('k', x.k, c{:}), ...
%!              'v', la_to_fla ('v', x.v, c{:}), 'g', la_to_fla ('g', x.g, c{:}), ...
%!              'beta', la_to_fla ('beta', x.beta, c{:}), 'o', la_to_fla ('o', o, c{:}));
%!  if (! isempty (S))
%!    d.h0 = la_to_fla ('h0', x.h0, c{:});
%!    d.ht = la_to_fla ('ht', S, c{:});
%!  end
%!  for i = 1:2:numel (varargin)  d.(varargin{i}) = varargin{i + 1};  end
%!  if (! isfield (d, 'meta'))  d.meta = struct ('dtype', 'float64');  end
%!endfunction

%!function names = named_ (x, d)
%!  % the verdict must be fail; the names of the matched slips
%!  verify = str2func ([x.op '_verify']);
%!  [ok, r] = verify (d);
%!  assert (! ok, 'the slipped dump passed');
%!  assert (isfield (r, 'slips'));
%!  m = r.slips([r.slips.matched]);
%!  names = {m.name};
%!  for i = 1:numel (m)
%!    assert (! isempty (strfind (r.markdown, m(i).text)), 'slip %s not in the report', m(i).name);
%!  end
%!endfunction

%!function fwd = fwd_ (x)
%!  fwd = str2func ([x.op '_chunk']);
%!endfunction

%!test
%! % a passing dump tries nothing; a bug that is no slip names none
%! x = slip_problem ('kda', 64, 1, 2, 1);
%! f = fwd_ (x);
%! [o, S] = f (x.q, x.k, x.v, x.g, x.beta, 'InitialState', x.h0);
%! [ok, r] = kda_verify (dump_ (x, o, S));
%! assert (ok);
%! assert (isempty (r.slips));
%! o(:, 40, 2) += 0.3;
%! [ok, r] = kda_verify (dump_ (x, o, S));
%! assert (! ok);
%! assert (! any ([r.slips.matched]), strjoin ({r.slips([r.slips.matched]).name}, ', '));
%! assert (numel (r.slips) <= 12);

%!test
%! % scale: the kernel ignores meta.json's scale (FLA's default 1/sqrt(K)),
%! % or does not scale q at all
%! for op = {'kda', 'gdn'}
%!   x = slip_problem (op{1}, 64, 1, 2, 2);
%!   f = fwd_ (x);
%!   [o, S] = f (x.q, x.k, x.v, x.g, x.beta, 'InitialState', x.h0);
%!   assert (named_ (x, dump_ (x, o, S, 'meta', struct ('scale', 0.5, 'dtype', 'float64'))), {'scale_default'});
%!   [o, S] = f (x.q, x.k, x.v, x.g, x.beta, 'InitialState', x.h0, 'Scale', 1);
%!   assert (named_ (x, dump_ (x, o, S)), {'scale_one'});
%! end

%!test
%! % g is log2: the kernel decays by exp2(g)
%! x = slip_problem ('kda', 80, 1, 2, 3);
%! f = fwd_ (x);
%! [o, S] = f (x.q, x.k, x.v, x.g * log (2), x.beta, 'InitialState', x.h0);
%! assert (named_ (x, dump_ (x, o, S)), {'g_log2'});

%!test
%! % the state is [V, K]: the kernel keeps (and the dump stores) h0 and ht
%! % as [N, HV, V, K] but meta.json does not say state_v_first
%! x = slip_problem ('gdn', 64, 1, 2, 4);
%! f = fwd_ (x);
%! [o, S] = f (x.q, x.k, x.v, x.g, x.beta, 'InitialState', x.h0);
%! d = dump_ (x, o, []);
%! d.h0 = la_to_fla ('h0', x.h0, 'Op', 'gdn', 'StateVFirst', true);
%! d.ht = la_to_fla ('ht', S, 'Op', 'gdn', 'StateVFirst', true);
%! assert (named_ (x, d), {'state_vk'});

%!test
%! % chunk_size: the kernel ran with 32 where meta.json says 64 (its Aqk
%! % [B, T, HV, 32] tells)
%! x = slip_problem ('kda', 128, 1, 2, 5);
%! f = fwd_ (x);
%! [o, S, aux] = f (x.q, x.k, x.v, x.g, x.beta, 'InitialState', x.h0, 'ChunkSize', 32, ...
%!                  'Intermediates', true);
%! d = dump_ (x, o, S, 'Aqk', la_to_fla ('Aqk', aux.Aqk), 'meta', struct ('chunk_size', 64, 'dtype', 'float64'));
%! assert (named_ (x, d), {'chunk_size'});

%!test
%! % use_qk_l2norm_in_kernel: the kernel normalises q and k, meta.json
%! % does not say so
%! warning ('off', 'all', 'local');               % unnormalised keys grow the state
%! x = slip_problem ('kda', 64, 1, 2, 6);
%! x.k = 3 * randn (size (x.k));
%! f = fwd_ (x);
%! [o, S] = f (x.q, x.k, x.v, x.g, x.beta, 'InitialState', x.h0, 'UseQKL2Norm', true, 'L2NormEps', 1e-6);
%! assert (named_ (x, dump_ (x, o, S)), {'l2norm'});

%!test
%! % GDN: beta and g swapped in the dump
%! warning ('off', 'all', 'local');               % the swapped g grows the state
%! x = slip_problem ('gdn', 64, 1, 2, 7);
%! f = fwd_ (x);
%! [o, S] = f (x.q, x.k, x.v, x.g, x.beta, 'InitialState', x.h0);
%! d = dump_ (x, o, S);
%! [d.g, d.beta] = deal (d.beta, d.g);
%! assert (named_ (x, d), {'beta_g_swapped'});

%!test
%! % a head-first dump ([B, H, T, K], no states): 40 steps, 4 heads
%! x = slip_problem ('kda', 40, 4, 4, 8);
%! f = fwd_ (x);
%! o = f (x.q, x.k, x.v, x.g, x.beta);
%! d = dump_ (x, o, []);
%! for n = {'q', 'k', 'v', 'g', 'o'}  d.(n{1}) = permute (d.(n{1}), [1 3 2 4]);  end
%! d.beta = permute (d.beta, [1 3 2]);
%! assert (named_ (x, d), {'head_first'});

%!test
%! % GVA by interleaving (value head hv reads key head hv mod H) where FLA
%! % maps by block
%! x = slip_problem ('gdn', 64, 2, 4, 9);
%! f = fwd_ (x);
%! map = mod (0:3, 2) + 1;
%! [o, S] = f (x.q(:, :, map), x.k(:, :, map), x.v, x.g, x.beta, 'InitialState', x.h0);
%! assert (named_ (x, dump_ (x, o, S)), {'gva_interleaved'});

%!test
%! % cu_seqlens ignored: the kernel runs two sequences as one
%! x = slip_problem ('kda', 120, 1, 2, 10);
%! x.h0 = randn (16, 16, 2, 2);
%! f = fwd_ (x);
%! o = f (x.q, x.k, x.v, x.g, x.beta, 'InitialState', x.h0(:, :, :, 1));
%! d = dump_ (x, o, [], 'h0', la_to_fla ('h0', x.h0), ...
%!            'meta', struct ('cu_seqlens', [0 50 120], 'dtype', 'float64'));
%! assert (named_ (x, d), {'cu_seqlens'});

%!test
%! % a decode call (a pool, one slot per sequence) whose kernel does not
%! % scale q: named on the whole call
%! randn ('seed', 11);  rand ('seed', 11);
%! [q, k, v, g, beta, pool] = rand_decode ('kda', 'double', 3, 8, 4, false);
%! [o, S] = kda_recurrent (q, k, v, g, beta, 'CuSeqlens', [0 1 2 3], 'InitialState', pool, ...
%!                         'Slots', [3 1 4], 'Scale', 1);
%! c = {'Op', 'kda'};
%! d = struct ('q', la_to_fla ('q', q, c{:}), 'k', la_to_fla ('k', k, c{:}), 'v', la_to_fla ('v', v, c{:}), ...
%!             'g', la_to_fla ('g', g, c{:}), 'beta', la_to_fla ('beta', beta, c{:}), ...
%!             'h0', la_to_fla ('h0', pool, c{:}), 'ssm_state_indices', int32 ([2; 0; 3]), ...
%!             'o', la_to_fla ('o', o, c{:}), 'ht', la_to_fla ('ht', S, c{:}));
%! d.meta = struct ('cu_seqlens', [0 1 2 3], 'dtype', 'float64');
%! x.op = 'kda';
%! assert (named_ (x, d), {'scale_one'});

%!test
%! % chunk_size told by the per-chunk states h alone: the kernel ran with
%! % 32, meta.json gives none (64); varlen, two sequences
%! x = slip_problem ('gdn', 160, 1, 2, 12);
%! x.h0 = randn (16, 16, 2, 2);
%! f = fwd_ (x);
%! [o, S, aux] = f (x.q, x.k, x.v, x.g, x.beta, 'InitialState', x.h0, 'CuSeqlens', [0 70 160], ...
%!                  'ChunkSize', 32, 'Intermediates', true);
%! d = dump_ (x, o, [], 'h0', la_to_fla ('h0', x.h0), 'ht', la_to_fla ('ht', S), ...
%!            'h', la_to_fla ('h', aux.h, 'Op', 'gdn'), 'meta', struct ('cu_seqlens', [0 70 160], 'dtype', 'float64'));
%! assert (named_ (x, d), {'chunk_size'});
