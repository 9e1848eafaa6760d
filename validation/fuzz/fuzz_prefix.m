% FUZZ_PREFIX  A random unambiguous prefix of an option name.
%
%   s = fuzz_prefix (name)
%
%   The prefix is at least as long as needed to tell NAME from every other
%   option name of the interface (those of today and the additions of the
%   interface, e.g. SafeGate, GK, GV, so that a prefix valid today stays
%   valid), in random case.  names = fuzz_prefix () returns that list.
%
%   See also: fuzz_valid, fuzz_mutate.

function s = fuzz_prefix (name)
  names = {'Scale', 'InitialState', 'CuSeqlens', 'ChunkSize', 'UseQKL2Norm', ...
           'GateInKernel', 'ALog', 'DtBias', 'LowerBound', 'BetaSigmoid', ...
           'AllowNegEigval', 'StateLayout', 'Intermediates', 'L2NormEps', ...
           'SafeGate', 'GK', 'GV', 'Emulate'};
  if (nargin == 0)
    s = names;
    return;
  end
  others = lower (names(~strcmpi (names, name)));
  need = 1;
  while (any (strncmpi (others, name, need)) && need < numel (name))
    need = need + 1;
  end
  s = name(1:randi ([need, numel(name)]));
  up = rand (size (s)) < 0.5;
  s(up) = upper (s(up));
  s(~up) = lower (s(~up));
end
