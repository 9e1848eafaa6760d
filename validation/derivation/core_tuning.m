function was = core_tuning (name, value)
  % was = core_tuning (name, value): set one switch of the C core's tuning
  % (la_tuning in mex/core/la_core.h: 'wy_form', 'fwd_phases', 'no_spread',
  % 'bwd_no_ring') through la_mex ('tuning', ...) and return its old value,
  % so that a check can run the core's other schedule or form of v_new and
  % put the switch back after.  value omitted: only read it.
  % the repository's MEX, octave/private/la_mex
  repo = fileparts (fileparts (fileparts (mfilename ('fullpath'))));
  here = pwd ();
  cd (fullfile (repo, 'octave', 'private'));
  try
    la = @la_mex;
  catch err
    cd (here);
    rethrow (err);
  end
  cd (here);
  if (nargin < 2)
    was = la ('tuning', name);
  else
    was = la ('tuning', name, value);
  end
end
