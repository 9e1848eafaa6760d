% test_tensor_files.m -- la_load / la_save against files of real writers.
%
% validation/tests/python/write_tensor_files.py (Debian's python3-numpy and
% python3-scipy; make deps installs them) writes .npy (versions 1-3, C and
% Fortran order, both byte orders, float16, bfloat16 as '<V2', int32/64,
% bool), .npz (savez: stored, savez_compressed: deflated), scipy's savemat
% and a hand-built .safetensors of every dtype.  Every array is
% a[i, j, k] = (12 i + 4 j + k) / 2 - 3 ([2, 3, 4]) or a[i] = i - 2 ([5]).
% Then: la_save's files read back by numpy, and damaged files give
% 'la:badFile' naming the file.

%!function folder = files_ ()
%!  % write the files once per Octave session
%!  persistent dir_written;
%!  if (isempty (dir_written))
%!    dir_written = tempname ();
%!    here = fileparts (which ('test_tensor_files'));
%!    cmd = sprintf ('/usr/bin/python3 "%s" %s 2>&1', ...
%!                   fullfile (here, 'python', 'write_tensor_files.py'), dir_written);
%!    [status, out] = system (cmd);
%!    assert (status, 0, out);
%!  end
%!  folder = dir_written;
%!endfunction

%!function a = expected_ ()
%!  [k, j, i] = ndgrid (0:3, 0:2, 0:1);
%!  a = permute ((12 * i + 4 * j + k) / 2 - 3, [3 2 1]);
%!endfunction

%!function check_bad_ (file, bytes, pattern)
%!  % write bytes to file; la_load must raise la:badFile naming file and pattern
%!  fid = fopen (file, 'w');  fwrite (fid, bytes, 'uint8');  fclose (fid);
%!  try
%!    la_load (file);
%!    error ('no error for %s', file);
%!  catch err
%!    assert (err.identifier, 'la:badFile', err.message);
%!    assert (~isempty (strfind (err.message, file)), err.message);
%!    assert (~isempty (regexp (err.message, pattern, 'once')), err.message);
%!  end
%!endfunction

%!function b = bytes_ (file)
%!  fid = fopen (file, 'r');  b = fread (fid, Inf, 'uint8=>uint8')';  fclose (fid);
%!endfunction

%!test
%! % .npy: C order, Fortran order, big-endian; classes and dtypes kept
%! d = files_ ();  a = expected_ ();
%! [s, dt] = la_load (fullfile (d, 'f64.npy'));
%! assert (s.f64, a);  assert (dt.f64, 'float64');
%! s = la_load (fullfile (d, 'f64_fortran.npy'));  assert (s.f64_fortran, a);
%! [s, dt] = la_load (fullfile (d, 'f32_big.npy'));
%! assert (s.f32_big, single (a));  assert (dt.f32_big, 'float32');
%! s = la_load (fullfile (d, 'v2.npy'));  assert (s.v2, single (a));
%! s = la_load (fullfile (d, 'v3.npy'));  assert (s.v3, single (a));

%!test
%! % float16 and bfloat16 come back as single, exactly, with the dtype recorded
%! d = files_ ();  a = expected_ ();
%! [s, dt] = la_load (fullfile (d, 'f16.npy'));
%! assert (s.f16, single (a));  assert (dt.f16, 'float16');
%! [s, dt] = la_load (fullfile (d, 'bf16.npy'));
%! assert (s.bf16, single (a));  assert (dt.bf16, 'bfloat16');
%! s = la_load (fullfile (d, 'f16.npy'), 'double');  assert (s.f16, a);

