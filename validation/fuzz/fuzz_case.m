% FUZZ_CASE  Case number i of a fuzz run: one call and what it must do.
%
%   c = fuzz_case (seed, i)
%   n = fuzz_case ()          the number of fixed cases (run first)
%
%   The same (seed, i) always gives the same case, so a child process makes
%   its own cases and a crash is reproduced from two numbers.  Cases
%   1..fuzz_case() are the fixed ones of fuzz_fixed (the issue's reproducers,
%   the strictness rules); after them a random group:
%     30%  valid calls (fuzz_valid; plain, case, prefix, struct, nan)
%     35%  one malformation of a valid call (fuzz_mutate)
%     15%  huge dimensions on empty arrays (fuzz_huge)
%     20%  random arguments, and the private MEX with bad names (fuzz_garbage)
%   c is a struct with fields
%     fname    function to call ('kda_chunk', ..., or 'la_mex')
%     args     cell of its arguments
%     nout     outputs requested (0: called as a statement)
%     expect   'ok' (must succeed), 'error' (must fail), 'any'
%     family   'kda' or 'gdn' (the identifier's prefix), 'any' for the MEX
%              called with a bad name (kda, gdn or la then)
%     kind     group label for the summary, e.g. 'valid-prefix', 'mutate-class'
%     desc     what was done, for the reports
%     ref      the clean problem for the result checks (valid cases), or []
%
%   See also: fuzz_run, fuzz_child, fuzz_verdict.

function c = fuzz_case (seed, i)
  persistent fixed;                              % made once per process
  if (isempty (fixed))
    fixed = fuzz_fixed ();
  end
  if (nargin == 0)
    c = numel (fixed);
    return;
  end
  if (i <= numel (fixed))
    c = fixed{i};
    return;
  end
  state = mod (seed * 1000003 + i, 2^31);
  rand ('state', state);
  randn ('state', state);
  names = fuzz_functions ();
  fname = names{randi (8)};
  u = rand ();
  if (u < 0.30)
    c = fuzz_valid (fname, pick ({'plain', 'plain', 'case', 'prefix', 'struct', 'nan'}));
  elseif (u < 0.65)
    c = fuzz_mutate (fuzz_valid (fname));
  elseif (u < 0.80)
    c = fuzz_huge (fname);
  else
    c = fuzz_garbage (fname);
  end
end

function x = pick (list)
  x = list{randi (numel (list))};
end
