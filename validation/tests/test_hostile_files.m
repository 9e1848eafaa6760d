% test_hostile_files.m -- la_load and kda_verify against hostile files.
%
% Every file is made here, small (the zip bomb is deflated at test time
% from zeros): headers that crashed Octave (10,000 commas, JSON nested
% 20,000 deep), zip bombs and overlapping members, special files (FIFO,
% a link to /dev/zero), values of the wrong JSON type, and the files numpy
% or safetensors refuse or read otherwise (duplicate keys, hidden
% literals, colliding members, overlapping or fractional offsets).  Each
% must give 'la:badFile' whose text starts with the public function's name
% and names the file, quickly; none may crash, hang or allocate the
% claimed size.

%!function d = tmp_ ()
%!  d = tempname ();  mkdir (d);
%!endfunction

%!function put_ (file, bytes)
%!  fid = fopen (file, 'w');  fwrite (fid, bytes, 'uint8');  fclose (fid);
%!endfunction

%!function bad_ (file, bytes, pattern, fname)
%!  % write bytes (unless empty), then the reader must refuse with pattern
%!  if (nargin < 4)
%!    fname = 'la_load';
%!  end
%!  if (~isempty (bytes))
%!    put_ (file, bytes);
%!  end
%!  try
%!    if (strcmp (fname, 'la_load'))
%!      la_load (file);
%!    else
%!      kda_verify (fileparts (file));
%!    end
%!    error ('no error for %s', file);
%!  catch err
%!    assert (err.identifier, 'la:badFile', err.message);
%!    assert (strncmp (err.message, [fname ': '], numel (fname) + 2), err.message);
%!    assert (~isempty (strfind (err.message, file)), err.message);
%!    assert (~isempty (regexp (err.message, pattern, 'once')), ...
%!            sprintf ('%s: "%s" does not say %s', file, err.message, pattern));
%!  end
%!endfunction

%!function b = npy_ (header, data, major)
%!  % a .npy file with this header text (padded as numpy pads) and data
%!  if (nargin < 3)
%!    major = 1;
%!  end
%!  header = [header, repmat(' ', 1, mod (-(numel (header) + 11 + 2 * (major > 1)), 64)), char(10)];
%!  if (major == 1)
%!    len = typecast (uint16 (numel (header)), 'uint8');
%!  else
%!    len = typecast (uint32 (numel (header)), 'uint8');
%!  end
%!  b = [uint8([147 double('NUMPY') major 0]), len, uint8(header), uint8(data)];
%!endfunction

%!function b = st_ (json, data)
%!  b = [typecast(uint64 (numel (json)), 'uint8'), uint8(json), uint8(data)];
%!endfunction

%!function b = le_ (v, n)
%!  b = uint8 (mod (floor (v ./ 256 .^ (0:n - 1)), 256));
%!endfunction

%!function z = zip_ (names, datas, method, claims, locs)
%!  % a zip of members names{i} with bytes datas{i} (already deflated when
%!  % method is 8); claims(i): the uncompressed size the directory states;
%!  % locs: directory entries pointing at these local headers (default: own)
%!  body = {};  central = {};  offsets = zeros (1, numel (names));  off = 0;
%!  for i = 1:numel (names)
%!    n = uint8 (names{i});  d = datas{i};
%!    common = [le_(0, 2), le_(method, 2), le_(0, 2), le_(33, 2), le_(0, 4), ...
%!              le_(numel (d), 4), le_(claims(i), 4), le_(numel (n), 2), le_(0, 2)];
%!    body{end + 1} = [le_(67324752, 4), le_(20, 2), common, n, d];
%!    offsets(i) = off;  off = off + numel (body{end});
%!  end
%!  if (nargin < 5)
%!    locs = 1:numel (names);
%!  end
%!  for j = 1:numel (locs)
%!    i = locs(j);  n = uint8 (names{i});
%!    common = [le_(0, 2), le_(method, 2), le_(0, 2), le_(33, 2), le_(0, 4), ...
%!              le_(numel (datas{i}), 4), le_(claims(i), 4), le_(numel (n), 2), le_(0, 2)];
%!    central{end + 1} = [le_(33639248, 4), le_(20, 2), le_(20, 2), common, ...
%!                        le_(0, 2), le_(0, 2), le_(0, 2), le_(0, 4), le_(offsets(i), 4), n];
%!  end
%!  cd = [central{:}];
%!  z = [body{:}, cd, le_(101010256, 4), le_(0, 4), le_(numel (locs), 2), le_(numel (locs), 2), ...
%!       le_(numel (cd), 4), le_(off, 4), le_(0, 2)];
%!endfunction

