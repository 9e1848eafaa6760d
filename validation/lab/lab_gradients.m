## -*- texinfo -*-
## @deftypefn {} {@var{rows} =} lab_gradients (@var{mode}, @var{figdir})
## Gradient section of the lab: every backward function (recurrent and
## chunked, KDA and GDN) against central finite differences in double, for
## each option on its own and all together, via @code{fd_check}.
##
## One row per (function, option set, gradient output): the largest relative
## error over random directions and sampled entries (see @code{help fd_check}
## for the error measure) against the bound 1e-6.  @var{mode} "quick" uses
## fewer option sets.  A plot of all errors goes to @var{figdir}.
## @end deftypefn
function rows = lab_gradients (mode, figdir)
  quick = strcmp (mode, "quick");
  rows = struct ("section", {}, "name", {}, "value", {}, "bound", {}, "pass", {}, "detail", {});
  tol = 1e-6;
  ## option sets: label, rand_problem arguments
  sets = {"plain",             {};
          "InitialState",      {"InitialState", true};
          "UseQKL2Norm",       {"UseQKL2Norm", true};
          "GateInKernel",      {"GateInKernel", true};
          "GateInKernel+LowerBound", {"GateInKernel", true, "LowerBound", -4};
          "BetaSigmoid",       {"BetaSigmoid", true};
          "BetaSigmoid+AllowNegEigval", {"BetaSigmoid", true, "AllowNegEigval", true};
          "Scale",             {"Scale", 0.7};
          "StateLayout VK",    {"StateLayout", "VK", "InitialState", true};
          "CuSeqlens",         {"CuSeqlens", [0 4 11 13], "InitialState", true};
          "GVA HV=2H",         {"HV", 2};
          "all options",       {"InitialState", true, "UseQKL2Norm", true, "GateInKernel", true, ...
                                "BetaSigmoid", true, "AllowNegEigval", true, "Scale", 0.6, ...
                                "StateLayout", "VK", "HV", 2}};
  if (quick)
    sets = sets([1 2 4 6 10 12], :);
  endif
  paths = {"recurrent", "chunk"};
  ## problem sizes {K, V, T, chunk size}: several chunks and a partial last one
  sizes = {5, 4, 13, 4};
  if (! quick)
    sizes(end+1, :) = {12, 9, 70, 16};
  endif
  errs = [];  labels = {};
  for op = {"kda", "gdn"}
    for ip = 1:2
      fwd = [op{1} "_" paths{ip}];  bwd = [fwd "_bwd"];
      for z = 1:size (sizes, 1)
      for s = 1:size (sets, 1)
        a = sets{s, 2};
        i = find (strcmp (a(1:2:end), "HV"));
        sz = {"K", sizes{z, 1}, "V", sizes{z, 2}, "T", sizes{z, 3}, "H", 1};
        if (! isempty (i)), sz(end+1:end+2) = {"HV", a{2*i}}; a(2*i-1:2*i) = []; endif
        if (sizes{z, 3} != 13)   # CuSeqlens of the set are for T = 13: scale them
          j = find (strcmp (a(1:2:end), "CuSeqlens"));
          if (! isempty (j)), a{2*j} = round (a{2*j} * sizes{z, 3} / 13); endif
        endif
        P = rand_problem (op{1}, sz{:}, a{:}, "Seed", 1000 + s + 100 * z);
        extra = {};
        if (ip == 2), extra = {"ChunkSize", sizes{z, 4}}; endif
        res = fd_check (fwd, bwd, P, [P.opts, extra], "Seed", 2000 + s + 100 * z, "Tol", tol);
        for r = res(:)'
          rows(end+1) = struct ("section", "gradients", ...
                                "name", sprintf ("%s [%s] K=%d V=%d T=%d %s", bwd, sets{s, 1}, ...
                                                 sizes{z, 1:3}, r.name), ...
                                "value", r.maxerr, "bound", tol, "pass", logical (r.pass), ...
                                "detail", merge (r.size_ok, "", "wrong output size"));
          errs(end+1) = r.maxerr;
          labels{end+1} = bwd;
        endfor
      endfor
      endfor
      fprintf ("  %s: %d option sets\n", bwd, size (sets, 1));
    endfor
  endfor
  if (! isempty (figdir))
    h = figure ("visible", "off", "position", [0 0 900 480]);
    names = unique (labels);
    for j = 1:numel (names)
      e = errs(strcmp (labels, names{j}));
      e = e(e > 0);   # exact zeros (e.g. the [] outputs without GateInKernel) have no place on a log axis
      semilogy (j + 0.25 * (rand (size (e)) - 0.5), e, "o");
      hold on;
    endfor
    plot ([0.5 numel(names)+0.5], [tol tol], "k--");
    hold off;  grid on;
    set (gca, "xtick", 1:numel (names), "xticklabel", strrep (names, "_", " "));
    xlim ([0.5 numel(names)+0.5]);  ylim ([1e-14 1e-4]);
    ylabel ("relative error vs finite differences");
    title ("every gradient output, every option set (bound dashed)");
    print (h, "-dpng", "-r80", fullfile (figdir, "gradients_fd.png"));
    close (h);
  endif
endfunction

