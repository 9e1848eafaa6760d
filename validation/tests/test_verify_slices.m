% test_verify_slices.m -- a dump checked slice by slice of heads
% ('SliceHeads', as kda_verify does by default for a large dump) gets the
% verdict of the whole dump at once: the same rows, statuses, ratios,
% local scores, locations and heat maps (to rounding), passing and
% failing, with grouped value heads, cu_seqlens, initial and final states
% and every gradient; bfloat16 dumps from .npy files (kept single, made
% double a slice at a time) and float64 struct dumps; the options are
% checked.

%!function folder = dump_ (op, H, G, cu, bug)
%!  % a bfloat16 dump of this library's single-precision run standing for
%!  % the kernel, with planted bugs: bug = {name, step, head, factor; ...}
%!  % (1-based step and head of the FLA tensor)
%!  K = 6; V = 5; T = 70; HV = H * G; C = 16;
%!  folder = tempname ();
%!  mkdir (folder);
%!  randn ('seed', 7); rand ('seed', 7);
%!  in.q = randn (K, T, H); in.k = randn (K, T, H); in.k = in.k ./ sqrt (sum (in.k .^ 2, 1));
%!  in.v = randn (V, T, HV);  in.beta = rand (T, HV);  in.do = randn (V, T, HV);
%!  if (strcmp (op, 'kda'))
%!    in.g = -rand (K, T, HV) / 2;
%!  else
%!    in.g = -rand (T, HV) / 2;
%!  end
%!  N = max (1, numel (cu) - 1);
%!  in.h0 = randn (K, V, HV, N);  in.dht = randn (K, V, HV, N);
%!  names = fieldnames (in);
%!  for i = 1:numel (names)         % stored as the kernel reads them, bf16 (states fp32)
%!    n = names{i};
%!    f = fullfile (folder, [n '.npy']);
%!    fmt = 'bfloat16';
%!    if (any (strcmp (n, {'h0', 'dht'})))
%!      fmt = 'float32';
%!    end
%!    la_save (f, la_to_fla (n, in.(n), 'Op', op), fmt);
%!    in.(n) = la_from_fla (n, la_load (f).(n), 'Op', op);
%!  end
%!  opt = {'ChunkSize', C, 'InitialState', in.h0};
%!  if (~isempty (cu))
%!    opt = [opt, {'CuSeqlens', cu}];
%!  end
%!  x = {in.q, in.k, in.v, in.g, in.beta};
%!  [out.o, out.ht] = feval ([op '_chunk'], x{:}, opt{:});
%!  g = cell (1, 6);
%!  [g{:}] = feval ([op '_chunk_bwd'], x{:}, in.do, in.dht, opt{:});
%!  [out.dq, out.dk, out.dv, out.dg, out.dbeta, out.dh0] = deal (g{:});
%!  names = fieldnames (out);
%!  for i = 1:numel (names)
%!    n = names{i};
%!    y = la_to_fla (n, out.(n), 'Op', op);
%!    for b = 1:rows (bug)
%!      if (strcmp (bug{b, 1}, n))
%!        y(1, bug{b, 2}, bug{b, 3}, :) = y(1, bug{b, 2}, bug{b, 3}, :) * bug{b, 4};
%!      end
%!    end
%!    fmt = 'bfloat16';
%!    if (any (strcmp (n, {'ht', 'dh0'})))
%!      fmt = 'float32';
%!    end
%!    la_save (fullfile (folder, [n '.npy']), y, fmt);
%!  end
%!  meta = sprintf ('{"dtype": "bfloat16", "chunk_size": %d', C);
%!  if (~isempty (cu))
%!    meta = [meta sprintf(', "cu_seqlens": [%s]', strjoin (arrayfun (@num2str, cu, 'UniformOutput', false), ', '))];
%!  end
%!  fid = fopen (fullfile (folder, 'meta.json'), 'w');
%!  fprintf (fid, '%s}', meta);
%!  fclose (fid);
%!endfunction

%!function same_ (a, b)
%!  % two reports of one dump agree to rounding
%!  assert (a.verdict, b.verdict);
%!  assert ({a.rows.name}, {b.rows.name});
%!  assert ({a.rows.status}, {b.rows.status});
%!  assert ({a.rows.where}, {b.rows.where});
%!  assert ([a.rows.ratio], [b.rows.ratio], -1e-10);
%!  assert ([a.rows.cosine], [b.rows.cosine], -1e-10);
%!  assert ([a.rows.max_abs], [b.rows.max_abs], -1e-10);
%!  assert ([a.rows.expected], [b.rows.expected], -1e-6);
%!  assert ([a.rows.local], [b.rows.local], -1e-6);
%!  for i = 1:numel (a.rows)
%!    assert (a.rows(i).shape, b.rows(i).shape);
%!    assert (a.rows(i).err_map, b.rows(i).err_map, -1e-9);
%!  end
%!endfunction

