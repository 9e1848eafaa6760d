function [was, via] = core_tuning (name, value)
  % [was, via] = core_tuning (name, value): set one switch of the C core's
  % tuning (la_tuning in mex/core/la_core.h: 'wy_form', 'fwd_phases',
  % 'no_spread', 'bwd_no_ring') and return its old value, so that a check
  % can run the core's other schedule or form of v_new and put the switch
  % back after.  value omitted: only read it.
  %
  % The switch is an instrument of the test build of the MEX
  % (la_mex_testing, build/testing: make testing; run_validation puts it on
  % the path), not of the shipped la_mex, and holds in that build's core
  % only: via (fname) is the public function fname called through it, e.g.
  %   [was, via] = core_tuning ('wy_form', 1);
  %   [o, S] = feval (via ('kda_chunk'), q, k, v, g, beta);
  if (exist ('la_mex_testing') ~= 3)
    error ('core_tuning: la_mex_testing (the test build) is not on the path: run make testing');
  end
  if (nargin < 2)
    was = la_mex_testing ('tuning', name);
  else
    was = la_mex_testing ('tuning', name, value);
  end
  via = @(fname) @(varargin) la_mex_testing (fname, varargin{:});
end
