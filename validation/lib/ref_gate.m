% REF_GATE  The GateInKernel transform (softplus and LowerBound forms), with its backward.
%
%   [g, back] = ref_gate (op, graw, ALog, DtBias, LowerBound)
%   [dgraw, dALog, dDtBias] = back (dg)
%
%   op is 'kda' (graw K x T x HV x B, DtBias K x HV) or 'gdn' (graw
%   T x HV x B, DtBias HV x 1); ALog is HV x 1; DtBias may be [] (zero).
%   With x = graw + DtBias (per value head and, for KDA, channel) and
%   a = exp (ALog) per value head, the gate used is
%       g = -a .* softplus (x)                  (LowerBound empty)
%       g = LowerBound * sigmoid (a .* x)        (LowerBound = lb < 0)
%   with the overflow-free ref_softplus and ref_sigmoid.  ALog may be []
%   with a LowerBound (FLA's gate without A_log): a = 1, and dALog is [].
%   back maps the
%   gradient dg of the used gate to those of graw, ALog and DtBias (each in
%   the shape of its input; dDtBias K x HV or HV x 1 when DtBias was []).
%
%   See also: ref_softplus, ref_sigmoid, ref_transform.

function [g, back] = ref_gate (op, graw, alog, dtb, lb)
  kda = strcmpi (op, 'kda');
  alog_size = size (alog);
  if (kda)
    K = size (graw, 1);
    HV = size (graw, 3);
    head_shape = [1, 1, HV];
    bias_shape = [K, 1, HV];
    bias_out = [K, HV];
    other_dims = [2, 4];          % summed for dDtBias (then over 1 for dALog)
  else
    HV = size (graw, 2);
    head_shape = [1, HV];
    bias_shape = [1, HV];
    bias_out = [HV, 1];
    other_dims = [1, 3];
  end
  if (isempty (dtb))
    dtb = zeros (bias_out);
  end
  x = graw + reshape (double (dtb), bias_shape);
  if (isempty (alog) && ~isempty (lb))
    a = 1;                        % the LowerBound form without ALog
  else
    a = reshape (exp (double (alog(:))), head_shape);
  end
  if (isempty (lb))
    g = -a .* ref_softplus (x);
    dg_dx = -a .* ref_sigmoid (x);
    dg_dalog = g;                 % d/dALog of -exp (ALog) softplus (x)
  else
    s = ref_sigmoid (a .* x);
    g = lb * s;
    dg_dx = lb .* s .* (1 - s) .* a;
    dg_dalog = dg_dx .* x;
  end
  back = @(dg) gate_back (dg, dg_dx, dg_dalog, other_dims, alog_size, bias_out);
end

function [dgraw, dalog, ddtb] = gate_back (dg, dg_dx, dg_dalog, other_dims, alog_size, bias_out)
  dgraw = dg .* dg_dx;
  per_head = dg .* dg_dalog;
  for d = other_dims
    per_head = sum (per_head, d);
  end
  if (prod (alog_size) == 0)
    dalog = [];                   % no ALog given: nothing to differentiate
  else
    dalog = reshape (sum (per_head, 1), alog_size);
  end
  ddtb = dgraw;
  for d = other_dims
    ddtb = sum (ddtb, d);
  end
  ddtb = reshape (ddtb, bias_out);
end

%!test
%! % softplus form at x = 0: g = -exp (ALog) log 2
%! g = ref_gate ('gdn', zeros (3, 2), [0; log(2)], [], []);
%! assert (g, -log (2) * [1 2; 1 2; 1 2], eps);
%!test
%! % without ALog the LowerBound form is lb sigmoid (x), and dALog is []
%! x = randn (3, 2);
%! [g, back] = ref_gate ('gdn', x, [], [0.5; -1], -4);
%! assert (g, -4 ./ (1 + exp (-(x + [0.5 -1]))), 1e-14);
%! [~, dalog] = back (ones (3, 2));
%! assert (isempty (dalog));
%!test
%! % the LowerBound form stays in (lb, 0)
%! g = ref_gate ('kda', randn (4, 5, 2), [0; 1], randn (4, 2), -3);
%! assert (all (g(:) > -3 & g(:) < 0));
