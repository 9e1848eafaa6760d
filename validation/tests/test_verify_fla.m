% test_verify_fla.m -- kda_verify / gdn_verify read dumps as FLA writes them
% (docs/verify.md; FLA at the commit verify_fla_commit names): zero-length
% sequences (in the kernels' 'CuSeqlens' too), every meta key FLA's calls
% accept, safe_gate as FLA checks it, GDN without lower_bound, GDN's gk / gv.
% Dumps from validation/tests/python/torch_kernel.py (written by the shipped
% kdagdn_dump.py) and kda_dump.py (plain numpy files); struct dumps where
% only an option's plumbing is tested.

%!function folder = dump_ (name)
%!  % torch_kernel.py dumps, one Python run per Octave session
%!  persistent root;
%!  cases = {'kda:fp64:none:1:empty', 'gdn:fp32:none:1:empty', 'kda:fp64:none:1:graph', ...
%!           'kda:fp64:none:1', 'kda:fp64:varlen:1:empty'};
%!  if (isempty (root))
%!    root = tempname ();
%!    here = fileparts (which ('test_verify_fla'));
%!    [status, out] = system (sprintf ('/usr/bin/python3 "%s" "%s" %s 2>&1', ...
%!                            fullfile (here, 'python', 'torch_kernel.py'), root, strjoin (cases, ' ')));
%!    assert (status, 0, out);
%!  end
%!  folder = fullfile (root, strrep (name, ':', '_'));
%!endfunction

%!function folder = copy_ (name, meta_json)
%!  % a copy of a dump with another meta.json
%!  folder = tempname ();  mkdir (folder);
%!  copyfile (fullfile (dump_ (name), 'tensors.safetensors'), folder);
%!  fid = fopen (fullfile (folder, 'meta.json'), 'w');  fprintf (fid, '%s', meta_json);  fclose (fid);
%!endfunction

%!function err_ (f, id, varargin)
%!  try
%!    f ();
%!    error ('test:noError', 'no error');
%!  catch err
%!    assert (err.identifier, id, err.message);
%!    verify_has (err.message, varargin{:});
%!  end
%!endfunction

%!test
%! % the kernels: a zero-length sequence in CuSeqlens leaves its state (ht = h0,
%! % dh0 = dht) and changes nothing else, forward and backward, KDA and GDN
%! K = 4; V = 3; T = 10; HV = 2;
%! q = randn (K, T); k = randn (K, T); k = k ./ sqrt (sum (k .^ 2, 1)); v = randn (V, T, HV);
%! b = rand (T, HV); h0 = randn (K, V, HV, 4); dS = randn (K, V, HV, 4); dout = randn (V, T, HV);
%! cu = [0 4 4 10 10];  live = [1 3];  empty = [2 4];
%! for op = {'kda', 'gdn'}
%!   g = -rand (K, T, HV) / 3;
%!   if (strcmp (op{1}, 'gdn'))
%!     g = -rand (T, HV) / 3;
%!   end
%!   for path = {'recurrent', 'chunk'}
%!     fwd = str2func ([op{1} '_' path{1}]);  bwd = str2func ([op{1} '_' path{1} '_bwd']);
%!     [o, S] = fwd (q, k, v, g, b, 'CuSeqlens', cu, 'InitialState', h0);
%!     [o2, S2] = fwd (q, k, v, g, b, 'CuSeqlens', [0 4 10], 'InitialState', h0(:, :, :, live));
%!     assert (isequal (S(:, :, :, empty), h0(:, :, :, empty)));
%!     assert (o, o2, 1e-13);  assert (S(:, :, :, live), S2, 1e-13);
%!     a = cell (1, 6);  a2 = cell (1, 6);
%!     [a{:}] = bwd (q, k, v, g, b, dout, dS, 'CuSeqlens', cu, 'InitialState', h0);
%!     [a2{:}] = bwd (q, k, v, g, b, dout, dS(:, :, :, live), 'CuSeqlens', [0 4 10], ...
%!                    'InitialState', h0(:, :, :, live));
%!     assert (isequal (a{6}(:, :, :, empty), dS(:, :, :, empty)));
%!     for i = 1:5
%!       assert (a{i}, a2{i}, 1e-12);
%!     end
%!     assert (a{6}(:, :, :, live), a2{6}, 1e-12);
%!   end
%! end
%! % a decreasing CuSeqlens stays an error
%! err_ (@() kda_chunk (q, k, v, -rand (K, T, HV), b, 'CuSeqlens', [0 5 4 10]), 'kda:badCuSeqlens', 'must not decrease');

%!test
%! % the verifier: dumps with a zero-length sequence pass, its ht is its h0;
%! % a state not reset at it is still found (sequence 2 starts wrong)
%! [ok, r] = kda_verify (dump_ ('kda:fp64:none:1:empty'), 'ReportDir', '');
%! assert (ok && strcmp (r.verdict, 'pass'), r.markdown);
%! assert (all (ismember ({'o', 'ht', 'h', 'Akk', 'dq', 'dg', 'dh0'}, {r.rows.name})));
%! [ok, r] = gdn_verify (dump_ ('gdn:fp32:none:1:empty'), 'ReportDir', '');
%! assert (ok && strcmp (r.verdict, 'pass'), r.markdown);
%! [ok, r] = kda_verify (dump_ ('kda:fp64:varlen:1:empty'), 'ReportDir', '');
%! assert (~ok);
%! verify_has (verify_row (r, 'o').where, 'sequence 2, chunk 0, step 0');

%!test
%! % use_graph: the zero-length tail sequences' states are FLA's undefined
%! % padding rows, not checked (and said so); without use_graph they are
%! s = la_load (fullfile (dump_ ('kda:fp64:none:1:graph'), 'tensors.safetensors'));
%! s.meta = struct ('chunk_size', 16, 'scale', 0.25, 'use_graph', true, 'max_num_seqs', 4);
%! s.meta.cu_seqlens = double (s.cu_seqlens(:)');  s = rmfield (s, 'cu_seqlens');
%! s.ht(3:4, :, :, :) = 1e6;                  % whatever FLA leaves there
%! [ok, r] = kda_verify (s);
%! assert (ok && strcmp (r.verdict, 'pass'), r.markdown);
%! verify_has (r.markdown, 'use_graph', 'not checked', 'max_num_seqs');
%! s.ht(2, 1, 1, 1) = s.ht(2, 1, 1, 1) + 1;  % a real sequence's row is still checked
%! [ok, r] = kda_verify (s);
%! assert (~ok);
%! verify_has (verify_row (r, 'ht').where, 'first wrong sequence 1');
%! s.ht(2, 1, 1, 1) = s.ht(2, 1, 1, 1) - 1;
%! s.meta.use_graph = false;
%! [ok, r] = kda_verify (s);
%! assert (~ok);
%! verify_has (verify_row (r, 'ht').where, 'first wrong sequence 2');

%!test
%! % every keyword of FLA's calls is known: those that do not change the math
%! % are listed as such; chunk_indices (a list of lists) is read;
%! % transpose_state_layout is state_v_first's deprecated alias
%! meta = ['{"chunk_size": 16, "scale": 0.25, "output_final_state": true, ' ...
%!         '"disable_recompute": false, "return_intermediate_states": false, ' ...
%!         '"cu_seqlens_cpu": [0, 37, 97], "chunk_indices": [[0, 0], [0, 1], [0, 2], [1, 0]], ' ...
%!         '"max_num_seqs": 2, "cp_context": null, "transpose_state_layout": false}'];
%! folder = copy_ ('kda:fp64:none:1', meta);
%! [ok, r] = kda_verify (folder, 'ReportDir', '');
%! assert (ok && strcmp (r.verdict, 'pass'), r.markdown);
%! verify_has (r.markdown, 'do not change the math', 'disable_recompute', 'chunk_indices', ...
%!       'cu_seqlens_cpu', 'max_num_seqs', 'cp_context', 'return_intermediate_states', ...
%!       'transpose_state_layout is FLA''s deprecated name');
%! fid = fopen (fullfile (folder, 'meta.json'), 'w');
%! fprintf (fid, '{"chunk_size": 16, "scale": 0.25, "transpose_state_layout": true, "state_v_first": true}');
%! fclose (fid);
%! err_ (@() kda_verify (folder), 'kda:badOption', 'kda_verify: ', 'transpose_state_layout');
%! fid = fopen (fullfile (folder, 'meta.json'), 'w');
%! fprintf (fid, '{"chunk_size": 16, "scale": 0.25, "head_first": true}');  fclose (fid);
%! err_ (@() kda_verify (folder), 'kda:badOption', 'head_first', 'transpose(1, 2)');
%! fid = fopen (fullfile (folder, 'meta.json'), 'w');
%! fprintf (fid, '{"chunk_size": 16, "scale": 0.25, "chunk_indices": [[0, 0], [0, "x"]]}');  fclose (fid);
%! [ok, r] = kda_verify (folder, 'ReportDir', '');   % changes nothing: any value
%! assert (ok);
%! fid = fopen (fullfile (folder, 'meta.json'), 'w');
%! fprintf (fid, '{"chunk_size": [[16]]}');  fclose (fid);
%! err_ (@() kda_verify (folder), 'la:badFile', 'chunk_size');
%! confirm_recursive_rmdir (false, 'local');  rmdir (folder, 's');

%!test
%! % safe_gate as FLA checks it: with a precomputed g and no lower_bound
%! % nothing (g = 0 exactly included); with use_gate_in_kernel lower_bound
%! % in [-5, 0) is needed
%! K = 8; V = 8; T = 30; H = 2;
%! q = randn (K, T, H); k = randn (K, T, H); k = k ./ sqrt (sum (k .^ 2, 1)); v = randn (V, T, H);
%! g = -rand (K, T, H) / 4;  g(:, 5:9, :) = 0;  beta = rand (T, H);
%! o = kda_chunk (q, k, v, g, beta, 'ChunkSize', 16);
%! s = struct ('q', la_to_fla ('q', q), 'k', la_to_fla ('k', k), 'v', la_to_fla ('v', v), ...
%!             'g', la_to_fla ('g', g), 'beta', la_to_fla ('beta', beta), 'o', la_to_fla ('o', o));
%! s.meta = struct ('dtype', 'float64', 'chunk_size', 16, 'safe_gate', true);
%! [ok, r] = kda_verify (s);
%! assert (ok && strcmp (r.verdict, 'pass'), r.markdown);
%! verify_has (r.markdown, 'safe_gate with a precomputed g');
%! s.meta.use_gate_in_kernel = true;  s.A_log = zeros (1, H);
%! err_ (@() kda_verify (s), 'kda:badOption', 'kda_verify: ', 'lower_bound', '[-5, 0)');
%! s.meta.lower_bound = -6;
%! err_ (@() kda_verify (s), 'kda:badOption', '-6');
%! s.meta = struct ('allow_neg_eigval', true);
%! err_ (@() kda_verify (s), 'kda:badOption', 'use_beta_sigmoid_in_kernel');

%!test
%! % GDN follows FLA's GDN: no lower_bound (ignored, with a note), no safe_gate
%! K = 8; V = 8; T = 30; H = 2;
%! q = randn (K, T, H); k = randn (K, T, H); k = k ./ sqrt (sum (k .^ 2, 1)); v = randn (V, T, H);
%! graw = randn (T, H);  beta = rand (T, H);  alog = log (rand (H, 1));
%! o = gdn_chunk (q, k, v, graw, beta, 'ChunkSize', 16, 'GateInKernel', true, 'ALog', alog);
%! s = struct ('q', la_to_fla ('q', q), 'k', la_to_fla ('k', k), 'v', la_to_fla ('v', v), ...
%!             'g', la_to_fla ('g', graw, 'Op', 'gdn'), 'beta', la_to_fla ('beta', beta), ...
%!             'o', la_to_fla ('o', o), 'A_log', alog');
%! s.meta = struct ('dtype', 'float64', 'chunk_size', 16, 'use_gate_in_kernel', true, ...
%!                  'lower_bound', -3, 'safe_gate', true);
%! [ok, r] = gdn_verify (s);
%! assert (ok && strcmp (r.verdict, 'pass'), r.markdown);
%! verify_has (r.markdown, 'lower_bound is ignored', 'safe_gate is ignored');
%! % a kernel that applied lower_bound to GDN's gate does not match FLA's GDN
%! o_lb = gdn_chunk (q, k, v, graw, beta, 'ChunkSize', 16, 'GateInKernel', true, 'ALog', alog, ...
%!                   'LowerBound', -3);
%! assert (norm (o_lb(:) - o(:)) > 1e-3 * norm (o(:)));
%! s.o = la_to_fla ('o', o_lb);
%! [ok, r] = gdn_verify (s);
%! assert (~ok);

%!test
%! % GDN's gk / gv (FLA's fused_recurrent_gated_delta_rule), plain .npy files
%! folder = tempname ();
%! here = fileparts (which ('test_verify_fla'));
%! [status, out] = system (sprintf ('/usr/bin/python3 "%s" "%s" gkgv 7 2>&1', ...
%!                         fullfile (here, 'python', 'kda_dump.py'), folder));
%! assert (status, 0, out);
%! [ok, r] = gdn_verify (folder, 'ReportDir', '');
%! assert (ok && strcmp (r.verdict, 'pass'), r.markdown);
%! assert (sort ({r.rows.name}), {'ht', 'o'});
%! assert (max ([r.rows.ratio]) < 1e-13);
%! gv = la_load (fullfile (folder, 'gv.npy'));
%! gv.gv(:, 20:end, :, :) = 0;                % the kernel dropped gv from step 19 on
%! la_save (fullfile (folder, 'gv.npy'), gv.gv);
%! [ok, r] = gdn_verify (folder, 'ReportDir', '');
%! assert (~ok);
%! verify_has (verify_row (r, 'o').where, 't = 19 of the sequence');
%! confirm_recursive_rmdir (false, 'local');  rmdir (folder, 's');
