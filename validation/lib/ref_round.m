% REF_ROUND  Round to a floating-point format: double, single, bf16, fp16 or tf32.
%
%   y = ref_round (x, fmt)
%
%   fmt: 'double' (y = double (x)), 'single' (y = single (x)), 'bf16' (8
%   significant bits, the exponent range of single), 'fp16' (11 bits,
%   normal from 2^-14, subnormals down to 2^-24, largest finite 65504,
%   Inf from 65520) or 'tf32' (11 bits, the exponent range of single).
%   The value of x is rounded exactly, to nearest with ties to even, with
%   gradual underflow and overflow to +-Inf; y is single for the low
%   formats (every such number is a single number), so that arithmetic on
%   y is single arithmetic ("bf16 operands, fp32 accumulation").  To round
%   as the core does, from the single value of a double x (docs/emulation.md,
%   "Classes"), give single (x).  Written from the grid spacing in double,
%   independently of the C core's bit arithmetic (mex/core/la_round.h),
%   so that each checks the other.
%
%   See also: ref_emulate_fwd, hz_mm.

function y = ref_round (x, fmt)
  switch (fmt)
    case 'double'
      y = double (x);
      return;
    case 'single'
      y = single (x);
      return;
    case 'bf16'
      [p, emin, xmax] = deal (8, -126, (2 - 2 ^ -7) * 2 ^ 127);
    case 'fp16'
      [p, emin, xmax] = deal (11, -14, 65504);
    case 'tf32'
      [p, emin, xmax] = deal (11, -126, (2 - 2 ^ -10) * 2 ^ 127);
    otherwise
      error ('ref_round: fmt must be ''double'', ''single'', ''bf16'', ''fp16'' or ''tf32'', got ''%s''', fmt);
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
%! % bf16: 1 + 2^-8 is a tie between 1 and 1 + 2^-7: to even (1)
%! assert (ref_round (1 + 2^-8, 'bf16'), single (1));
%! assert (ref_round (1 + 3 * 2^-8, 'bf16'), single (1 + 2^-6));
%! assert (ref_round (1 + 2^-8 + 2^-20, 'bf16'), single (1 + 2^-7));
%! assert (ref_round (-3.14159, 'bf16'), single (-3.140625));
%!test
%! % fp16: largest finite, overflow, subnormals, ties to even
%! assert (ref_round (65504, 'fp16'), single (65504));
%! assert (ref_round (65519, 'fp16'), single (65504));
%! assert (isinf (ref_round (65520, 'fp16')));
%! assert (ref_round (2^-24, 'fp16'), single (2^-24));
%! assert (ref_round (2^-25, 'fp16'), single (0));
%! assert (ref_round (3 * 2^-25, 'fp16'), single (2^-23));
%! assert (ref_round (1 + 2^-11, 'fp16'), single (1));
%!test
%! % tf32: 11 bits in single's range
%! assert (ref_round (1 + 2^-11, 'tf32'), single (1));
%! assert (ref_round (1 + 3 * 2^-11, 'tf32'), single (1 + 2^-9));
%! assert (ref_round (2^-130, 'tf32'), single (2^-130));
%!test
%! % every result is a number of the format: idempotent, and within half a unit
%! x = randn (1000, 1) .* 10 .^ (4 * randn (1000, 1));
%! for f = {'bf16', 'fp16', 'tf32'}
%!   y = ref_round (x, f{1});
%!   assert (isequal (ref_round (y, f{1}), y));
%! end
%! y = double (ref_round (x, 'bf16'));
%! assert (all (abs (y - x) <= 2^-8 * abs (x)));
%! assert (ref_round ([0 Inf -Inf], 'bf16'), single ([0 Inf -Inf]));
%! assert (isa (ref_round (x, 'double'), 'double') && isequal (ref_round (x, 'single'), single (x)));
%!error <fmt must be 'double', 'single', 'bf16', 'fp16' or 'tf32', got 'fp8'>
%! ref_round (1, 'fp8');
