% FD_CHECK  Check every gradient of a backward function by central differences.
%
%   res = fd_check (fwd, bwd, args, opts)
%   res = fd_check (fwd, bwd, args, opts, Name, Value, ...)
%   fd_check (...)            (no output: print the table)
%   fd_check (res)            print a table returned earlier
%
%   fwd, bwd  the forward and backward functions, by name or handle, e.g.
%             'kda_recurrent', 'kda_recurrent_bwd' (or the chunked pair, or
%             the gdn ones): [o, S] = fwd (q, k, v, g, beta, opts{:}) and
%             [dq, dk, dv, dg, dbeta, dS0, dALog, dDtBias] =
%                 bwd (q, k, v, g, beta, dout, dS, opts{:}).
%   args      the five positional inputs: a struct with fields q, k, v, g,
%             beta (other fields are ignored, so the struct of rand_problem
%             can be passed as it is) or a cell {q, k, v, g, beta}.
%   opts      the Name/Value cell of the call.  InitialState, ALog and DtBias
%             found there are inputs too and are differentiated.
%
%   Everything is converted to double.  The scalar loss is
%       L = sum (Wo(:) .* o(:)) + sum (WS(:) .* S(:))
%   with random normal weights Wo (size of o) and WS (size of the final
%   state); the backward is called with dout = Wo and dS = WS (dS = [] and no
%   state term with 'dS', false).  Each gradient output is compared with
%   central differences (L(x + h d) - L(x - h d)) / (2 h) of its input
%     - along NDir random unit directions d, error
%           |fd - <grad, d>| / max (norm (grad(:)), |fd|, noise / Tol)
%     - at NEntry random single entries i, error
%           |fd - grad(i)| / max (max (abs (grad(:))), |fd|, noise / Tol)
%   i.e. relative to the scale of that gradient, where
%       noise = 10 * eps * (sum |Wo .* o| + sum |WS .* S|) / h
%   bounds the rounding error of one difference quotient: a gradient far
%   smaller than the loss (strong gates make some tiny) is checked to the
%   absolute accuracy noise, which the differences can resolve, instead of
%   to Tol relative, which they cannot.  Gradients:
%       dq, dk, dv, dg, dbeta, dS0, and dALog, dDtBias when GateInKernel.
%   dS0 is checked also when no InitialState was given (the differences are
%   then taken around a zero state); likewise dDtBias without DtBias.
%   The size of every gradient must equal that of its input (dS0: of
%   InitialState, or K x V x HV x N / V x K x HV x N when not given);
%   without GateInKernel dALog and dDtBias must be [].
%
%   Name/Value options of fd_check (defaults):
%     'Tol'     1e-6    pass when every error <= Tol
%     'Step'    1e-6    h
%     'NDir'    3       random directions per gradient
%     'NEntry'  3       random single entries per gradient
%     'dS'      true    false: call the backward with dS = [], no state term
%     'Only'    {}      cell of gradient names to check (default: all)
%     'Seed'    []      if given, seeds rand/randn first
%     'Print'   (nargout == 0)   print the table
%
%   res is a struct array, one element per gradient, with fields
%     name       'dq', ...
%     size_ok    the gradient has the size of its input
%     dir_err    largest error over the directions
%     entry_err  largest error over the entries
%     maxerr     max (dir_err, entry_err) (Inf when size_ok is false)
%     scale      norm of the gradient
%     noise      the rounding noise of the differences (see above)
%     tol        the tolerance
%     pass       size_ok && maxerr <= tol
%
%   Example
%     P = rand_problem ('kda', 'K', 6, 'V', 5, 'T', 7, 'GateInKernel', true);
%     fd_check ('kda_recurrent', 'kda_recurrent_bwd', P, P.opts)
%
%   See also: rand_problem, ref_forward, la_ratio.

