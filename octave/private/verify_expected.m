% VERIFY_EXPECTED  The error a correct kernel of the dump's dtype has: the emulated run's.
%
%   [expected, err] = verify_expected (op, t, opts, problem, ref)
%
%   For a dump of dtype float32, bfloat16 or float16, recompute every
%   tensor of ref with the library's emulation of such a kernel ('Emulate'
%   'tf32', 'bf16' or 'fp16': docs/emulation.md) from the same dumped
%   inputs, and return a struct with one field per tensor: rms(ref -
%   emulated)/rms(ref).  For bf16 / fp16 every tensor FLA stores in that
%   format is rounded to it as the kernel's store would (Akk included, which
%   the library computes here from A_raw); g_cumsum, ht and dh0 stay as
%   computed (FLA keeps them in fp32).  float64, and a GDN dump with gk /
%   gv (recomputed by the recurrent path, which has no emulation): no field.
%   err: the same fields, ref minus the emulated tensor (for verify_local's
%   windows).  verify_tolerance
%   turns it into the bounds.

function [expected, err] = verify_expected (op, t, opts, problem, ref)
  expected = struct ();
  err = struct ();
  formats = struct ('float32', 'tf32', 'bfloat16', 'bf16', 'float16', 'fp16');
  if (~isfield (formats, problem.dtype))
    return;
  end
  if (strcmp (op, 'gdn') && any (isfield (t, {'gk', 'gv'})))
    return;           % the recurrent path (gk / gv) has no emulation
  end
  fmt = formats.(problem.dtype);
  emu = verify_compute (op, t, [opts, {'Emulate', fmt}], problem);
  names = intersect (fieldnames (ref), fieldnames (emu), 'stable');
  kept32 = {'g_cumsum', 'ht', 'dh0', 'dA_log', 'ddt_bias'};
  for i = 1:numel (names)
    r = ref.(names{i});
    e = double (reshape (emu.(names{i}), size (r)));
    if (~strcmp (fmt, 'tf32') && ~any (strcmp (names{i}, kept32)))
      e = verify_round (e, fmt);
    end
    d = r - e;
    expected.(names{i}) = norm (d(:)) / max (norm (r(:)), realmin);
    err.(names{i}) = d;
  end
end
