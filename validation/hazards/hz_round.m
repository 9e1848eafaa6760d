% HZ_ROUND  Round to a floating-point format: double, single, bf16 or fp16.
%
%   y = hz_round (x, fmt)
%
%   fmt is 'double' (y = double (x)), 'single' (y = single (x)), 'bf16'
%   (8 significant bits, the exponent range of single) or 'fp16' (11
%   significant bits, largest finite 65504, subnormals down to 2^-24).  The
%   low formats are rounded exactly, to nearest with ties to even, from the
%   double value of x, with gradual underflow and overflow to +-Inf; y is
%   single for them (every bf16 and fp16 number is a single number), so
%   that arithmetic on y is single arithmetic: "bf16 operands, fp32
%   accumulation", as in the tensor-core products of GPU kernels.
%
%   See also: hz_mm.

function y = hz_round (x, fmt)
  switch fmt
    case 'double'
      y = double (x);
      return;
    case 'single'
      y = single (x);
      return;
    case 'bf16'
      p = 8;  emin = -126;  xmax = (2 - 2^-7) * 2^127;
    case 'fp16'
      p = 11;  emin = -14;  xmax = 65504;
    otherwise
      error ('hz_round: unknown format ''%s''', fmt);
  end
  x = double (x);
  y = x;
  fin = isfinite (x) & x ~= 0;
  [~, e] = log2 (x(fin));                  % x = f 2^e, 0.5 <= |f| < 1
  % exponent of the last kept bit: p bits below the leading one, but never
  % below the subnormal spacing 2^(emin + 1 - p)
  q = max (e, emin + 1) - p;
  m = x(fin) .* 2 .^ (-q);                 % exact (power-of-two scaling)
  r = round (m);
  tie = abs (m - fix (m)) == 0.5;          % round () breaks ties away from 0
  r(tie) = 2 * round (m(tie) / 2);
  y(fin) = r .* 2 .^ q;
  big = abs (y) > xmax;
  y(big) = sign (y(big)) * Inf;
  y = single (y);
end

%!test
%! addpath (fullfile (fileparts (which ('la_ratio')), '..', 'hazards'));  % run_tests puts lib on the path
%! % bf16: 1 + 2^-8 is a tie between 1 and 1 + 2^-7: to even (1)
%! assert (hz_round (1 + 2^-8, 'bf16'), single (1));
%! assert (hz_round (1 + 3 * 2^-8, 'bf16'), single (1 + 2^-6));
%! assert (hz_round (1 + 2^-8 + 2^-20, 'bf16'), single (1 + 2^-7));
%! assert (hz_round (-3.14159, 'bf16'), single (-3.140625));
%!test
%! addpath (fullfile (fileparts (which ('la_ratio')), '..', 'hazards'));  % run_tests puts lib on the path
%! % fp16: largest finite, overflow, subnormals, ties to even
%! assert (hz_round (65504, 'fp16'), single (65504));
%! assert (hz_round (65519, 'fp16'), single (65504));
%! assert (isinf (hz_round (65520, 'fp16')));
%! assert (hz_round (2^-24, 'fp16'), single (2^-24));
%! assert (hz_round (2^-25, 'fp16'), single (0));
%! assert (hz_round (3 * 2^-25, 'fp16'), single (2^-23));
%! assert (hz_round (1 + 2^-11, 'fp16'), single (1));
%!test
%! addpath (fullfile (fileparts (which ('la_ratio')), '..', 'hazards'));  % run_tests puts lib on the path
%! % every result is a number of the format: idempotent, and within half a unit
%! x = randn (1000, 1) .* 10 .^ (4 * randn (1000, 1));
%! for f = {'bf16', 'fp16'}
%!   y = hz_round (x, f{1});
%!   assert (isequal (hz_round (y, f{1}), y));
%! end
%! y = double (hz_round (x, 'bf16'));
%! assert (all (abs (y - x) <= 2^-8 * abs (x)));
%! assert (hz_round ([0 Inf -Inf], 'bf16'), single ([0 Inf -Inf]));
