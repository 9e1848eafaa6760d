% Tests: bad calls of the eight public functions, one table for all.
% Each row of bad_rows () builds a bad call from a valid one and names the
% error it must raise; every row runs on every function it applies to, with
% that function's prefix (kda: or gdn:).  The wrappers keep only a few
% error tests of their own.
% Run with  test test_bad_inputs  or through validation/run_tests.m.

%!function p = valid_call (fname)
%!  % a valid call of fname: K = 4, V = 3, T = 6, H = 1, HV = 2, B = 1
%!  p.fname = fname;
%!  p.op = fname(1:3);
%!  p.kda = strcmp (p.op, 'kda');
%!  p.bwd = ~isempty (strfind (fname, '_bwd'));
%!  p.chunk_fwd = any (strcmp (fname, {'kda_chunk', 'gdn_chunk'}));
%!  p.chunk = ~isempty (strfind (fname, '_chunk'));
%!  p.names = {'q', 'k', 'v', 'g', 'beta'};
%!  p.args = {randn(4, 6), randn(4, 6), randn(3, 6, 2), [], rand(6, 2)};
%!  if (p.kda)
%!    p.args{4} = -rand (4, 6, 2);
%!  else
%!    p.args{4} = -rand (6, 2);
%!  end
%!  p.nout_max = 2 + p.chunk_fwd;
%!  if (p.bwd)
%!    p.names = [p.names, {'dout', 'dS'}];
%!    p.args = [p.args, {randn(3, 6, 2), randn(4, 3, 2)}];
%!    p.nout_max = 8 + p.chunk + 2 * strcmp (fname, 'gdn_recurrent_bwd');   % aux; dGK, dGV
%!  end
%!endfunction

%!function args = with (p, varargin)
%!  % p's arguments with those named in varargin (name, value, ...) replaced
%!  args = p.args;
%!  for i = 1:2:numel (varargin)
%!    args{strcmp (p.names, varargin{i})} = varargin{i + 1};
%!  end
%!endfunction

%!function args = heads (p, hk, hv)
%!  % q, k with query/key heads hk and v, g, beta (dout) with value heads hv
%!  gdim = 2 + p.kda;
%!  args = with (p, 'q', p.args{1}(:, :, hk), 'k', p.args{2}(:, :, hk), ...
%!               'v', p.args{3}(:, :, hv), 'g', index_dim (p.args{4}, gdim, hv), ...
%!               'beta', p.args{5}(:, hv));
%!  if (p.bwd)
%!    args{6} = p.args{6}(:, :, hv);
%!    args{7} = [];
%!  end
%!endfunction

%!function args = two_batches (p)
%!  % the same call with B = 2 (dS dropped: [])
%!  gdim = 4 - ~p.kda;
%!  args = with (p, 'q', cat (4, p.args{1}, p.args{1}), 'k', cat (4, p.args{2}, p.args{2}), ...
%!               'v', cat (4, p.args{3}, p.args{3}), 'g', cat (gdim, p.args{4}, p.args{4}), ...
%!               'beta', cat (3, p.args{5}, p.args{5}));
%!  if (p.bwd)
%!    args{6} = cat (4, p.args{6}, p.args{6});
%!    args{7} = [];
%!  end
%!endfunction

%!function x = index_dim (x, dim, idx)
%!  % x(:, ..., idx, ...) with idx in dimension dim
%!  sub = repmat ({':'}, 1, max (ndims (x), dim));
%!  sub{dim} = idx;
%!  x = x(sub{:});
%!endfunction

%!function args = opt (p, varargin)
%!  % the valid call with the options varargin appended
%!  args = [p.args, varargin];
%!endfunction

