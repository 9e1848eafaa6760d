% FUZZ_CHECK_BWD  Check the gradients of a successful backward call.
%
%   [ok, msg] = fuzz_check_bwd (c, outs)
%
%   c is a case of fuzz_valid for a *_bwd function, outs the gradients the
%   call returned (as many as it asked for).  The loss of the call is
%       L = sum (dout .* o) + sum (dS .* S)     (no second term for dS = [])
%   with o, S from ref_forward in double.  For every gradient returned (of
%   q, k, v, g, beta, InitialState, ALog, DtBias; the state and DtBias taken
%   around zero when not given), along two random directions d of that input
%   alone, the central difference of L must match <grad, d>:
%       |fd - <grad, d>| <= tol * max (|grad| |d|, |fd|, noise / tol)
%   with tol = 1e-6 in double (the accuracy of the differences), 1e-4 in
%   single (the accuracy bound: the left side is at most the la_ratio of grad
%   times |grad| |d|, plus the error of the difference).  The differences
%   are independent of the library but blind to small errors in single
%   entries; so then every gradient is also compared, element by element in
%   the project's metric (la_ratio <= 1e-10 in double, 1e-4 in single),
%   with the double result of the other algorithm of the library (recurrent
%   for chunked, chunked for recurrent) called with the options written
%   plainly.  Every gradient must have the class of the data and the number
%   of elements of its input; dALog and dDtBias must be [] without
%   GateInKernel.  An absolute error of up to 100 ulp of the largest
%   gradient is accepted in each (a gradient that is zero in exact
%   arithmetic, e.g. of q and k with K = 1 and UseQKL2Norm, is rounding).
%
%   See also: fuzz_check_fwd, ref_forward, fd_check.

function [ok, msg] = fuzz_check_bwd (c, outs)
  P = c.ref;
  [x, opts, gik] = inputs_of (P);
  ok = false;
  nin = min (numel (outs), 6 + 2 * gik);
  if (~gik && numel (outs) >= 7 && ~(isempty (outs{7}) && isempty (outs{end})))
    msg = 'dALog or dDtBias is not [] without GateInKernel';
    return;
  end
  tol = 1e-6;
  if (strcmp (P.cls, 'single'))
    tol = 1e-4;
  end
  names = {'dq', 'dk', 'dv', 'dg', 'dbeta', 'dS0', 'dALog', 'dDtBias'};
  msg = 'no gradient returned';
  worst = 0;
  % a gradient that is zero in exact arithmetic (q, k of K = 1 with
  % UseQKL2Norm) comes out as rounding: errors up to 100 ulp of the largest
  % gradient (of the reference, all of them) are accepted in every gradient
  [ref, msg] = other_path_grads (c);
  if (isempty (ref))
    return;
  end
  floor_abs = 100 * double (eps (P.cls)) * max ([0, cellfun(@(g) norm (g(:)), ref)]);
  for i = 1:nin
    if (numel (outs{i}) ~= numel (x{i}) || ~strcmp (class (outs{i}), P.cls))
      msg = sprintf ('%s is %s with %d elements, needs %s with %d', names{i}, ...
                     class (outs{i}), numel (outs{i}), P.cls, numel (x{i}));
      return;
    end
    for rep = 1:2
      [err, fd, pred] = direction_error (P, x, opts, gik, i, double (outs{i}), tol, floor_abs);
      if (~(err <= worst))
        worst = err;
        msg = sprintf ('%s: directional derivative fd %.10g, gradient %.10g, error %g (tol %g)', ...
                       names{i}, fd, pred, err, tol);
      end
    end
  end
  if (worst <= tol)
    [ok, msg] = compare_other (c, ref, outs(1:nin), names, tol, floor_abs);
  end
end

