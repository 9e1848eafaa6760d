% Tests: the named slips of kda_verify / gdn_verify on a failing gradient
% check (verify_slips.m).  Each dump holds the gradients of this library's
% own chunked backward with one slip a kernel developer makes in the
% backward (the scale, exp2 gates, a [V, K] state, another chunk_size, the
% L2 norm, beta and g swapped, a head-first layout, interleaved GVA heads),
% each gradient as the slipped kernel returns it for the tensor the dump
% names; its forward o is right or absent.  The dump must fail and the
% report must name that slip.  A gradient bug that is no slip names none.
% Run with  test test_verify_slips_grad  or through validation/run_tests.m.

%!function gr = bwd_ (x, q, k, g, beta, varargin)
%!  % the kernel's backward on (q, k, x.v, g, beta) from x.h0: dq dk dv dg dbeta dh0
%!  bwd = str2func ([x.op '_chunk_bwd']);
%!  gr = cell (1, 6);
%!  [gr{:}] = bwd (q, k, x.v, g, beta, x.do, [], 'InitialState', x.h0, varargin{:});
%!endfunction

%!function d = dump_ (x, gr, with_o)
%!  % FLA layout: the inputs, do, h0, the gradients gr; o (right) if with_o
%!  c = {'Op', x.op};
%!  d = struct ('q', la_to_fla ('q', x.q, c{:}), 'k', la_to_fla ('k', x.k, c{:}), ...
%!              'v', la_to_fla ('v', x.v, c{:}), 'g', la_to_fla ('g', x.g, c{:}), ...
%!              'beta', la_to_fla ('beta', x.beta, c{:}), 'do', la_to_fla ('do', x.do, c{:}), ...
%!              'h0', la_to_fla ('h0', x.h0, c{:}));
%!  names = {'dq', 'dk', 'dv', 'dg', 'dbeta', 'dh0'};
%!  for i = 1:6
%!    d.(names{i}) = la_to_fla (names{i}, gr{i}, c{:});
%!  end
%!  if (with_o)
%!    fwd = str2func ([x.op '_chunk']);
%!    d.o = la_to_fla ('o', fwd (x.q, x.k, x.v, x.g, x.beta, 'InitialState', x.h0), c{:});
%!  end
%!  d.meta = struct ('dtype', 'float64');
%!endfunction

%!function names = named_ (x, d)
%!  % the verdict must be fail with o (if any) passing; the matched slips,
%!  % each in the report and named on a gradient
%!  verify = str2func ([x.op '_verify']);
%!  [ok, r] = verify (d);
%!  assert (! ok, 'the slipped dump passed');
%!  if (isfield (d, 'o'))
%!    assert (verify_row (r, 'o').pass, 'the forward fails: %s', r.markdown);
%!  end
%!  m = r.slips([r.slips.matched]);
%!  names = {m.name};
%!  for i = 1:numel (m)
%!    verify_has (r.markdown, m(i).text);
%!  end
%!  verify_has (r.markdown, 'Named slip: `d');
%!endfunction

%!test
%! % scale: the backward does not scale q (forward right), both ops; 300
%! % steps without dq (dq at step t needs no later step; dk, dv, dg do):
%! % the slice must be the whole sequence, a gradient flows from its end
%! for op = {'kda', 'gdn'}
%!   x = slip_problem (op{1}, 300, 1, 2, 21);
%!   d = rmfield (dump_ (x, bwd_ (x, x.q, x.k, x.g, x.beta, 'Scale', 1), true), 'dq');
%!   assert (named_ (x, d), {'scale_one'});
%! end

%!test
%! % g is log2: the kernel decays by exp2(g); its dg is d/dg of that
%! % (ln 2 x the gradient of the natural gate g ln 2); no forward
%! x = slip_problem ('kda', 80, 1, 2, 22);
%! gr = bwd_ (x, x.q, x.k, x.g * log (2), x.beta);
%! gr{4} *= log (2);
%! d = dump_ (x, gr, false);
%! assert (named_ (x, d), {'g_log2'});
%! d = rmfield (d, {'dq', 'dk', 'dv', 'dbeta', 'dh0'});   % dg alone: named on dg
%! assert (named_ (x, d), {'g_log2'});

%!test
%! % the state is [V, K]: h0 and dh0 stored [N, HV, V, K], meta.json says
%! % nothing; no forward
%! x = slip_problem ('gdn', 64, 1, 2, 23);
%! d = dump_ (x, bwd_ (x, x.q, x.k, x.g, x.beta), false);
%! d.h0 = la_to_fla ('h0', x.h0, 'Op', 'gdn', 'StateVFirst', true);
%! d.dh0 = permute (d.dh0, [1 2 4 3]);
%! assert (named_ (x, d), {'state_vk'});

