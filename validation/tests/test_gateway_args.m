% TEST_GATEWAY_ARGS  Tests of the MEX gateway's argument rules.
%
%   test test_gateway_args      (or: cd validation; run_tests ('gateway'))
%
%   Every rule of the gateway (mex/gateway) that is common to the eight
%   public functions: option names (case, prefixes, ambiguity, NUL bytes,
%   options of other functions), structs of options mixed with pairs, the
%   strict kinds of option values ([] as the only "not given"), ChunkSize up
%   to the largest index, sizes that overflow or cannot be allocated
%   (outOfMemory before any output), strict shapes of beta and the GDN gate
%   with the PyTorch-order hint, the positiveGate warning, the option table
%   la_mex_testing ('options') (the test build), and Ctrl-C (a child Octave is sent SIGINT).
%
%   See also: run_tests, kda_chunk.

function test_gateway_args ()
  help test_gateway_args;
end

%!shared q, k, v, g, b, gg, opts
%! randn ('seed', 7); rand ('seed', 7);
%! q = randn (4, 6, 2);  k = randn (4, 6, 2);  v = randn (3, 6, 2);
%! g = -rand (4, 6, 2);  b = rand (6, 2);  gg = -rand (6, 2);
%! opts = la_mex_testing ('options');   % the test build (make testing)

