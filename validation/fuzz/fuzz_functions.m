% FUZZ_FUNCTIONS  The eight public functions, by name.
%
%   names = fuzz_functions ()
%
%   See also: fuzz_case.

function names = fuzz_functions ()
  names = {'kda_recurrent', 'kda_recurrent_bwd', 'kda_chunk', 'kda_chunk_bwd', ...
           'gdn_recurrent', 'gdn_recurrent_bwd', 'gdn_chunk', 'gdn_chunk_bwd'};
end
