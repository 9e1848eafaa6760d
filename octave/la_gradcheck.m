% la_gradcheck  Check a hand-written backward against central finite differences.
%
%   [ok, tab] = la_gradcheck (FWD, BWD, INPUTS)
%   [ok, tab] = la_gradcheck (FWD, BWD, INPUTS, Name, Value, ...)
%   la_gradcheck (...)              (no output: print the table)
%   la_gradcheck (tab)              print a table returned earlier
%
%   Checks the gradient that a backward function BWD returns for a forward
%   function FWD of arrays, for any such pair: this library's functions, or a
%   variant of your own.
%
%   FWD      function handle (or name): [y1, ..., ym] = FWD (x1, ..., xn)
%   BWD      function handle (or name):
%                [dx1, ..., dxn] = BWD (x1, ..., xn, dy1, ..., dym)
%            the gradients of L = sum_j <dy_j, y_j> with respect to every
%            input, each of the size of its input.
%   INPUTS   cell {x1, ..., xn} of the point where the check is made.
%
%   Every floating-point input is converted to double, and so is the check:
%   the loss is L = sum_j sum (W_j(:) .* y_j(:)) with random normal weights
%   W_j of the size of each (numeric) output y_j, BWD is called once with
%   dy_j = W_j, and each gradient dx_i is compared with central differences
%   (L(x + h d) - L(x - h d)) / (2 h) of its input x_i
%     - along 'NDir' random unit directions d, error
%           |fd - <dx_i, d>| / max (norm (dx_i), |fd|, noise / Tol)
%     - at 'NEntry' randomly sampled single entries e, error
%           |fd - dx_i(e)| / max (max (abs (dx_i)), |fd|, noise / Tol)
%   where noise = 10 eps sum_j sum |W_j .* y_j| / h is the rounding error of
%   one difference quotient: the scale of the function divided by the step.
%   An input passes when its gradient has its size and every error is at
%   most Tol: a relative error Tol against the gradient's scale, or an
%   absolute error below the noise when the gradient is far smaller than the
%   function (what differences of step h can resolve).  The truncation error
%   of central differences is O(h^2) relative, far below the default Tol.
%   An empty input is checked for an empty gradient only.
%
%   Options (defaults):
%     'Step'        1e-6     the difference step h
%     'Tol'         1e-6     the bound of every error
%     'NDir'        3        random directions per input
%     'NEntry'      3        sampled entries per input
%     'NumOutputs'  nargout (FWD), at least 1: how many outputs FWD returns
%     'LossOutputs' all      indices of the outputs in the loss; the others
%                            (and non-numeric outputs, e.g. a struct) get
%                            dy = [] and no weight
%     'Check'       all      indices of the inputs to check (default: every
%                            floating-point input; others are passed as given)
%     'Names'       x1, x2, ...   names of the inputs (the table prints dNAME)
%     'Seed'        []       if given, seeds rand and randn first
%     'Print'       nargout == 0   print the table
%     'Plot'        false    true: plot the errors in a new figure; a file
%                            name (.png): plot into that file, invisibly
%
%   ok is true when every checked input passes.  tab is a struct array, one
%   element per checked input, with fields
%     name       'd' followed by the input's name
%     size_ok    the gradient has the size of its input
%     dir_err    largest error over the directions
%     entry_err  largest error over the entries
%     maxerr     max (dir_err, entry_err) (Inf when size_ok is false)
%     scale      norm of the gradient
%     noise      the rounding noise of the differences (see above)
%     tol        Tol
%     pass       size_ok && maxerr <= tol (false for NaN)
%
%   Errors: 'la:badBackward' when BWD does not take the n inputs and one dy
%   per output (NumOutputs) or fails when called so; 'la:badForward' when FWD
%   does not take the n inputs; 'la:badOption' for a bad option.
%
%   Example:
%     % a library function as it is (InitialState as an input; both
%     % outputs, o and the final state, in the loss)
%     q = randn (8, 20);  k = randn (8, 20);  v = randn (6, 20);
%     g = -rand (20, 1);  beta = rand (20, 1);  S0 = randn (8, 6);
%     fwd = @(q, k, v, g, beta, S0) gdn_chunk (q, k, v, g, beta, 'InitialState', S0);
%     bwd = @(q, k, v, g, beta, S0, dout, dS) ...
%               gdn_chunk_bwd (q, k, v, g, beta, dout, dS, 'InitialState', S0);
%     la_gradcheck (fwd, bwd, {q, k, v, g, beta, S0}, 'NumOutputs', 2)
%     % docs/gradcheck.md checks a variant of your own: KDA with an output gate.
%
%   See also: kda_recurrent_bwd, kda_chunk_bwd, gdn_recurrent_bwd, gdn_chunk_bwd.