% ---- names: case, prefixes, ambiguity -----------------------------------------
%!test
%! o1 = kda_chunk (q, k, v, g, b, 'ChunkSize', 4, 'Scale', 0.3);
%! assert (kda_chunk (q, k, v, g, b, 'chunksize', 4, 'SCALE', 0.3), o1);
%! assert (kda_chunk (q, k, v, g, b, 'Chunk', 4, 'Sc', 0.3), o1);
%!test
%! % 'In' names only InitialState for the recurrent forward (Intermediates is not its option)
%! S0 = randn (4, 3, 2);
%! assert (kda_recurrent (q, k, v, g, b, 'In', S0), kda_recurrent (q, k, v, g, b, 'InitialState', S0));
%!error id=kda:ambiguousOption kda_chunk (q, k, v, g, b, 'In', [])
%!error <InitialState, Intermediates> kda_chunk (q, k, v, g, b, 'In', [])
%!error id=gdn:ambiguousOption gdn_chunk (q, k, v, gg, b, 'A', 1)
%!error <ALog, AllowNegEigval> gdn_recurrent (q, k, v, gg, b, 'a', 1)
%!error id=kda:ambiguousOption kda_recurrent (q, k, v, g, b, 'C', 1)
%!error id=kda:badOption kda_recurrent (q, k, v, g, b, 'Scalex', 1)
%!error id=kda:badOption kda_recurrent (q, k, v, g, b, 'ChunkSizeX', 1)
%!error id=kda:badOption kda_recurrent (q, k, v, g, b, '', 1)
%!error id=kda:badOption kda_recurrent (q, k, v, g, b, ['Scale' char(0) 'x'], 1)
%!error id=kda:badOption kda_recurrent (q, k, v, g, b, ['Scale' char(0)], 1)
%!error id=kda:badOption kda_recurrent (q, k, v, g, b, ['Sc' char(0)], 1)
%!error id=kda:badOption kda_recurrent (q, k, v, g, b, ['Scale'; 'Scale'], 1)
%!error id=kda:badOption kda_recurrent (q, k, v, g, b, 'Scale'.', 1)
%!error id=kda:badOption kda_recurrent (q, k, v, g, b, {'Scale'}, 1)
%!error id=kda:badOption kda_recurrent (q, k, v, g, b, 3, 1)
%!error id=kda:nargin kda_recurrent (q, k, v, g, b, 'Scale')
%!error id=kda:nargin kda_recurrent (q, k, v, g, b, struct ('Scale', 1), 'Scale')
% options of other functions
%!error id=kda:badOption kda_recurrent (q, k, v, g, b, 'Intermediates', true)
%!error <only of kda_chunk, kda_chunk_bwd, gdn_chunk, gdn_chunk_bwd> kda_recurrent_bwd (q, k, v, g, b, v, [], 'Intermediates', false)
%!error <only of kda_chunk, kda_chunk_bwd, gdn_chunk, gdn_chunk_bwd> gdn_recurrent (q, k, v, gg, b, 'Interm', true)
%!test
%! % the "unknown option" message lists exactly the options of the function called (the table)
%! fn = {'kda_recurrent', 'kda_chunk'};
%! for i = 1:2
%!   try
%!     feval (fn{i}, q, k, v, g, b, 'NoSuchOption', 1);
%!     error ('no error');
%!   catch err
%!     assert (err.identifier, 'kda:badOption');
%!     listed = strtrim (strsplit (regexprep (err.message, '.*are: ', ''), ','));
%!     mine = arrayfun (@(o) any (strcmp (o.functions, fn{i})), opts);
%!     assert (sort (listed), sort ({opts(mine).name}));
%!   end
%! end

% ---- structs of options ---------------------------------------------------------
%!test
%! o1 = kda_chunk (q, k, v, g, b, 'ChunkSize', 4, 'Scale', 0.5);
%! assert (kda_chunk (q, k, v, g, b, struct ('ChunkSize', 4, 'Scale', 0.5)), o1);
%! assert (kda_chunk (q, k, v, g, b, struct ('ChunkSize', 4), 'Scale', 0.5), o1);
%! assert (kda_chunk (q, k, v, g, b, 'Scale', 0.5, struct ('chunk', 4)), o1);
%! % pairs after the struct win; a later struct wins over earlier pairs
%! assert (kda_chunk (q, k, v, g, b, struct ('ChunkSize', 4, 'Scale', 2), 'Scale', 0.5), o1);
%! assert (kda_chunk (q, k, v, g, b, 'Scale', 2, struct ('ChunkSize', 4, 'Scale', 0.5)), o1);
%! assert (kda_chunk (q, k, v, g, b, struct (), 'ChunkSize', 4, 'Scale', 0.5), o1);
%! assert (kda_chunk (q, k, v, g, b, struct ('ChunkSize', 16, 'Scale', 0.5), 'ChunkSize', 4), o1);
%!error id=kda:badOption kda_chunk (q, k, v, g, b, struct ('Foo', 1))
%!error id=kda:ambiguousOption kda_chunk (q, k, v, g, b, struct ('In', 1))
%!error id=kda:badOption kda_chunk (q, k, v, g, b, struct ('Scale', {1, 2}))
%!error id=kda:badOption kda_chunk (q, k, v, g, b, struct ([]))
%!error id=kda:badOption kda_chunk (q, k, v, g, b, struct ('Scale', -1), 'ChunkSize', 4)
%!error id=kda:badOption kda_recurrent (q, k, v, g, b, struct ('Intermediates', true))

% ---- strict kinds ---------------------------------------------------------------
%!test
%! % "not given" is exactly [] (a double 0 x 0)
%! o1 = kda_recurrent (q, k, v, g, b);
%! assert (kda_recurrent (q, k, v, g, b, 'InitialState', [], 'CuSeqlens', [], 'LowerBound', []), o1);
%! [~, ~, ~, ~, ~, dS0] = kda_recurrent_bwd (q, k, v, g, b, v, []);
%! assert (size (dS0), [4 3 2]);
%!error id=kda:badOption kda_recurrent (q, k, v, g, b, 'StateLayout', ['K'; 'V'])
%!error id=kda:badOption kda_recurrent (q, k, v, g, b, 'StateLayout', '')
%!error id=kda:badOption kda_recurrent (q, k, v, g, b, 'StateLayout', {'KV'})
%!error id=kda:badOption kda_recurrent (q, k, v, g, b, 'StateLayout', ['KV' char(0)])
%!error id=kda:badClass kda_recurrent (q, k, v, g, b, 'InitialState', {})
%!error id=kda:badClass kda_recurrent (q, k, v, g, b, 'InitialState', struct ([]))
%!error id=kda:badClass kda_recurrent (q, k, v, g, b, 'InitialState', zeros (0, 1, 'int32'))
%!error id=kda:badClass kda_recurrent (q, k, v, g, b, 'InitialState', sparse (0, 0))
%!error id=kda:badClass kda_recurrent (q, k, v, g, b, 'InitialState', '')
%!error id=kda:badShape kda_recurrent (q, k, v, g, b, 'InitialState', zeros (0, 0, 'single'))
%!error id=kda:badShape kda_recurrent (q, k, v, g, b, 'InitialState', zeros (0, 1))
%!error id=kda:badClass kda_recurrent (q, k, v, g, b, 'GateInKernel', true, 'ALog', {}, 'DtBias', [])
%!error id=kda:badShape kda_recurrent (q, k, v, g, b, 'GateInKernel', true, 'ALog', zeros (1, 0))
%!error id=kda:badClass kda_recurrent (q, k, v, g, b, 'GateInKernel', true, 'ALog', [0 0], 'DtBias', int8 ([]))
%!error id=kda:badOption kda_recurrent (q, k, v, g, b, 'GateInKernel', true, 'ALog', [0 0], 'LowerBound', {})
%!error id=kda:badOption kda_recurrent (q, k, v, g, b, 'GateInKernel', true, 'ALog', [0 0], 'LowerBound', zeros (1, 0))
%!error id=kda:badCuSeqlens kda_recurrent (q, k, v, g, b, 'CuSeqlens', {})
%!error id=kda:badCuSeqlens kda_recurrent (q, k, v, g, b, 'CuSeqlens', zeros (0, 1, 'int32'))
%!error id=kda:badCuSeqlens kda_recurrent (q, k, v, g, b, 'CuSeqlens', [0 Inf 6])
%!error id=kda:badOption kda_recurrent (q, k, v, g, b, 'Scale', true)
%!error id=kda:badOption kda_recurrent (q, k, v, g, b, 'Scale', [])
%!error id=kda:badOption kda_recurrent (q, k, v, g, b, 'UseQKL2Norm', [])
%!error id=kda:badOption kda_recurrent (q, k, v, g, b, 'UseQKL2Norm', {true})
%!error id=kda:badOption kda_chunk (q, k, v, g, b, 'ChunkSize', true)
%!error id=kda:badOption kda_chunk (q, k, v, g, b, 'ChunkSize', 2^63)
%!error id=kda:badOption kda_chunk (q, k, v, g, b, 'ChunkSize', 0)
%!error id=kda:badClass kda_recurrent_bwd (q, k, v, g, b, v, {})
%!error id=kda:badShape kda_recurrent_bwd (q, k, v, g, b, v, zeros (0, 0, 'single'))
%!test
%! % ChunkSize: any positive integer up to the largest index; above T it acts as T
%! o1 = kda_chunk (q, k, v, g, b, 'ChunkSize', 6);
%! assert (kda_chunk (q, k, v, g, b, 'ChunkSize', 2^31), o1);
%! assert (kda_chunk (q, k, v, g, b, 'ChunkSize', 2^62), o1);
%! assert (kda_chunk (q, k, v, g, b, 'ChunkSize', int32 (6)), o1);
%! [~, ~, aux] = kda_chunk (q, k, v, g, b, 'ChunkSize', 2^31, 'Intermediates', true);
%! assert (aux.ChunkSize, 6);
%! [o2, S2] = gdn_recurrent_bwd (q, k, v, gg, b, v, [], 'ChunkSize', 2^40);
%! [o3, S3] = gdn_recurrent_bwd (q, k, v, gg, b, v, [], 'ChunkSize', 6);
%! assert (o2, o3);  assert (S2, S3);
%!test
%! % CuSeqlens of an integer class, StateLayout in either case
%! o1 = kda_recurrent (q, k, v, g, b, 'CuSeqlens', [0 2 6]);
%! assert (kda_recurrent (q, k, v, g, b, 'CuSeqlens', int32 ([0 2 6])), o1);
%! assert (kda_recurrent (q, k, v, g, b, 'CuSeqlens', uint8 ([0; 2; 6])), o1);
%! [~, S1] = kda_recurrent (q, k, v, g, b, 'StateLayout', 'VK');
%! [~, S2] = kda_recurrent (q, k, v, g, b, 'statelayout', 'vk');
%! assert (S1, S2);

% ---- sizes: overflow and outputs that cannot be allocated ----------------------
%!error id=kda:outOfMemory
%! z = zeros (2^32, 0);
%! kda_recurrent (z, z, zeros (2^31, 0), z, zeros (0, 1));
%!error id=gdn:outOfMemory
%! z = zeros (2^32, 0);
%! gdn_recurrent_bwd (z, z, zeros (2^31, 0), zeros (0, 1), zeros (0, 1), zeros (2^31, 0), []);
%!error id=kda:outOfMemory
%! z = zeros (2^62, 0);
%! kda_chunk (z, z, z, z, zeros (0, 1));
%!error <\d+ bytes> kda_chunk (zeros (2^20, 0), zeros (2^20, 0), zeros (2^20, 0), zeros (2^20, 0), zeros (0, 1))
%!error id=gdn:outOfMemory
%! z = zeros (2^16, 0, 1, 2^10);
%! gdn_chunk_bwd (z, z, z, zeros (0, 1, 2^10), zeros (0, 1, 2^10), z, []);
%!error <need \d+ bytes>
%! % the Intermediates (ChunkSize x T per head) of T = 2^17: 3 x 128 GB in double
%! T = 2^17;
%! [o, S, aux] = kda_chunk (zeros (1, T), zeros (1, T), zeros (1, T), zeros (1, T), zeros (T, 1), ...
%!                          'ChunkSize', T, 'Intermediates', true);
%!test
%! % nothing is half made: the next call after a refused one is right
%! try
%!   kda_chunk (zeros (2^20, 0), zeros (2^20, 0), zeros (2^20, 0), zeros (2^20, 0), zeros (0, 1));
%! catch
%! end
%! assert (kda_chunk (q, k, v, g, b), kda_recurrent (q, k, v, g, b), 1e-12);

% ---- strict shapes ----------------------------------------------------------------
%!error id=kda:badShape kda_chunk (q, k, v, g, b.')
%!error <beta must be T x HV x B = 6x2x1, got 2x6> kda_chunk (q, k, v, g, b.')
%!error <beta must be T x HV x B = 6x2x1, got 12x1> kda_recurrent (q, k, v, g, b(:))
%!error <g must be T x HV x B = 6x2x1, got 2x6> gdn_recurrent (q, k, v, gg.', b)
%!error <g must be T x HV x B = 6x2x1, got 3x4> gdn_chunk_bwd (q, k, v, reshape (gg, 3, 4), b, v, [])
%!error id=gdn:badShape gdn_chunk (q, k, v, gg, reshape (b, 1, 6, 2))
%!test
%! % trailing singleton dimensions may be dropped, or given
%! assert (kda_chunk (q, k, v, g, reshape (b, 6, 2, 1, 1)), kda_chunk (q, k, v, g, b));
%! assert (gdn_chunk (q, k, v, reshape (gg, 6, 2, 1), b), gdn_chunk (q, k, v, gg, b));
%!test
%! % PyTorch order ([B,T,H,K] as stored, or read in reverse): the message names the permute
%! B = 3;
%! qt = randn (B, 6, 2, 4);  vt = randn (B, 6, 2, 4);  gt = -rand (B, 6, 2, 4);  bt = rand (B, 6, 2);
%! try
%!   kda_chunk (qt, qt, vt, gt, bt);
%!   error ('no error');
%! catch err
%!   assert (err.identifier, 'kda:badShape');
%!   assert (~isempty (strfind (err.message, 'PyTorch')));
%!   assert (~isempty (strfind (err.message, 'permute (x, [4 2 3 1])')));
%! end
%! try
%!   gdn_recurrent (qt, qt, vt, rand (B, 6, 2), bt);
%!   error ('no error');
%! catch err
%!   assert (err.identifier, 'gdn:badShape');
%!   assert (~isempty (strfind (err.message, 'permute (x, [2 3 1])')));
%! end
%! % reversed: K x H x T x B with H ~= HV
%! qr = randn (4, 1, 6, B);  vr = randn (3, 2, 6, B);  gr = -rand (4, 2, 6, B);
%! try
%!   kda_recurrent (qr, qr, vr, gr, rand (2, 6, B));
%!   error ('no error');
%! catch err
%!   assert (err.identifier, 'kda:badShape');
%!   assert (~isempty (strfind (err.message, 'permute (x, [1 3 2 4])')));
%! end
%! % the permuted arrays are accepted
%! p = @(x) permute (x, [4 2 3 1]);
%! o = kda_chunk (p (qt), p (qt), p (vt), p (gt), permute (bt, [2 3 1]));
%! assert (size (o), [4 6 2 3]);
%!test
%! % no PyTorch hint for an ordinary shape error
%! try
%!   kda_chunk (q, k, v, g, b.');
%! catch err
%!   assert (isempty (strfind (err.message, 'PyTorch')));
%! end

% ---- messages in the user's terms -------------------------------------------------------
%!test
%! % every message starts with the public function's name (never la_mex's),
%! % whichever door the call came through (the decode path's own MEX too)
%! calls = {@() kda_chunk (q, k, v, g, b, 'Scale', -1), 'kda_chunk: ';
%!          @() gdn_chunk_bwd (q, k, v, g, b, v, []), 'gdn_chunk_bwd: ';
%!          @() kda_state_map (q, k, v, g, b, 'Nope', 1), 'kda_state_map: ';
%!          @() kda_recurrent (q, k, v, g, b, 'ChunkSize', 0), 'kda_recurrent: ';
%!          @() gdn_recurrent (q, k, v, gg, b, 'SafeGate', true), 'gdn_recurrent: '};
%! for i = 1:rows (calls)
%!   try
%!     calls{i, 1} ();
%!     error ('no error');
%!   catch err
%!     assert (strncmp (err.message, calls{i, 2}, numel (calls{i, 2})), err.message);
%!     assert (isempty (strfind (err.message, 'la_mex')), err.message);
%!   end
%! end
%! % the core's ranges come back in option names
%! try
%!   gdn_recurrent (q, k, v, gg, b, 'SafeGate', true);
%! catch err
%!   assert (err.message, "gdn_recurrent: 'SafeGate' needs 'LowerBound'");
%! end
%!error <must be a positive integer scalar, got a 1x1 char$> kda_chunk (q, k, v, g, b, 'ChunkSize', 'a')
%!error <must be a positive integer scalar, got 2.5$> kda_chunk (q, k, v, g, b, 'ChunkSize', 2.5)
%!test
%! % a V x K state suggests the other StateLayout, and the reverse
%! S0 = randn (4, 3, 2);
%! try
%!   kda_chunk (q, k, v, g, b, 'InitialState', permute (S0, [2 1 3]));
%!   error ('no error');
%! catch err
%!   assert (err.identifier, 'kda:badShape');
%!   assert (~isempty (strfind (err.message, "pass 'StateLayout', 'VK'")), err.message);
%! end
%! try
%!   kda_chunk_bwd (q, k, v, g, b, v, S0, 'StateLayout', 'VK');
%!   error ('no error');
%! catch err
%!   assert (err.identifier, 'kda:badShape');
%!   assert (~isempty (strfind (err.message, "pass 'StateLayout', 'KV'")), err.message);
%! end
%! % FLA's [N, HV, K, V] state as stored: the permute that fixes it
%! try
%!   kda_recurrent (q, k, v, g, b, 'InitialState', permute (S0, [4 3 1 2]));
%!   error ('no error');
%! catch err
%!   assert (~isempty (strfind (err.message, 'permute (S, [3 4 2 1])')), err.message);
%! end
%! assert (kda_recurrent (q, k, v, g, b, 'InitialState', permute (permute (S0, [4 3 1 2]), [3 4 2 1])), ...
%!         kda_recurrent (q, k, v, g, b, 'InitialState', S0));

% ---- 'Verbose' and the stateGrowth warning ----------------------------------------------
%!test
%! % a short call prints nothing; a call of more than a second prints its
%! % progress and its end, both in the function's name
%! assert (evalc ('kda_chunk (q, k, v, g, b, ''Verbose'', true);'), '');
%! randn ('seed', 3);
%! [K, T, H] = deal (128, 8192, 4);
%! Q = randn (K, T, H); Kk = randn (K, T, H); Vv = randn (K, T, H);
%! G = -rand (K, T, H); B = rand (T, H);
%! t0 = tic ();
%! txt = evalc ('kda_chunk_bwd (Q, Kk, Vv, G, B, Vv, [], ''UseQKL2Norm'', true, ''Verbose'', true);');
%! took = toc (t0);
%! if (took >= 1.2)
%!   assert (~isempty (regexp (txt, 'kda_chunk_bwd: running, 1\.\d s \(T = 8192', 'once')), txt);
%!   assert (~isempty (regexp (txt, 'kda_chunk_bwd: done in \d+\.\d s', 'once')), txt);
%! end
%! assert (isempty (txt) || took >= 0.9, txt);   % no line before a second
%!test
%! % unnormalised keys: the state leaves every contractive bound; once per call
%! randn ('seed', 5);
%! [K, T] = deal (16, 512);
%! Q = randn (K, T, 2); Kk = randn (K, T, 2); Vv = randn (K, T, 2);
%! G = -0.01 * rand (K, T, 2); B = ones (T, 2);
%! for f = {@kda_chunk, @(varargin) kda_recurrent (varargin{:}), @gdn_chunk}
%!   gate = G;
%!   if (strncmp (func2str (f{1}), 'gdn', 3))
%!     gate = squeeze (G(1, :, :));
%!   end
%!   lastwarn ('');
%!   txt = evalc ('[~, ~] = f{1} (Q, Kk, Vv, gate, B);');
%!   [msg, id] = lastwarn ();
%!   assert (any (strcmp (id, {'kda:stateGrowth', 'gdn:stateGrowth'})), id);
%!   assert (numel (regexp (txt, 'grew to norm|is not finite')), 1);
%!   assert (~isempty (strfind (msg, "'UseQKL2Norm', true")));
%!   lastwarn ('');
%!   [~, ~] = f{1} (Q, Kk, Vv, gate, B, 'UseQKL2Norm', true);
%!   [~, id] = lastwarn ();
%!   assert (isempty (id), id);
%! end
%! % silenced by its identifier
%! warning ('off', 'kda:stateGrowth', 'local');
%! lastwarn ('');
%! kda_chunk (Q, Kk, Vv, G, B);
%! [~, id] = lastwarn ();
%! assert (isempty (id));

% ---- the positiveGate warning -------------------------------------------------------
%!test
%! state = warning ('query', 'kda:positiveGate');
%! warning ('on', 'kda:positiveGate');
%! lastwarn ('');
%! txt = evalc ('kda_chunk (q, k, v, -g, b);');
%! [~, id] = lastwarn ();
%! assert (id, 'kda:positiveGate');
%! assert (numel (strfind (txt, 'positive entries')), 1);   % once per call
%! assert (~isempty (strfind (txt, 'warning: kda_chunk: the gate g')));
%! % silenced by its identifier
%! warning ('off', 'kda:positiveGate');
%! lastwarn ('');
%! kda_recurrent (q, k, v, -g, b);
%! [~, id] = lastwarn ();
%! assert (isempty (id));
%! warning (state.state, 'kda:positiveGate');
%!test
%! % GDN has its own identifier; a raw GateInKernel g and g <= 0 do not warn
%! lastwarn ('');
%! evalc ('gdn_recurrent_bwd (q, k, v, -gg, b, v, []);');
%! [~, id] = lastwarn ();
%! assert (id, 'gdn:positiveGate');
%! lastwarn ('');
%! kda_chunk (q, k, v, -g, b, 'GateInKernel', true, 'ALog', [0 0]);
%! gdn_chunk (q, k, v, gg, b);
%! [~, id] = lastwarn ();
%! assert (isempty (id));

% ---- the option table ---------------------------------------------------------------
%!test
%! assert (fieldnames (opts), {'name'; 'kind'; 'default'; 'choices'; 'functions'; 'description'});
%! names = {opts.name};
%! assert (numel (unique (lower (names))), numel (names));
%! for want = {'Scale', 'InitialState', 'CuSeqlens', 'ChunkSize', 'UseQKL2Norm', ...
%!             'GateInKernel', 'ALog', 'DtBias', 'LowerBound', 'BetaSigmoid', ...
%!             'AllowNegEigval', 'StateLayout', 'Intermediates', 'L2NormEps'}
%!   assert (any (strcmp (names, want{1})), want{1});
%! end
%! kinds = {'positive', 'negative', 'nonnegative', 'posint', 'flag', 'array', 'cuseqlens', 'integers', 'choice'};
%! assert (all (ismember ({opts.kind}, kinds)));
%! assert (all (cellfun (@iscellstr, {opts.functions})));
%! assert (all (cellfun (@(s) ischar (s) && ~isempty (s), {opts.description})));
%! assert (opts(strcmp (names, 'Intermediates')).functions, ...
%!         {'kda_chunk', 'kda_chunk_bwd', 'gdn_chunk', 'gdn_chunk_bwd'});
%! assert (opts(strcmp (names, 'ChunkSize')).default, '64');
%! % every listed function exists and accepts the option (no badOption)
%! for i = 1:numel (opts)
%!   assert (all (ismember (opts(i).functions, {'kda_recurrent', 'kda_recurrent_bwd', ...
%!     'kda_chunk', 'kda_chunk_bwd', 'gdn_recurrent', 'gdn_recurrent_bwd', 'gdn_chunk', ...
%!     'gdn_chunk_bwd', 'kda_state_map', 'kda_state_map_bwd', 'gdn_state_map', ...
%!     'gdn_state_map_bwd'})));
%! end

% ---- Ctrl-C ---------------------------------------------------------------------------
%!test
%! % SIGINT to a child Octave waiting in the gateway's interrupt callback (the one the
%! % core polls): an identified error within a second, and the next call is right
%! if (ispc () || system ('command -v kill >/dev/null 2>&1') ~= 0)
%!   return;
%! end
%! tmp = tempname ();
%! mkdir (tmp);
%! ready = fullfile (tmp, 'ready');
%! script = fullfile (tmp, 'child.m');
%! fid = fopen (script, 'w');
%! fprintf (fid, 'addpath (''%s'');\n', fileparts (which ('kda_chunk')));
%! fprintf (fid, 'addpath (''%s'');\n', fileparts (which ('la_mex_testing')));   % the test build
%! fprintf (fid, 'fclose (fopen (''%s'', ''w''));\n', ready);
%! fprintf (fid, 't0 = tic ();\ntry\n  la_mex_testing (''poll_interrupt'', 30);\n  id = ''none'';\n');
%! fprintf (fid, 'catch err\n  id = err.identifier;\nend\nfprintf (''%%s %%.3f\\n'', id, toc (t0));\n');
%! fprintf (fid, 'q = randn (8, 40, 2); v = randn (8, 40, 2); g = -rand (8, 40, 2); b = rand (40, 2);\n');
%! fprintf (fid, 'r = norm (kda_chunk (q, q, v, g, b)(:) - kda_recurrent (q, q, v, g, b)(:));\n');
%! fprintf (fid, 'fprintf (''next %%g\\n'', r);\n');
%! fclose (fid);
%! octave = fullfile (OCTAVE_HOME (), 'bin', 'octave-cli');
%! if (~exist (octave, 'file'))
%!   octave = 'octave-cli';
%! end
%! cmd = sprintf (['%s --no-gui --norc --no-history --quiet %s > %s/out 2>&1 & pid=$!; ' ...
%!                 'for i in $(seq 300); do [ -e %s ] && break; sleep 0.1; done; ' ...
%!                 'sleep 0.5; kill -INT $pid; wait $pid'], octave, script, tmp, ready);
%! system (cmd);
%! out = fileread (fullfile (tmp, 'out'));
%! confirm_recursive_rmdir (false, 'local');
%! rmdir (tmp, 's');
%! t = sscanf (regexprep (out, '.*kda:interrupted ', ''), '%f', 1);
%! assert (~isempty (strfind (out, 'kda:interrupted')), out);
%! assert (t < 0.5 + 1, out);
%! r = sscanf (regexprep (out, '.*next ', ''), '%f', 1);
%! assert (r < 1e-10, out);
%!test
%! % without Ctrl-C the callback says "go on"
%! tf = la_mex_testing ('poll_interrupt', 0.05);
%! assert (tf, false);
