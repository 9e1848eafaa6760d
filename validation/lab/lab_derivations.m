## -*- texinfo -*-
## @deftypefn {} {@var{rows} =} lab_derivations (@var{mode}, @var{figdir})
## Derivation section of the lab: runs every @code{check_*.m} of
## validation/derivation/ (each reproduces the numbered equations of one
## docs/ page from random inputs and returns one result per equation: eq,
## name, file, residual, bound, pass) and turns the results into lab rows.
## @var{mode} and @var{figdir} are accepted for a uniform section interface.
## @end deftypefn
function rows = lab_derivations (mode, figdir)
  rows = struct ("section", {}, "name", {}, "value", {}, "bound", {}, "pass", {}, "detail", {});
  here = fileparts (mfilename ("fullpath"));
  files = dir (fullfile (here, "..", "derivation", "check_*.m"));
  files = files(! strcmp ({files.name}, "check_derivations.m"));   # that one runs all the others
  for f = 1:numel (files)
    [~, fn] = fileparts (files(f).name);
    fprintf ("  %s ...\n", fn);
    try
      res = feval (fn);
    catch err
      rows(end+1) = struct ("section", "derivations", "name", [fn " crashed"], "value", NaN, ...
                            "bound", NaN, "pass", false, "detail", err.message);
      continue;
    end_try_catch
    for i = 1:numel (res)
      r = res(i);
      eqs = r.eq;
      if (isnumeric (eqs)), eqs = sprintf ("(%s)", num2str (eqs)); endif
      rows(end+1) = struct ("section", "derivations", ...
                            "name", sprintf ("%s %s: %s", r.file, eqs, r.name), ...
                            "value", r.residual, "bound", r.bound, "pass", logical (r.pass), ...
                            "detail", fn);
    endfor
  endfor
endfunction
