% test_bench_goals: bench_goals reads the core driver's tables (bench_core's
% rows, bench_core_blas's GEMMs alone) and decides each goal from them (a
% made-up table; no timing).
%
%   See also: bench_goals, bench_goals_rounds, run_bench_goals.

%!function txt = core_table (r)
%!  % bench_core's rows with the ratios r (fwd H4 K128, fwd+bwd, fwd H1,
%!  % fwd K64, double fwd, double fwd+bwd)
%!  row = @(cls, mode, H, K, x) sprintf ('| kda chunk | %s | %s | 2048 | %d | %d | 64 | 0.01 | 0.01 | 0.02 | 1 | 50.0 | 100.0 | %.2f |\n', cls, mode, H, K, x);
%!  txt = ['| row | class | mode | T | H | K=V | C | median s | min s | max s | tokens/s | GFLOP/s | gemm GFLOP/s (same reps) | vs gemm |' char(10) ...
%!         row('single', 'fwd', 4, 128, r(1)), row('single', 'fwd+bwd', 4, 128, r(2)), ...
%!         row('single', 'fwd', 1, 128, r(3)), row('single', 'fwd', 4, 64, r(4)), ...
%!         row('double', 'fwd', 4, 128, r(5)), row('double', 'fwd+bwd', 4, 128, r(6)), ...
%!         sprintf('| kda chunk (hot) | single | fwd | 2048 | 4 | 128 | 64 | 0.1 | 0.1 | 0.1 | 1 | 5.0 | 100.0 | 0.05 |\n')];
%! endfunction

%!function txt = blas_table (c)
%!  % bench_core_blas's rows with the ceilings c, in the order of core_table,
%!  % then its stage table (whose rows must not be read as ceilings)
%!  row = @(cls, mode, H, K, x) sprintf ('| kda chunk | %s | %s | %d | %d | 64 | 0.013 | 0.009 | 0.69 | 0.50 | %.2f |\n', cls, mode, H, K, x);
%!  txt = ['| row | class | mode | H | K=V | C | median s | in gemm s | share | vs gemm | GEMMs alone |' char(10) ...
%!         sprintf('| kda chunk (transforms) | single | fwd | 4 | 128 | 64 | 0.013 | 0.019 | 0.69 | 0.50 | 0.33 |\n') ...
%!         row('single', 'fwd', 4, 128, c(1)), row('single', 'fwd+bwd', 4, 128, c(2)), ...
%!         row('single', 'fwd', 1, 128, c(3)), row('single', 'fwd', 4, 64, c(4)), ...
%!         row('double', 'fwd', 4, 128, c(5)), row('double', 'fwd+bwd', 4, 128, c(6)), char(10) ...
%!         '| row | class | H | K=V | C | intra phase | gating | diag | scale | off-diag | solve | w, u | other | state pass | waiting |' char(10) ...
%!         '| kda chunk | single | 4 | 64 | 64 | 0.45 | 0.08 | 0.06 | 0.02 | 0.08 | 0.04 | 0.15 | 0.02 | 0.53 | 0.02 |' char(10)];
%! endfunction

