% LAB_HAZARDS  Hazards section of the lab: the failure modes of fast
% kernels, measured (docs/hazards.md).
%
%   [rows, figs] = lab_hazards (mode, figdir)
%
%   Runs the four experiments of validation/hazards/ and returns their rows
%   (fields section = 'hazards', name, value, bound, pass, detail), as the
%   other lab sections do:
%     1. hz_exp_inverse     the triangular inverse four ways (substitution,
%                           Neumann m = 1..6, doubling, FLA's blocked form);
%     2. hz_exp_gate_grad   the gate gradient, (51) against (51b);
%     3. hz_exp_overflow    where each gating scheme overflows or loses
%                           accuracy in single, bf16 and fp16;
%     4. hz_exp_bugs        the log2/exp and re-gated v_new bugs and the
%                           verdicts of hazard_signature.
%   Rows with a bound are checks (the library's choices meet the accuracy
%   bounds); rows whose detail says 'hazard reproduced' pass when the error
%   is at least the bound; the others are reported numbers.  mode is 'full'
%   or 'quick' (a few seconds per experiment); the plots
%   hazards_inverse.png, hazards_gate_gradient.png, hazards_overflow.png and
%   hazards_bugs.png go to figdir (none when figdir is empty).
%
%   See also: hz_exp_inverse, hz_exp_gate_grad, hz_exp_overflow, hz_exp_bugs.

function [rows, figs] = lab_hazards (mode, figdir)
  here = fileparts (mfilename ('fullpath'));
  addpath (fullfile (here, '..', 'hazards'));
  addpath (fullfile (here, '..', 'lib'));
  experiments = {@hz_exp_inverse, @hz_exp_gate_grad, @hz_exp_overflow, @hz_exp_bugs};
  rows = lab_row ();
  for i = 1:numel (experiments)
    name = func2str (experiments{i});
    fprintf ('  %s ...\n', name);
    try
      r = experiments{i} (mode, figdir);
    catch err
      r = lab_row ('hazards', [name ' crashed'], NaN, 0);
      r.detail = err.message;
    end
    rows = [rows, r(:)'];
  end
  figs = hazard_figures (figdir);
end

function figs = hazard_figures (figdir)
  % the plots the experiments wrote, with what to see in each
  files = {'hazards_inverse.png', ['The triangular inverse four ways: error of A and of o ' ...
             'over the chunk size and the regime.  Substitution and the blocked form stay at ' ...
             'rounding level; the truncated Neumann series is wrong at every order in exact ' ...
             'arithmetic, and doubling loses accuracy in single when keys are correlated.']; ...
           'hazards_gate_gradient.png', ['The gate gradient over gate strength: (51) as ' ...
             'written (difference, then reverse cumulative sum) loses accuracy as u e^s; ' ...
             '(51b) stays at rounding level at every strength.']; ...
           'hazards_overflow.png', ['Where each gating scheme overflows or loses accuracy, ' ...
             'over the gate per step: the plain factorisation over a chunk, FLA''s safe_gate ' ...
             'in 16-step sub-chunks, and the reference-point scheme of this library.']; ...
           'hazards_bugs.png', ['Error patterns of two classic kernel bugs (log2 gates ' ...
             'exponentiated with exp; v_new re-gated) over the step in the chunk and the ' ...
             'head: what hazard_signature recognises in a kda_verify report.']};
  figs = struct ('file', {}, 'caption', {});
  for i = 1:size (files, 1)
    if (~isempty (figdir) && exist (fullfile (figdir, files{i, 1}), 'file'))
      figs(end+1) = struct ('file', files{i, 1}, 'caption', files{i, 2});
    end
  end
end
