function cases = lab_grad_cases (quick)
% LAB_GRAD_CASES  The problems of the gradient section.
%
%   cases = lab_grad_cases (quick)
%
%   A struct array with fields label, args (rand_problem arguments, sizes
%   included) and C (the chunk size of the chunked functions).  Every option
%   on its own and all together at a small size (and, in the full lab, at a
%   middle size), then the holes: chunk sizes above 16, T not a multiple of
%   C, gates down to -30 per step (and channel), K ~= V, grouped value heads
%   and variable-length batches whose segments end inside chunks.

  sets = {'plain',                   {};
          'InitialState',            {'InitialState', true};
          'UseQKL2Norm',             {'UseQKL2Norm', true};
          'GateInKernel',            {'GateInKernel', true};
          'GateInKernel+LowerBound', {'GateInKernel', true, 'LowerBound', -4};
          'BetaSigmoid',             {'BetaSigmoid', true};
          'BetaSigmoid+AllowNegEigval', {'BetaSigmoid', true, 'AllowNegEigval', true};
          'Scale',                   {'Scale', 0.7};
          'StateLayout VK',          {'StateLayout', 'VK', 'InitialState', true};
          'CuSeqlens',               {'CuSeqlens', [0 4 11 13], 'InitialState', true};
          'GVA HV=2H',               {'HV', 2};
          'all options',             {'InitialState', true, 'UseQKL2Norm', true, ...
                                      'GateInKernel', true, 'BetaSigmoid', true, ...
                                      'AllowNegEigval', true, 'Scale', 0.6, ...
                                      'StateLayout', 'VK', 'HV', 2}};
  sizes = {'K=5 V=4 T=13 C=4', {'K', 5, 'V', 4, 'T', 13}, 4, 13};
  if (quick)
    sets = sets([1 2 4 6 10 12], :);
  else
    sizes(end+1, :) = {'K=12 V=9 T=70 C=16', {'K', 12, 'V', 9, 'T', 70}, 16, 70};
  end
  cases = struct ('label', {}, 'args', {}, 'C', {});
  for z = 1:size (sizes, 1)
    for s = 1:size (sets, 1)
      a = sets{s, 2};
      j = find (strcmp (a(1:2:end), 'CuSeqlens'));
      if (~isempty (j))      % the CuSeqlens of the set are for T = 13
        a{2 * j} = round (a{2 * j} * sizes{z, 4} / 13);
      end
      cases(end+1) = struct ('label', [sets{s, 1} ', ' sizes{z, 1}], ...
                             'args', {[sizes{z, 2}, a]}, 'C', sizes{z, 3});
    end
  end
  holes = {'C=32, T=70 (last chunk 6)',     {'K', 6, 'V', 5, 'T', 70, 'InitialState', true}, 32;
           'C=64, T=150 (last chunk 22)',   {'K', 6, 'V', 4, 'T', 150, 'InitialState', true}, 64;
           'g down to -30, C=64, T=100',    {'K', 6, 'V', 5, 'T', 100, 'GateStrength', 30, ...
                                             'InitialState', true}, 64;
           'GateInKernel, g to -30, C=32',  {'K', 5, 'V', 4, 'T', 70, 'GateStrength', 30, ...
                                             'GateInKernel', true}, 32;
           'K=9 V=4, GVA H=2 HV=6, C=32',   {'K', 9, 'V', 4, 'T', 70, 'H', 2, 'HV', 6, ...
                                             'InitialState', true}, 32;
           'CuSeqlens [0 21 90 130], C=32', {'K', 6, 'V', 5, 'T', 130, ...
                                             'CuSeqlens', [0 21 90 130], 'InitialState', true}, 32;
           'all holes, C=64',               {'K', 7, 'V', 3, 'T', 150, 'H', 1, 'HV', 2, ...
                                             'GateStrength', 30, 'CuSeqlens', [0 70 150], ...
                                             'InitialState', true, 'UseQKL2Norm', true}, 64};
  for i = 1:size (holes, 1)
    cases(end+1) = struct ('label', holes{i, 1}, 'args', {holes{i, 2}}, 'C', holes{i, 3});
  end
end
