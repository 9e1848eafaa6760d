% kdagdn: linear attention with a delta rule (KDA and GDN).
%
% Forward
%   kda_recurrent      - Kimi Delta Attention, recurrent form.
%   kda_chunk          - Kimi Delta Attention, chunked form.
%   gdn_recurrent      - Gated DeltaNet, recurrent form.
%   gdn_chunk          - Gated DeltaNet, chunked form.
%
% Backward
%   kda_recurrent_bwd  - Kimi Delta Attention, gradients of the recurrent form.
%   kda_chunk_bwd      - Kimi Delta Attention, gradients of the chunked form.
%   gdn_recurrent_bwd  - Gated DeltaNet, gradients of the recurrent form.
%   gdn_chunk_bwd      - Gated DeltaNet, gradients of the chunked form.
%
% Context parallelism
%   kda_state_map      - Kimi Delta Attention, the affine state map of each sequence.
%   kda_state_map_bwd  - Kimi Delta Attention, gradients of the affine state map.
%   gdn_state_map      - Gated DeltaNet, the affine state map of each sequence.
%   gdn_state_map_bwd  - Gated DeltaNet, gradients of the affine state map.
%   la_state_map_merge - Compose the state maps of consecutive segments of a sequence.
%
% Checking another kernel
%   kda_verify         - Check a KDA kernel's dumped tensors against this library.
%   gdn_verify         - Check a GDN (Gated DeltaNet) kernel's dumped tensors against this library.
%   la_load            - Read the named arrays of a tensor file (.npy, .npz, .safetensors, .mat).
%   la_save            - Write named arrays to a tensor file (.npy, .npz, .safetensors, .mat).
%   la_from_fla        - Convert a tensor from FLA / PyTorch layout to this library's.
%   la_to_fla          - Convert a tensor from this library's layout to FLA / PyTorch's.
%
% Checking a hand-written backward
%   la_gradcheck       - Check a hand-written backward against central finite differences.
%
% Library
%   kdagdn             - Kimi Delta Attention and Gated DeltaNet for Octave and MATLAB.
%   kdagdn_version     - Version of the kdagdn library, as a string.

%!test
%! % every function listed here is on the path
%! names = regexp (fileread (fullfile (fileparts (which ('kdagdn')), 'Contents.m')), '\n%\s+([a-z_0-9]+)\s+- ', 'tokens');
%! assert (numel (names) >= 20)
%! for name = [names{:}]
%!   assert (exist (name{1}) == 2 || exist (name{1}) == 3, '%s is not on the path', name{1})
%! end