%!test
%! % the goal is each row's share of its ceiling, >= 0.85 in both columns
%! addpath (fullfile (fileparts (which ('test_bench_goals')), '..', 'bench'));
%! dec = struct ('fn', {'kda_recurrent', 'gdn_recurrent'}, 'ours', {12, 20});
%! own = core_table ([0.80 0.60 0.50 0.40 0.70 0.45]);
%! avx2 = core_table ([0.90 0.50 0.72 0.71 0.85 0.75]);
%! cown = blas_table ([0.90 0.75 0.80 0.50 0.82 0.70]);
%! cavx2 = blas_table ([1.00 0.50 0.90 0.80 1.00 1.00]);
%! [md, g] = bench_goals (own, avx2, dec, {cown, cavx2});
%! sel = @(goal, kern) g(strcmp ({g.goal}, goal) & strncmp ({g.kernels}, kern, 4));
%! a = sel ('forward, H = 4, K = V = 128', 'AVX2');
%! assert ([a.ratio a.ceiling a.value a.target], [0.90 1.00 0.90 0.85], 1e-12);
%! assert (a.met);
%! assert (sel ('forward + backward, H = 4, K = V = 128', 'AVX2').met);   % 0.5 / 0.5
%! assert (~sel ('forward, H = 1, K = V = 128', 'AVX2').met);             % 0.8
%! assert (~sel ('double forward + backward (vs dgemm)', 'AVX2').met);    % 0.75
%! m = sel ('forward, H = 4, K = V = 128', 'mach');
%! assert (m.value, 0.80 / 0.90, 1e-12);
%! assert (m.met);
%! assert (~sel ('forward + backward, H = 4, K = V = 128', 'mach').met);  % 0.8
%! assert (sel ('double forward (vs dgemm)', 'mach').met);                % 0.854
%! assert (sel ('decode overhead, kda_recurrent (us per call)', '-').met);
%! assert (~sel ('decode overhead, gdn_recurrent (us per call)', '-').met);
%! assert (~isempty (strfind (md, '| forward, H = 4, K = V = 128 | AVX2 (OPENBLAS_CORETYPE=Haswell) | 0.90 | 1.00 | - | 0.90 | >= 0.85 | yes |')));

%!test
%! % a char core_blas is the AVX2 kernels' (as run_bench passes it): the
%! % machine's column has no ceiling, so no share and nothing met
%! addpath (fullfile (fileparts (which ('test_bench_goals')), '..', 'bench'));
%! t = core_table ([0.55 0.5 0.5 0.4 0.50 0.50]);
%! [md, g] = bench_goals (t, t, struct ('fn', {}, 'ours', {}), blas_table ([0.6 0.5 0.5 0.4 0.5 0.5]));
%! sel = @(goal, kern) g(strcmp ({g.goal}, goal) & strncmp ({g.kernels}, kern, 4));
%! assert (sel ('forward, H = 4, K = V = 128', 'AVX2').ceiling, 0.6, 1e-12);
%! m = sel ('forward, H = 4, K = V = 128', 'mach');
%! assert (isnan (m.ceiling) && isnan (m.value) && ~m.met);
%! assert (~isempty (strfind (md, 'not measured')));

%!test
%! % the (transforms) row has the keys of the first row and the stage table
%! % follows; neither is read as a ceiling
%! addpath (fullfile (fileparts (which ('test_bench_goals')), '..', 'bench'));
%! t = core_table ([0.55 0.5 0.5 0.4 0.50 0.50]);
%! cb = blas_table ([0.87 NaN NaN NaN NaN NaN]);
%! [~, g] = bench_goals (t, t, struct ('fn', {}, 'ours', {}), {cb, cb});
%! sel = @(goal, kern) g(strcmp ({g.goal}, goal) & strncmp ({g.kernels}, kern, 4));
%! assert (sel ('forward, H = 4, K = V = 128', 'AVX2').ceiling, 0.87, 1e-12);
%! assert (isnan (sel ('forward, H = 4, K = V = 64', 'AVX2').ceiling));

%!test
%! % missing tables: every chunk goal says so, none is met
%! addpath (fullfile (fileparts (which ('test_bench_goals')), '..', 'bench'));
%! [md, g] = bench_goals ('', '', struct ('fn', {}, 'ours', {}));
%! assert (all (isnan ([g.value])));
%! assert (~any ([g.met]));
%! assert (~isempty (strfind (md, 'not measured')));

