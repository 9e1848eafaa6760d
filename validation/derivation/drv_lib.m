function drv_lib ()
  % drv_lib (): put validation/lib on the path: the scripts of this folder
  % use its reference (ref_recurrence, ref_recurrence_bwd, ref_forward and
  % the transforms), its ratio (la_ratio) and its finite differences
  % (fd_gradient), its row type (lab_row).
  if (~exist ('la_ratio', 'file'))
    addpath (fullfile (fileparts (mfilename ('fullpath')), '..', 'lib'));
  end
end