function [ok, tab] = la_gradcheck (fwd, bwd, inputs, varargin)
  if (nargin == 1 && isstruct (fwd) && isfield (fwd, 'maxerr'))
    print_table (fwd);
    return;
  end
  if (nargin < 3 || ~iscell (inputs))
    error ('la:nargin', 'la_gradcheck: needs FWD, BWD and a cell of INPUTS');
  end
  cfg = parse_options (fwd, inputs, varargin, nargout);
  if (~isempty (cfg.Seed))
    rand ('state', cfg.Seed);
    randn ('state', cfg.Seed);
  end
  x = inputs;
  for i = 1:numel (x)
    if (isfloat (x{i}))
      x{i} = double (x{i});
    end
  end

  check_arity (fwd, bwd, numel (x), cfg.NumOutputs);

  % the loss weights, the rounding noise and the analytic gradients
  y = cell (1, cfg.NumOutputs);
  [y{:}] = feval (fwd, x{:});
  W = cell (1, cfg.NumOutputs);
  abs_terms = 0;
  for j = cfg.LossOutputs
    W{j} = randn (size (y{j}));
    abs_terms = abs_terms + sum (abs (W{j}(:) .* double (y{j}(:))));
  end
  noise = 10 * eps * abs_terms / cfg.Step;
  grads = cell (1, numel (x));
  try
    [grads{:}] = feval (bwd, x{:}, W{:});
  catch err
    error ('la:badBackward', ['la_gradcheck: BWD (%s) failed when called as ' ...
           'BWD (x1, ..., x%d, dy1, ..., dy%d) for %d gradients: %s'], ...
           handle_text (bwd), numel (x), cfg.NumOutputs, numel (x), err.message);
  end
  loss = @(xx) loss_of (fwd, xx, W, cfg);

  tab = struct ('name', {}, 'size_ok', {}, 'dir_err', {}, 'entry_err', {}, ...
                'maxerr', {}, 'scale', {}, 'noise', {}, 'tol', {}, 'pass', {});
  for i = cfg.Check
    tab(end + 1) = check_input (loss, x, i, double (grads{i}), noise, cfg);
  end
  ok = all ([tab.pass]);
  if (cfg.Print)
    print_table (tab);
  end
  if (~isequal (cfg.Plot, false))
    plot_table (tab, cfg.Plot);
  end
  if (nargout == 0)
    clear ok;
  end
end

% ---- the functions' signatures ----------------------------------------------

function check_arity (fwd, bwd, nin, nout)
  % BWD takes the n inputs and one dy per output of FWD; an arity known to
  % be wrong is named here, before Octave's own message about an anonymous
  % function called with too many inputs
  n_bwd = arity (bwd);
  if (n_bwd >= 0 && n_bwd ~= nin + nout)
    error ('la:badBackward', ['la_gradcheck: BWD (%s) takes %d arguments, but ' ...
           'is called with %d: the %d inputs, then the gradient dy of each of ' ...
           'the %d outputs of FWD (set ''NumOutputs'' if FWD has fewer in the loss)'], ...
           handle_text (bwd), n_bwd, nin + nout, nin, nout);
  end
  n_fwd = arity (fwd);
  if (n_fwd >= 0 && n_fwd ~= nin)
    error ('la:badForward', 'la_gradcheck: FWD (%s) takes %d arguments, but INPUTS holds %d', ...
           handle_text (fwd), n_fwd, nin);
  end
end

function n = arity (f)
  % the number of arguments f declares; -1 when unknown or variable
  try
    n = nargin (f);
  catch
    n = -1;
  end
  if (n < 0)
    n = -1;
  end
end

