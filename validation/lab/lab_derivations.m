function [rows, figs] = lab_derivations (mode, figdir)
% LAB_DERIVATIONS  Derivation section of the lab: every numbered equation of docs/.
%
%   [rows, figs] = lab_derivations (mode, figdir)
%
%   Runs every check_*.m of validation/derivation/ (each reproduces the
%   numbered equations of one docs/ page from random inputs and returns one
%   lab_row per equation, with its eq and file) and names each row for the
%   report: 'FILE (EQ): name', detail the check that made it.  A skipped
%   check (value NaN) fails.  mode and figdir are accepted for the uniform
%   section interface; this section draws no figure.

  rows = lab_row ();
  figs = struct ('file', {}, 'caption', {});
  here = fileparts (mfilename ('fullpath'));
  files = dir (fullfile (here, '..', 'derivation', 'check_*.m'));
  files = files(~strcmp ({files.name}, 'check_derivations.m'));   % it runs all the others
  for f = 1:numel (files)
    [~, fn] = fileparts (files(f).name);
    fprintf ('  %s ...\n', fn);
    try
      res = feval (fn);
    catch err
      rows(end+1) = lab_row ('derivations', [fn ' crashed'], NaN, 0, err.message);
      continue;
    end
    for i = 1:numel (res)
      eqs = res(i).eq;
      if (isnumeric (eqs))
        eqs = sprintf ('(%s)', num2str (eqs));
      end
      res(i).name = sprintf ('%s %s: %s', res(i).file, eqs, res(i).name);
      res(i).detail = fn;
    end
    rows = [rows, res(:)'];
  end
end
