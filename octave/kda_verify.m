% kda_verify  Check a KDA kernel's dumped tensors against this library.
%
%   ok = kda_verify (folder)
%   [ok, report] = kda_verify (folder)
%   [ok, report] = kda_verify (s)
%   [ok, report] = kda_verify (..., 'ReportDir', out)
%   [ok, report] = kda_verify (..., 'SliceHeads', n, 'Quiet', true)
%
%   folder: a dump of one call of a KDA kernel in FLA layout (docs/verify.md;
%   kdagdn_dump.py writes one from Python: octave/python/ of a clone, or
%   the python/ folder of the installed package,
%   fullfile (pkg ('list', 'kdagdn'){1}.dir, 'python')):
%     inputs     q k [B, T, H, K], v [B, T, HV, V], g [B, T, HV, K], beta
%                [B, T, HV],
%                optional h0 [N, HV, K, V] (and A_log, dt_bias, cu_seqlens)
%     outputs    o, optional ht
%     backward   optional do, dht with the kernel's dq dk dv dg dbeta
%                (or db), dh0, dA_log, ddt_bias
%     intermediates  optional g_cumsum (log2, as FLA keeps it), Akk, Aqk,
%                w, u, v_new, h ([B, NT, HV, K, V]); with do, the
%                backward's dh, dAqk, dAkk, dw, du, dv_new
%   each as NAME.npy, an entry NAME of any .safetensors or .npz file, or a
%   variable NAME of any .mat file in the folder, and meta.json with the
%   keyword arguments of FLA's call: every key FLA's chunk_* and
%   fused_recurrent_* accept (scale, chunk_size, cu_seqlens,
%   use_qk_l2norm_in_kernel, use_gate_in_kernel, lower_bound, safe_gate,
%   use_beta_sigmoid_in_kernel, allow_neg_eigval, state_v_first or its
%   deprecated alias transpose_state_layout, use_graph; and, changing
%   nothing, output_final_state, disable_recompute,
%   return_intermediate_states, cu_seqlens_cpu, chunk_indices,
%   max_num_seqs, cp_context: docs/verify.md section 3), intermediates
%   ('fla', the default: dh, dAkk, dAqk as FLA stores them; 'kdagdn': this
%   library's convention) and dtype (the format the kernel takes and
%   returns, FLA's q.dtype: float64, float32, bfloat16, float16; a bf16
%   kernel accumulating in fp32 is bfloat16; without it, read from the
%   stored tensors).  Unknown keys are an error (kda:badOption).  s: the
%   same as a struct of arrays in FLA layout, with meta data in its field
%   'meta'.  out: the folder for the report and heat maps ('' for none;
%   default: the dump folder, none for s).  n: how many query/key heads
%   (with their value heads) are recomputed and compared at a time; by
%   default as many as keep a slice's tensors in double within half the
%   memory the dump is held in (at least 64 MiB), so that a large dump
%   is checked in about 6 times its bytes (a dump read from files keeps
%   its float32 / bfloat16 / float16 tensors single until its slice is
%   recomputed); the verdict, ratios and locations are the same for any
%   n, to rounding.  Dumps with use_gate_in_kernel's A_log / dt_bias and
%   decode dumps are checked whole.  A call of more than 3 seconds
%   prints progress lines to stderr (the slice it is at, every 2 s at
%   most, and the total time), none with 'Quiet' true.
%
%   Everything present is recomputed in double from the dumped inputs with
%   kda_chunk / kda_chunk_bwd ('Intermediates' for the intermediates) and
%   compared: per tensor the ratio rms(ref - x)/rms(ref), the largest
%   absolute error, the cosine similarity, the error a correct kernel of
%   that dtype has (expected: the library's 'Emulate' run, 'tf32' for
%   float32, 'bf16', 'fp16', on the same inputs) and the bounds
%   (verify_tolerance: fail above 4 x expected, warn above 2 x expected,
%   both at least half the unit roundoff; 1e-10 for float64).  For a
%   tensor that does not pass, where it goes wrong (0-based, FLA's
%   indices): the first (sequence, chunk, step, head, channel) for tensors
%   with a time axis, the first (sequence, chunk) for h and dh, the first
%   sequence for ht and dh0, and every failing head (for gradients also
%   but dq the last wrong step, where an error the backward sweep carries
%   back in time begins); besides
%   the global ratio, the error in each window (sequence, chunk, head;
%   sequence, step, head) against the emulated kernel's there: warn above
%   8 x, fail above 16 x (docs/verify.md section 4); a heat map
%   verify_NAME.png of the error over (step, head).  The Markdown report
%   goes to verify_report.md and the same for programs to
%   verify_report.json (schema kdagdn.verify_report; both written fresh,
%   never through a link; kdagdn_dump.verify runs this from Python) and is
%   printed when no output is asked for the report.  Shape mistakes
%   (head-first order, a flattened head axis, states of several sequences
%   without cu_seqlens) and unreadable files (.pt, .pth, .bin, .h5) are
%   errors that say what to do; messages start with kda_verify.
%
%   report.verdict: 'pass' (everything checked and within the warn
%   bounds), 'warn' (within tolerance, but a tensor has more error than a
%   correct kernel of that dtype, or fewer bits than FLA keeps, or a tensor
%   was not checked) or 'fail' (a tensor out of tolerance, or a gradient in
%   the dump whose backward could not be run).  ok: false only on 'fail'.
%   Conventions: FLA's at the commit the report names (report.fla_commit).
%   report: struct with fields ok, verdict, dtype, fla_commit, rows (name,
%   shape, ratio, max_abs, cosine, tol, warn_tol, status, pass, where,
%   err_map, expected, rule, local), unchecked (name, reason, severity),
%   notes, slips (the convention slips that would make a failing dump
%   match; name, text, ratio_after, matched), markdown, file, json,
%   json_file.
%
%   In a CI script (an installed package; from a clone, addpath its
%   octave/ instead of pkg load):
%     octave --eval "pkg load kdagdn; exit (~kda_verify ('dump'))"
%
%   Example:
%     K = 8; V = 8; T = 40; H = 2;
%     q = randn (K, T, H);  k = randn (K, T, H);  k = k ./ sqrt (sum (k .^ 2, 1));
%     v = randn (V, T, H);  g = -rand (K, T, H) / 4;  beta = rand (T, H);
%     o = kda_chunk (q, k, v, g, beta);    % stands for the kernel under test
%     s = struct ('q', la_to_fla ('q', q), 'k', la_to_fla ('k', k), ...
%                 'v', la_to_fla ('v', v), 'g', la_to_fla ('g', g), ...
%                 'beta', la_to_fla ('beta', beta), 'o', la_to_fla ('o', o), ...
%                 'meta', struct ('dtype', 'float64'));
%     [ok, report] = kda_verify (s);
%     assert (ok)
%
%   See also: gdn_verify, la_load, la_from_fla, docs/verify.md.