function t = handle_text (f)
  if (ischar (f))
    t = f;
  else
    t = func2str (f);
  end
end

% ---- one input -----------------------------------------------------------

function r = check_input (loss, x, i, gr, noise, cfg)
  xin = x{i};
  r = struct ('name', ['d' cfg.Names{i}], 'size_ok', isequal (size (gr), size (xin)), ...
              'dir_err', 0, 'entry_err', 0, 'maxerr', 0, 'scale', norm (gr(:)), ...
              'noise', noise, 'tol', cfg.Tol, 'pass', true);
  if (~r.size_ok || isempty (xin))
    % an empty input needs an empty gradient; nothing to differentiate
    r.noise = 0;
    if (~r.size_ok)
      r.maxerr = Inf;
    end
    r.pass = r.size_ok;
    return;
  end
  floor_ = noise / cfg.Tol;
  h = cfg.Step;
  for j = 1:cfg.NDir
    d = randn (size (xin));
    d = d / norm (d(:));
    fd = central (loss, x, i, d, h);
    an = sum (gr(:) .* d(:));
    den = max ([norm(gr(:)), abs(fd), floor_, realmin]);
    r.dir_err = max (r.dir_err, abs (fd - an) / den);
  end
  n = numel (xin);
  idx = randperm (n);
  for e = idx(1:min (n, cfg.NEntry))
    d = zeros (size (xin));
    d(e) = 1;
    fd = central (loss, x, i, d, h);
    den = max ([max(abs (gr(:))), abs(fd), floor_, realmin]);
    r.entry_err = max (r.entry_err, abs (fd - gr(e)) / den);
  end
  r.maxerr = max (r.dir_err, r.entry_err);
  r.pass = r.maxerr <= cfg.Tol;           % false for NaN too
end

function fd = central (loss, x, i, d, h)
  xp = x;
  xp{i} = x{i} + h * d;
  xm = x;
  xm{i} = x{i} - h * d;
  fd = (loss (xp) - loss (xm)) / (2 * h);
end

function L = loss_of (fwd, x, W, cfg)
  y = cell (1, cfg.NumOutputs);
  [y{:}] = feval (fwd, x{:});
  L = 0;
  for j = cfg.LossOutputs
    L = L + sum (W{j}(:) .* double (y{j}(:)));
  end
end

% ---- options, table, plot --------------------------------------------------

function cfg = parse_options (fwd, inputs, args, nout)
  n = numel (inputs);
  cfg = struct ('Step', 1e-6, 'Tol', 1e-6, 'NDir', 3, 'NEntry', 3, ...
                'NumOutputs', [], 'LossOutputs', [], 'Check', [], 'Names', {{}}, ...
                'Seed', [], 'Print', nout == 0, 'Plot', false);
  if (mod (numel (args), 2) ~= 0)
    error ('la:badOption', 'la_gradcheck: options must come in Name, Value pairs');
  end
  names = fieldnames (cfg);
  for i = 1:2:numel (args)
    hit = find (strcmpi (args{i}, names));
    if (isempty (hit))
      error ('la:badOption', 'la_gradcheck: unknown option ''%s''', num2str (args{i}));
    end
    cfg.(names{hit}) = args{i + 1};
  end
  if (isempty (cfg.NumOutputs))
    cfg.NumOutputs = max (1, nargout (fwd));
  end
  if (isempty (cfg.Check))
    cfg.Check = find (cellfun (@isfloat, inputs));
  end
  if (isempty (cfg.Names))
    cfg.Names = arrayfun (@(i) sprintf ('x%d', i), 1:n, 'UniformOutput', false);
  end
  if (numel (cfg.Names) ~= n)
    error ('la:badOption', 'la_gradcheck: ''Names'' needs one name per input (%d)', n);
  end
  cfg.Check = cfg.Check(:)';
  if (isempty (cfg.LossOutputs))
    cfg.LossOutputs = 1:cfg.NumOutputs;
  end
  cfg.LossOutputs = cfg.LossOutputs(:)';
end