function res = fd_check (fwd, bwd, args, opts, varargin)

  if (nargin == 1 && isstruct (fwd) && isfield (fwd, 'maxerr'))
    print_table (fwd);
    return;
  end
  if (nargin < 4)
    error ('fd_check: needs fwd, bwd, args, opts');
  end
  cfg = struct ('Tol', 1e-6, 'Step', 1e-6, 'NDir', 3, 'NEntry', 3, ...
                'dS', true, 'Only', {{}}, 'Seed', [], 'Print', nargout == 0);
  cfg = set_cfg (cfg, varargin);
  if (~isempty (cfg.Seed))
    rand ('state', cfg.Seed);
    randn ('state', cfg.Seed);
  end

  % ---- the inputs, in double ----------------------------------------------
  if (iscell (args))
    x = cell2struct (args(:), {'q'; 'k'; 'v'; 'g'; 'beta'}, 1);
  else
    x = struct ('q', args.q, 'k', args.k, 'v', args.v, 'g', args.g, ...
                'beta', args.beta);
  end
  for f = {'q', 'k', 'v', 'g', 'beta'}
    x.(f{1}) = double (x.(f{1}));
  end
  % inputs that live in opts; the rest of opts is kept as it is
  [x.InitialState, opts] = take_option (opts, 'InitialState');
  [x.ALog, opts] = take_option (opts, 'ALog');
  [x.DtBias, opts] = take_option (opts, 'DtBias');
  for f = {'InitialState', 'ALog', 'DtBias'}
    x.(f{1}) = double (x.(f{1}));
  end
  gik = false;
  for i = 1:2:numel (opts)
    if (strcmpi (opts{i}, 'GateInKernel'))
      gik = logical (opts{i + 1});
    end
  end
  given = struct ('InitialState', ~isempty (x.InitialState), ...
                  'DtBias', ~isempty (x.DtBias));

  % ---- loss weights and the analytic gradients ------------------------------
  [o, S] = call_fwd (fwd, x, opts);
  Wo = randn (size (o));
  if (cfg.dS)
    WS = randn (size (S));
  else
    WS = [];
  end
  grads = cell (1, 8);
  e = extra (x);
  [grads{:}] = feval (bwd, x.q, x.k, x.v, x.g, x.beta, Wo, WS, opts{:}, e{:});

  names  = {'dq', 'dk', 'dv', 'dg', 'dbeta', 'dS0', 'dALog', 'dDtBias'};
  inputs = {'q', 'k', 'v', 'g', 'beta', 'InitialState', 'ALog', 'DtBias'};
  % where the differences are taken when the input was not given
  if (~given.InitialState)
    x.InitialState = zeros (size (S));
  end
  if (gik && ~given.DtBias)
    x.DtBias = zeros (size (grads{8}));
  end
  loss = @(xx) loss_of (fwd, xx, opts, Wo, WS);
  % rounding noise of one difference quotient: eps times the size of the
  % terms of L, divided by the step, with a safety factor of 10 for the
  % rounding accumulated through the recurrence
  Labs = sum (abs (Wo(:) .* o(:)));
  if (~isempty (WS))
    Labs = Labs + sum (abs (WS(:) .* S(:)));
  end
  noise = 10 * eps * Labs / cfg.Step;
  floor_ = noise / cfg.Tol;

  res = struct ('name', {}, 'size_ok', {}, 'dir_err', {}, 'entry_err', {}, ...
                'maxerr', {}, 'scale', {}, 'noise', {}, 'tol', {}, 'pass', {});
  for i = 1:8
    nm = names{i};
    if (~isempty (cfg.Only) && ~any (strcmp (nm, cfg.Only)))
      continue;
    end
    gr = double (grads{i});
    r = struct ('name', nm, 'size_ok', true, 'dir_err', 0, 'entry_err', 0, ...
                'maxerr', 0, 'scale', norm (gr(:)), 'noise', noise, ...
               'tol', cfg.Tol, 'pass', true);
    if (i >= 7 && ~gik)
      % without GateInKernel these outputs must be empty
      r.size_ok = isempty (gr);
      r.noise = 0;
      r.maxerr = merge (r.size_ok, 0, Inf);
      r.pass = r.size_ok;
      res(end + 1) = r;
      continue;
    end
    xin = x.(inputs{i});
    r.size_ok = isequal (size (gr), size (xin));
    if (~r.size_ok)
      r.maxerr = Inf;
      r.pass = false;
      res(end + 1) = r;
      continue;
    end
    h = cfg.Step;
    n = numel (xin);
    for j = 1:cfg.NDir
      d = randn (size (xin));
      d = d / norm (d(:));
      fd = central (loss, x, inputs{i}, d, h);
      an = sum (gr(:) .* d(:));
      den = max ([norm(gr(:)), abs(fd), floor_, realmin]);
      r.dir_err = max (r.dir_err, abs (fd - an) / den);
    end
    idx = randperm (n);
    idx = idx(1:min (n, cfg.NEntry));
    for j = idx
      d = zeros (size (xin));
      d(j) = 1;
      fd = central (loss, x, inputs{i}, d, h);
      den = max ([max(abs (gr(:))), abs(fd), floor_, realmin]);
      r.entry_err = max (r.entry_err, abs (fd - gr(j)) / den);
    end
    r.maxerr = max (r.dir_err, r.entry_err);
    r.pass = r.maxerr <= cfg.Tol;      % false for NaN too
    res(end + 1) = r;
  end

  if (cfg.Print)
    print_table (res);
  end
  if (nargout == 0)
    clear res;
  end
