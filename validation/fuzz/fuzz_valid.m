% FUZZ_VALID  A small valid call of a public function, with random options.
%
%   c = fuzz_valid (fname)
%   c = fuzz_valid (fname, variant)
%
%   fname is one of the eight public functions.  The problem comes from
%   rand_problem (validation/lib) with random sizes (GVA, batches, CuSeqlens,
%   T = 0 now and then), class, gate strength (down to -30 per step) and a
%   random subset of the options.  variant says how the options are written:
%     'plain'   Name, Value pairs as documented (the default)
%     'case'    names in random upper/lower case
%     'prefix'  names shortened to a random unambiguous prefix
%     'struct'  one struct of options in place of the pairs
%     'nan'     plain options, a NaN or Inf in one element of the data
%   The call must succeed; c.ref holds the problem (P of rand_problem, with
%   the options in their plain form) so that fuzz_check_fwd / fuzz_check_bwd
%   can compare the result with ref_forward.
%
%   See also: fuzz_case, rand_problem, ref_forward.

function c = fuzz_valid (fname, variant)
  if (nargin < 2)
    variant = 'plain';
  end
  op = fname(1:3);
  is_bwd = numel (fname) > 4 && strcmp (fname(end-3:end), '_bwd');
  is_chunk = ~isempty (strfind (fname, 'chunk'));
  P = rand_problem (op, problem_options (is_chunk && ~is_bwd){:});
  opts = P.opts;
  if (strcmp (variant, 'nan'))
    [P, where] = inject_nonfinite (P);
  end
  if (is_bwd)
    dS = P.dS;
    if (rand () < 0.3)
      dS = [];
    end
    P.dS_used = dS;
    args = {P.q, P.k, P.v, P.g, P.beta, P.dout, dS};
    nout = randi (8);
  else
    args = {P.q, P.k, P.v, P.g, P.beta};
    nout = randi (2 + is_chunk);
  end
  switch (variant)
    case 'case'
      opts = rename_options (opts, @random_case);
    case 'prefix'
      opts = rename_options (opts, @fuzz_prefix);
    case 'struct'
      opts = {pairs_to_struct(opts)};
  end
  c = struct ('fname', fname, 'args', {[args, opts]}, 'nout', nout, ...
              'expect', 'ok', 'family', op, 'kind', ['valid-' variant], ...
              'desc', '', 'ref', P);
  if (strcmp (variant, 'nan'))
    c.desc = where;
  end
end

function o = problem_options (is_chunk_fwd)
  sizes = {'K', randi(9), 'V', randi(7), 'T', randi(20), 'H', randi(3), 'B', randi(2)};
  o = [sizes, {'Class', pick({'double', 'single'}), ...
               'GateStrength', pick({0.5, 1, 5, 30})}];
  H = sizes{8};
  o(end+1:end+2) = {'HV', H * randi(2)};
  if (rand () < 0.05)
    o{6} = 0;                                   % T = 0: an empty problem
  end
  o = add_if (o, 0.3, 'UseQKL2Norm', true);
  if (rand () < 0.3)
    o(end+1:end+2) = {'GateInKernel', true};
    o = add_if (o, 0.4, 'LowerBound', -5 * rand () - 0.1);
    o = add_if (o, 0.2, 'DtBias', false);
  end
  if (rand () < 0.3)
    o(end+1:end+2) = {'BetaSigmoid', true};
    o = add_if (o, 0.5, 'AllowNegEigval', true);
  end
  o = add_if (o, 0.5, 'InitialState', true);
  o = add_if (o, 0.3, 'StateLayout', 'VK');
  o = add_if (o, 0.3, 'Scale', 0.1 + rand ());
  T = o{6};
  if (rand () < 0.5)
    o(end+1:end+2) = {'ChunkSize', pick({randi(T + 3), 1, 2^31})};
  end
  if (sizes{10} == 1 && T >= 2 && rand () < 0.3)
    cuts = sort (randperm (T - 1, randi (min (3, T - 1))));
    o(end+1:end+2) = {'CuSeqlens', [0, cuts, T]};
  end
  if (is_chunk_fwd)
    o = add_if (o, 0.3, 'Intermediates', true);
  end
end

function o = add_if (o, p, name, value)
  if (rand () < p)
    o(end+1:end+2) = {name, value};
  end
end

function x = pick (list)
  x = list{randi (numel (list))};
end

function [P, where] = inject_nonfinite (P)
  % one NaN, Inf or -Inf in one element of one data array
  names = {'q', 'k', 'v', 'g', 'beta'};
  f = pick (names);
  val = pick ({NaN, Inf, -Inf});
  if (isempty (P.(f)))
    where = 'empty problem, nothing injected';
    return;
  end
  i = randi (numel (P.(f)));
  P.(f)(i) = val;
  P.nonfinite = true;
  where = sprintf ('%s(%d) = %g', f, i, val);
end

function opts = rename_options (opts, how)
  for i = 1:2:numel (opts)
    opts{i} = how (opts{i});
  end
end

function s = random_case (name)
  up = rand (size (name)) < 0.5;
  s = lower (name);
  s(up) = upper (s(up));
end

function s = pairs_to_struct (opts)
  s = struct ();
  for i = 1:2:numel (opts)
    s.(opts{i}) = opts{i + 1};
  end
end
