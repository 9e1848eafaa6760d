## -*- texinfo -*-
## @deftypefn {} {@var{rows} =} lab_precision (@var{mode}, @var{figdir})
## Precision section of the lab: fp32 against fp64 for every path, and the
## chunked path against the recurrent one.
##
## For every sweep point the same random inputs (drawn in double) are run
## in double and in single; the SPEC metric
## @code{ratio = rms(ref - x) / rms(ref)} (computed in double, by
## @code{la_ratio}) compares
## @itemize
## @item fp32 vs fp64 of the same path (forward outputs o, S; backward: every
## gradient), bound 1e-4 (SPEC section 3, "single results"),
## @item chunked vs recurrent in double, bound 1e-10, and in single, bound 1e-4.
## @end itemize
## Sweeps: sequence length T, gate strength (g = -strength * rand per step and
## channel, up to 30), chunk size C and head size K = V.  @var{mode} is
## "full" (T up to 16384) or "quick" (small sizes, for make test).
## Plots (PNG) go to @var{figdir}.  Each row of @var{rows} has fields
## section, name, value, bound, pass, detail.
## @end deftypefn
function rows = lab_precision (mode, figdir)
  quick = strcmp (mode, "quick");
  if quick
    Ts = [64 256 1024];  gates = [0.1 1 30];  Cs = [16 64];  Ks = [16 64];
    H = 1;  Kdef = 32;
  else
    Ts = [64 256 1024 4096 16384];  gates = [0.05 0.5 2 8 30];
    Cs = [16 32 64 128];  Ks = [32 64 128 256];  H = 2;  Kdef = 128;
  endif
  rows = struct ("section", {}, "name", {}, "value", {}, "bound", {}, ...
                 "pass", {}, "detail", {});
  ops = {"kda", "gdn"};

  ## --- over T: forward and backward, every path --------------------------
  fprintf ("  precision over T ...\n");
  res_T = nan (numel (Ts), 4, 2);   # T x (rec fwd, chunk fwd, rec bwd, chunk bwd) x op
  for io = 1:2
    for it = 1:numel (Ts)
      P = make_problem (ops{io}, Kdef, Kdef, Ts(it), H, 1);
      [r, rows] = run_point (P, 64, rows, sprintf ("%s T=%d", ops{io}, Ts(it)), ...
                             Ts(it) <= 4096);
      res_T(it, :, io) = r;
    endfor
  endfor
  plot_lines (Ts, res_T, "T (steps)", sprintf ("fp32 vs fp64 over T (K = V = %d)", Kdef), ...
              figdir, "precision_T.png");

  ## --- over gate strength ---------------------------------------------
  fprintf ("  precision over gate strength ...\n");
  Tg = merge (quick, 256, 2048);
  res_g = nan (numel (gates), 4, 2);
  for io = 1:2
    for ig = 1:numel (gates)
      P = make_problem (ops{io}, Kdef, Kdef, Tg, H, gates(ig));
      [r, rows] = run_point (P, 64, rows, sprintf ("%s gate=%g", ops{io}, gates(ig)), true);
      res_g(ig, :, io) = r;
    endfor
  endfor
  plot_lines (gates, res_g, "gate strength s (g = -s rand)", "fp32 vs fp64 over gate strength", ...
              figdir, "precision_gate.png");

  ## --- over chunk size --------------------------------------------------
  fprintf ("  precision over chunk size ...\n");
  res_c = nan (numel (Cs), 4, 2);
  for io = 1:2
    P = make_problem (ops{io}, Kdef, Kdef, Tg, H, 1);
    for ic = 1:numel (Cs)
      [r, rows] = run_point (P, Cs(ic), rows, sprintf ("%s C=%d", ops{io}, Cs(ic)), true);
      res_c(ic, :, io) = r;
    endfor
  endfor
  plot_lines (Cs, res_c, "chunk size C", "fp32 vs fp64 over chunk size", figdir, ...
              "precision_chunk.png");

  ## --- over head size ---------------------------------------------------
  fprintf ("  precision over head size ...\n");
  res_k = nan (numel (Ks), 4, 2);
  for io = 1:2
    for ik = 1:numel (Ks)
      P = make_problem (ops{io}, Ks(ik), Ks(ik), Tg, H, 1);
      [r, rows] = run_point (P, 64, rows, sprintf ("%s K=V=%d", ops{io}, Ks(ik)), true);
      res_k(ik, :, io) = r;
    endfor
  endfor
  plot_lines (Ks, res_k, "head size K = V", "fp32 vs fp64 over head size", figdir, ...
              "precision_head.png");
endfunction


