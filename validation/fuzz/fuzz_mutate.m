% FUZZ_MUTATE  One malformation of a valid call.
%
%   c = fuzz_mutate (c)
%
%   c is a case of fuzz_valid (plain options).  One of these is applied, and
%   c.kind, c.desc and c.expect say which and what the call must then do:
%     mutate-count    an argument too few, or one output too many  (error)
%     mutate-class    a data argument of another class: integer, logical,
%                     char, cell, struct, complex, sparse, handle, or the
%                     other float class (mixed)                     (error)
%     mutate-shape    a dimension of a data argument one too large, an extra
%                     dimension, HV not a multiple of H             (error;
%                     a reshaped g of GDN or beta: any)
%     mutate-name     an option name unknown, with a NUL inside, not a char
%                     row, an ambiguous prefix, or without its value (error)
%     mutate-value    a bad option value (fuzz_bad_value)          (mostly error)
%   The clean problem stays in c.ref but is not checked (c.ref = [] unless
%   the call must still succeed).
%
%   See also: fuzz_case, fuzz_valid, fuzz_bad_value.

function c = fuzz_mutate (c)
  nposit = 5 + 2 * (numel (c.fname) > 4 && strcmp (c.fname(end-3:end), '_bwd'));
  u = randi (5);
  kinds = {'count', 'class', 'shape', 'name', 'value'};
  c.kind = ['mutate-' kinds{u}];
  c.expect = 'error';
  switch (u)
    case 1
      if (rand () < 0.5)
        n = randi (nposit) - 1;
        c.args = c.args(1:n);
        c.desc = sprintf ('only %d arguments', n);
      else
        % one more than the most outputs (the chunked backward's ninth is
        % aux; gdn_recurrent_bwd's ninth and tenth are dGK, dGV)
        c.nout = 3 + ~isempty (strfind (c.fname, 'chunk'));
        if (nposit == 7)
          c.nout = 10 + strcmp (c.fname, 'gdn_recurrent_bwd');
        end
        c.desc = sprintf ('%d outputs', c.nout);
      end
    case 2
      c = bad_class (c, nposit);
    case 3
      c = bad_shape (c, nposit);
    case 4
      c = bad_name (c, nposit);
    case 5
      [name, val, c.expect] = fuzz_bad_value (c);
      c.args(end+1:end+2) = {name, val};
      c.desc = sprintf ('%s = %s', name, fuzz_show (val));
  end
  if (~strcmp (c.expect, 'ok'))
    c.ref = [];
  end
end

function c = bad_class (c, nposit)
  j = randi (min (nposit, 6));                   % dS may be of either float class
  x = c.args{j};
  makers = {@int32, @uint8, @logical, @(a) char(65 + 0 * a), @(a) {a}, ...
            @(a) struct('x', a), @(a) complex(a, a), @sparse_or_skip, ...
            @(a) @sin, @other_float};
  m = randi (numel (makers));
  try
    c.args{j} = makers{m} (x);
  catch
    c.args{j} = int8 (x);                        % e.g. sparse of an N-d array
  end
  c.desc = sprintf ('argument %d is %s', j, class (c.args{j}));
  if (issparse (c.args{j}))
    c.desc = [c.desc ' sparse'];
  end
end

function y = sparse_or_skip (x)
  y = sparse (double (x(:, :)));
end

function y = other_float (x)
  if (isa (x, 'single'))
    y = double (x);
  else
    y = single (x);
  end
end

function c = bad_shape (c, nposit)
  j = randi (min (nposit, 6));
  x = c.args{j};
  sz = size (x);
  u = rand ();
  d = 0;
  if (u < 0.5)
    d = randi (numel (sz));
    sz(d) = sz(d) + 1;
    c.args{j} = zeros (sz, class (x));
    c.desc = sprintf ('argument %d is %s', j, mat2str (sz));
  elseif (u < 0.75)
    c.args{j} = zeros ([sz, 2], class (x));
    c.desc = sprintf ('argument %d has an extra dimension of 2', j);
  else
    c.args{j} = reshape (x, [], 1);
    c.desc = sprintf ('argument %d is a column of %d', j, numel (x));
    % a column of the right number of elements: fine for GDN's g and for beta
    % (interface pages differ on it), wrong for the others unless the
    % array was a column already
    if (j == 5 || (j == 4 && c.fname(1) == 'g') || isequal (sz(2:end), ones (1, numel (sz) - 1)))
      c.expect = 'any';
    end
  end
  % v's first extent is V itself (free unless a state fixes it); GDN's g and
  % beta may have any shape with the right number of elements (with T = 0,
  % none: then HV may change too)
  free_v = (j == 3 && u < 0.5 && d == 1) || c.ref.T == 0;
  same_numel = numel (c.args{j}) == numel (x) && (j == 5 || (j == 4 && c.fname(1) == 'g'));
  if (free_v || same_numel || isequal (size (c.args{j}), size (x)))
    c.expect = 'any';
  end
end

function c = bad_name (c, nposit)
  names = fuzz_prefix ();
  good = names{randi (13)};
  bad = {'Scalex', [good char(0) 'x'], [good char(0)], 42, {good}, good', ...
         'A', 'S', 'C', 'Al', '', 'InitialStateX'};
  m = randi (numel (bad) + 1);
  if (m > numel (bad))
    c.args{end + 1} = good;                      % a name without its value
    c.desc = sprintf ('option %s without a value', good);
    return;
  end
  c.args(end+1:end+2) = {bad{m}, 1};
  c.desc = sprintf ('option name %s', fuzz_show (bad{m}));
end
