% REF_HEAD_MAP  The grouped value attention map: the q/k head of each value head.
%
%   map = ref_head_map (H, HV)
%
%   Value head j (1-based) reads q/k head floor ((j - 1) / (HV / H)) + 1;
%   map is the 1 x HV vector of those heads.  HV must be a multiple of H.
%   q(:, :, map, :) repeats q over the groups; gradients of q and k sum back
%   over each group.
%
%   See also: ref_transform, ref_forward.

function map = ref_head_map (H, HV)
  if (H < 1 || mod (HV, H) ~= 0)
    error ('ref_head_map: HV (%d) must be a multiple of H (%d)', HV, H);
  end
  map = floor ((0:HV - 1) / (HV / H)) + 1;
end

%!assert (ref_head_map (2, 6), [1 1 1 2 2 2])
%!error <multiple> ref_head_map (2, 3)
