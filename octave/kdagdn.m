% kdagdn  Kimi Delta Attention and Gated DeltaNet for Octave and MATLAB.
%
%   Two linear-attention recurrences with a delta-rule state update, each
%   in a recurrent (step by step) and a chunked form with hand-written
%   backward functions, single and double precision, grouped value
%   attention, variable-length batches and in-kernel transforms:
%
%   Kimi Delta Attention (KDA), one gate per channel:
%     kda_recurrent      - Kimi Delta Attention, recurrent form.
%     kda_chunk          - Kimi Delta Attention, chunked form.
%     kda_recurrent_bwd  - Kimi Delta Attention, gradients of the recurrent form.
%     kda_chunk_bwd      - Kimi Delta Attention, gradients of the chunked form.
%
%   Gated DeltaNet (GDN), one gate per step and head:
%     gdn_recurrent      - Gated DeltaNet, recurrent form.
%     gdn_chunk          - Gated DeltaNet, chunked form.
%     gdn_recurrent_bwd  - Gated DeltaNet, gradients of the recurrent form.
%     gdn_chunk_bwd      - Gated DeltaNet, gradients of the chunked form.
%
%   Context parallelism (the affine map of a segment, and the merge):
%     kda_state_map      - Kimi Delta Attention, the affine state map of each sequence.
%     kda_state_map_bwd  - Kimi Delta Attention, gradients of the affine state map.
%     gdn_state_map      - Gated DeltaNet, the affine state map of each sequence.
%     gdn_state_map_bwd  - Gated DeltaNet, gradients of the affine state map.
%     la_state_map_merge - Compose the state maps of consecutive segments of a sequence.
%
%   Checking another kernel (dumps in flash-linear-attention's layout):
%     kda_verify         - Check a KDA kernel's dumped tensors against this library.
%     gdn_verify         - Check a GDN (Gated DeltaNet) kernel's dumped tensors against this library.
%     la_load            - Read the named arrays of a tensor file (.npy, .npz, .safetensors, .mat).
%     la_save            - Write named arrays to a tensor file (.npy, .npz, .safetensors, .mat).
%     la_from_fla        - Convert a tensor from FLA / PyTorch layout to this library's.
%     la_to_fla          - Convert a tensor from this library's layout to FLA / PyTorch's.
%
%   Checking a hand-written backward:
%     la_gradcheck       - Check a hand-written backward against central finite differences.
%
%   The library:
%     kdagdn_version     - Version of the kdagdn library, as a string.
%
%   Each function's help gives its call forms, arguments, options and an
%   example; `demo NAME` runs the demonstration of the eight kernels,
%   kda_state_map, gdn_state_map, la_state_map_merge, la_gradcheck and
%   kdagdn_version.  The math and the full API:
%   docs/README.md and docs/api.md (the installed package keeps these pages
%   in fullfile (fileparts (which ('kdagdn')), 'doc')).
%
%   This file holds help text (`help kdagdn`) and tests; Contents.m lists the
%   same functions for MATLAB's folder help.

%!test
%! % help kdagdn lists every function of Contents.m, and each has help
%! listed = @(txt) regexp (txt, '\n%?\s+([a-z_0-9]+)\s+- ', 'tokens');
%! mine = [listed(help ('kdagdn')){:}];
%! contents = setdiff ([listed(fileread (fullfile (fileparts (which ('kdagdn')), 'Contents.m'))){:}], {'kdagdn'});
%! assert (sort (mine), sort (contents))
%! for name = mine
%!   assert (~isempty (strtrim (help (name{1}))), 'no help for %s', name{1})
%! end

%!test
%! % the functions that the help says have a demo have one, and no other does
%! txt = strjoin (strtrim (strsplit (help ('kdagdn'), "\n")), ' ');
%! claim = regexp (txt, 'runs the demonstration of (.*?)\.', 'tokens', 'once'){1};
%! claimed = [regexp(claim, '\<[a-z]+_[a-z_]+\>', 'match'), ...
%!            {'kda_recurrent', 'kda_chunk', 'kda_recurrent_bwd', 'kda_chunk_bwd', ...
%!             'gdn_recurrent', 'gdn_chunk', 'gdn_recurrent_bwd', 'gdn_chunk_bwd'}];
%! d = dir (fullfile (fileparts (which ('kdagdn')), '*.m'));
%! with_demo = {};
%! for f = {d.name}
%!   if (~isempty (regexp (fileread (fullfile (fileparts (which ('kdagdn')), f{1})), '(?m)^%!demo', 'once')))
%!     with_demo{end+1} = regexprep (f{1}, '\.m$', '');
%!   end
%! end
%! assert (sort (unique (claimed)), sort (with_demo))

