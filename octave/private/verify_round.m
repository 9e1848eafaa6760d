% VERIFY_ROUND  Round values to bfloat16, float16 or TF32 precision (kept in double).
%
%   y = verify_round (x, fmt)
%
%   fmt: 'bf16' (8 significant bits), 'fp16' (11 bits; float16's range is
%   not modelled: the verified tensors lie far inside it) or 'tf32' (11
%   bits, float's range); round to nearest, ties to even, through single,
%   as a kernel's conversion does.  NaN and Inf stay as they are.

function y = verify_round (x, fmt)
  drop = struct ('bf16', 16, 'fp16', 13, 'tf32', 13);
  d = drop.(fmt);
  u = typecast (single (x(:)), 'uint32');
  keep = bitand (bitshift (u, -d), uint32 (1));                 % ties to even
  r = bitand (u + (uint32 (2 ^ (d - 1) - 1) + keep), bitcmp (uint32 (2 ^ d - 1)));
  y = double (typecast (r, 'single'));
  finite = isfinite (x(:));
  y(~finite) = x(~finite);
  y = reshape (y, size (x));
end

%!assert (verify_round (1 + 2 ^ -8, 'bf16'), 1)            % a tie: to even
%!assert (verify_round (1 + 3 * 2 ^ -8, 'bf16'), 1 + 2 ^ -6)
%!assert (verify_round (1 + 2 ^ -11, 'tf32'), 1)
%!assert (verify_round (1 + 3 * 2 ^ -11, 'tf32'), 1 + 2 ^ -9)
%!assert (verify_round (-3.14159, 'bf16'), -3.140625)
%!assert (verify_round ([Inf, NaN, 0], 'bf16'), [Inf, NaN, 0])
