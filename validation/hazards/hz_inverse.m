% HZ_INVERSE  (I + N)^-1 of a strictly lower triangular N, four ways.
%
%   [X, flops] = hz_inverse (N, method, fmt)
%   [X, flops] = hz_inverse (N, 'neumann', fmt, m)
%
%   N is the c x c strictly lower triangular A_raw of docs/chunk_forward.md
%   (27); L = I + N is unit lower triangular.  method:
%     'subst'    forward substitution, row by row (this library: exact up to
%                rounding, backward stable, (37));
%     'neumann'  the series I - N + N^2 - ... truncated after the power m
%                (exact only for m >= c - 1, (38));
%     'doubling' (I - N)(I + N^2)(I + N^4)...: ceil(log2 c) factors, the
%                series up to N^(2^r - 1), exact in exact arithmetic;
%     'blocked'  the form of the FLA kernels: the 16 x 16 diagonal blocks
%                inverted by substitution, then merged block row by block
%                row, Ai_IJ = -Ai_II sum_{J <= P < I} N_IP Ai_PJ (for two
%                blocks: Ai10 = -Ai11 N10 Ai00).
%   Every matrix product goes through hz_mm in format fmt ('double',
%   'single', 'bf16', 'fp16'); sums are in double or single.  flops is the
%   nominal count of the method (hz_flops).
%
%   See also: hz_mm, hz_flops, hz_chunk_fwd.

function [X, flops] = hz_inverse (N, method, fmt, m)
  if (nargin < 4)
    m = 0;
  end
  c = size (N, 1);
  wc = work_class (fmt);
  N = cast (ref_round (N, fmt), wc);
  I = eye (c, wc);
  switch method
    case 'subst'
      X = subst (N, fmt);
    case 'neumann'
      X = I;
      P = I;
      for t = 1:m
        P = -hz_mm (N, P, fmt);          % (-N)^t
        X = X + P;
      end
    case 'doubling'
      P = -N;
      X = I + P;                         % (I - N)
      for t = 2:ceil (log2 (c))
        P = hz_mm (P, P, fmt);           % N^(2^(t-1))
        X = X + hz_mm (X, P, fmt);       % X (I + P)
      end
    case 'blocked'
      X = blocked (N, fmt, 16);
    otherwise
      error ('hz_inverse: unknown method ''%s''', method);
  end
  flops = hz_flops (method, c, m);
end

% forward substitution: row i of X = -N(i, 1:i-1) X(1:i-1, :), X lower, unit
function X = subst (N, fmt)
  c = size (N, 1);
  X = eye (c, class (N));
  for i = 2:c
    X(i, 1:i-1) = -hz_mm (N(i, 1:i-1), X(1:i-1, 1:i-1), fmt);
  end
end

function X = blocked (N, fmt, bs)
  c = size (N, 1);
  starts = 1:bs:c;
  nb = numel (starts);
  blk = @(p) starts(p):min (starts(p) + bs - 1, c);
  X = zeros (c, class (N));
  for p = 1:nb
    X(blk(p), blk(p)) = subst (N(blk(p), blk(p)), fmt);
  end
  for p = 2:nb                           % block row by block row
    for j = 1:p - 1
      acc = zeros (numel (blk(p)), numel (blk(j)), class (N));
      for r = j:p - 1
        acc = acc + hz_mm (N(blk(p), blk(r)), X(blk(r), blk(j)), fmt);
      end
      X(blk(p), blk(j)) = -hz_mm (X(blk(p), blk(p)), acc, fmt);
    end
  end
end

function wc = work_class (fmt)
  if (strcmp (fmt, 'double'))
    wc = 'double';
  else
    wc = 'single';
  end
end

%!test
%! addpath (fullfile (fileparts (which ('la_ratio')), '..', 'hazards'));  % run_tests puts lib on the path
%! c = 40;  N = tril (randn (c) / 4, -1);  L = eye (c) + N;
%! for meth = {'subst', 'doubling', 'blocked'}
%!   X = hz_inverse (N, meth{1}, 'double');
%!   assert (norm (L * X - eye (c)) < 1e-12);
%! end
%! assert (norm (L * hz_inverse (N, 'neumann', 'double', c - 1) - eye (c)) < 1e-12);
%! assert (norm (L * hz_inverse (N, 'neumann', 'double', 2) - eye (c)) > 1e-3);
%!test
%! addpath (fullfile (fileparts (which ('la_ratio')), '..', 'hazards'));  % run_tests puts lib on the path
%! c = 37;  N = tril (randn (c) / 4, -1);
%! X = hz_inverse (N, 'blocked', 'single');
%! assert (class (X), 'single');
%! assert (norm (double (X) - inv (eye (c) + N)) / norm (inv (eye (c) + N)) < 1e-5);
