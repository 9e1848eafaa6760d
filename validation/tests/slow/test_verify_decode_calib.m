% Tests (full tier, make validate): the calibration of the local checks
% on decode dumps (docs/decode.md section 6, "Local checks").  Correct
% speculative decode calls from python/engine_decode.py (torch, written
% from the recurrence, independent of this library), KDA and GDN, float32
% / bfloat16 / float16, pools written in place and per-token states, 8 to
% 128 sequences of 1 to 16 steps, 4 to 32 value heads, K = V = 32 to 128,
% eight seeds: every dump passes and no window warns (local score under
% 8; the largest measured is 2.84, float32 o).  About 2 minutes of CPU
% (10 minutes on two cores at load 9).  Run with  test test_verify_decode_calib  or through
% validation/run_tests.m ('slow').

%!test
%! specs = {'calib:gdn:bfloat16:1:64:4:8:64:pool', 'calib:kda:bfloat16:2:32:2:32:64:tokens', ...
%!          'calib:gdn:float16:3:32:4:16:64:pool', 'calib:kda:float16:4:16:8:8:64:tokens', ...
%!          'calib:gdn:float32:5:32:4:16:64:tokens', 'calib:kda:float32:6:64:2:8:64:pool', ...
%!          'calib:kda:bfloat16:7:128:1:4:128:pool', 'calib:gdn:bfloat16:8:8:16:32:32:tokens'};
%! [root, cleanup] = engine_dumps (specs);
%! if (isempty (root))  return;  end
%! worst = 0;
%! for i = 1:numel (specs)
%!   verify = str2func ([specs{i}(7:9) '_verify']);
%!   [ok, r] = verify (fullfile (root, strrep (specs{i}, ':', '_')), 'ReportDir', '');
%!   assert (ok && strcmp (r.verdict, 'pass'), '%s: %s', specs{i}, r.markdown);
%!   assert (all ([r.rows.local] < 8), '%s: local score %g', specs{i}, max ([r.rows.local]));
%!   worst = max ([worst, r.rows.local]);
%! end
%! printf ('test_verify_decode_calib: the largest local score of %d correct decode dumps: %.2f\n', ...
%!         numel (specs), worst);
