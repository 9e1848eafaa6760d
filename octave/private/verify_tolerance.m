% VERIFY_TOLERANCE  The bounds on rms(ref - x)/rms(ref) that a dumped tensor is judged by.
%
%   [tol, warn_tol, expected, rule] = verify_tolerance (dtype, name, problem)
%
%   dtype: the kernel's dtype ('float64', 'float32', 'bfloat16', 'float16',
%   verify_dtype); name: the FLA tensor name; problem: with field 'expected'
%   (verify_expected).  expected: the error a correct kernel of that dtype
%   has on this dump (NaN where not known); rule: how the bounds were set.
%   A tensor fails above tol, warns above warn_tol (<= tol), passes below.
%
%     float64   tol = warn_tol = 1e-10 (this library's bound for double)
%     float32, bfloat16, float16: expected = the error of the library's
%               emulation of such a kernel ('Emulate' 'tf32', 'bf16',
%               'fp16'; docs/emulation.md) on the same inputs against the
%               double reference; float32 is modelled as Triton runs it,
%               with TF32 dots (a plain float32 kernel is far below).
%               tol      = max (FAIL_FACTOR * expected, floor)
%               warn_tol = max (WARN_FACTOR * expected, floor)
%               FAIL_FACTOR = 4: room for another summation order and
%               other rounding places.  WARN_FACTOR = 2: above what
%               correct kernels written independently of the library
%               reach (docs/verify.md section 4 gives the calibration), below
%               what a kernel that keeps its running state in bf16 shows.
%               floor = u / 2, half the unit roundoff u of the format the
%               errors come from (u = 2^-8 for bf16, 2^-11 for fp16 and
%               tf32): below it a tensor is as exact as the format holds.
%               A decode dump's expected (verify_decode) may name its own
%               unit_roundoff: float32's 2^-24, as a fused recurrent
%               kernel has no TF32 dots.
%               Without an expected value (a tensor the emulation does not
%               give: a decode dump, GDN's gk / gv, both FLA's fused
%               recurrent kernels): float32 1e-4 for both bounds (this
%               library's single-precision bound; those kernels run no
%               TF32 dots, and FLA's bf16 thresholds would pass a dropped
%               decay, 0.003 of rms); bfloat16 / float16 FLA's test
%               thresholds (o, ht 0.005; dq dk dv dh0 0.008; dg dbeta 0.02;
%               others 0.01).

function [tol, warn_tol, expected, rule] = verify_tolerance (dtype, name, problem)
  fail_factor = 4;
  warn_factor = 2;
  expected = NaN;
  switch (dtype)
    case 'float64'
      tol = 1e-10;
      warn_tol = tol;
      rule = 'float64: fixed 1e-10';
      return;
    case 'float32'
      u = 2 ^ -11;     % TF32's 11 significant bits
      fmt = 'tf32';
    case 'bfloat16'
      u = 2 ^ -8;
      fmt = 'bf16';
    case 'float16'
      u = 2 ^ -11;
      fmt = 'fp16';
    otherwise
      error ('la:badMeta', 'verify_tolerance: unknown dtype ''%s''', dtype);
  end
  if (isfield (problem, 'expected') && isfield (problem.expected, 'unit_roundoff'))
    u = problem.expected.unit_roundoff;
    fmt = 'fp32';
  end
  if (isfield (problem, 'expected') && isfield (problem.expected, name))
    expected = problem.expected.(name);
    tol = max (fail_factor * expected, u / 2);
    warn_tol = max (warn_factor * expected, u / 2);
    rule = sprintf ('%s: fail above max(%d x emulated %s, %.3g), warn above max(%d x, %.3g)', ...
                    dtype, fail_factor, fmt, u / 2, warn_factor, u / 2);
  elseif (strcmp (dtype, 'float32'))
    tol = 1e-4;        % no dots to run in TF32: a fused recurrent kernel's fp32
    warn_tol = tol;
    rule = ['float32 without an emulated error (a fused recurrent kernel: elementwise ' ...
            'fp32, no TF32 dots): this library''s single-precision bound 1e-4'];
  else
    tol = fla_threshold (name);
    warn_tol = tol;
    rule = sprintf ('%s: FLA''s test thresholds where the emulation gives nothing', dtype);
  end
end

function tol = fla_threshold (name)
  switch (name)
    case {'o', 'ht'}
      tol = 0.005;
    case {'dq', 'dk', 'dv', 'dh0'}
      tol = 0.008;
    case {'dg', 'dbeta', 'db', 'dA_log', 'ddt_bias'}
      tol = 0.02;
    otherwise
      tol = 0.01;
  end
end