%!function rows = bad_rows ()
%!  % {identifier suffix, functions it applies to, builder of the bad call}
%!  m = @(varargin) varargin;
%!  gik = {'GateInKernel', true, 'ALog', [0 0]};
%!  S0 = zeros (4, 3, 2);
%!  rows = {
%!    'nargin',   'all', @(p) {}
%!    'nargin',   'all', @(p) p.args(1:end - 1)
%!    'nargin',   'all', @(p) opt (p, 'Scale')
%!    'nargin',   'all', @(p) opt (p, 'Scale', 1, 'ChunkSize')
%!    'badClass', 'all', @(p) with (p, 'q', int32 (p.args{1}))
%!    'badClass', 'all', @(p) with (p, 'k', int8 (p.args{2}))
%!    'badClass', 'all', @(p) with (p, 'v', uint16 (p.args{3}))
%!    'badClass', 'all', @(p) with (p, 'g', int32 (p.args{4}))
%!    'badClass', 'all', @(p) with (p, 'beta', int32 (p.args{5}))
%!    'badClass', 'all', @(p) with (p, 'q', 'abcd')
%!    'badClass', 'all', @(p) with (p, 'k', p.args{2} > 0)
%!    'badClass', 'all', @(p) with (p, 'beta', p.args{5} > 0.5)
%!    'badClass', 'all', @(p) with (p, 'q', p.args(1))
%!    'badClass', 'all', @(p) with (p, 'g', struct ('g', p.args{4}))
%!    'badClass', 'all', @(p) with (p, 'q', complex (p.args{1}))
%!    'badClass', 'all', @(p) with (p, 'beta', p.args{5} + 1i)
%!    'badClass', 'all', @(p) with (p, 'q', sparse (p.args{1}))
%!    'badClass', 'all', @(p) with (p, 'q', single (p.args{1}))
%!    'badClass', 'all', @(p) with (p, 'v', single (p.args{3}))
%!    'badClass', 'all', @(p) [cellfun(@single, p.args(1:4), 'UniformOutput', false), p.args(5:end)]
%!    'badClass', 'all', @(p) opt (p, 'InitialState', int8 (S0))
%!    'badClass', 'all', @(p) opt (p, 'InitialState', complex (S0))
%!    'badClass', 'all', @(p) opt (p, 'GateInKernel', true, 'ALog', int8 ([0 0]))
%!    'badClass', 'all', @(p) opt (p, gik{:}, 'DtBias', 'ab')
%!    'badClass', 'bwd', @(p) with (p, 'dout', int32 (p.args{6}))
%!    'badClass', 'bwd', @(p) with (p, 'dout', p.args{6} > 0)
%!    'badClass', 'bwd', @(p) with (p, 'dout', complex (p.args{6}))
%!    'badClass', 'bwd', @(p) with (p, 'dout', single (p.args{6}))
%!    'badClass', 'bwd', @(p) with (p, 'dout', p.args(6))
%!    'badClass', 'bwd', @(p) with (p, 'dout', sparse (p.args{6}(:, :, 1)))
%!    'badClass', 'bwd', @(p) with (p, 'dS', int32 (p.args{7}))
%!    'badClass', 'bwd', @(p) with (p, 'dS', complex (p.args{7}))
%!    'badClass', 'bwd', @(p) with (p, 'dS', p.args{7} > 0)
%!    'badClass', 'bwd', @(p) with (p, 'dS', 'abc')
%!    'badClass', 'bwd', @(p) with (p, 'dS', p.args(7))
%!    'badShape', 'all', @(p) with (p, 'k', p.args{2}(:, 1:5))
%!    'badShape', 'all', @(p) with (p, 'k', p.args{2}(1:3, :))
%!    'badShape', 'all', @(p) with (p, 'k', cat (4, p.args{2}, p.args{2}))
%!    'badShape', 'all', @(p) with (p, 'v', p.args{3}(:, 1:5, :))
%!    'badShape', 'all', @(p) with (p, 'v', cat (4, p.args{3}, p.args{3}))
%!    'badShape', 'all', @(p) with (p, 'g', p.args{4}(1:end - 1, :, :))
%!    'badShape', 'all', @(p) with (p, 'g', index_dim (p.args{4}, 2 + p.kda, 1))
%!    'badShape', 'all', @(p) with (p, 'g', other_gate (p))
%!    'badShape', 'all', @(p) with (p, 'beta', p.args{5}(1:5, :))
%!    'badShape', 'all', @(p) with (p, 'beta', p.args{5}(:, 1))
%!    'badShape', 'all', @(p) with (p, 'q', randn (4, 6, 1, 1, 2))
%!    'badShape', 'all', @(p) with (p, 'q', zeros (0, 6), 'k', zeros (0, 6), ...
%!                                  'g', p.args{4}(1:end * ~p.kda, :, :))
%!    'badShape', 'all', @(p) heads (p, [1 1], [1 2 1])
%!    'badShape', 'all', @(p) opt (p, 'InitialState', zeros (4, 3))
%!    'badShape', 'all', @(p) opt (p, 'InitialState', zeros (3, 4, 2))
%!    'badShape', 'all', @(p) opt (p, 'InitialState', S0, 'StateLayout', 'VK')
%!    'badShape', 'all', @(p) opt (p, 'GateInKernel', true, 'ALog', [0 0 0])
%!    'badShape', 'all', @(p) opt (p, 'GateInKernel', true, 'ALog', zeros (2, 2))
%!    'badShape', 'all', @(p) opt (p, gik{:}, 'DtBias', zeros (3, 2))
%!    'badShape', 'bwd', @(p) with (p, 'dout', p.args{6}(:, 1:5, :))
%!    'badShape', 'bwd', @(p) with (p, 'dout', p.args{6}(1:2, :, :))
%!    'badShape', 'bwd', @(p) with (p, 'dout', p.args{6}(:, :, 1))
%!    'badShape', 'bwd', @(p) with (p, 'dout', [])
%!    'badShape', 'bwd', @(p) with (p, 'dS', p.args{7}(:, :, 1))
%!    'badShape', 'bwd', @(p) with (p, 'dS', permute (p.args{7}, [2 1 3]))
%!    'badShape', 'bwd', @(p) with (p, 'dS', cat (4, p.args{7}, p.args{7}))
%!    'badShape', 'bwd', @(p) with (p, 'dS', 0)
%!    'badShape', 'bwd', @(p) opt (p, 'StateLayout', 'VK')
%!    'badShape', 'bwd', @(p) opt (p, 'CuSeqlens', [0 2 6])
%!    'badCuSeqlens', 'all', @(p) opt (p, 'CuSeqlens', [0 3 5])
%!    'badCuSeqlens', 'all', @(p) opt (p, 'CuSeqlens', [0 4 3 6])
%!    'badCuSeqlens', 'all', @(p) opt (p, 'CuSeqlens', [1 3 6])
%!    'badCuSeqlens', 'all', @(p) opt (p, 'CuSeqlens', [0 2.5 6])
%!    'badCuSeqlens', 'all', @(p) opt (p, 'CuSeqlens', [0 NaN 6])
%!    'badCuSeqlens', 'all', @(p) opt (p, 'CuSeqlens', [0 -1 6])
%!    'badCuSeqlens', 'all', @(p) opt (p, 'CuSeqlens', 6)
%!    'badCuSeqlens', 'all', @(p) opt (p, 'CuSeqlens', [0 2; 3 6])
%!    'badCuSeqlens', 'all', @(p) opt (p, 'CuSeqlens', 'abc')
%!    'badCuSeqlens', 'all', @(p) opt (p, 'CuSeqlens', {0, 6})
%!    'badCuSeqlens', 'all', @(p) opt (p, 'CuSeqlens', complex ([0 6]))
%!    'badCuSeqlens', 'all', @(p) [two_batches(p), {'CuSeqlens', [0 3 6]}]
%!    'badOption', 'all', @(p) opt (p, 'Foo', 1)
%!    'badOption', 'all', @(p) opt (p, 'NoSuchOptionWithAVeryLongNameIndeed', 1)
%!    'badOption', 'all', @(p) opt (p, 3, 1)
%!    'badOption', 'all', @(p) opt (p, {'Scale'}, 1)
%!    'badOption', 'all', @(p) opt (p, 'Scale', 0)
%!    'badOption', 'all', @(p) opt (p, 'Scale', -1)
%!    'badOption', 'all', @(p) opt (p, 'Scale', NaN)
%!    'badOption', 'all', @(p) opt (p, 'Scale', Inf)
%!    'badOption', 'all', @(p) opt (p, 'Scale', [1 2])
%!    'badOption', 'all', @(p) opt (p, 'Scale', '1')
%!    'badOption', 'all', @(p) opt (p, 'ChunkSize', 0)
%!    'badOption', 'all', @(p) opt (p, 'ChunkSize', -3)
%!    'badOption', 'all', @(p) opt (p, 'ChunkSize', 2.5)
%!    'badOption', 'all', @(p) opt (p, 'ChunkSize', NaN)
%!    'badOption', 'all', @(p) opt (p, 'ChunkSize', Inf)
%!    'badOption', 'all', @(p) opt (p, 'ChunkSize', 'abc')
%!    'badOption', 'all', @(p) opt (p, 'ChunkSize', [16 32])
%!    'badOption', 'all', @(p) opt (p, 'ChunkSize', 16i)
%!    'badOption', 'all', @(p) opt (p, gik{:}, 'LowerBound', 0)
%!    'badOption', 'all', @(p) opt (p, gik{:}, 'LowerBound', 1)
%!    'badOption', 'all', @(p) opt (p, gik{:}, 'LowerBound', -Inf)
%!    'badOption', 'all', @(p) opt (p, gik{:}, 'LowerBound', NaN)
%!    'badOption', 'all', @(p) opt (p, 'GateInKernel', true)
%!    'badOption', 'all', @(p) opt (p, 'GateInKernel', true, 'ALog', [])
%!    'badOption', 'all', @(p) opt (p, 'UseQKL2Norm', 'yes')
%!    'badOption', 'all', @(p) opt (p, 'BetaSigmoid', NaN)
%!    'badOption', 'all', @(p) opt (p, 'AllowNegEigval', [1 1])
%!    'badOption', 'all', @(p) opt (p, 'StateLayout', 'XY')
%!    'badOption', 'all', @(p) opt (p, 'StateLayout', 'KVX')
%!    'badOption', 'all', @(p) opt (p, 'StateLayout', 'kv ')
%!    'badOption', 'all', @(p) opt (p, 'StateLayout', 1)
%!    'badOption', 'all', @(p) opt (p, 'Intermediates', NaN)
%!    'badOption', 'notchunk', @(p) opt (p, 'Intermediates', true)
%!    'badOption', 'notchunk', @(p) opt (p, 'Intermediates', false)
%!    'badOption', 'all', @(p) opt (p, 'L2NormEps', -1)
%!    'badOption', 'all', @(p) opt (p, 'L2NormEps', NaN)
%!    'badOption', 'all', @(p) opt (p, 'L2NormEps', [1 2])
%!  };
%!endfunction