function [ok, report] = kda_verify (dump, varargin)
  if (nargin < 1)
    error ('kda:nargin', 'kda_verify: needs one dump folder or struct, then options (''ReportDir'', ''SliceHeads'', ''Quiet'')');
  end
  [ok, report] = verify_run ('kda', dump, varargin{:});
  if (nargout < 2)
    fprintf ('%s', report.markdown);
  end
end

%!shared s, t0
%! K = 8; V = 8; T = 40; H = 2;
%! q = randn (K, T, H);  k = randn (K, T, H);  k = k ./ sqrt (sum (k .^ 2, 1));
%! v = randn (V, T, H);  g = -rand (K, T, H) / 4;  beta = rand (T, H);
%! o = kda_chunk (q, k, v, g, beta);
%! s = struct ('q', la_to_fla ('q', q), 'k', la_to_fla ('k', k), 'v', la_to_fla ('v', v), ...
%!             'g', la_to_fla ('g', g), 'beta', la_to_fla ('beta', beta), ...
%!             'o', la_to_fla ('o', o), 'meta', struct ('dtype', 'float64'));
%! t0 = 19;

%!test
%! % the library's own result passes
%! [ok, r] = kda_verify (s, 'Quiet', true);
%! assert (ok && strcmp (r.verdict, 'pass'));
%! assert (strcmp (r.rows(strcmp ({r.rows.name}, 'o')).status, 'pass'));

%!test
%! % one wrong step fails, named by its step (0-based, FLA's)
%! bad = s;  bad.o(1, t0 + 1, 2, :) = bad.o(1, t0 + 1, 2, :) + 1;
%! [ok, r] = kda_verify (bad, 'Quiet', true);
%! assert (~ok && strcmp (r.verdict, 'fail'));
%! w = r.rows(strcmp ({r.rows.name}, 'o')).where;
%! assert (~isempty (strfind (w, sprintf ('t = %d of the sequence', t0))), w);

%!test
%! % a dump folder: the reports are written where 'ReportDir' says
%! d = tempname ();  mkdir (d);
%! unwind_protect
%!   la_save (fullfile (d, 'dump.safetensors'), rmfield (s, 'meta'));
%!   fid = fopen (fullfile (d, 'meta.json'), 'w');  fprintf (fid, '{"dtype": "float64"}');  fclose (fid);
%!   [ok, ~] = kda_verify (d, 'ReportDir', d, 'Quiet', true);
%!   assert (ok);
%!   assert (exist (fullfile (d, 'verify_report.md'), 'file') == 2);
%!   assert (exist (fullfile (d, 'verify_report.json'), 'file') == 2);
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, 'local');
%!   rmdir (d, 's');
%! end_unwind_protect

%!error <needs one dump folder> kda_verify ()
