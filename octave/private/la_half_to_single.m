% LA_HALF_TO_SINGLE  IEEE binary16 bit patterns (uint16) to single values.
%
%   x = la_half_to_single (bits)
%
%   Exact: every half value, subnormals, +-Inf and NaN, is a single value.

function x = la_half_to_single (bits)
  bits = double (bits);
  sgn = 1 - 2 * (bits >= 32768);
  ex = mod (floor (bits / 1024), 32);
  man = mod (bits, 1024);
  x = sgn .* pow2 (1 + man / 1024, ex - 15);       % normal numbers
  sub = (ex == 0);
  x(sub) = sgn(sub) .* man(sub) * 2 ^ -24;         % subnormals and zeros
  top = (ex == 31);
  x(top & man == 0) = sgn(top & man == 0) * Inf;
  x(top & man ~= 0) = NaN;
  x = single (x);
end