function [ref, msg] = other_path_grads (c)
  % all the gradients, in double, of the other algorithm of the library
  % (recurrent <-> chunked), called with the options written plainly
  P = c.ref;
  data = cellfun (@double, {P.q, P.k, P.v, P.g, P.beta, P.dout, P.dS_used}, ...
                  'UniformOutput', false);
  ref = cell (1, 8);
  msg = '';
  try
    [ref{:}] = feval (other_of (c.fname), data{:}, P.opts{:});
    ref = cellfun (@double, ref, 'UniformOutput', false);
  catch e
    ref = {};
    msg = sprintf ('the reference call of %s failed: %s', other_of (c.fname), e.message);
  end
end

function other = other_of (fname)
  if (isempty (strfind (fname, 'chunk')))
    other = strrep (fname, 'recurrent', 'chunk');
  else
    other = strrep (fname, 'chunk', 'recurrent');
  end
end

function [ok, msg] = compare_other (c, ref, outs, names, tol, floor_abs)
  % every gradient against the other algorithm's, in the project's metric:
  % 1e-10 in double, 1e-4 in single (the 1e-6 of the differences marks
  % their accuracy, not that of the gradients)
  tol = max (tol / 100, 1e-10);
  if (strcmp (c.ref.cls, 'single'))
    tol = 1e-4;
  end
  ok = true;
  msg = '';
  for i = 1:numel (outs)
    r = norm (double (outs{i}(:)) - ref{i}(:)) / max ([norm(ref{i}(:)), floor_abs / tol, realmin]);
    if (~(r <= tol))
      ok = false;
      msg = sprintf ('%s differs from %s in double: ratio %g > %g', names{i}, ...
                     other_of (c.fname), r, tol);
      return;
    end
  end
end

function [err, fd, pred] = direction_error (P, x, opts, gik, i, grad, tol, floor_abs)
  % central difference of the loss along a random direction of input i alone,
  % against <grad, d>, relative to |grad| |d| (so err <= the la_ratio of grad
  % plus the error of the difference)
  h = 1e-6;
  d = cellfun (@(a) zeros (size (a)), x, 'UniformOutput', false);
  d{i} = randn (size (x{i}));
  [Lp, Lbig] = loss (P, x, d, h, opts, gik);
  Lm = loss (P, x, d, -h, opts, gik);
  fd = (Lp - Lm) / (2 * h);
  pred = grad(:)' * d{i}(:);
  noise = 10 * eps * Lbig / h;
  err = abs (fd - pred) / max ([max(norm (grad(:)), floor_abs / tol) * norm(d{i}(:)), ...
                                abs(fd), noise / tol, realmin]);
  if (fd == pred)
    err = 0;                                     % e.g. an empty problem: 0 = 0
  end
end

function [x, opts, gik] = inputs_of (P)
  % the differentiable inputs in double, in the order of the gradients
  [s0, opts] = take_option (P.opts, 'InitialState');
  [alog, opts] = take_option (opts, 'ALog');
  [dtb, opts] = take_option (opts, 'DtBias');
  gik = logical (take_option (opts, 'GateInKernel', false));
  vk = strcmpi (take_option (opts, 'StateLayout', 'KV'), 'VK');
  if (isempty (s0))
    ssz = [P.K, P.V, P.HV, P.N];
    s0 = zeros (ssz([1 + vk, 2 - vk, 3, 4]));
  end
  if (isempty (dtb))
    dtb = zeros (P.K ^ strcmp (P.op, 'kda'), P.HV);
  end
  x = cellfun (@double, {P.q, P.k, P.v, P.g, P.beta, s0}, 'UniformOutput', false);
  if (gik)
    x(7:8) = {double(alog), double(dtb)};
  end
end

function [L, Lbig] = loss (P, x, d, h, opts, gik)
  y = cellfun (@(a, b) a + h * b, x, d, 'UniformOutput', false);
  extra = {'InitialState', y{6}};
  if (gik)
    extra(3:6) = {'ALog', y{7}, 'DtBias', y{8}};
  end
  [o, S] = ref_forward (P.op, y{1:5}, opts{:}, extra{:});
  dout = double (P.dout);
  terms = dout(:) .* o(:);
  if (~isempty (P.dS_used))
    terms = [terms; double(P.dS_used(:)) .* S(:)];
  end
  L = sum (terms);
  Lbig = sum (abs (terms));
end
