% VERIFY_TOLERANCE  The bound on rms(ref - x)/rms(ref) that a dumped tensor must meet.
%
%   [tol, expected, rule] = verify_tolerance (dtype, name, problem)
%
%   dtype: the kernel's compute dtype of meta.json ('float64', 'float32',
%   'bfloat16', 'float16'); name: the FLA tensor name; problem: the dump's
%   sizes and options, with field 'expected' (verify_expected) for the half
%   types.  expected: the error a correct kernel of that dtype has on this
%   dump (NaN where not known); rule: how tol was set, for the report.
%
%     float64   1e-10 (this library's own bound for double results)
%     float32   1e-3  (FLA's Triton dots on float32 inputs may run in TF32,
%                      10-bit mantissa; a plain float32 kernel meets 1e-4)
%     bfloat16, float16: tol = max (FACTOR * expected, FLOOR), expected
%                      the error of the library's emulation of such a
%                      kernel ('Emulate', docs/emulation.md) against the
%                      double reference on the same inputs; FACTOR = 4
%                      covers a kernel's other summation order and
%                      rounding places; FLOOR = the format's unit roundoff
%                      (2^-9 bf16, 2^-12 fp16): no kernel that returns the
%                      format does better.  Without an expected value
%                      (a tensor the emulation does not give): FLA's test
%                      thresholds: o, ht 0.005; dq dk dv dh0 0.008; dg
%                      dbeta 0.02; intermediates 0.01.

function [tol, expected, rule] = verify_tolerance (dtype, name, problem)
  factor = 4;
  expected = NaN;
  switch (dtype)
    case 'float64'
      tol = 1e-10;
      rule = 'fixed (float64)';
    case 'float32'
      tol = 1e-3;
      rule = 'fixed (float32, TF32 dots)';
    case {'bfloat16', 'float16'}
      unit_roundoff = struct ('bfloat16', 2 ^ -9, 'float16', 2 ^ -12);
      if (isfield (problem, 'expected') && isfield (problem.expected, name))
        expected = problem.expected.(name);
        tol = max (factor * expected, unit_roundoff.(dtype));
        rule = sprintf ('max(%d x emulated, %.3g)', factor, unit_roundoff.(dtype));
      else
        tol = fla_threshold (name);
        rule = 'FLA test threshold';
      end
    otherwise
      error ('la:badMeta', 'verify_tolerance: unknown dtype ''%s''', dtype);
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