%!function g = other_gate (p)
%!  % the gate of the other algorithm: T x HV for KDA, K x T x HV for GDN
%!  if (p.kda)
%!    g = -rand (6, 2);
%!  else
%!    g = -rand (4, 6, 2);
%!  end
%!endfunction

%!function id = error_id (fname, args, nout)
%!  % the identifier of the error fname (args{:}) raises with nout outputs
%!  id = '(no error)';
%!  out = cell (1, nout);
%!  try
%!    [out{:}] = feval (fname, args{:});
%!  catch err
%!    id = err.identifier;
%!  end
%!endfunction

%!function check_rows (fname)
%!  % every row of bad_rows () that applies to fname raises its error
%!  p = valid_call (fname);
%!  assert (error_id (fname, p.args, p.nout_max), '(no error)');
%!  rows = bad_rows ();
%!  who = {'all', 'bwd', 'notchunkfwd', 'notchunk'};
%!  applies = [true, p.bwd, ~p.chunk_fwd, ~p.chunk];
%!  wrong = {};
%!  for i = 1:size (rows, 1)
%!    if (~applies(strcmp (who, rows{i, 2})))
%!      continue;
%!    end
%!    want = [p.op ':' rows{i, 1}];
%!    got = error_id (fname, feval (rows{i, 3}, p), 1);
%!    if (~strcmp (got, want))
%!      wrong{end + 1} = sprintf ('  %s gives %s, not %s', func2str (rows{i, 3}), got, want);
%!    end
%!  end
%!  assert (isempty (wrong), '%s:\n%s', fname, strjoin (wrong, char (10)));
%!endfunction

%!test check_rows ('kda_recurrent')
%!test check_rows ('kda_recurrent_bwd')
%!test check_rows ('kda_chunk')
%!test check_rows ('kda_chunk_bwd')
%!test check_rows ('gdn_recurrent')
%!test check_rows ('gdn_recurrent_bwd')
%!test check_rows ('gdn_chunk')
%!test check_rows ('gdn_chunk_bwd')

%!test
%! % one output more than the function has
%! for f = {'kda_recurrent', 'kda_recurrent_bwd', 'kda_chunk', 'kda_chunk_bwd', ...
%!          'gdn_recurrent', 'gdn_recurrent_bwd', 'gdn_chunk', 'gdn_chunk_bwd'}
%!   p = valid_call (f{1});
%!   assert (error_id (f{1}, p.args, p.nout_max + 1), [p.op ':nargout']);
%! end
