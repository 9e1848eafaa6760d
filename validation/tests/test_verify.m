% test_verify.m -- kda_verify / gdn_verify end to end, on dumps written by an
% implementation independent of this library.
%
% validation/tests/python/kda_dump.py (Debian's python3-numpy and
% python3-scipy) computes KDA / GDN in numpy -- the recurrence step by step
% for o and ht, the chunk intermediates from their definitions in FLA's
% conventions -- and writes them in FLA layout: .npy, .npz
% (savez_compressed), .mat (scipy's savemat), .safetensors, meta.json.
%   double  float64 throughout: every tensor must pass at 1e-10
%   bf16    inputs and outputs stored in bfloat16, computed in float32: must
%           pass the fixed bf16 tolerances (FLA's thresholds; loose until
%           the low-precision emulation sets them)
%   bug     as double with a bug planted in chunk 2 of sequence 0 (that
%           chunk's outputs miss their intra-chunk term): must fail, on o
%           only, naming sequence 0, chunk 2.

%!function folder = dump_ (kind)
%!  % write the dump of kind once per Octave session
%!  persistent written;
%!  if (isempty (written))
%!    written = struct ();
%!  end
%!  if (~isfield (written, kind))
%!    written.(kind) = tempname ();
%!    here = fileparts (which ('test_verify'));
%!    cmd = sprintf ('/usr/bin/python3 "%s" %s %s 7 2>&1', ...
%!                   fullfile (here, 'python', 'kda_dump.py'), written.(kind), kind);
%!    [status, out] = system (cmd);
%!    assert (status, 0, out);
%!  end
%!  folder = written.(kind);
%!endfunction

%!function r = row_ (report, name)
%!  r = report.rows(strcmp ({report.rows.name}, name));
%!  assert (numel (r) == 1, 'no row %s', name);
%!endfunction

%!test
%! % a correct float64 dump passes: outputs and every forward intermediate
%! [ok, report] = kda_verify (dump_ ('double'));
%! assert (ok);
%! names = {report.rows.name};
%! assert (all (ismember ({'o', 'ht', 'g_cumsum', 'Akk', 'Aqk', 'w', 'u', 'v_new', 'h'}, names)));
%! assert (max ([report.rows.ratio]) < 1e-13);
%! assert (exist (report.file, 'file') == 2);
%! assert (~isempty (strfind (fileread (report.file), '# kda_verify: PASS')));

%!test
%! % bfloat16 storage: passes the bf16 tolerance, with an error bf16 explains
%! [ok, report] = kda_verify (dump_ ('bf16'));
%! assert (ok);
%! o = row_ (report, 'o');
%! % the tolerance comes from the emulated bf16 kernel (verify_tolerance)
%! assert (o.tol, max (4 * o.expected, 2 ^ -9), 1e-15);
%! assert (o.ratio > 1e-4 && o.ratio < o.expected);   % rounded, but stored only
%! assert (row_ (report, 'ht').pass);

%!test
%! % a planted bug in chunk 2 of sequence 0: fails on o there, nothing else
%! folder = dump_ ('bug');
%! [ok, report] = kda_verify (folder);
%! assert (~ok);
%! o = row_ (report, 'o');
%! assert (~o.pass);
%! assert (~isempty (strfind (o.where, 'sequence 0, chunk 2, step 0 of the chunk')), o.where);
%! assert (all ([report.rows(~strcmp ({report.rows.name}, 'o')).pass]));
%! assert (exist (fullfile (folder, 'verify_o.png'), 'file') == 2);
%! assert (~isempty (strfind (fileread (report.file), 'first divergence')));

%!test
%! % GDN: a scalar gate per step
%! [ok, report] = gdn_verify (dump_ ('gdn'));
%! assert (ok);
%! assert (any (strcmp ({report.rows.name}, 'g_cumsum')));

%!test
%! % the CI form: the exit status is the verdict
%! cmd = @(f) sprintf ('%s --no-gui --no-window-system --quiet --norc --eval "addpath (''%s''); exit (~kda_verify (''%s''))" >/dev/null 2>&1', ...
%!                     fullfile (OCTAVE_HOME, 'bin', 'octave'), fileparts (which ('kda_verify')), f);
%! assert (system (cmd (dump_ ('double'))), 0);
%! assert (system (cmd (dump_ ('bug'))), 1);

%!test
%! % a struct dump; unknown meta keys are an error, not ignored
%! s = la_load (fullfile (dump_ ('double'), 'q.npy'));
%! for name = {'k', 'v', 'g', 'beta', 'o'}
%!   t = la_load (fullfile (dump_ ('double'), [name{1} '.npy']));
%!   s.(name{1}) = t.(name{1});
%! end
%! t = la_load (fullfile (dump_ ('double'), 'state.mat'));
%! s.h0 = t.h0;
%! s.meta = struct ('chunk_size', 16, 'dtype', 'float64', 'scale', 8 ^ -0.5);
%! [ok, report] = kda_verify (s);
%! assert (ok);  assert (isempty (report.file));
%! s.meta.chunksize = 16;
%! try
%!   kda_verify (s);
%!   error ('no error');
%! catch err
%!   assert (err.identifier, 'kda:badOption');
%!   assert (~isempty (strfind (err.message, 'chunksize')));
%! end

%!test
%! % tensors of the dump that are not checked are named, with the reason, and
%! % never pass: a backward tensor without do fails the dump, an unknown one warns
%! s = struct ('q', randn (1, 8, 1, 4), 'k', randn (1, 8, 1, 4), 'v', randn (1, 8, 1, 3), ...
%!             'g', -rand (1, 8, 1, 4), 'beta', rand (1, 8, 1), 'dh', zeros (1, 1, 1, 4, 3), ...
%!             'z', zeros (1, 8, 1, 4));
%! [o, S] = kda_chunk (la_from_fla ('q', s.q), la_from_fla ('k', s.k), la_from_fla ('v', s.v), ...
%!                     la_from_fla ('g', s.g), la_from_fla ('beta', s.beta));
%! s.o = la_to_fla ('o', o);
%! s.meta = struct ('dtype', 'float64');
%! [ok, report] = kda_verify (s);
%! assert (~ok && strcmp (report.verdict, 'fail'));
%! assert ({report.unchecked.name}, {'dh', 'z'});
%! assert ({report.unchecked.severity}, {'fail', 'warn'});
%! assert (~isempty (strfind (report.markdown, '`dh`: the dump has no `do`')));
%! s = rmfield (s, 'dh');
%! [ok, report] = kda_verify (s);
%! assert (ok && strcmp (report.verdict, 'warn'));
%! assert (~isempty (strfind (report.markdown, '`z`: not a tensor this library computes')));

%!function [s, aux, b, in] = bwd_dump_ (C, cu)
%!  % a float64 dump with the backward's intermediates, in this library's
%!  % own convention (dh entering a chunk, dAqk of Aqk, dAkk of Akk)
%!  K = 5; V = 4; T = 20; HV = 2;
%!  q = randn (K, T); k = randn (K, T); k = k ./ sqrt (sum (k .^ 2, 1));
%!  v = randn (V, T, HV); g = -rand (K, T, HV) / 2; beta = rand (T, HV); dout = randn (V, T, HV);
%!  N = max (1, numel (cu) - 1);
%!  h0 = randn (K, V, HV, N);  dht = randn (K, V, HV, N);
%!  opt = {'ChunkSize', C, 'InitialState', h0, 'Intermediates', true};
%!  if (~isempty (cu))
%!    opt = [opt, {'CuSeqlens', cu}];
%!  end
%!  [o, S, aux] = kda_chunk (q, k, v, g, beta, opt{:});
%!  out = cell (1, 9);
%!  [out{:}] = kda_chunk_bwd (q, k, v, g, beta, dout, dht, opt{:});
%!  b = out{9};
%!  dakk = verify_chunk_map_ (aux, b.dA, @(x, bt) x .* bt);   % FLA's Akk carries no beta
%!  names = {'q', 'k', 'v', 'g', 'beta', 'h0', 'o', 'ht', 'do', 'dht', 'dq'};
%!  vals = {q, k, v, g, beta, h0, o, S, dout, dht, out{1}};
%!  s = struct ();
%!  for i = 1:numel (names)
%!    s.(names{i}) = la_to_fla (names{i}, vals{i});
%!  end
%!  s.dh = la_to_fla ('dh', b.dh);  s.dAqk = la_to_fla ('Aqk', b.dAqk);
%!  s.dAkk = la_to_fla ('Akk', dakk);  s.dw = la_to_fla ('w', b.dw);
%!  s.du = la_to_fla ('u', b.du);  s.dv_new = la_to_fla ('v_new', b.dv_new);
%!  s.meta = struct ('dtype', 'float64', 'chunk_size', C);
%!  if (~isempty (cu))
%!    s.meta.cu_seqlens = cu;
%!  end
%!  in = struct ('q', q, 'k', k, 'v', v, 'g', g, 'beta', beta, 'h0', h0, 'dout', dout, 'dht', dht);
%!endfunction

%!function y = verify_chunk_map_ (aux, x, f)
%!  % f (chunk block of x (c x c, row i = chunk row i), beta of the chunk) per chunk and head
%!  y = x;
%!  for n = 1:size (aux.chunks, 1)
%!    c = aux.chunks(n, 3);  cols = aux.chunks(n, 2) + (0:c - 1);
%!    for j = 1:size (x, 3)
%!      y(1:c, cols, j) = f (x(1:c, cols, j), diag (aux.A(1:c, cols, j)));
%!    end
%!  end
%!endfunction

%!test
%! % the backward's intermediates in this library's convention, said in
%! % meta.json ("intermediates": "kdagdn"): dh, dAqk, dAkk, dw, du, dv_new pass,
%! % a wrong chunk of dh fails; the same dump read as FLA's fails dh, dAqk, dAkk
%! [s, aux, b] = bwd_dump_ (8, []);
%! s.meta.intermediates = 'kdagdn';
%! [ok, report] = kda_verify (s);
%! assert (ok, report.markdown);
%! names = {report.rows.name};
%! assert (all (ismember ({'dh', 'dAqk', 'dAkk', 'dw', 'du', 'dv_new'}, names)));
%! bad = s;
%! bad.dh(1, 2, 1, :, :) = bad.dh(1, 2, 1, :, :) + 1;    % the second chunk's dh
%! [ok, report] = kda_verify (bad);
%! assert (~ok);
%! assert (~row_ (report, 'dh').pass);
%! s.meta = rmfield (s.meta, 'intermediates');          % FLA's convention, the default
%! [ok, report] = kda_verify (s);
%! assert (~ok);
%! bad = {report.rows(~[report.rows.pass]).name};
%! assert (sort (bad), sort ({'dh', 'dAqk', 'dAkk'}));

%!test
%! % FLA's stored convention (the default), built here from FLA's definitions:
%! %   dh[n]  the gradient of the state leaving chunk n (dh[last] = dht), i.e.
%! %          the gradient of the initial state of the rest of the sequence
%! %   dAkk   -Akk^T (dL/dAkk) Akk^T, strictly lower (chunk_kda_bwd_wy_dqkg_fused)
%! %   dAqk   scale x dL/dAqk (chunk_kda_bwd_kernel_dAv)
%! % varlen with a zero-length sequence in the middle
%! C = 8;  cu = [0 11 11 20];
%! [s, aux, b, in] = bwd_dump_ (C, cu);
%! K = size (in.q, 1);
%! dakk = la_from_fla ('Akk', s.dAkk);             % dL/dAkk, rows as aux
%! fla = verify_chunk_map_ (aux, dakk, @(x, bt) 0);
%! for n = 1:size (aux.chunks, 1)
%!   c = aux.chunks(n, 3);  cols = aux.chunks(n, 2) + (0:c - 1);
%!   for j = 1:size (dakk, 3)
%!     akk = inv (eye (c) + aux.A_raw(1:c, cols, j).');    % chunk matrix (row i = step i)
%!     d = dakk(1:c, cols, j).';
%!     fla(1:c, cols, j) = tril (-akk.' * d * akk.', -1).';
%!   end
%! end
%! s.dAkk = la_to_fla ('Akk', fla);
%! s.dAqk = s.dAqk * K ^ -0.5;
%! dh = zeros (size (b.dh));
%! for n = 1:size (aux.chunks, 1)
%!   seq = aux.chunks(n, 1);  last = aux.chunks(n, 2) + aux.chunks(n, 3) - 1;
%!   if (last == cu(seq + 1))
%!     dh(:, :, :, n) = in.dht(:, :, :, seq);
%!   else                                   % backward of steps last+1 .. end of the sequence
%!     rest = last + 1:cu(seq + 1);
%!     [~, S] = kda_recurrent (in.q(:, 1:last), in.k(:, 1:last), in.v(:, 1:last, :), ...
%!                             in.g(:, 1:last, :), in.beta(1:last, :), ...
%!                             'CuSeqlens', [cu(cu < last), last], 'InitialState', in.h0(:, :, :, 1:seq));
%!     grads = cell (1, 6);
%!     [grads{:}] = kda_recurrent_bwd (in.q(:, rest), in.k(:, rest), in.v(:, rest, :), ...
%!                                     in.g(:, rest, :), in.beta(rest, :), in.dout(:, rest, :), ...
%!                                     in.dht(:, :, :, seq), 'InitialState', S(:, :, :, end));
%!     dh(:, :, :, n) = grads{6};
%!   end
%! end
%! s.dh = la_to_fla ('dh', dh);
%! [ok, report] = kda_verify (s);
%! assert (ok && strcmp (report.verdict, 'pass'), report.markdown);
%! assert (all (ismember ({'dh', 'dAqk', 'dAkk', 'ht', 'dq'}, {report.rows.name})));
%! assert (~isempty (strfind (report.markdown, 'bc3b101')));
%! assert (report.fla_commit, 'bc3b101dcb713ddc5bd8924b66754eb68b5ccf89');

%!error id=kda:nargin kda_verify ()

%!test
%! % state_v_first: FLA's [N, HV, V, K] states are this library's 'VK' states
%! K = 4; V = 4; T = 8;     % K = V: a wrong state layout fits the sizes, only values tell
%! q = randn (K, T); k = randn (K, T); v = randn (V, T); g = -rand (K, T); beta = rand (T, 1);
%! h0 = randn (V, K);
%! [o, S] = kda_chunk (q, k, v, g, beta, 'InitialState', h0, 'StateLayout', 'VK');
%! s = struct ('q', la_to_fla ('q', q), 'k', la_to_fla ('k', k), 'v', la_to_fla ('v', v), ...
%!             'g', la_to_fla ('g', g), 'beta', la_to_fla ('beta', beta), 'o', la_to_fla ('o', o));
%! s.h0 = reshape (h0, [1 1 V K]);         % FLA [N, HV, V, K]: h0[0, 0, v, k]
%! s.ht = reshape (S, [1 1 V K]);
%! assert (isequal (la_to_fla ('ht', S.', 'StateVFirst', true), s.ht));   % from K x V
%! s.meta = struct ('dtype', 'float64', 'state_v_first', true);
%! [ok, ~] = kda_verify (s);   % (one output would print the report)
%! assert (ok);
%! s.meta.state_v_first = false;
%! [ok, report] = kda_verify (s);
%! assert (~ok);

%!test
%! % gradients: the layout of every backward tensor (GVA, B = 2, h0, dht)
%! K = 5; V = 4; T = 21; H = 1; HV = 2; B = 2;
%! q = randn (K, T, H, B); k = randn (K, T, H, B); v = randn (V, T, HV, B);
%! g = -rand (K, T, HV, B); beta = rand (T, HV, B); h0 = randn (K, V, HV, B);
%! dout = randn (V, T, HV, B); dht = randn (K, V, HV, B);
%! opt = {'ChunkSize', 8, 'InitialState', h0};
%! [o, S] = kda_chunk (q, k, v, g, beta, opt{:});
%! [dq, dk, dv, dg, db, dh0] = kda_chunk_bwd (q, k, v, g, beta, dout, dht, opt{:});
%! names = {'q', 'k', 'v', 'g', 'beta', 'h0', 'o', 'ht', 'do', 'dht', 'dq', 'dk', 'dv', 'dg', 'dbeta', 'dh0'};
%! vals = {q, k, v, g, beta, h0, o, S, dout, dht, dq, dk, dv, dg, db, dh0};
%! s = struct ();
%! for i = 1:numel (names)
%!   s.(names{i}) = la_to_fla (names{i}, vals{i});
%! end
%! s.meta = struct ('dtype', 'float64', 'chunk_size', 8);
%! [ok, report] = kda_verify (s);
%! assert (ok);
%! assert (numel (report.rows), 8);      % o ht dq dk dv dg dbeta dh0
%! s.dg(2, 13, 1, 3) = s.dg(2, 13, 1, 3) + 1;
%! [ok, report] = kda_verify (s);
%! assert (~ok);
%! r = row_ (report, 'dg');
%! assert (~r.pass);
%! assert (~isempty (strfind (r.where, 'sequence 1, chunk 1, step 4 of the chunk')), r.where);
