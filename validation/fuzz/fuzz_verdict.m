% FUZZ_VERDICT  Judge the outcome of one fuzz call.
%
%   [verdict, detail] = fuzz_verdict (c, err, outs)
%
%   c is the case (fuzz_case), err the caught error (MException or struct
%   with fields identifier and message; [] when the call succeeded), outs
%   the outputs of a success.  verdict is
%     'pass'
%     'unidentified'  an error without identifier, or one not of the form
%                     family:name
%     'wrong-family'  an identifier of another family (kda:* for kda_*,
%                     gdn:* for gdn_*; the MEX under a bad name: kda, gdn or la)
%     'wrong-result'  a success that disagrees with the reference
%                     (fuzz_check_fwd / fuzz_check_bwd), outputs of the wrong
%                     size on huge empties, a valid call refused, or a
%                     forbidden call accepted
%   (crashes and hangs are seen by the parent, fuzz_run).  detail says why.
%
%   See also: fuzz_case, fuzz_child, fuzz_run.

function [verdict, detail] = fuzz_verdict (c, err, outs)
  verdict = 'pass';
  detail = '';
  if (~isempty (err))
    id = err.identifier;
    detail = sprintf ('%s: %s', id, err.message);
    fam = regexp (id, '^(\w+):\w+$', 'tokens', 'once');
    if (isempty (fam))
      verdict = 'unidentified';
    elseif (~family_ok (c.family, fam{1}))
      verdict = 'wrong-family';
    elseif (strcmp (c.expect, 'ok'))
      verdict = 'wrong-result';
      detail = ['a valid call was refused: ' detail];
    end
    return;
  end
  if (strcmp (c.expect, 'error'))
    verdict = 'wrong-result';
    detail = 'a forbidden call was accepted';
    return;
  end
  [ok, detail] = check_success (c, outs);
  if (~ok)
    verdict = 'wrong-result';
  end
end

function ok = family_ok (want, got)
  if (strcmp (want, 'any'))
    ok = any (strcmp (got, {'kda', 'gdn', 'la'}));
  else
    ok = strcmp (want, got);
  end
end

function [ok, detail] = check_success (c, outs)
  ok = true;
  detail = '';
  if (~isstruct (c.ref))
    return;
  end
  if (isfield (c.ref, 'dims'))
    [ok, detail] = huge_sizes (c, outs);
  elseif (isfield (c.ref, 'nonfinite') && ~isempty (strfind (c.fname, '_bwd')))
    return;                                      % NaN in a backward: no crash is all
  elseif (~isempty (strfind (c.fname, '_bwd')))
    [ok, detail] = fuzz_check_bwd (c, outs);
  else
    [ok, detail] = fuzz_check_fwd (c, outs);
  end
end

function [ok, detail] = huge_sizes (c, outs)
  % a success on huge empties: o (or dq) and S (or dS0) of the right sizes
  ok = true;
  detail = '';
  d = num2cell (c.ref.dims);
  if (isempty (d) || isempty (outs))
    return;
  end
  [K, V, T, H, HV, B] = deal (d{:});
  if (isempty (strfind (c.fname, '_bwd')))
    want = {[V T HV B], [K V HV B]};
  else
    want = {[K T H B], [K T H B], [V T HV B]};
  end
  for i = 1:min (numel (want), numel (outs))
    got = size (outs{i});
    w = want{i};
    w = [w(1:max([2, find(w ~= 1, 1, 'last')])), ones(1, 0)];
    if (~isequal (got, w))
      ok = false;
      detail = sprintf ('output %d is %s, needs %s', i, mat2str (got), mat2str (w));
      return;
    end
  end
end
