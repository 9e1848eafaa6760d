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
%   The check itself is la_gradcheck's (the public checker), on the eight
%   inputs q, k, v, g, beta, InitialState, ALog, DtBias.  Everything is
%   converted to double.  The scalar loss is
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
%   See also: la_gradcheck, rand_problem, ref_forward, la_ratio.

function res = fd_check (fwd, bwd, args, opts, varargin)
  if (nargin == 1 && isstruct (fwd) && isfield (fwd, 'maxerr'))
    la_gradcheck (fwd);
    return;
  end
  if (nargin < 4)
    error ('fd_check: needs fwd, bwd, args, opts');
  end
  defaults = struct ('Tol', 1e-6, 'Step', 1e-6, 'NDir', 3, 'NEntry', 3, ...
                     'dS', true, 'Only', {{}}, 'Seed', [], 'Print', nargout == 0);
  [cfg, rest] = take_option (varargin, defaults);
  if (~isempty (rest))
    error ('fd_check: unknown option ''%s''', num2str (rest{1}));
  end
  if (ischar (cfg.Only))
    cfg.Only = {cfg.Only};
  end
  if (~isempty (cfg.Seed))
    rand ('state', cfg.Seed);
    randn ('state', cfg.Seed);
  end

  % the eight inputs; InitialState, ALog and DtBias live in opts
  if (iscell (args))
    x = args(1:5);
  else
    x = {args.q, args.k, args.v, args.g, args.beta};
  end
  [S0, opts] = take_option (opts, 'InitialState');
  [alog, opts] = take_option (opts, 'ALog');
  [dtb, opts] = take_option (opts, 'DtBias');
  given = [~isempty(S0), ~isempty(alog), ~isempty(dtb)];
  gik = logical (take_option (opts, 'GateInKernel', false));
  x = cellfun (@double, x, 'UniformOutput', false);
  e = extras ({S0, alog, dtb}, given);
  [~, S] = feval (fwd, x{:}, opts{:}, e{:});
  % where the differences are taken for an input that was not given
  if (~given(1))
    S0 = zeros (size (S));
  end
  if (gik && ~given(3))
    dtb = zeros (size (dtbias_shape (bwd, x, opts, alog, S)));
  end
  x = [x, {double(S0), double(alog), double(dtb)}];

  names = {'q', 'k', 'v', 'g', 'beta', 'S0', 'ALog', 'DtBias'};
  check = 1:8;
  if (~isempty (cfg.Only))
    check = find (ismember (strcat ('d', names), cfg.Only));
  end
  fwd_x = @(varargin) call_fwd (fwd, opts, varargin{:});
  bwd_x = @(varargin) call_bwd (bwd, opts, given, varargin{:});
  loss_outputs = 1:1 + cfg.dS;
  [~, res] = la_gradcheck (fwd_x, bwd_x, x, 'NumOutputs', 2, ...
                           'LossOutputs', loss_outputs, 'Check', check, ...
                           'Names', names, 'Step', cfg.Step, 'Tol', cfg.Tol, ...
                           'NDir', cfg.NDir, 'NEntry', cfg.NEntry, 'Print', cfg.Print);
  if (nargout == 0)
    clear res;
  end
end

% ---- the public functions with the eight inputs as arguments ----------------

function [o, S] = call_fwd (fwd, opts, q, k, v, g, beta, S0, alog, dtb)
  % the state is passed also when not given (zeros: the same values);
  % ALog and DtBias only when there are some
  e = extras ({alog, dtb}, ~[isempty(alog), isempty(dtb)]);
  [o, S] = feval (fwd, q, k, v, g, beta, opts{:}, 'InitialState', S0, e{:});
end

function varargout = call_bwd (bwd, opts, given, q, k, v, g, beta, S0, alog, dtb, dout, dS)
  % the backward sees exactly the options that were given
  e = extras ({S0, alog, dtb}, given);
  varargout = cell (1, 8);
  [varargout{:}] = feval (bwd, q, k, v, g, beta, dout, dS, opts{:}, e{:});
end

function e = extras (vals, given)
  % the Name/Value pairs of the inputs that live in opts (those given)
  names = {'InitialState', 'ALog', 'DtBias'};
  if (numel (vals) == 2)
    names = names(2:3);
  end
  e = {};
  for i = find (given)
    e(end+1:end+2) = {names{i}, vals{i}};
  end
end

function dtb = dtbias_shape (bwd, x, opts, alog, S)
  % DtBias is K x HV (KDA) or HV x 1 (GDN): the shape of the backward's dDtBias
  out = cell (1, 8);
  [out{:}] = feval (bwd, x{:}, zeros (size (x{3})), zeros (size (S)), opts{:}, 'ALog', alog);
  dtb = out{8};
end
