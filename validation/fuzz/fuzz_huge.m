% FUZZ_HUGE  A call on empty arrays with huge extents (2^31 .. 2^62).
%
%   c = fuzz_huge (fname)
%
%   Some of K, V, T, H, HV, B are set to 2^31 .. 2^62 while every input
%   stays empty (T = 0, or B = 0 when T is huge), e.g.
%       z = zeros (2^32, 0);  kda_recurrent (z, z, zeros (2^31, 0), z, [])
%   whose final state would have 2^63 elements.  The sizes are drawn so that
%   every output and every K x V state is empty, tiny (<= 2^16 elements) or
%   impossible (>= 2^40): the call must give an identified error or empty and
%   tiny outputs of the right sizes, and never touch a size this machine
%   could allocate.  A third of the cases then give one input another huge
%   empty shape (the sizes no longer fit: still no crash, an identifier).
%   c.ref.dims = [K V T H HV B] for the size check of a success, or [] when
%   an input was reshaped.
%
%   See also: fuzz_case, fuzz_verdict.

function c = fuzz_huge (fname)
  op = fname(1:3);
  is_bwd = strcmp (fname(end-3:end), '_bwd');
  for attempt = 1:50
    dims = draw_dims ();
    if (is_safe (dims))
      break;
    end
  end
  if (~is_safe (dims))
    dims = [2^32, 2^31, 0, 1, 1, 1];             % the issue's first reproducer
  end
  args = make_args (op, is_bwd, dims);
  ref = struct ('dims', dims);
  desc = sprintf ('K V T H HV B = %s', num2str (dims, '%d '));
  if (rand () < 1/3)
    j = randi (numel (args));
    args{j} = zeros (2^randi ([31 62]), 0, class (args{j}));
    ref.dims = [];
    desc = sprintf ('%s; argument %d is %s', desc, j, mat2str (size (args{j})));
  end
  if (rand () < 0.2)
    args(end+1:end+2) = {'InitialState', zeros(0, 2^randi([31 62]))};
    ref.dims = [];
    desc = [desc '; an empty InitialState of a huge extent'];
  end
  nout = randi (2 + 6 * is_bwd);
  c = struct ('fname', fname, 'args', {args}, 'nout', nout, 'expect', 'any', ...
              'family', op, 'kind', 'huge', 'desc', desc, 'ref', ref);
end

function dims = draw_dims ()
  % [K V T H HV B]: small, then one to three of them huge
  dims = [randi([0 3]), randi([0 3]), 0, randi(2), 0, randi(2)];
  dims(5) = dims(4) * randi (2);
  for d = randperm (6, randi (3))
    e = 2^randi ([31 62]);
    switch (d)
      case 3
        dims([3 6]) = [e, 0];                    % huge T: no batch, inputs stay empty
      case 4
        dims([4 5]) = e;
      otherwise
        dims(d) = e;
    end
  end
end

function ok = is_safe (dims)
  % every output, input and K x V state empty, tiny, or far beyond any memory;
  % every input creatable (the product of its nonzero extents below 2^62)
  K = dims(1); V = dims(2); T = dims(3); H = dims(4); HV = dims(5); B = dims(6);
  prods = {[K V HV B], [V T HV B], [K T H B], [K T HV B], [T HV B], [K V], [K HV], [V HV]};
  ok = true;
  for i = 1:numel (prods)
    p = prods{i};
    n = prod (p);
    ok = ok && (n == 0 || n <= 2^16 || n >= 2^40);
    ok = ok && sum (log2 (p(p > 0))) <= 62;
  end
end

function args = make_args (op, is_bwd, dims)
  K = dims(1); V = dims(2); T = dims(3); H = dims(4); HV = dims(5); B = dims(6);
  cls = 'double';
  if (rand () < 0.5)
    cls = 'single';
  end
  q = zeros ([K, T, H, B], cls);
  v = zeros ([V, T, HV, B], cls);
  if (strcmp (op, 'kda'))
    g = zeros ([K, T, HV, B], cls);
  else
    g = zeros ([T, HV, B], cls);
  end
  beta = zeros ([T, HV, B], cls);
  args = {q, q, v, g, beta};
  if (is_bwd)
    args(6:7) = {v, []};
  end
end