%!test
%! % a correct bf16 KDA dump, grouped value heads, three sequences: one
%! % head per slice and all at once agree, and it passes
%! d = dump_ ('kda', 3, 2, [0 20 45 70], {});
%! [ok1, r1] = kda_verify (d, 'ReportDir', '', 'SliceHeads', 1);
%! [ok3, r3] = kda_verify (d, 'ReportDir', '', 'SliceHeads', 3, 'Quiet', true);
%! assert (ok1 && ok3);
%! assert (r1.verdict, 'pass');
%! assert (all (ismember ({'o', 'ht', 'dq', 'dk', 'dv', 'dg', 'dbeta', 'dh0'}, {r1.rows.name})));
%! same_ (r1, r3);
%! assert (r1.rows(strcmp ({r1.rows.name}, 'o')).shape, [1 70 6 5]);
%! [~, r2] = kda_verify (d, 'ReportDir', '', 'SliceHeads', 2);   % slices of unequal size
%! same_ (r1, r2);

%!test
%! % planted bugs in one value head of o and one query/key head of dk: the
%! % same failing rows, locations (first and last wrong step, failing
%! % heads, local windows) and heat maps, sliced or not
%! bug = {'o', 40, 4, 1.5; 'dk', 12, 2, 0.7; 'ht', 1, 5, 1.01};
%! d = dump_ ('kda', 3, 2, [0 20 45 70], bug);
%! [ok1, r1] = kda_verify (d, 'ReportDir', '', 'SliceHeads', 1);
%! [ok3, r3] = kda_verify (d, 'ReportDir', '', 'SliceHeads', 3);
%! assert (~ok1 && ~ok3);
%! same_ (r1, r3);
%! o = r1.rows(strcmp ({r1.rows.name}, 'o'));
%! assert (o.status, 'fail');
%! assert (~isempty (strfind (o.where, 'sequence 1, chunk 1, step 3')), o.where);
%! assert (~isempty (strfind (o.where, 'head 3')), o.where);
%! dk = r1.rows(strcmp ({r1.rows.name}, 'dk'));
%! assert (~strcmp (dk.status, 'pass'));
%! assert (~isempty (strfind (dk.where, 'head 1')), dk.where);
%! assert (~isempty (strfind (dk.where, 'last')), dk.where);
%! assert (~isempty (o.err_map));

%!test
%! % GDN (a scalar gate per step and head), one sequence per batch entry
%! d = dump_ ('gdn', 2, 2, [], {'dv', 33, 3, 1.3});
%! [ok1, r1] = gdn_verify (d, 'ReportDir', '', 'SliceHeads', 1);
%! [ok2, r2] = gdn_verify (d, 'ReportDir', '', 'SliceHeads', 2);
%! same_ (r1, r2);
%! dv = r1.rows(strcmp ({r1.rows.name}, 'dv'));
%! assert (~strcmp (dv.status, 'pass'));
%! assert (~isempty (strfind (dv.where, 'head 2')), dv.where);

%!test
%! % a float64 struct dump with per-chunk states h (the forward's
%! % intermediates) and several batch entries: sliced as well
%! K = 5; V = 4; T = 40; H = 2; HV = 4;
%! randn ('seed', 3); rand ('seed', 3);
%! q = randn (K, T, H, 2); k = randn (K, T, H, 2); k = k ./ sqrt (sum (k .^ 2, 1));
%! v = randn (V, T, HV, 2); g = -rand (K, T, HV, 2) / 2; beta = rand (T, HV, 2);
%! [o, S, aux] = kda_chunk (q, k, v, g, beta, 'ChunkSize', 16, 'Intermediates', true);
%! s = struct ('q', la_to_fla ('q', q), 'k', la_to_fla ('k', k), 'v', la_to_fla ('v', v), ...
%!             'g', la_to_fla ('g', g), 'beta', la_to_fla ('beta', beta), ...
%!             'o', la_to_fla ('o', o), 'ht', la_to_fla ('ht', S), ...
%!             'h', la_to_fla ('h', aux.h, 'Batch', 2), ...
%!             'meta', struct ('dtype', 'float64', 'chunk_size', 16));
%! s.h(2, 2, 3, :, :) = s.h(2, 2, 3, :, :) * 1.1;        % a wrong state: batch entry 1, chunk 1, head 2
%! [ok1, r1] = kda_verify (s, 'SliceHeads', 1);
%! [ok2, r2] = kda_verify (s);
%! same_ (r1, r2);
%! h = r1.rows(strcmp ({r1.rows.name}, 'h'));
%! assert (h.status, 'fail');
%! assert (~isempty (strfind (h.where, 'sequence 1, chunk 1')), h.where);
%! assert (~isempty (strfind (h.where, 'failing heads: 2')), h.where);

%!error <SliceHeads> kda_verify (struct (), 'SliceHeads', 0)
%!error <Quiet> gdn_verify (struct (), 'Quiet', 'yes')
%!error <unknown option 'Slices'> kda_verify (struct (), 'Slices', 2)
%!error <option name, value pairs> kda_verify (struct (), 'Quiet')
%!error <ReportDir> kda_verify (struct (), 'ReportDir', 3)