end

% ---- helpers ------------------------------------------------------------------

function fd = central (loss, x, field, d, h)
  xp = x;
  xp.(field) = x.(field) + h * d;
  xm = x;
  xm.(field) = x.(field) - h * d;
  fd = (loss (xp) - loss (xm)) / (2 * h);
end

function L = loss_of (fwd, x, opts, Wo, WS)
  [o, S] = call_fwd (fwd, x, opts);
  L = sum (Wo(:) .* o(:));
  if (~isempty (WS))
    L = L + sum (WS(:) .* S(:));
  end
end

function [o, S] = call_fwd (fwd, x, opts)
  e = extra (x);
  [o, S] = feval (fwd, x.q, x.k, x.v, x.g, x.beta, opts{:}, e{:});
end

function e = extra (x)
  % the Name/Value pairs of the inputs that live in opts (only those given)
  e = {};
  for f = {'InitialState', 'ALog', 'DtBias'}
    if (~isempty (x.(f{1})))
      e(end+1:end+2) = {f{1}, x.(f{1})};
    end
  end
end


function cfg = set_cfg (cfg, args)
  if (mod (numel (args), 2) ~= 0)
    error ('fd_check: options must come in Name, Value pairs');
  end
  names = fieldnames (cfg);
  for i = 1:2:numel (args)
    hit = find (strcmpi (args{i}, names));
    if (isempty (hit))
      error ('fd_check: unknown option ''%s''', args{i});
    end
    cfg.(names{hit}) = args{i + 1};
  end
  if (ischar (cfg.Only))
    cfg.Only = {cfg.Only};
  end
end


function print_table (res)
  fprintf ('  %-8s %6s %11s %11s %11s %11s %9s  %s\n', 'gradient', 'size', ...
           'dir err', 'entry err', 'norm', 'noise', 'tol', 'result');
  for i = 1:numel (res)
    r = res(i);
    if (r.size_ok && r.scale == 0 && r.noise == 0)
      sz = '[]';
    elseif (r.size_ok)
      sz = 'ok';
    else
      sz = 'WRONG';
    end
    if (r.pass)
      ok = 'pass';
    else
      ok = 'FAIL';
    end
    fprintf ('  %-8s %6s %11.3e %11.3e %11.3e %11.3e %9.1e  %s\n', r.name, ...
             sz, r.dir_err, r.entry_err, r.scale, r.noise, r.tol, ok);
  end
end