function print_table (tab)
  fprintf ('  %-8s %6s %11s %11s %11s %11s %9s  %s\n', 'gradient', 'size', ...
           'dir err', 'entry err', 'norm', 'noise', 'tol', 'result');
  for i = 1:numel (tab)
    r = tab(i);
    if (r.size_ok && r.scale == 0 && r.noise == 0)
      sz = '[]';
    elseif (r.size_ok)
      sz = 'ok';
    else
      sz = 'WRONG';
    end
    verdict = 'FAIL';
    if (r.pass)
      verdict = 'pass';
    end
    fprintf ('  %-8s %6s %11.3e %11.3e %11.3e %11.3e %9.1e  %s\n', r.name, ...
             sz, r.dir_err, r.entry_err, r.scale, r.noise, r.tol, verdict);
  end
end

function plot_table (tab, target)
  % both errors of every input on a log axis; zeros drawn at a floor
  to_file = ischar (target);
  % Without a display Octave has only the gnuplot toolkit and says, once
  % per session, that it is discouraged: a note about Octave's GUI, not
  % about this plot, which gnuplot draws in full.
  saved_warning = warning ('off', 'Octave:gnuplot-graphics');
  if (to_file)
    fig = figure ('visible', 'off');
  else
    fig = figure ();
  end
  lo = 1e-17;
  n = numel (tab);
  semilogy (1:n, max ([tab.dir_err], lo), 'bo', 1:n, max ([tab.entry_err], lo), 'gs', ...
            [0.5, n + 0.5], [tab(1).tol, tab(1).tol], 'r-', 'linewidth', 1.5);
  set (gca, 'xtick', 1:n, 'xticklabel', {tab.name});
  xlim ([0.5, n + 0.5]);
  ylim ([lo, 10]);
  legend ('directions', 'entries', sprintf ('bound %.0e', tab(1).tol), 'location', 'northeastoutside');
  ylabel (sprintf ('error vs finite differences (0 drawn at %.0e)', lo));
  title ('la_gradcheck: largest error per input', 'interpreter', 'none');
  if (to_file)
    print (fig, '-dpng', '-r80', target);
    close (fig);
  else
    drawnow ();
  end
  warning (saved_warning);
end

% ---- tests -------------------------------------------------------------------

%!function y = sg_ (z)
%!  y = 1 ./ (1 + exp (-z));
%!endfunction

%!function o = gated_fwd_ (q, k, v, g, b, z)
%!  % a user's variant: KDA with an output gate sigmoid (z) per entry of o
%!  o = kda_recurrent (q, k, v, g, b) .* sg_ (z);
%!endfunction

%!function [dq, dk, dv, dg, db, dz] = gated_bwd_ (q, k, v, g, b, z, dout)
%!  % its hand-written backward: through the gate, then the library's
%!  o = kda_recurrent (q, k, v, g, b);
%!  s = sg_ (z);
%!  dz = dout .* o .* s .* (1 - s);
%!  [dq, dk, dv, dg, db] = kda_recurrent_bwd (q, k, v, g, b, dout .* s, []);
%!endfunction

%!function [dq, dk, dv, dg, db, dz] = gated_bwd_bug_ (q, k, v, g, b, z, dout)
%!  % the same with a planted bug: the sigmoid's derivative lacks (1 - s)
%!  [dq, dk, dv, dg, db, dz] = gated_bwd_ (q, k, v, g, b, z, dout);
%!  s = sg_ (z);
%!  dz = dz ./ (1 - s);
%!endfunction

%!function [q, k, v, g, b, z] = gated_inputs_ ()
%!  randn ('state', 7);  rand ('state', 7);
%!  q = randn (4, 6) / 2;  k = randn (4, 6);  k = k ./ sqrt (sum (k .^ 2, 1));
%!  v = randn (3, 6);  g = -rand (4, 6);  b = rand (6, 1);  z = randn (3, 6);
%!endfunction

%!test
%! % a user-defined variant and its correct backward pass, in single too
%! [q, k, v, g, b, z] = gated_inputs_ ();
%! names = {'q', 'k', 'v', 'g', 'beta', 'z'};
%! [ok, tab] = la_gradcheck (@gated_fwd_, @gated_bwd_, {q, k, v, g, b, z}, ...
%!                           'Names', names, 'Seed', 1);
%! assert (ok);
%! assert ({tab.name}, {'dq', 'dk', 'dv', 'dg', 'dbeta', 'dz'});
%! assert (max ([tab.maxerr]) < 1e-7);
%! in = cellfun (@single, {q, k, v, g, b, z}, 'UniformOutput', false);
%! assert (la_gradcheck (@gated_fwd_, @gated_bwd_, in, 'Seed', 1));

