% test_verify_storage.m -- no false pass: a bug confined to one step of
% one head fails by the local checks though the global ratio passes; a
% tensor stored narrower than FLA keeps it (fp16 / bf16 in a float32
% dump, a bf16 dh0 where FLA keeps fp32) warns and names the tensor; a
% float32 dump that the emulation gives no expected error for (FLA's fused
% recurrent kernels: GDN's gk / gv, decode) is judged by single
% precision's bound, not FLA's bf16 thresholds.  Dumps from
% validation/tests/python/torch_kernel.py through kdagdn_dump.py.

%!function folder = dump_ (name)
%!  persistent root;
%!  cases = {'kda:fp32:o16:1', 'gdn:tf32:dqbf16:1', 'kda:bf16:dh0bf16:1', 'kda:fp32:none:1', ...
%!           'kda:bf16:gate1:1', 'kda:bf16:none:1'};
%!  if (isempty (root))
%!    root = tempname ();
%!    here = fileparts (which ('test_verify_storage'));
%!    [status, out] = system (sprintf ('/usr/bin/python3 "%s" "%s" %s 2>&1', ...
%!                            fullfile (here, 'python', 'torch_kernel.py'), root, strjoin (cases, ' ')));
%!    assert (status == 0, out);
%!  end
%!  folder = fullfile (root, strrep (name, ':', '_'));
%!endfunction

%!test
%! % o stored as float16 in a float32 dump: within the TF32 tolerance, so only
%! % the storage tells; it warns, naming o
%! [ok, r] = kda_verify (dump_ ('kda:fp32:o16:1'), 'ReportDir', '');
%! assert (ok && strcmp (r.verdict, 'warn'), r.markdown);
%! o = verify_row (r, 'o');
%! assert (o.status, 'warn');
%! assert (o.ratio < o.warn_tol);             % the error alone would pass
%! verify_has (o.where, '`o` is stored as float16', 'float32');
%! assert (all (strcmp ({r.rows(~strcmp ({r.rows.name}, 'o')).status}, 'pass')));
%! [ok, r] = kda_verify (dump_ ('kda:fp32:none:1'), 'ReportDir', '');   % stored right: pass
%! assert (ok && strcmp (r.verdict, 'pass'), r.markdown);

%!test
%! % dq stored as bfloat16 in a float32 (TF32) dump: warns, naming dq
%! [ok, r] = gdn_verify (dump_ ('gdn:tf32:dqbf16:1'), 'ReportDir', '');
%! assert (ok && strcmp (r.verdict, 'warn'), r.markdown);
%! dq = verify_row (r, 'dq');
%! assert (dq.status, 'warn');
%! verify_has (dq.where, '`dq` is stored as bfloat16');
%! verify_has (r.markdown, '`dq` warns');

%!test
%! % a bf16 kernel's dh0 stored as bfloat16: FLA keeps the state gradient in fp32
%! [ok, r] = kda_verify (dump_ ('kda:bf16:dh0bf16:1'), 'ReportDir', '');
%! assert (ok && strcmp (r.verdict, 'warn'), r.markdown);
%! verify_has (verify_row (r, 'dh0').where, '`dh0` is stored as bfloat16', 'float32');
%! assert (strcmp (verify_row (r, 'o').status, 'pass'));      % o in bf16 is as FLA returns it

%!test
%! % a float32 fused recurrent dump (GDN with gv) that drops the decay of one
%! % step of one head: 1e-3 of rms, under FLA's 0.005, above single's 1e-4: fails
%! randn ('state', 42);  rand ('state', 42);
%! B = 1; T = 64; H = 2; K = 16; V = 16;
%! q = randn (K, T, H); k = randn (K, T, H); k = k ./ sqrt (sum (k .^ 2, 1)); v = randn (V, T, H);
%! g = -rand (T, H) / 8;  gv = -rand (V, T, H) / 8;  beta = rand (T, H);  h0 = randn (K, V, H);
%! o = gdn_recurrent (q, k, v, g, beta, 'GV', gv, 'InitialState', h0);
%! gbug = g;  gbug(40, 2) = g(40, 2) / 2;     % one step of one head: half its decay lost
%! obug = gdn_recurrent (q, k, v, gbug, beta, 'GV', gv, 'InitialState', h0);
%! s = struct ('q', la_to_fla ('q', single (q)), 'k', la_to_fla ('k', single (k)), ...
%!             'v', la_to_fla ('v', single (v)), 'g', la_to_fla ('g', single (g), 'Op', 'gdn'), ...
%!             'gv', single (permute (gv, [4 2 3 1])), 'beta', la_to_fla ('beta', single (beta)), ...
%!             'h0', la_to_fla ('h0', h0), 'o', la_to_fla ('o', single (o)));
%! [ok, r] = gdn_verify (s);
%! assert (ok && strcmp (r.verdict, 'pass'), r.markdown);
%! assert (verify_row (r, 'o').ratio < 1e-6);
%! s.o = la_to_fla ('o', single (obug));
%! [ok, r] = gdn_verify (s);
%! o = verify_row (r, 'o');
%! assert (o.ratio > 2e-4 && o.ratio < 0.005, sprintf ('%g', o.ratio));
%! assert (~ok);
%! verify_has (o.where, 't = 39 of the sequence', 'head 1');

%!test
%! % a gradient's location: the error of a backward bug at step tb flows to
%! % earlier steps, so the first wrong step lies before it; the report also
%! % names the last wrong step, where the bug is, and says which is which
%! K = 8; V = 8; T = 48; H = 2; C = 16; tb = 37;
%! q = randn (K, T, H); k = randn (K, T, H); k = k ./ sqrt (sum (k .^ 2, 1)); v = randn (V, T, H);
%! g = -rand (K, T, H) / 32;  beta = rand (T, H);  dout = randn (V, T, H);
%! opt = {'ChunkSize', C};
%! o = kda_chunk (q, k, v, g, beta, opt{:});
%! dbug = dout;  dbug(:, tb + 1, 2) = 3 * dout(:, tb + 1, 2);   % the kernel misreads do at t = tb, head 1
%! out = cell (1, 5);
%! [out{:}] = kda_chunk_bwd (q, k, v, g, beta, dbug, [], opt{:});
%! s = struct ('q', la_to_fla ('q', q), 'k', la_to_fla ('k', k), 'v', la_to_fla ('v', v), ...
%!             'g', la_to_fla ('g', g), 'beta', la_to_fla ('beta', beta), 'o', la_to_fla ('o', o), ...
%!             'do', la_to_fla ('do', dout), 'dq', la_to_fla ('dq', out{1}), ...
%!             'dk', la_to_fla ('dk', out{2}), 'dv', la_to_fla ('dv', out{3}));
%! s.meta = struct ('dtype', 'float64', 'chunk_size', C);
%! [ok, r] = kda_verify (s);
%! assert (~ok);
%! for name = {'dk', 'dv'}
%!   w = verify_row (r, name{1}).where;
%!   first = regexp (w, 'first divergence: .*?\(t = (\d+) of', 'tokens', 'once');
%!   last = regexp (w, 'last wrong step \(where an error the backward sweep carries back begins\): sequence 0, chunk 2, step 5 of the chunk \(t = (\d+) of the sequence\), head 1', 'tokens', 'once');
%!   assert (~isempty (first) && ~isempty (last), w);
%!   assert (str2double (last{1}), tb);
%!   assert (str2double (first{1}) < tb - 10, w);
%! end
%! assert (isempty (strfind (verify_row (r, 'o').where, 'last wrong')));   % forward: first only
%! % dq reads the forward state and do alone: wrong at t = tb only, named there
%! w = verify_row (r, 'dq').where;
%! first = regexp (w, 'first divergence: .*?\(t = (\d+) of', 'tokens', 'once');
%! assert (~isempty (first) && str2double (first{1}) == tb, w);
%! assert (isempty (strfind (w, 'last wrong')), w);

%!test
%! % one step of one head ungated (bf16): o's global ratio is within its
%! % bounds, but in its windows o is far above what a correct bf16 kernel
%! % shows there: it fails, at sequence 1, head 1, from chunk 1 (steps 16-31,
%! % the bug at t = 20); the clean twin passes with every local score under 8
%! [ok, r] = kda_verify (dump_ ('kda:bf16:gate1:1'), 'ReportDir', '');
%! assert (~ok);
%! o = verify_row (r, 'o');
%! assert (o.ratio < o.tol, 'global ratio %g, bound %g', o.ratio, o.tol);
%! assert (strcmp (o.status, 'fail') && o.local > 16);
%! verify_has (o.where, 'local check', 'sequence 1, chunk 1', 'head 1');
%! [ok, r] = kda_verify (dump_ ('kda:bf16:none:1'), 'ReportDir', '');
%! assert (ok && strcmp (r.verdict, 'pass'), r.markdown);
%! assert (max ([r.rows.local]) < 8);
