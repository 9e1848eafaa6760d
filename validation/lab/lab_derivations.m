function [rows, figs] = lab_derivations (mode, figdir)
% LAB_DERIVATIONS  Derivation section of the lab: every numbered equation of docs/.
%
%   [rows, figs] = lab_derivations (mode, figdir)
%
%   Runs every check_*.m of validation/derivation/ (each reproduces the
%   numbered equations of one docs/ page from random inputs and returns one
%   result per equation: eq, name, file, residual, bound, pass) and turns
%   the results into lab rows (lab_row: a NaN bound makes an info row).
%   mode and figdir are accepted for the uniform section interface; this
%   section draws no figure.

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
      r = res(i);
      eqs = r.eq;
      if (isnumeric (eqs))
        eqs = sprintf ('(%s)', num2str (eqs));
      end
      row = lab_row ('derivations', sprintf ('%s %s: %s', r.file, eqs, r.name), ...
                     r.residual, r.bound, fn);
      row.pass = logical (r.pass) || isnan (r.bound);   % the script's own verdict
      rows(end+1) = row;
    end
  end
end
