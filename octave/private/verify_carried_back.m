% VERIFY_CARRIED_BACK  Whether a dumped tensor depends on the carried state gradient.
%
%   tf = verify_carried_back (name)
%
%   True for the tensors that depend on the state's gradient dh, which the
%   backward sweep carries from the last step to the first: dk, dv, dg,
%   dbeta (db), GDN's dgk, dgv, the backward's intermediates dAkk, dw, du,
%   dv_new, and dh itself.  An error that sweep carries begins at their
%   LAST wrong step, so the report names it (verify_divergence,
%   verify_local).  dq and dAqk read the forward state and do alone.

function tf = verify_carried_back (name)
  tf = any (strcmp (name, {'dk', 'dv', 'dg', 'dbeta', 'db', 'dgk', 'dgv', ...
                           'dAkk', 'dw', 'du', 'dv_new', 'dh'}));
end

%!assert (verify_carried_back ('dk') && verify_carried_back ('dh'))
%!assert (~verify_carried_back ('dq') && ~verify_carried_back ('dAqk') && ~verify_carried_back ('o'))
