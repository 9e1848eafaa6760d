% LAB_HAZARDS  Hazards section of the lab: the failure modes of fast
% kernels, measured (docs/hazards.md).
%
%   rows = lab_hazards (mode, figdir)
%
%   Runs the four experiments of validation/hazards/ and returns their rows
%   (fields section = 'hazards', name, value, bound, pass, detail), as the
%   other lab sections do:
%     1. hz_exp_inverse     the triangular inverse four ways (substitution,
%                           Neumann m = 1..6, doubling, FLA's blocked form);
%     2. hz_exp_gate_grad   the gate gradient, (46) against (46b);
%     3. hz_exp_overflow    where each gating scheme overflows or loses
%                           accuracy in single, bf16 and fp16;
%     4. hz_exp_bugs        the log2/exp and re-gated v_new bugs and the
%                           verdicts of hazard_signature.
%   Rows with a bound are checks (the library's choices meet the SPEC
%   bounds); rows whose detail says 'hazard reproduced' pass when the error
%   is at least the bound; the others are reported numbers.  mode is 'full'
%   or 'quick' (a few seconds per experiment); the plots
%   hazards_inverse.png, hazards_gate_gradient.png, hazards_overflow.png and
%   hazards_bugs.png go to figdir (none when figdir is empty).
%
%   See also: hz_exp_inverse, hz_exp_gate_grad, hz_exp_overflow, hz_exp_bugs.

function rows = lab_hazards (mode, figdir)
  here = fileparts (mfilename ('fullpath'));
  addpath (fullfile (here, '..', 'hazards'));
  addpath (fullfile (here, '..', 'lib'));
  experiments = {@hz_exp_inverse, @hz_exp_gate_grad, @hz_exp_overflow, @hz_exp_bugs};
  rows = struct ('section', {}, 'name', {}, 'value', {}, 'bound', {}, 'pass', {}, 'detail', {});
  for i = 1:numel (experiments)
    name = func2str (experiments{i});
    fprintf ('  %s ...\n', name);
    try
      r = experiments{i} (mode, figdir);
    catch err
      r = hz_row ([name ' crashed'], NaN, 0);
      r.detail = err.message;
    end
    rows = [rows, r(:)'];
  end
end
