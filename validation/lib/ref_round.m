% REF_ROUND  Round to bfloat16 or float16 (nearest, ties to even), result in single.
%
%   y = ref_round (x, fmt)
%
%   fmt: 'bf16' (8 significant bits, float's exponent range) or 'fp16' (11
%   bits, normal from 2^-14, subnormal spacing 2^-24, largest 65504; beyond
%   65504 + half an ulp: Inf).  x is first made single.  Written from the
%   grid spacing in double, independently of the C core's bit arithmetic
%   (mex/core/la_round.h), so that each checks the other.

function y = ref_round (x, fmt)
  switch (fmt)
    case 'bf16'
      [sig, emin, largest] = deal (8, -126, (2 - 2 ^ -7) * 2 ^ 127);
    case 'fp16'
      [sig, emin, largest] = deal (11, -14, 65504);
    otherwise
      error ('ref_round: fmt must be ''bf16'' or ''fp16''');
  end
  x = double (single (x));
  y = x;
  fin = isfinite (x) & x ~= 0;
  [~, e] = log2 (abs (x(fin)));          % |x| = f 2^e, f in [0.5, 1)
  spacing = 2 .^ (max (e - 1, emin) - (sig - 1));
  z = x(fin) ./ spacing;
  r = round (z);                          % halves away from zero ...
  tie = abs (z - fix (z)) == 0.5;
  r(tie) = 2 * round (z(tie) / 2);        % ... but ties go to even
  r = r .* spacing;
  r(abs (r) > largest) = Inf * sign (r(abs (r) > largest));
  y(fin) = r;
  y = single (y);
end