%!test
%! % chunk_size: the backward ran with 32 where meta.json says 64, told by
%! % its dh (this library's convention, "intermediates": "kdagdn"); the
%! % gradients themselves do not depend on it
%! x = slip_problem ('kda', 128, 1, 2, 24);
%! gr = cell (1, 9);
%! [gr{:}] = kda_chunk_bwd (x.q, x.k, x.v, x.g, x.beta, x.do, [], 'InitialState', x.h0, ...
%!                          'ChunkSize', 32, 'Intermediates', true);
%! d = dump_ (x, gr(1:6), true);
%! d.dh = la_to_fla ('h', gr{9}.dh, 'Op', 'kda');
%! d.meta = struct ('dtype', 'float64', 'chunk_size', 64, 'intermediates', 'kdagdn');
%! assert (named_ (x, d), {'chunk_size'});

%!test
%! % use_qk_l2norm_in_kernel: the kernel normalises q and k, meta.json
%! % does not say so; no forward
%! warning ('off', 'all', 'local');               % unnormalised keys grow the state
%! x = slip_problem ('kda', 64, 1, 2, 25);
%! x.k = 3 * randn (size (x.k));
%! gr = bwd_ (x, x.q, x.k, x.g, x.beta, 'UseQKL2Norm', true, 'L2NormEps', 1e-6);
%! assert (named_ (x, dump_ (x, gr, false)), {'l2norm'});

%!test
%! % GDN, beta and g swapped in the call: the kernel takes the dumped g as
%! % its beta and the dumped beta as its gate, and the gradient it returns
%! % for its gate lands on the tensor the dump names beta; no forward
%! warning ('off', 'all', 'local');
%! x = slip_problem ('gdn', 64, 1, 2, 26);
%! gr = bwd_ (x, x.q, x.k, x.g, x.beta);            % the kernel's view
%! y = x;
%! [y.g, y.beta] = deal (x.beta, x.g);              % the dump's names
%! gr([4 5]) = gr([5 4]);
%! d = dump_ (y, gr, false);
%! assert (named_ (y, d), {'beta_g_swapped'});
%! d = rmfield (d, {'dq', 'dk', 'dv', 'dh0'});   % dg and dbeta alone
%! assert (named_ (y, d), {'beta_g_swapped'});

%!test
%! % a head-first dump ([B, H, T, K]; do and the gradients too), no states,
%! % no forward
%! x = slip_problem ('kda', 40, 4, 4, 27);
%! x.h0 = zeros (16, 16, 4);
%! d = dump_ (x, bwd_ (x, x.q, x.k, x.g, x.beta), false);
%! d = rmfield (d, {'h0', 'dh0'});
%! for n = {'q', 'k', 'v', 'g', 'do', 'dq', 'dk', 'dv', 'dg'}  d.(n{1}) = permute (d.(n{1}), [1 3 2 4]);  end
%! for n = {'beta', 'dbeta'}  d.(n{1}) = permute (d.(n{1}), [1 3 2]);  end
%! assert (named_ (x, d), {'head_first'});

%!test
%! % GVA by interleaving in the backward (forward right): value head hv
%! % reads key head hv mod H; dq, dk sum their value heads so
%! x = slip_problem ('gdn', 64, 2, 4, 28);
%! map = mod (0:3, 2) + 1;
%! gr = bwd_ (x, x.q(:, :, map), x.k(:, :, map), x.g, x.beta);
%! for i = 1:2
%!   gr{i} = cat (3, gr{i}(:, :, 1) + gr{i}(:, :, 3), gr{i}(:, :, 2) + gr{i}(:, :, 4));
%! end
%! assert (named_ (x, dump_ (x, gr, true)), {'gva_interleaved'});

%!test
%! % a gradient bug that is no slip (dv wrong at one step of one head): none named
%! x = slip_problem ('kda', 64, 1, 2, 29);
%! gr = bwd_ (x, x.q, x.k, x.g, x.beta);
%! gr{3}(:, 30, 2) += 0.2;
%! [ok, r] = kda_verify (dump_ (x, gr, true));
%! assert (! ok);
%! assert (! any ([r.slips.matched]), strjoin ({r.slips([r.slips.matched]).name}, ', '));
%! assert (numel (r.slips) >= 1 && numel (r.slips) <= 12);
