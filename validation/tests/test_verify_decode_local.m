% Tests: the local checks of kda_verify / gdn_verify on decode dumps
% (docs/decode.md section 6, "Local checks"): a speculative decode call
% (T > 1 steps per sequence, one slot per step, accepted tokens) written
% by python/engine_decode.py (torch, independent of this library, dumped
% with the shipped kdagdn_dump.py), with one step of one head given a
% weak gate.  The clean dump passes without a warning; the same call with
% that step's decay left out in that head only stays under every global
% bound, yet fails, located at its sequence, step and head.  The
% calibration over dtypes, sizes and seeds is test_verify_decode_calib
% (validation/tests/slow).  Run with  test test_verify_decode_local  or
% through validation/run_tests.m.

%!test
%! % bf16 inputs, outputs and pool written in place (GDN, 64 sequences of 2
%! % steps, 4 heads) and per-token float32 states (KDA, 64 sequences of 4
%! % steps): the bug's token is the last sequence's middle step, head 2
%! specs = {'calib:gdn:bfloat16:3:64:2:4:32:pool', 'gdn', 'sequence 63, step 1, head 2';
%!          'calib:kda:bfloat16:4:64:4:4:32:tokens', 'kda', 'sequence 63, step 2, head 2'};
%! [root, cleanup] = engine_dumps ([specs(:, 1)', strcat(specs(:, 1), ':bug')']);
%! if (isempty (root))  return;  end
%! for i = 1:rows (specs)
%!   verify = str2func ([specs{i, 2} '_verify']);
%!   dir = fullfile (root, strrep (specs{i, 1}, ':', '_'));
%!   [ok, r] = verify (dir, 'ReportDir', '');
%!   assert (ok && strcmp (r.verdict, 'pass'), r.markdown);
%!   assert (all ([r.rows.local] < 8), 'a clean dump scores %g', max ([r.rows.local]));
%!   [ok, r] = verify ([dir '_bug'], 'ReportDir', '');
%!   o = verify_row (r, 'o');
%!   assert (! ok, r.markdown);
%!   assert (o.ratio < o.warn_tol, 'the global ratio %g would catch it (warn above %g)', o.ratio, o.warn_tol);
%!   assert (strcmp (o.status, 'fail') && o.local > 16, 'o: %s, local %g', o.status, o.local);
%!   assert (! isempty (strfind (o.where, ['local check, first window above 8 x: ' specs{i, 3}])), o.where);
%! end