%!test
%! % .npy headers that crashed Octave or hide the array's layout
%! t = tmp_ ();  d8 = zeros (1, 8, 'uint8');
%! commas = ['{''descr'': ''<f8'', ''fortran_order'': False, ''shape'': (1' repmat(',', 1, 10000) '), }'];
%! tic;  bad_ (fullfile (t, 'commas.npy'), npy_ (commas, d8, 2), 'longer than numpy reads');
%! many = ['{''descr'': ''<f8'', ''fortran_order'': False, ''shape'': (' repmat('1, ', 1, 3000) '), }'];
%! bad_ (fullfile (t, 'dims.npy'), npy_ (many, d8, 2), 'more than 64 dimensions');
%! huge = ['{''descr'': ''<f8'', ''fortran_order'': False, ''shape'': (' repmat('1, ', 1, 200000) '), }'];
%! bad_ (fullfile (t, 'dims200k.npy'), npy_ (huge, d8, 2), 'longer than numpy reads');
%! assert (toc < 20);
%! bad_ (fullfile (t, 'utf.npy'), npy_ (['{''descr'': ''<f8' char(200) ''', ''fortran_order'': False, ''shape'': (1,), }'], d8), 'not ASCII');
%! bad_ (fullfile (t, 'huge0.npy'), npy_ ('{''descr'': ''<f8'', ''fortran_order'': False, ''shape'': (0, 1152921504606846976), }', []), 'bad shape');

%!test
%! % .npy headers numpy refuses or reads otherwise: refused
%! t = tmp_ ();  d = zeros (1, 48, 'uint8');
%! h = @(s) npy_ (s, d);
%! bad_ (fullfile (t, 'dupf.npy'), h ('{''descr'': ''<f8'', ''fortran_order'': False, ''fortran_order'': True, ''shape'': (2, 3), }'), 'twice');
%! bad_ (fullfile (t, 'dups.npy'), h ('{''descr'': ''<f8'', ''fortran_order'': False, ''shape'': (2, 3), ''shape'': (3, 2), }'), 'twice');
%! bad_ (fullfile (t, 'dupd.npy'), h ('{''descr'': ''<i8'', ''descr'': ''<f8'', ''fortran_order'': False, ''shape'': (2, 3), }'), 'twice');
%! bad_ (fullfile (t, 'hidden.npy'), h ('{''descr'': ''<f8'', ''x'': "''fortran_order'': True", ''fortran_order'': False, ''shape'': (2, 3), }'), 'numpy reads only');
%! bad_ (fullfile (t, 'int.npy'), h ('{''descr'': ''<f8'', ''fortran_order'': False, ''shape'': (6), }'), 'not a tuple');
%! bad_ (fullfile (t, 'none.npy'), h ('{''descr'': ''<f8'', ''fortran_order'': False, ''shape'': None, }'), 'not a tuple');
%! bad_ (fullfile (t, 'lit.npy'), h ('{''descr'': ''<f8'', ''fortran_order'': Flase, ''shape'': (2, 3), }'), 'True or False');
%! bad_ (fullfile (t, 'lead0.npy'), h ('{''descr'': ''<f8'', ''fortran_order'': False, ''shape'': (02, 3), }'), 'not an integer');
%! bad_ (fullfile (t, 'struct.npy'), h ('{''descr'': [(''a'', ''<f8'')], ''fortran_order'': False, ''shape'': (6,), }'), 'malformed|not a string');
%! bad_ (fullfile (t, 'bf.npy'), h ('{''descr'': ''<bfloat16x'', ''fortran_order'': False, ''shape'': (24,), }'), 'unsupported descr');
%! bad_ (fullfile (t, 'trail.npy'), h ('{''descr'': ''<f8'', ''fortran_order'': False, ''shape'': (2, 3), } x'), 'malformed');
%! % numpy's own spellings still read: no trailing comma, double quotes, any order
%! f = fullfile (t, 'ok.npy');
%! put_ (f, h ('{"shape": (2, 3), "fortran_order": True, "descr": "<f8"}'));
%! s = la_load (f);  assert (size (s.ok), [2 3]);

%!test
%! % safetensors headers: nesting, types, offsets, dtypes, duplicates
%! t = tmp_ ();  d = zeros (1, 8, 'uint8');
%! e = @(body) ['{"x":{' body '}}'];
%! deep = [repmat('[', 1, 20000), repmat(']', 1, 20000)];
%! tic;  bad_ (fullfile (t, 'deep.safetensors'), st_ (['{"x":' deep '}'], d), 'nested deeper than 64');  assert (toc < 5);
%! bad_ (fullfile (t, 'dtl.safetensors'), st_ (e ('"dtype":["F32"],"shape":[2],"data_offsets":[0,8]'), d), 'not supported');
%! bad_ (fullfile (t, 'offs.safetensors'), st_ (e ('"dtype":"F32","shape":[2],"data_offsets":["0","8"]'), d), 'not two integers');
%! bad_ (fullfile (t, 'frac.safetensors'), st_ (e ('"dtype":"U8","shape":[6],"data_offsets":[0.5,6.5]'), d), 'not two integers');
%! bad_ (fullfile (t, 'shobj.safetensors'), st_ (e ('"dtype":"F32","shape":{"a":2},"data_offsets":[0,8]'), d), 'shape is not a list');
%! bad_ (fullfile (t, 'shbool.safetensors'), st_ (e ('"dtype":"F32","shape":[true,true],"data_offsets":[0,8]'), d), 'shape is not a list');
%! bad_ (fullfile (t, 'shnull.safetensors'), st_ (e ('"dtype":"F32","shape":null,"data_offsets":[0,8]'), d), 'shape is not a list');
%! bad_ (fullfile (t, 'bf.safetensors'), st_ (e ('"dtype":"bfloat16","shape":[4],"data_offsets":[0,8]'), d), 'not supported');
%! bad_ (fullfile (t, 'dup.safetensors'), st_ ('{"x":{"dtype":"U8","shape":[8],"data_offsets":[0,8]},"x":{"dtype":"U8","shape":[8],"data_offsets":[0,8]}}', d), 'duplicate key');
%! bad_ (fullfile (t, 'over.safetensors'), st_ ('{"a":{"dtype":"U8","shape":[6],"data_offsets":[0,6]},"b":{"dtype":"U8","shape":[6],"data_offsets":[2,8]}}', d), 'overlap');
%! bad_ (fullfile (t, 'gap.safetensors'), st_ ('{"a":{"dtype":"U8","shape":[4],"data_offsets":[4,8]}}', d), 'gap');
%! bad_ (fullfile (t, 'left.safetensors'), st_ ('{"a":{"dtype":"U8","shape":[4],"data_offsets":[0,4]}}', d), 'end at byte 4');
%! bad_ (fullfile (t, 'meta.safetensors'), st_ ('{"__metadata__":{"a":1}}', []), '__metadata__');
%! bad_ (fullfile (t, 'start.safetensors'), st_ (' {}', []), 'start with');
%! bad_ (fullfile (t, 'utf8.safetensors'), st_ (['{"a' char(255) '":{"dtype":"U8","shape":[8],"data_offsets":[0,8]}}'], d), 'UTF-8');

%!test
%! % .npz: zip bombs, overlapping members, claims, collisions
%! t = tmp_ ();
%! a = la_save (fullfile (t, 'a.npy'), 1:4);
%! fid = fopen (a);  npy = fread (fid, Inf, 'uint8=>uint8')';  fclose (fid);
%! % the bomb: 50 MB of zeros deflated by la_save to ~50 KB, its raw stream
%! % cut from the archive (one member: local header at 0)
%! zf = la_save (fullfile (t, 'zeros.npz'), struct ('q', zeros (5e7, 1, 'uint8')), 'Compress', true);
%! fid = fopen (zf);  z = fread (fid, Inf, 'uint8=>uint8')';  fclose (fid);  delete (zf);
%! u = @(p, n) sum (double (z(p + 1:p + n)) .* 256 .^ (0:n - 1));
%! bomb = z(31 + u(26, 2) + u(28, 2):30 + u(26, 2) + u(28, 2) + u(18, 4));
%! assert (numel (bomb) < 1e5);
%! tic;
%! bad_ (fullfile (t, 'bomb.npz'), zip_ ({'q.npy'}, {bomb}, 8, 1000), 'more than the 1000 bytes claimed');
%! bad_ (fullfile (t, 'claim.npz'), zip_ ({'q.npy'}, {bomb}, 8, 4e9), 'more than deflate can give');
%! bad_ (fullfile (t, 'many.npz'), zip_ ({'q.npy'}, {npy}, 0, numel (npy), ones (1, 5000)), 'overlap|twice|more than');
%! bad_ (fullfile (t, 'same.npz'), zip_ ({'q.npy', 'q.npy'}, {npy, npy}, 0, [1 1] * numel (npy)), 'twice');
%! bad_ (fullfile (t, 'coll.npz'), zip_ ({'q.npy', 'q'}, {npy, npy}, 0, [1 1] * numel (npy)), 'both array');
%! bad_ (fullfile (t, 'store.npz'), zip_ ({'q.npy'}, {npy}, 0, 10 * numel (npy)), 'stored with');
%! assert (toc < 30);
%! % zip's CRC is checked (zip_ writes 0)
%! bad_ (fullfile (t, 'crc.npz'), zip_ ({'q.npy'}, {npy}, 0, numel (npy)), 'CRC');
%! % names that differ only in characters Octave names cannot hold both read
%! f = la_save (fullfile (t, 'n.npz'), struct ('a-b', 1, 'a_b', 2, 'do', 3));
%! s = la_load (f);
%! assert (s.("a-b"), 1);  assert (s.("a_b"), 2);  assert (s.("do"), 3);

%!test
%! % special files: refused before opening, no hang
%! t = tmp_ ();
%! [st, out] = system (sprintf ('mkfifo %s/q.npy && ln -s /dev/zero %s/z.npy', t, t));
%! assert (st, 0, out);
%! tic;
%! bad_ (fullfile (t, 'q.npy'), [], 'FIFO');
%! bad_ (fullfile (t, 'z.npy'), [], 'device');
%! bad_ (fullfile (t, 'q.npy'), [], 'FIFO', 'kda_verify');
%! u = tmp_ ();
%! system (sprintf ('mkfifo %s/meta.json', u));
%! bad_ (fullfile (u, 'meta.json'), [], 'FIFO', 'kda_verify');
%! assert (toc < 10);

%!test
%! % meta.json: nesting, not an object, wrong value types, duplicates
%! t = tmp_ ();  f = fullfile (t, 'meta.json');
%! bad_ (f, uint8 (['{"a":' repmat('[', 1, 20000) repmat(']', 1, 20000) '}']), 'nested deeper', 'kda_verify');
%! bad_ (f, uint8 ('[1, 2]'), 'one JSON object', 'kda_verify');
%! bad_ (f, uint8 ('"x"'), 'one JSON object', 'kda_verify');
%! bad_ (f, uint8 ('{"use_qk_l2norm_in_kernel": "yes"}'), 'true or false', 'kda_verify');
%! bad_ (f, uint8 ('{"chunk_size": [64]}'), 'must be a number', 'kda_verify');
%! bad_ (f, uint8 ('{"dtype": 16}'), 'string', 'kda_verify');
%! bad_ (f, uint8 ('{"chunk_size": 64, "chunk_size": 32}'), 'duplicate key', 'kda_verify');
%! bad_ (f, uint8 ('{"scale": 1e}'), 'malformed number', 'kda_verify');

%!test
%! % la_save: a failed write leaves neither the file nor a temporary
%! t = tmp_ ();
%! try
%!   la_save (fullfile (t, 'x.npz'), struct ('a', 1, 'b', {{1}}));
%! catch err
%!   assert (err.identifier, 'la:badFile');
%! end
%! try
%!   la_save (fullfile (t, 'y.npy'), single (1:3), 'float16');
%! catch err
%!   assert (err.identifier, 'la:badFile');
%! end
%! assert (numel (dir (t)), 2);     % . and ..

%!function b = mat_ (varargin)
%!  % a level-5 MAT-file: the 128-byte header, then the elements given
%!  text = uint8 ('MATLAB 5.0 MAT-file, written by test_hostile_files');
%!  b = [text, repmat(uint8(' '), 1, 116 - numel (text)), zeros(1, 8, 'uint8'), le_(256, 2), uint8('IM'), varargin{:}];
%!endfunction

%!function e = el_ (type, data, nbytes)
%!  % a data element: tag (nbytes as declared, default the data's) and data padded to 8
%!  if (nargin < 3)
%!    nbytes = numel (data);
%!  end
%!  e = [le_(type, 4), le_(nbytes, 4), uint8(data), zeros(1, mod (-numel (data), 8), 'uint8')];
%!endfunction

%!function m = matrix_ (cls, dims, body)
%!  % an miMATRIX element of class cls named "x": flags, dimensions, name, body
%!  d = cell2mat (arrayfun (@(n) le_(n, 4), dims, 'UniformOutput', false));
%!  m = [el_(6, [le_(cls, 4), le_(0, 4)]), el_(5, d), el_(1, uint8 ('x')), body];
%!  m = el_(14, m);
%!endfunction

%!function z = zlib_ (bytes)
%!  % a zlib stream of bytes (header, deflate, Adler-32), by python3's zlib
%!  f = tempname ();  put_ (f, bytes);
%!  [st, out] = system (sprintf ('/usr/bin/python3 -c ''import sys, zlib; b = open (sys.argv[1], "rb").read (); open (sys.argv[1], "wb").write (zlib.compress (b))'' %s 2>&1', f));
%!  assert (st, 0, out);
%!  fid = fopen (f);  z = fread (fid, Inf, 'uint8=>uint8')';  fclose (fid);  delete (f);
%!endfunction

%!test
%! % .mat: the structure and every size checked before load reads the file
%! t = tmp_ ();
%! x = matrix_ (6, [1 2], el_(9, typecast ([1 2], 'uint8')));
%! put_ (fullfile (t, 'ok.mat'), mat_ (x));          % the writer itself is right
%! s = la_load (fullfile (t, 'ok.mat'));  assert (s.x, [1 2]);
%! put_ (fullfile (t, 'okz.mat'), mat_ (el_(15, zlib_ (x))));
%! s = la_load (fullfile (t, 'okz.mat'));  assert (s.x, [1 2]);
%! tic;
%! big = matrix_ (6, [1e5 1e5], el_(9, typecast (1, 'uint8')));
%! bad_ (fullfile (t, 'dims.mat'), mat_ (big), 'dimensions need 1e\+10 values|dimensions need 10000000000 values');
%! bad_ (fullfile (t, 'dimsz.mat'), mat_ (el_(15, zlib_ (big))), 'dimensions need');
%! bad_ (fullfile (t, 'more.mat'), mat_ (matrix_ (6, [1 1], el_(9, zeros (1, 64, 'uint8')))), 'holds 8 values, its dimensions need 1');
%! bad_ (fullfile (t, 'cell.mat'), mat_ (matrix_ (1, [3e4 3e4], [])), 'cell''s dimensions need');
%! bad_ (fullfile (t, 'neg.mat'), mat_ (matrix_ (6, [-1 2], el_(9, []))), 'negative dimension');
%! bad_ (fullfile (t, 'elem.mat'), mat_ (matrix_ (6, [1 1], el_(9, typecast (1, 'uint8'), 4096))), 'runs past the end of its matrix');
%! bad_ (fullfile (t, 'cut.mat'), mat_ (x(1:end - 8)), 'truncated');
%! bad_ (fullfile (t, 'cutz.mat'), mat_ (el_(15, zlib_ (x), 4096)), 'truncated');
%! z = zlib_ (x);
%! bad_ (fullfile (t, 'cutzs.mat'), mat_ ([le_(15, 4), le_(numel (z) - 6, 4), z(1:end - 6)]), 'cut short');
%! % the claim bomb: a matrix claiming 4e9 bytes from a stream of a few hundred
%! bad_ (fullfile (t, 'claim.mat'), mat_ (el_(15, zlib_ ([le_(14, 4), le_(4e9, 4), zeros(1, 1000, 'uint8')]))), ...
%!       'claims 4000000008 bytes from [0-9]+, more than deflate can give');
%! bad_ (fullfile (t, 'short.mat'), uint8 ('MATLAB 5.0 MAT-file, cut'), 'truncated');
%! bad_ (fullfile (t, 'junk.mat'), uint8 ([1:255, 0:255]), 'not a level-5 MAT-file');
%! bad_ (fullfile (t, 'top.mat'), mat_ (el_(9, zeros (1, 8, 'uint8'))), 'type 9 at the top level');
%! assert (toc < 10);
%! % files of other MAT formats: what they are
%! a = magic (3);
%! save ('-v4', fullfile (t, 'v4.mat'), 'a');  bad_ (fullfile (t, 'v4.mat'), [], 'version 4 MAT-file');
%! save ('-text', fullfile (t, 'txt.mat'), 'a');  bad_ (fullfile (t, 'txt.mat'), [], 'a text file');
%! save ('-hdf5', fullfile (t, 'h5.mat'), 'a');  bad_ (fullfile (t, 'h5.mat'), [], 'an HDF5 file');
%! % MATLAB's v7.3: a 512-byte user block (its text header) before the HDF5 file
%! fid = fopen (fullfile (t, 'h5.mat'));  h5 = fread (fid, Inf, 'uint8=>uint8')';  fclose (fid);
%! head = uint8 ('MATLAB 7.3 MAT-file, Platform: GLNXA64, Created on: Thu Nov 26 2026 HDF5 schema 1.00 .');
%! v73 = [head, repmat(uint8(' '), 1, 116 - numel (head)), zeros(1, 8, 'uint8'), le_(512, 2), uint8('IM'), zeros(1, 384, 'uint8'), h5];
%! bad_ (fullfile (t, 'v73.mat'), v73, 'MAT-file v7.3 \(HDF5\)');

%!test
%! % .mat zlib bomb: a variable of 56 bytes whose stream inflates to 5 GiB
%! % (5 MB on disk, written by python3's zlib): refused at the claim
%! t = tmp_ ();  f = fullfile (t, 'bomb.mat');
%! here = fileparts (which ('test_hostile_files'));
%! if (isempty (here))
%!   here = fullfile (pwd (), 'tests');
%! end
%! [st, out] = system (sprintf ('/usr/bin/python3 "%s" %s 5 2>&1', fullfile (here, 'python', 'write_mat_bomb.py'), f));
%! assert (st, 0, out);
%! tic;  bad_ (f, [], 'inflates to more than the 64 bytes its matrix claims');  assert (toc < 1);
%! % a dump holding it: kda_verify refuses it the same way
%! tic;  bad_ (f, [], 'inflates to more than the 64 bytes', 'kda_verify');  assert (toc < 2);

%!test
%! % .mat files of real writers still load with their values: Octave's
%! % save -v7 and -v6, scipy's savemat compressed and not
%! t = tmp_ ();
%! s = struct ('q', reshape (single (1:24), 2, 3, 4), 'i', int64 ([-2; 5]), 'b', [true; false], ...
%!             'c', {{1, 'ab', {}}}, 'st', struct ('a', {1, 2}), 'sp', sparse ([1 0; 0 2]), ...
%!             'z', 1 + 2i, 'e', zeros (0, 3), 'ch', 'abc', 'u', uint16 (7));
%! for v = {'-v7', '-v6'}
%!   f = fullfile (t, ['o' v{1} '.mat']);
%!   save (v{1}, f, '-struct', 's');
%!   assert (la_load (f), s);
%! end
%! py = ['import sys, numpy as np, scipy.io as sio, scipy.sparse as sp; ' ...
%!       'd = {"a": np.arange(12.).reshape(3, 4), "i": np.array([[1, -2]], dtype=np.int32), ' ...
%!       '"s": "text", "sp": sp.csc_matrix(np.eye(3)), "st": {"f": 1.5}}; ' ...
%!       'sio.savemat(sys.argv[1] + "/z.mat", d, do_compression=True); ' ...
%!       'sio.savemat(sys.argv[1] + "/u.mat", d, do_compression=False)'];
%! [st, out] = system (sprintf ('/usr/bin/python3 -c ''%s'' %s 2>&1', py, t));
%! assert (st, 0, out);
%! for f = {'z.mat', 'u.mat'}
%!   r = la_load (fullfile (t, f{1}));
%!   assert (r.a, reshape (0:11, 4, 3)');  assert (r.i, int32 ([1 -2]));  assert (r.s, 'text');
%!   assert (r.sp, speye (3));  assert (r.st.f, 1.5);
%! end