## Random problem in double; q, k unit-norm columns keep the recurrence bounded.
function P = make_problem (op, K, V, T, H, strength)
  P.op = op;
  P.q = randn (K, T, H);  P.q ./= sqrt (sum (P.q .^ 2, 1));
  P.k = randn (K, T, H);  P.k ./= sqrt (sum (P.k .^ 2, 1));
  P.v = randn (V, T, H);
  if strcmp (op, "kda")
    P.g = -strength * rand (K, T, H);
  else
    P.g = -strength * rand (T, H);
  endif
  P.beta = rand (T, H);
  P.h0 = randn (K, V, H) / sqrt (K);
  P.dout = randn (V, T, H);
  P.dS = randn (K, V, H);
endfunction

## One sweep point: returns the worst fp32-vs-fp64 ratio of
## [rec fwd, chunk fwd, rec bwd, chunk bwd] and appends rows (also the
## chunked-vs-recurrent comparisons).  check: whether the single bound
## applies (SPEC: "at T up to a few thousand").
function [r, rows] = run_point (P, C, rows, label, check)
  fr = str2func ([P.op "_recurrent"]);   fc = str2func ([P.op "_chunk"]);
  br = str2func ([P.op "_recurrent_bwd"]); bc = str2func ([P.op "_chunk_bwd"]);
  args = {P.q, P.k, P.v, P.g, P.beta};
  sgl = cellfun (@single, args, "UniformOutput", false);
  opt = {"InitialState", P.h0};
  [o_rd, S_rd] = fr (args{:}, opt{:});
  [o_rs, S_rs] = fr (sgl{:}, opt{:});
  [o_cd, S_cd] = fc (args{:}, opt{:}, "ChunkSize", C);
  [o_cs, S_cs] = fc (sgl{:}, opt{:}, "ChunkSize", C);
  G_rd = cell (1, 6); G_rs = G_rd; G_cd = G_rd; G_cs = G_rd;
  [G_rd{:}] = br (args{:}, P.dout, P.dS, opt{:});
  [G_rs{:}] = br (sgl{:}, single (P.dout), P.dS, opt{:});
  [G_cd{:}] = bc (args{:}, P.dout, P.dS, opt{:}, "ChunkSize", C);
  [G_cs{:}] = bc (sgl{:}, single (P.dout), P.dS, opt{:}, "ChunkSize", C);
  worst = @(A, B) max (cellfun (@la_ratio, A, B));
  r = [worst({o_rd, S_rd}, {o_rs, S_rs}), worst({o_cd, S_cd}, {o_cs, S_cs}), ...
       worst(G_rd, G_rs), worst(G_cd, G_cs)];
  cr_d = max (worst ({o_rd, S_rd}, {o_cd, S_cd}), worst (G_rd, G_cd));
  cr_s = max (worst ({o_rd, S_rd}, {o_cs, S_cs}), worst (G_rd, G_cs));
  names = {"recurrent fwd fp32 vs fp64", "chunk fwd fp32 vs fp64", ...
           "recurrent bwd fp32 vs fp64", "chunk bwd fp32 vs fp64"};
  for i = 1:4
    rows(end+1) = mkrow ("precision", [label " " names{i}], r(i), merge (check, 1e-4, NaN));
  endfor
  rows(end+1) = mkrow ("precision", [label " chunk vs recurrent fp64"], cr_d, 1e-10);
  rows(end+1) = mkrow ("precision", [label " chunk fp32 vs recurrent fp64"], cr_s, ...
                       merge (check, 1e-4, NaN));
  if (! all (isfinite ([r cr_d cr_s])))
    rows(end).pass = false;  rows(end).detail = "non-finite result";
  endif
endfunction

function row = mkrow (section, name, value, bound)
  row.section = section;  row.name = name;  row.value = value;  row.bound = bound;
  row.pass = isnan (bound) || (isfinite (value) && value <= bound);
  row.detail = merge (isnan (bound), "reported (no bound at this size)", "");
endfunction

function plot_lines (x, R, xl, ttl, figdir, fname)
  if (isempty (figdir)), return; endif
  h = figure ("visible", "off", "position", [0 0 900 480]);
  styles = {"-o", "-s", "--o", "--s"};
  names = {"recurrent fwd", "chunk fwd", "recurrent bwd", "chunk bwd"};
  leg = {};
  for io = 1:2
    for j = 1:4
      loglog (x, max (R(:, j, io), 1e-17), styles{j}, "linewidth", 1.2 + (io == 2));
      hold on;
      leg{end+1} = sprintf ("%s %s", merge (io == 1, "KDA", "GDN"), names{j});
    endfor
  endfor
  loglog ([min(x) max(x)], [1e-4 1e-4], "k:", "linewidth", 1.5);
  leg{end+1} = "SPEC bound 1e-4";
  hold off;  grid on;
  ylim ([1e-9 1e-2]);
  xlabel (xl);  ylabel ("rms(ref - x) / rms(ref)");
  title (ttl);
  legend (leg, "location", "eastoutside");
  print (h, "-dpng", "-r80", fullfile (figdir, fname));
  close (h);
endfunction
