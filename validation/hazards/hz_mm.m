% HZ_MM  Matrix product in an emulated format.
%
%   C = hz_mm (A, B, fmt)
%
%   'double': A * B in double; 'single': in single; 'bf16' / 'fp16': both
%   operands rounded to the format (ref_round), then multiplied and
%   accumulated in single (the products of two 8- or 11-bit significands are
%   exact in single), the result kept in single, as a tensor-core dot with
%   an fp32 accumulator does.
%
%   See also: ref_round.

function C = hz_mm (A, B, fmt)
  C = ref_round (A, fmt) * ref_round (B, fmt);
end

%!test
%! addpath (fullfile (fileparts (which ('la_ratio')), '..', 'hazards'));  % run_tests puts lib on the path
%! A = randn (5, 7);  B = randn (7, 3);
%! assert (class (hz_mm (A, B, 'bf16')), 'single');
%! assert (hz_mm (A, B, 'double'), A * B);
%! E = double (hz_mm (A, B, 'bf16')) - A * B;
%! assert (norm (E) / norm (A * B) < 0.05);
%! assert (norm (E) / norm (A * B) > 1e-5);