%!test
%! % integers and bool keep their class
%! d = files_ ();
%! s = la_load (fullfile (d, 'i32.npy'));  assert (s.i32, int32 ((-2:2)'));
%! s = la_load (fullfile (d, 'i64_big.npy'));  assert (s.i64_big, int64 ((-2:2)'));
%! s = la_load (fullfile (d, 'bool.npy'));  assert (s.bool, (-2:2)' > 0);

%!test
%! % .npz stored (savez) and deflated (savez_compressed); scipy's savemat
%! d = files_ ();  a = expected_ ();
%! s = la_load (fullfile (d, 'stored.npz'));
%! assert (s.a, a);  assert (s.i, int64 ((-2:2)'));
%! s = la_load (fullfile (d, 'deflated.npz'));
%! assert (s.a, single (a));  assert (s.b, (-2:2)' > 0);
%! s = la_load (fullfile (d, 'scipy.mat'));
%! assert (s.a, a);  assert (double (s.i(:)), (-2:2)');

%!test
%! % hand-built .safetensors with every dtype
%! d = files_ ();  a = expected_ ();
%! [s, dt] = la_load (fullfile (d, 'all.safetensors'));
%! assert (s.t_F64, a);  assert (s.t_F32, single (a));  assert (s.t_F16, single (a));
%! assert (s.t_BF16, single (a));  assert (dt.t_BF16, 'bfloat16');
%! assert (s.t_I32, int32 ((-2:2)'));  assert (s.t_I64, int64 ((-2:2)'));
%! assert (s.t_BOOL, (-2:2)' > 0);
%! assert (~isfield (s, 'x__metadata__') && ~isfield (s, '__metadata__'));

%!test
%! % la_save -> numpy reads the same values (and la_load round trip)
%! d = tempname ();  mkdir (d);  a = expected_ ();
%! s = struct ('a', a, 'i', int32 ((-2:2)'), 'b', (-2:2)' > 0);
%! la_save (fullfile (d, 'o.npz'), s);
%! la_save (fullfile (d, 'o.safetensors'), s);
%! la_save (fullfile (d, 'a.npy'), single (a));
%! la_save (fullfile (d, 'h.npy'), single (a), 'bfloat16');
%! assert (la_load (fullfile (d, 'o.npz')), s);
%! assert (la_load (fullfile (d, 'o.safetensors')), s);
%! py = ['import numpy as np, sys; d = sys.argv[1]; ' ...
%!       'a = np.arange(24.).reshape(2,3,4)/2-3; z = np.load(d + "/o.npz"); ' ...
%!       'assert (z["a"] == a).all() and z["i"].dtype == np.int32 and z["b"].dtype == bool; ' ...
%!       'assert (np.load(d + "/a.npy") == a).all(); ' ...
%!       'h = np.load(d + "/h.npy"); assert h.dtype.str == "|V2" or h.dtype.str == "<V2", h.dtype.str; ' ...
%!       'assert ((h.view(np.uint16).astype(np.uint32) << 16).view(np.float32) == a).all()'];
%! [status, out] = system (sprintf ('/usr/bin/python3 -c ''%s'' %s 2>&1', py, d));
%! assert (status, 0, out);

%!test
%! % bfloat16 writing rounds to nearest even
%! d = tempname ();  mkdir (d);  f = fullfile (d, 'r.safetensors');
%! x = [1, 1 + 2^-8, 1 + 3 * 2^-8, -3, 1 + 2^-8 + 2^-20];
%! la_save (f, struct ('x', x), 'bfloat16');
%! s = la_load (f);
%! assert (double (s.x), [1, 1, 1 + 2^-6, -3, 1 + 2^-7]);

%!test
%! % truncated, mislabelled and oversized files: la:badFile naming the file
%! d = files_ ();  t = tempname ();  mkdir (t);
%! good = bytes_ (fullfile (d, 'f64.npy'));
%! check_bad_ (fullfile (t, 'cut.npy'), good(1:end - 8), 'needs 192 bytes');
%! check_bad_ (fullfile (t, 'head.npy'), good(1:40), 'truncated header');
%! check_bad_ (fullfile (t, 'extra.npy'), [good, uint8(1:8)], 'holds 200');
%! lab = strrep (char (good), '''<f8''', '''<f4''');
%! check_bad_ (fullfile (t, 'label.npy'), uint8 (lab), 'needs 96 bytes');
%! huge = strrep (char (good), '(2, 3, 4)', '(9999999999, 9)');
%! check_bad_ (fullfile (t, 'huge.npy'), uint8 (huge), 'needs');
%! check_bad_ (fullfile (t, 'obj.npy'), uint8 (strrep (char (good), '''<f8''', '''|O8''')), 'unsupported descr');
%! check_bad_ (fullfile (t, 'nothing.npy'), uint8 ('hello'), 'not a .npy');
%! z = bytes_ (fullfile (d, 'deflated.npz'));
%! check_bad_ (fullfile (t, 'cut.npz'), z(1:floor (end / 2)), 'zip');
%! zc = z;  zc(60:70) = 255 - zc(60:70);
%! check_bad_ (fullfile (t, 'crc.npz'), zc, 'cannot inflate');

%!test
%! % damaged .safetensors: header longer than the file, offsets outside, wrong sizes
%! t = tempname ();  mkdir (t);
%! hdr = @(json) [typecast(uint64 (numel (json)), 'uint8'), uint8(json)];
%! check_bad_ (fullfile (t, 'len.safetensors'), [typecast(uint64 (1e6), 'uint8'), uint8('{}')], 'header of 1000000 bytes');
%! j = '{"x":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}';
%! check_bad_ (fullfile (t, 'off.safetensors'), [hdr(j), zeros(1, 8, 'uint8')], 'outside');
%! j = '{"x":{"dtype":"F64","shape":[2],"data_offsets":[0,8]}}';
%! check_bad_ (fullfile (t, 'size.safetensors'), [hdr(j), zeros(1, 8, 'uint8')], 'need 16');
%! j = '{"x":{"dtype":"C64","shape":[1],"data_offsets":[0,8]}}';
%! check_bad_ (fullfile (t, 'type.safetensors'), [hdr(j), zeros(1, 8, 'uint8')], 'not supported');
%! check_bad_ (fullfile (t, 'json.safetensors'), hdr('{"x":'), 'header: the text ends');
%! check_bad_ (fullfile (t, 'x.mat'), uint8 ('not a mat file at all'), 'mat');

%!error id=la:badFile la_load ('/nonexistent/file.npy')
%!error <unknown extension> la_load ('x.txt')

%!test
%! % docs/verify.md's PyTorch recipe (save_file of torch tensors) with a
%! % tensor named do: read as do, values and dtypes as written
%! f = [tempname() '.safetensors'];
%! here = fileparts (which ('test_tensor_files'));
%! [status, out] = system (sprintf ('/usr/bin/python3 "%s" %s 2>&1', ...
%!                         fullfile (here, 'python', 'write_torch_safetensors.py'), f));
%! assert (status, 0, out);
%! [s, dt] = la_load (f);
%! assert (sort (fieldnames (s)), sort ({'q'; 'k'; 'o'; 'do'; 'cu_seqlens'}));
%! v = @(varargin) permute (reshape ((0:prod ([varargin{:}]) - 1) / 4 - 1, fliplr ([varargin{:}])), ...
%!                          numel (varargin):-1:1);
%! assert (s.("do"), single (2 * v (1, 8, 2, 3)));
%! assert (s.q, single (v (1, 8, 2, 4)));
%! assert (dt.q, 'bfloat16');  assert (dt.("do"), 'float32');
%! assert (s.cu_seqlens, int64 ([0; 8]));
%! delete (f);
