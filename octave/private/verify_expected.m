% VERIFY_EXPECTED  The error a correct kernel of the dump's dtype has: the emulated run's.
%
%   expected = verify_expected (op, t, opts, problem, ref)
%
%   For a dump of dtype bfloat16 or float16, recompute every tensor of ref
%   with the library's low-precision emulation ('Emulate', 'bf16' or
%   'fp16': docs/emulation.md) from the same dumped inputs, and return a
%   struct with one field per tensor: rms(ref - emulated)/rms(ref), the
%   error of a correct kernel that stores what FLA's kernels store in that
%   format.  Other dtypes (and tensors the emulation does not give): no
%   field.  verify_tolerance turns it into the tolerance.

function expected = verify_expected (op, t, opts, problem, ref)
  expected = struct ();
  formats = struct ('bfloat16', 'bf16', 'float16', 'fp16');
  if (~isfield (formats, problem.dtype))
    return;
  end
  emu = verify_compute (op, t, [opts, {'Emulate', formats.(problem.dtype)}], problem);
  names = intersect (fieldnames (ref), fieldnames (emu), 'stable');
  for i = 1:numel (names)
    r = ref.(names{i});
    d = r - double (reshape (emu.(names{i}), size (r)));
    expected.(names{i}) = norm (d(:)) / max (norm (r(:)), realmin);
  end
end
