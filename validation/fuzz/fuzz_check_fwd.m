% FUZZ_CHECK_FWD  Compare a successful forward call with ref_forward.
%
%   [ok, msg] = fuzz_check_fwd (c, outs)
%
%   c is a case of fuzz_valid ('valid-*' kinds), outs the outputs the call
%   returned.  o and S (when returned) must have the class of the data and
%   agree with the double reference in the project's metric (la_ratio):
%   1e-10 in double, 1e-4 in single.  With a NaN or Inf injected
%   ('valid-nan'), only the blocks (value head x sequence) where the
%   reference is finite are compared: a non-finite value must stay in its
%   own sequence and head.
%
%   See also: fuzz_check_bwd, ref_forward, la_ratio.

function [ok, msg] = fuzz_check_fwd (c, outs)
  P = c.ref;
  tol = 1e-10;
  if (strcmp (P.cls, 'single'))
    tol = 1e-4;
  end
  [o_ref, S_ref] = ref_forward (P.op, P.q, P.k, P.v, P.g, P.beta, P.opts{:});
  refs = {o_ref, S_ref};
  names = {'o', 'S'};
  ok = true;
  msg = '';
  for i = 1:min (2, numel (outs))
    x = outs{i};
    if (~strcmp (class (x), P.cls) || numel (x) ~= numel (refs{i}))
      ok = false;
      msg = sprintf ('%s is %s with %d elements, needs %s with %d', names{i}, ...
                     class (x), numel (x), P.cls, numel (refs{i}));
      return;
    end
    r = block_ratio (refs{i}, reshape (double (x), size (refs{i})), i == 1, P);
    if (~(r <= tol))
      ok = false;
      msg = sprintf ('%s differs from ref_forward: ratio %g > %g', names{i}, r, tol);
      return;
    end
  end
  if (numel (outs) >= 3 && ~isstruct (outs{3}))
    ok = false;
    msg = sprintf ('aux is a %s, needs a struct', class (outs{3}));
  end
end

function r = block_ratio (ref, x, is_o, P)
  % the worst la_ratio over the blocks whose reference is all finite
  if (~strcmp (c_kind (P), 'nan'))
    r = la_ratio (ref, x);
    return;
  end
  r = 0;
  for b = 1:size (ref, 4)
    for j = 1:size (ref, 3)
      for cols = segments (is_o, P, b)
        rb = ref(:, cols{1}, j, b);
        if (all (isfinite (rb(:))))
          r = max (r, la_ratio (rb, x(:, cols{1}, j, b)));
        end
      end
    end
  end
end

function segs = segments (is_o, P, b)
  % column ranges of one sequence each: o's steps, or S's single column
  if (~is_o)
    segs = {':'};
    return;
  end
  cu = [0, P.T];
  i = find (strcmpi (P.opts(1:2:end), 'CuSeqlens'), 1);
  if (~isempty (i))
    cu = double (P.opts{2 * i}(:)');
  end
  segs = arrayfun (@(s) cu(s) + 1:cu(s + 1), 1:numel (cu) - 1, 'UniformOutput', false);
end

function k = c_kind (P)
  k = 'plain';
  if (isfield (P, 'nonfinite') && P.nonfinite)
    k = 'nan';
  end
end
