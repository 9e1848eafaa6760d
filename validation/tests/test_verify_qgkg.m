% Tests: kda_verify reads FLA's gated q and k, qg = q exp(G) and kg = k
% exp(G_last - G), [B, T, HV, K] (FLA's recompute_w_u_fwd stores them
% with disable_recompute; docs/verify.md section 3).  Dumps from
% validation/tests/python/torch_kernel.py (an independent chunked kernel,
% varlen, GVA H = 2, HV = 4), float32 and bfloat16: clean ones pass with
% qg and kg checked; qg stored with the scale in it fails on qg alone.
% The in-kernel L2 norm reaches qg through a struct dump.  Run with  test
% test_verify_qgkg  or through validation/run_tests.m.

%!test
%! [st, ~] = system ('/usr/bin/python3 -c "import torch" 2>&1');
%! if (st != 0)
%!   warning ('test_verify_qgkg: python3-torch is missing, the test is skipped');
%!   return;
%! end
%! root = tempname ();
%! cleanup = onCleanup (@() confirm_recursive_rmdir (false, 'local') || rmdir (root, 's'));
%! here = fileparts (which ('test_verify_qgkg'));
%! cases = {'kda:fp32:qgkg:1', 'kda:bf16:qgkg:2', 'kda:fp32:qgscaled:1'};
%! [st, out] = system (sprintf ('/usr/bin/python3 "%s" "%s" %s 2>&1', ...
%!                     fullfile (here, 'python', 'torch_kernel.py'), root, strjoin (cases, ' ')));
%! assert (st == 0, '%s', out);
%! for i = 1:2
%!   [ok, r] = kda_verify (fullfile (root, strrep (cases{i}, ':', '_')), 'ReportDir', '');
%!   assert (ok && strcmp (r.verdict, 'pass'), r.markdown);
%!   assert (verify_row (r, 'qg').pass && verify_row (r, 'kg').pass);
%! end
%! [ok, r] = kda_verify (fullfile (root, 'kda_fp32_qgscaled_1'), 'ReportDir', '');
%! assert (! ok);
%! bad = {r.rows(! [r.rows.pass]).name};
%! assert (bad, {'qg'});
%! assert (verify_row (r, 'qg').ratio > 0.5);     % 1 - 1/sqrt(K) of it: the scale

%!test
%! % use_qk_l2norm_in_kernel: qg, kg of the normalised q, k (FLA's eps 1e-6)
%! randn ('seed', 3);  rand ('seed', 3);
%! K = 8;  T = 20;  q = 2 * randn (K, T, 1);  k = 2 * randn (K, T, 1);
%! v = randn (K, T, 2);  g = -0.2 * rand (K, T, 2);  beta = rand (T, 2);
%! [o, ~, aux] = kda_chunk (q, k, v, g, beta, 'ChunkSize', 8, 'UseQKL2Norm', true, ...
%!                          'L2NormEps', 1e-6, 'Intermediates', true);
%! n = @(x) x ./ sqrt (sum (x .^ 2, 1) + 1e-6);
%! qn = n (q)(:, :, [1 1]);  kn = n (k)(:, :, [1 1]);
%! kg = zeros (size (kn));
%! for c = 0:2                                     % chunks of 8, 8, 4 steps
%!   cols = 8 * c + 1:min (8 * c + 8, T);
%!   kg(:, cols, :) = kn(:, cols, :) .* exp (aux.G(:, cols(end), :) - aux.G(:, cols, :));
%! end
%! cv = {'Op', 'kda'};
%! d = struct ('q', la_to_fla ('q', q, cv{:}), 'k', la_to_fla ('k', k, cv{:}), ...
%!             'v', la_to_fla ('v', v, cv{:}), 'g', la_to_fla ('g', g, cv{:}), ...
%!             'beta', la_to_fla ('beta', beta, cv{:}), 'o', la_to_fla ('o', o, cv{:}), ...
%!             'qg', la_to_fla ('qg', qn .* exp (aux.G), cv{:}), 'kg', la_to_fla ('kg', kg, cv{:}));
%! d.meta = struct ('chunk_size', 8, 'use_qk_l2norm_in_kernel', true, 'dtype', 'float64');
%! [ok, r] = kda_verify (d);
%! assert (ok, r.markdown);
%! d.qg = la_to_fla ('qg', q(:, :, [1 1]) .* exp (aux.G), cv{:});   % not normalised
%! [ok, r] = kda_verify (d);
%! assert (! ok && ! verify_row (r, 'qg').pass);
