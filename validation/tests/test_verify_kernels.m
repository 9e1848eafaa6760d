% test_verify_kernels.m -- kda_verify / gdn_verify on dumps of an independent
% chunked kernel: correct ones pass, planted bugs fail (or warn) where they
% are, malformed dumps get an error that says what to do.
%
% validation/tests/python/torch_kernel.py (Debian's python3-torch) is a
% chunked KDA / GDN written from FLA's definitions, not from this library:
% varlen (two sequences, cu_seqlens), GVA (H = 2, HV = 4), backward by
% autograd; in float64, float32, float32 with TF32 dots, and bf16 (bf16
% storage, fp32 accumulation); clean and with the bugs the verifier must
% catch.  It writes each dump through octave/python/kdagdn_dump.py, the
% writer docs/verify.md gives users (a .safetensors file with `do` inside,
% no dtype in meta.json: the verifier infers it).

%!function folder = dump_ (name)
%!  % all dumps, written by one Python run per Octave session
%!  persistent root;
%!  cases = {};
%!  for op = {'kda', 'gdn'}
%!    cases = [cases, strcat(op{1}, {':fp64:none:1', ':fp32:none:1', ':tf32:none:1', ...
%!             ':bf16:none:1', ':fp32:varlen:1', ':fp32:partial:1', ':fp32:diag:1', ...
%!             ':fp32:gva:1', ':fp32:exp2:1', ':bf16:state16:1:slow', ':bf16:none:1:slow'})];
%!  end
%!  cases{end + 1} = 'kda:bf16:dq10:2';
%!  if (isempty (root))
%!    root = tempname ();
%!    here = fileparts (which ('test_verify_kernels'));
%!    cmd = sprintf ('/usr/bin/python3 "%s" %s %s 2>&1', ...
%!                   fullfile (here, 'python', 'torch_kernel.py'), root, strjoin (cases, ' '));
%!    [status, out] = system (cmd);
%!    assert (status, 0, out);
%!  end
%!  folder = fullfile (root, strrep (name, ':', '_'));
%!endfunction

%!function [ok, r] = verify_ (name)
%!  f = str2func ([name(1:3) '_verify']);
%!  [ok, r] = f (dump_ (name), 'ReportDir', '');
%!endfunction

%!function r = row_ (report, name)
%!  r = report.rows(strcmp ({report.rows.name}, name));
%!  assert (numel (r) == 1, 'no row %s', name);
%!endfunction

%!function failing_ (report, names)
%!  % exactly these tensors fail
%!  bad = {report.rows(strcmp ({report.rows.status}, 'fail')).name};
%!  assert (sort (bad), sort (names));
%!endfunction

%!test
%! % correct kernels pass, with the dtype read from the stored tensors
%! for op = {'kda', 'gdn'}
%!   for m = {'fp64', 'float64'; 'fp32', 'float32'; 'tf32', 'float32'; 'bf16', 'bfloat16'}'
%!     [ok, r] = verify_ ([op{1} ':' m{1} ':none:1']);
%!     assert (ok && strcmp (r.verdict, 'pass'), '%s %s: %s', op{1}, m{1}, r.markdown);
%!     assert (r.dtype, m{2});
%!     assert (isempty (r.unchecked));
%!     names = {r.rows.name};
%!     assert (all (ismember ({'o', 'ht', 'Akk', 'h', 'dq', 'dk', 'dv', 'dg', 'dbeta', 'dh0'}, names)));
%!   end
%! end

%!test
%! % what a correct kernel of each dtype reaches, against the emulated one
%! [~, r] = verify_ ('kda:fp64:none:1');
%! assert (max ([r.rows.ratio]) < 1e-13);
%! [~, r] = verify_ ('gdn:tf32:none:1');        % TF32 dots: far above float32's 1e-7
%! o = row_ (r, 'o');
%! assert (o.ratio > 1e-5 && o.ratio < o.warn_tol);
%! assert (o.tol, max (4 * o.expected, 2 ^ -12), 1e-15);
%! for name = {'kda:bf16:none:1', 'gdn:bf16:none:1', 'kda:bf16:none:1:slow'}
%!   [~, r] = verify_ (name{1});
%!   rel = [r.rows.ratio] ./ [r.rows.expected];
%!   assert (all (rel > 0.5 & rel < 1.5), '%s: %s', name{1}, num2str (rel));  % warn is at 2
%!   assert (row_ (r, 'Akk').expected > 1e-4);   % Akk rounded as FLA stores it
%! end

%!test
%! % varlen state not reset: wrong from the first step of sequence 1
%! for op = {'kda', 'gdn'}
%!   [ok, r] = verify_ ([op{1} ':fp32:varlen:1']);
%!   assert (~ok && strcmp (r.verdict, 'fail'));
%!   o = row_ (r, 'o');
%!   assert (~isempty (strfind (o.where, 'sequence 1, chunk 0, step 0 of the chunk')), o.where);
%!   h = row_ (r, 'h');
%!   assert (~isempty (strfind (h.where, 'first wrong state: sequence 1, chunk 0')), h.where);
%!   assert (~isempty (strfind (row_ (r, 'ht').where, 'first wrong sequence 1')));
%! end

%!test
%! % the last partial chunk skipped: sequence 0 (37 steps) has it at chunk 2
%! [ok, r] = verify_ ('kda:fp32:partial:1');
%! assert (~ok);
%! o = row_ (r, 'o');
%! assert (~isempty (strfind (o.where, 'sequence 0, chunk 2, step 0 of the chunk')), o.where);

%!test
%! % the diagonal kept in the backward: the forward passes, every gradient fails
%! for op = {'kda', 'gdn'}
%!   [ok, r] = verify_ ([op{1} ':fp32:diag:1']);
%!   assert (~ok);
%!   failing_ (r, {'dq', 'dk', 'dv', 'dg', 'dbeta', 'dh0'});
%! end

%!test
%! % GVA head mapping j % H instead of j // (HV / H): value heads 1 and 2 are wrong
%! for op = {'kda', 'gdn'}
%!   [ok, r] = verify_ ([op{1} ':fp32:gva:1']);
%!   assert (~ok);
%!   o = row_ (r, 'o');
%!   assert (~isempty (strfind (o.where, 'failing heads: 1, 2')), o.where);
%!   assert (~isempty (strfind (row_ (r, 'ht').where, 'failing heads: 1, 2')));
%! end

%!test
%! % exp2 in one stage (the state's decay): chunk 0 is right, chunk 1 is not
%! for op = {'kda', 'gdn'}
%!   [ok, r] = verify_ ([op{1} ':fp32:exp2:1']);
%!   assert (~ok);
%!   o = row_ (r, 'o');
%!   assert (~isempty (strfind (o.where, 'sequence 0, chunk 1, step 0 of the chunk')), o.where);
%!   assert (~isempty (strfind (row_ (r, 'h').where, 'sequence 0, chunk 1')));
%! end

%!test
%! % a bf16 running state: within tolerance, but flagged (verdict warn, ok)
%! for op = {'kda', 'gdn'}
%!   [ok, r] = verify_ ([op{1} ':bf16:state16:1:slow']);
%!   assert (ok && strcmp (r.verdict, 'warn'), r.markdown);
%!   ht = row_ (r, 'ht');
%!   assert (ht.status, 'warn');
%!   assert (~isempty (strfind (ht.where, 'bfloat16')));
%!   assert (~isempty (strfind (r.markdown, '# kda_verify: WARN')) || strcmp (op{1}, 'gdn'));
%!   [ok, r] = verify_ ([op{1} ':bf16:none:1:slow']);   % the same, correct: no warning
%!   assert (ok && strcmp (r.verdict, 'pass'));
%! end

%!test
%! % the documented recipe: do inside the .safetensors file, dq ten times wrong
%! [ok, r] = verify_ ('kda:bf16:dq10:2');
%! assert (~ok);
%! failing_ (r, {'dq'});

%!test
%! % a gradient without its do is never passed: the dump fails, the reason named
%! s = la_load (fullfile (dump_ ('kda:fp64:none:1'), 'tensors.safetensors'));
%! s = rmfield (s, intersect (fieldnames (s), {'do'}));
%! s.meta = struct ('chunk_size', 16, 'scale', 16 ^ -0.5, 'cu_seqlens', double (s.cu_seqlens));
%! s = rmfield (s, 'cu_seqlens');
%! [ok, r] = kda_verify (s);
%! assert (~ok && strcmp (r.verdict, 'fail'));
%! u = r.unchecked(strcmp ({r.unchecked.name}, 'dq'));
%! assert (u.severity, 'fail');
%! assert (~isempty (strfind (u.reason, 'no `do`')));
%! assert (~isempty (strfind (r.markdown, '## Not checked')));
%! assert (all ([r.rows.pass]));       % what was checked is right, yet no pass

%!test
%! % a meta dtype the storage contradicts: an error naming both
%! folder = tempname ();  mkdir (folder);
%! copyfile (fullfile (dump_ ('kda:bf16:none:1'), 'tensors.safetensors'), folder);
%! fid = fopen (fullfile (folder, 'meta.json'), 'w');
%! fprintf (fid, '{"chunk_size": 16, "scale": 0.25, "dtype": "float32"}');  fclose (fid);
%! try
%!   kda_verify (folder);
%!   error ('no error');
%! catch err
%!   assert (err.identifier, 'kda:badOption');
%!   assert (strncmp (err.message, 'kda_verify: ', 12), err.message);
%!   assert (~isempty (strfind (err.message, '''float32''')) && ~isempty (strfind (err.message, 'bfloat16')));
%! end
%! confirm_recursive_rmdir (false, 'local');  rmdir (folder, 's');

%!function s = struct_dump_ ()
%!  % a small correct float64 dump as a struct (B = 2, H = 2, HV = 4)
%!  B = 2; T = 24; H = 2; HV = 4; K = 8; V = 8;
%!  q = randn (K, T, H, B);  k = randn (K, T, H, B);  k = k ./ sqrt (sum (k .^ 2, 1));
%!  v = randn (V, T, HV, B);  g = -rand (K, T, HV, B) / 4;  beta = rand (T, HV, B);
%!  h0 = randn (K, V, HV, B);
%!  [o, S] = kda_chunk (q, k, v, g, beta, 'InitialState', h0, 'ChunkSize', 8);
%!  names = {'q', 'k', 'v', 'g', 'beta', 'h0', 'o', 'ht'};
%!  vals = {q, k, v, g, beta, h0, o, S};
%!  s = struct ();
%!  for i = 1:numel (names)
%!    s.(names{i}) = la_to_fla (names{i}, vals{i});
%!  end
%!  s.meta = struct ('chunk_size', 8);
%!endfunction

%!function err_ (s, id, varargin)
%!  % kda_verify (s) fails with id and a message holding every pattern
%!  try
%!    kda_verify (s);
%!    error ('test:noError', 'no error');
%!  catch err
%!    assert (err.identifier, id, err.message);
%!    assert (strncmp (err.message, 'kda_verify: ', 12), err.message);
%!    for i = 1:numel (varargin)
%!      assert (~isempty (strfind (err.message, varargin{i})), err.message);
%!    end
%!  end
%!endfunction

%!test
%! s = struct_dump_ ();
%! [ok, r] = kda_verify (s);
%! assert (ok && strcmp (r.verdict, 'pass'));
%! assert (r.dtype, 'float64');
%! % head-first [B, H, T, K] order, told by the states' head count
%! hf = s;
%! for n = {'q', 'k', 'v', 'g', 'beta', 'o'}
%!   hf.(n{1}) = permute (s.(n{1}), [1 3 2 4]);
%! end
%! err_ (hf, 'kda:badShape', 'head-first', 'transpose(1, 2)');
%! % ... and without states, from thousands of heads over a few steps
%! x = struct ('q', randn (1, 4, 512, 2), 'k', randn (1, 4, 512, 2), 'v', randn (1, 4, 512, 2), ...
%!             'g', -rand (1, 4, 512, 2), 'beta', rand (1, 4, 512), 'o', randn (1, 4, 512, 2));
%! err_ (x, 'kda:badShape', 'head-first', '512 heads over 4 steps');
%! % a flattened head axis [B, T, H*K]
%! fl = s;
%! fl.q = reshape (s.q, size (s.q, 1), size (s.q, 2), []);
%! err_ (fl, 'kda:badShape', 'flattened head axis', 'x.view(B, T, H, -1)');
%! % states of 2 sequences in one batch entry without cu_seqlens
%! vl = s;
%! for n = {'q', 'k', 'v', 'g', 'beta', 'o'}
%!   x = s.(n{1});
%!   vl.(n{1}) = reshape (permute (x, [2 1 3:ndims(x)]), [1, size(x, 2) * size(x, 1), size(x)(3:end)]);
%! end
%! err_ (vl, 'kda:badShape', 'N = 2 sequences', 'cu_seqlens');
%! vl.meta.cu_seqlens = [0 24 48];       % with it, the same tensors pass
%! vl.o = [];  vl = rmfield (vl, 'o');
%! [ok, r] = kda_verify (vl);
%! assert (ok, r.markdown);

%!test
%! % torch.save files are not ignored: an error that names the file and the way out
%! folder = tempname ();  mkdir (folder);
%! copyfile (fullfile (dump_ ('kda:fp64:none:1'), '*'), folder);
%! for ext = {'.pt', '.pth', '.bin', '.h5'}
%!   fid = fopen (fullfile (folder, ['grads' ext{1}]), 'w');  fwrite (fid, 'PK');  fclose (fid);
%!   try
%!     kda_verify (folder);
%!     error ('no error');
%!   catch err
%!     assert (err.identifier, 'la:badFile');
%!     assert (~isempty (strfind (err.message, ['grads' ext{1}])), err.message);
%!     assert (~isempty (strfind (err.message, 'kdagdn_dump.py')), err.message);
%!   end
%!   delete (fullfile (folder, ['grads' ext{1}]));
%! end
%! confirm_recursive_rmdir (false, 'local');  rmdir (folder, 's');

%!test
%! % reports and heat maps are created fresh: a link in the dump is replaced,
%! % its target untouched; 'ReportDir' sends them elsewhere
%! folder = tempname ();  mkdir (folder);
%! copyfile (fullfile (dump_ ('kda:fp32:varlen:1'), '*'), folder);
%! victim = [tempname() '.txt'];
%! fid = fopen (victim, 'w');  fprintf (fid, 'keep me');  fclose (fid);
%! symlink (victim, fullfile (folder, 'verify_report.md'));
%! symlink (victim, fullfile (folder, 'verify_o.png'));
%! [ok, r] = kda_verify (folder);
%! assert (~ok);
%! assert (fileread (victim), 'keep me');
%! assert (~isempty (strfind (fileread (r.file), '# kda_verify: FAIL')));
%! [~, err] = readlink (r.file);
%! assert (err ~= 0);                    % a plain file now, no link
%! assert (exist (fullfile (folder, 'verify_o.png'), 'file') == 2);
%! assert (isempty (dir (fullfile (folder, '.verify_*'))));
%! out = tempname ();  mkdir (out);
%! delete (fullfile (folder, 'verify_*'));
%! [ok, r] = kda_verify (folder, 'ReportDir', out);
%! assert (strcmp (fileparts (r.file), out));
%! assert (exist (fullfile (out, 'verify_o.png'), 'file') == 2);
%! assert (isempty (dir (fullfile (folder, 'verify_*'))));
%! delete (victim);
%! confirm_recursive_rmdir (false, 'local');  rmdir (folder, 's');  rmdir (out, 's');

%!function s = py_str_ (x)
%!  s = ['''' strrep(x, '''', '\''') ''''];
%!endfunction

%!test
%! % the recipe of docs/verify.md as written, with a stand-in for FLA's
%! % chunk_kda (the float32 kernel of torch_kernel.py): its dump passes,
%! % gradients included
%! here = fileparts (which ('test_verify_kernels'));
%! doc = fileread (fullfile (here, '..', '..', 'docs', 'verify.md'));
%! recipe = regexp (doc, '```python\n(.*?)```', 'tokens', 'once'){1};
%! assert (~isempty (strfind (recipe, 'kdagdn_dump.dump')));
%! pre = {'import sys, torch', 'import torch.nn.functional as F', ...
%!        sprintf('sys.path[:0] = [%s, %s]', py_str_ (fullfile (here, 'python')), ...
%!                py_str_ (fullfile (here, '..', '..', 'octave', 'python'))), ...
%!        'from torch_kernel import Kernel', ...
%!        'torch.manual_seed(3); B, T, H, K, V = 1, 45, 2, 16, 16', ...
%!        'leaf = lambda x: x.requires_grad_()', ...
%!        'q, k, v = leaf(torch.randn(B, T, H, K)), leaf(torch.randn(B, T, H, K)), leaf(torch.randn(B, T, H, V))', ...
%!        'g = leaf(F.logsigmoid(torch.randn(B, T, H, K) + 3))', ...
%!        'beta, h0 = leaf(torch.rand(B, T, H)), leaf(torch.randn(B, H, K, V))', ...
%!        'def chunk_kda(q, k, v, g, beta, initial_state, output_final_state, use_qk_l2norm_in_kernel, chunk_size):', ...
%!        '    q, k = F.normalize(q, dim=-1), F.normalize(k, dim=-1)', ...
%!        '    o, ht, _, _ = Kernel("kda", "fp32", "none", chunk_size).forward(q, k, v, g, beta, initial_state, [0, T], K ** -0.5)', ...
%!        '    return o, ht', ''};
%! folder = tempname ();  mkdir (folder);
%! fid = fopen (fullfile (folder, 'recipe.py'), 'w');
%! fprintf (fid, '%s\n', pre{:});  fprintf (fid, '%s', recipe);  fclose (fid);
%! [status, out] = system (sprintf ('cd "%s" && /usr/bin/python3 recipe.py 2>&1', folder));
%! assert (status, 0, out);
%! [ok, r] = kda_verify (fullfile (folder, 'dump'), 'ReportDir', '');
%! assert (ok && strcmp (r.verdict, 'pass'), r.markdown);
%! assert (r.dtype, 'float32');
%! assert (all (ismember ({'o', 'ht', 'dq', 'dk', 'dv', 'dg', 'dbeta', 'dh0'}, {r.rows.name})));
%! confirm_recursive_rmdir (false, 'local');  rmdir (folder, 's');

%!test
%! % 'Emulate' 'tf32': TF32 dot operands, g and beta exact; between single and bf16
%! K = 32; V = 32; T = 150;
%! q = randn (K, T); k = randn (K, T); k = k ./ sqrt (sum (k .^ 2, 1)); v = randn (V, T);
%! g = -rand (K, T) / 4; beta = rand (T, 1);
%! o = kda_chunk (q, k, v, g, beta);
%! rel = @(x) norm (x(:) - o(:)) / norm (o(:));
%! e32 = rel (kda_chunk (single (q), single (k), single (v), single (g), single (beta)));
%! etf = rel (kda_chunk (q, k, v, g, beta, 'Emulate', 'tf32'));
%! ebf = rel (kda_chunk (q, k, v, g, beta, 'Emulate', 'bf16'));
%! assert (e32 < etf / 20 && etf < ebf / 4, sprintf ('%g %g %g', e32, etf, ebf));
%! assert (etf > 2 ^ -14 && etf < 2 ^ -9);
%! assert (isa (kda_chunk (q, k, v, g, beta, 'Emulate', 'tf32'), 'double'));