%!test
%! % the planted bug is found, in dz only
%! [q, k, v, g, b, z] = gated_inputs_ ();
%! [ok, tab] = la_gradcheck (@gated_fwd_, @gated_bwd_bug_, {q, k, v, g, b, z}, 'Seed', 2);
%! assert (~ok);
%! assert ([tab.pass], [true true true true true false]);
%! assert (tab(6).maxerr > 1e-2);

%!test
%! % a library pair as it is: two outputs (o and the final state), and a
%! % gradient of the wrong size is reported
%! randn ('state', 3);  rand ('state', 3);
%! q = randn (5, 7);  k = randn (5, 7);  v = randn (4, 7);  g = -rand (7, 1) - 0.1;
%! b = rand (7, 1);
%! fwd = @(q, k, v, g, b) gdn_chunk (q, k, v, g, b, 'UseQKL2Norm', true, 'ChunkSize', 3);
%! bwd = @(q, k, v, g, b, dout, dS) gdn_chunk_bwd (q, k, v, g, b, dout, dS, ...
%!                                               'UseQKL2Norm', true, 'ChunkSize', 3);
%! [ok, tab] = la_gradcheck (fwd, bwd, {q, k, v, g, b}, 'NumOutputs', 2);
%! assert (ok && numel (tab) == 5);
%! bad = @(varargin) deal (1, 2, 3, 4, 5);
%! [ok, tab] = la_gradcheck (fwd, bad, {q, k, v, g, b}, 'NumOutputs', 2);
%! assert (~ok && ~any ([tab.size_ok]) && all (isinf ([tab.maxerr])));

%!test
%! % a plot into a file
%! f = [tempname() '.png'];
%! w = warning ('off', 'Octave:gnuplot-graphics');
%! [ok, tab] = la_gradcheck (@(x) x .^ 2, @(x, dy) 2 * x .* dy, {randn(3)}, 'Plot', f);
%! warning (w);
%! assert (ok && exist (f, 'file') == 2);
%! delete (f);

%!error <cell of INPUTS> la_gradcheck (@sin, @cos, 1)
%!error <unknown option> la_gradcheck (@sin, @(x, d) cos (x) .* d, {1}, 'Bogus', 1)
%!error <la_gradcheck: BWD .* takes 1 arguments, but is called with 2> la_gradcheck (@(x) x .^ 2, @(x) 2 * x, {randn(3)})
%!error <la_gradcheck: FWD .* takes 2 arguments, but INPUTS holds 1> la_gradcheck (@(x, y) x, @(x, dy) dy, {1})
%!error <BWD .* failed when called> la_gradcheck (@(x) x, @(varargin) error ('mine'), {1})
%!test
%! % a backward of the right arity, written with varargin, is accepted
%! ok = la_gradcheck (@(x) x .^ 2, @(varargin) 2 * varargin{1} .* varargin{2}, {randn(3)});
%! assert (ok)
%!test
%! % 'Plot' to a file writes it, and prints no warning (gnuplot's included)
%! f = [tempname() '.png'];
%! out = evalc ('la_gradcheck (@(x) x .^ 2, @(x, dy) 2 * x .* dy, {randn(3)}, ''Plot'', f);');
%! assert (exist (f, 'file') == 2)
%! assert (isempty (strfind (out, 'warning')), out)
%! delete (f);

%!demo
%! % the gradient of a small function of two arrays, and a broken one
%! f  = @(a, b) a * b;                       % matrix product
%! df = @(a, b, dy) deal (dy * b', a' * dy);  % its backward
%! la_gradcheck (f, df, {randn(3, 4), randn(4, 2)}, 'Names', {'a', 'b'})
%! wrong = @(a, b, dy) deal (dy * b', 2 * a' * dy);    % a factor 2 too many
%! la_gradcheck (f, wrong, {randn(3, 4), randn(4, 2)}, 'Names', {'a', 'b'})