%!test
%! % the FMA peak beside each row, from the engine's rates table of the same
%! % program ("libxsmm of peak"): the machine's from its own, AVX2's from its
%! addpath (fullfile (fileparts (which ('test_bench_goals')), '..', 'bench'));
%! rates = @(x) ['| row | class | mode | H | K=V | C | libxsmm GFLOP/s | BLAS GFLOP/s | libxsmm of peak | BLAS of peak |' char(10) ...
%!               sprintf('| kda chunk | single | fwd | 4 | 128 | 64 | 103.2 | 104.5 | %.2f | 0.35 |\n', x) ...
%!               '| kda chunk | single | fwd | 4 | 64 | 64 | 77.1 | 67.5 | 0.90 | 0.22 |' char(10)];
%! t = core_table ([0.55 0.5 0.5 0.4 0.50 0.50]);
%! [~, g] = bench_goals ([t rates(0.34)], [t rates(0.60)], struct ('fn', {}, 'ours', {}));
%! sel = @(goal, kern) g(strcmp ({g.goal}, goal) & strncmp ({g.kernels}, kern, 4));
%! assert (sel ('forward, H = 4, K = V = 128', 'mach').peak, 0.34, 1e-12);
%! assert (sel ('forward, H = 4, K = V = 128', 'AVX2').peak, 0.60, 1e-12);
%! assert (sel ('forward, H = 4, K = V = 64', 'AVX2').peak, 0.90, 1e-12);
%! assert (isnan (sel ('forward, H = 1, K = V = 128', 'AVX2').peak));

%!test
%! % bench_goals_rounds: two rounds of both kernel sets and their ceilings;
%! % each round's share, the median over rounds and the rounds met per goal
%! addpath (fullfile (fileparts (which ('test_bench_goals')), '..', 'bench'));
%! texts = {core_table([0.45 0.5 0.5 0.4 0.5 0.5]), core_table([0.60 0.5 0.5 0.4 0.5 0.5]), ...
%!          blas_table([0.5 1 1 1 1 1]), blas_table([0.8 1 1 1 1 1]); ...
%!          core_table([0.44 0.5 0.5 0.4 0.5 0.5]), core_table([0.50 0.5 0.5 0.4 0.5 0.5]), ...
%!          blas_table([0.5 1 1 1 1 1]), blas_table([0.5 1 1 1 1 1])};
%! [md, G] = bench_goals_rounds (texts);
%! at = @(goal, kern) G(strcmp ({G.goal}, goal) & strncmp ({G.kernels}, kern, 4));
%! a = at ('forward, H = 4, K = V = 128', 'AVX2');   % 0.60 / 0.8, then 0.50 / 0.5
%! assert (a.values, [0.75 1], 1e-12);
%! assert ([a.median a.lo a.hi a.met], [0.875 0.75 1 1], 1e-12);
%! o = at ('forward, H = 4, K = V = 128', 'mach');   % 0.9, 0.88
%! assert (o.values, [0.9 0.88], 1e-12);
%! assert (o.met, 2);
%! assert (~isempty (strfind (md, '| forward, H = 4, K = V = 128 | AVX2 (OPENBLAS_CORETYPE=Haswell) | 0.55 | 0.65 | - | 0.75, 1.00 | 0.88 (0.75-1.00) | >= 0.85 | 1 of 2 |')));

%!test
%! % a round without a table: NaN in that round, left out of the median;
%! % rounds without bench_core_blas (R x 2) measure no share at all
%! addpath (fullfile (fileparts (which ('test_bench_goals')), '..', 'bench'));
%! t = core_table ([0.70 0.66 0.61 0.59 0.65 0.40]);
%! c = blas_table ([0.8 1 1 1 1 1]);
%! [~, G] = bench_goals_rounds ({t, '', c, ''; t, t, c, c});
%! a = G(strcmp ({G.goal}, 'forward, H = 4, K = V = 128') & strncmp ({G.kernels}, 'AVX2', 4));
%! assert (isnan (a.values(1)));
%! assert (a.median, 0.875, 1e-12);
%! assert (a.met, 1);
%! [~, G] = bench_goals_rounds ({t, t});
%! assert (all (isnan ([G.median])));
