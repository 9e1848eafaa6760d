% VERIFY_FLA_COMMIT  The flash-linear-attention commit whose conventions the verifier reads.
%
%   [commit, text] = verify_fla_commit ()
%
%   commit: the 40-digit hash of github.com/fla-org/flash-linear-attention
%   whose kernels (fla/ops/kda, fla/ops/gated_delta_rule, fla/ops/common)
%   the stored conventions were read from: what each intermediate holds
%   (dh, dAkk, dAqk: verify_bwd_intermediates), the meta keys
%   (verify_options), safe_gate's check.  text: one line for the report.
%   docs/verify.md names the same commit.

function [commit, text] = verify_fla_commit ()
  commit = 'bc3b101dcb713ddc5bd8924b66754eb68b5ccf89';
  text = sprintf ('FLA conventions as of flash-linear-attention commit %s (main of 2026-08-22)', ...
                  commit(1:7));
end

%!test
%! [c, s] = verify_fla_commit ();
%! assert (numel (c) == 40 && all (isstrprop (c, 'xdigit')));
%! assert (~isempty (strfind (s, c(1:7))));
