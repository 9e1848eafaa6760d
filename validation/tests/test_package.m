% Tests: the tensor I/O and kernel-checking functions as a user of the
% installed package calls them -- la_to_fla / la_from_fla over the table of
% FLA's names, la_save / la_load through each file format, and kda_verify /
% gdn_verify on a dump folder written with la_save (a right kernel passes, a
% wrong one fails).  Nothing here reads the repository: `make dist` ships
% this file as inst/tests/test_package.m, so `pkg test kdagdn` runs it.
% Run with  test test_package  or through validation/run_tests.m.

%!function [q, k, v, g, beta] = kda_inputs (K, V, T, H, B)
%!  q = randn (K, T, H, B);  k = randn (K, T, H, B);
%!  k = k ./ sqrt (sum (k .^ 2, 1));
%!  v = randn (V, T, H, B);  g = -rand (K, T, H, B) / 4;  beta = rand (T, H, B);
%!endfunction

%!function write_dump (folder, s, meta)
%!  % one .npy per tensor and meta.json, as a PyTorch dump writer does
%!  mkdir (folder);
%!  for f = fieldnames (s)'
%!    la_save (fullfile (folder, [f{1} '.npy']), s.(f{1}));
%!  end
%!  fid = fopen (fullfile (folder, 'meta.json'), 'w');
%!  fprintf (fid, '%s', jsonencode (meta));
%!  fclose (fid);
%!endfunction

%!test
%! % la_to_fla and la_from_fla: FLA's shape per name, and exact round trips
%! K = 4; V = 3; T = 5; H = 2; B = 2;
%! cases = {'q',    randn(K, T, H, B), {},              [B T H K];
%!          'o',    randn(V, T, H, B), {},              [B T H V];
%!          'g',    randn(K, T, H, B), {},              [B T H K];
%!          'g',    randn(T, H, B),    {'Op', 'gdn'},   [B T H];
%!          'beta', randn(T, H, B),    {},              [B T H];
%!          'h0',   randn(K, V, H, B), {},              [B H K V];
%!          'h0',   randn(K, V, H, B), {'StateVFirst', true}, [B H V K];
%!          'h',    randn(K, V, H, 6), {'Batch', 2},    [2 3 H K V];
%!          'A_log', randn(H, 1),      {},              H};
%! for i = 1:rows (cases)
%!   [name, y, opts, fla_size] = cases{i, :};
%!   x = la_to_fla (name, y, opts{:});
%!   assert (isequal (size (x, 1:numel (fla_size)), fla_size), '%s: shape', name);
%!   assert (isequal (la_from_fla (name, x, opts{:}), y), '%s: round trip', name);
%! end
%! % the index convention: x(b, t, h, k) of FLA is y(k, t, h, b)
%! y = randn (K, T, H, B);
%! x = la_to_fla ('k', y);
%! assert (x(2, 4, 1, 3), y(3, 4, 1, 2))

%!test
%! % la_save then la_load gives the arrays back, in every format
%! s = struct ('q', randn (2, 16, 3, 8), 'beta', single (rand (2, 16, 3)), ...
%!             'n', int32 ([1 2 3]));
%! for ext = {'.npy', '.npz', '.safetensors', '.mat'}
%!   f = [tempname() ext{1}];
%!   if (strcmp (ext{1}, '.npy'))
%!     la_save (f, s.q);
%!     r = la_load (f);
%!     fields = fieldnames (r);
%!     assert (numel (fields), 1)
%!     assert (r.(fields{1}), s.q, 0)
%!   else
%!     la_save (f, s);
%!     r = la_load (f);
%!     assert (r.q, s.q, 0)
%!     assert (r.beta, s.beta, 0)
%!     assert (class (r.beta), 'single')
%!     assert (double (r.n(:)'), [1 2 3])
%!   end
%!   delete (f);
%! end

%!test
%! % kda_verify on a folder of .npy files: the library's own output passes,
%! % an output with one wrong step fails and is located
%! K = 8; V = 8; T = 40; H = 2;
%! [q, k, v, g, beta] = kda_inputs (K, V, T, H, 1);
%! o = kda_chunk (q, k, v, g, beta);
%! s = struct ('q', la_to_fla ('q', q), 'k', la_to_fla ('k', k), ...
%!             'v', la_to_fla ('v', v), 'g', la_to_fla ('g', g), ...
%!             'beta', la_to_fla ('beta', beta), 'o', la_to_fla ('o', o));
%! meta = struct ('dtype', 'float64', 'chunk_size', 16);
%! good = tempname ();
%! write_dump (good, s, meta);
%! [ok, report] = kda_verify (good);
%! assert (ok)
%! assert (any (strcmp ({report.rows.name}, 'o')))
%! bad = tempname ();
%! s.o(1, 30, 2, :) = s.o(1, 30, 2, :) + 0.1;
%! write_dump (bad, s, meta);
%! [ok, report] = kda_verify (bad);
%! assert (~ok)
%! confirm_recursive_rmdir (false, 'local');
%! rmdir (good, 's');
%! rmdir (bad, 's');

%!test
%! % gdn_verify on a struct in FLA layout, right and wrong
%! K = 8; V = 6; T = 24; H = 2;
%! q = randn (K, T, H);  k = randn (K, T, H);  k = k ./ sqrt (sum (k .^ 2, 1));
%! v = randn (V, T, H);  g = -rand (T, H) / 4;  beta = rand (T, H);
%! o = gdn_chunk (q, k, v, g, beta);
%! s = struct ('q', la_to_fla ('q', q), 'k', la_to_fla ('k', k), ...
%!             'v', la_to_fla ('v', v), 'g', la_to_fla ('g', g, 'Op', 'gdn'), ...
%!             'beta', la_to_fla ('beta', beta), 'o', la_to_fla ('o', o), ...
%!             'meta', struct ('dtype', 'float64'));
%! [ok, ~] = gdn_verify (s);
%! assert (ok)
%! s.o = s.o * 1.01;
%! [ok, ~] = gdn_verify (s);
%! assert (~ok)
