% gdn_verify  Check a GDN (Gated DeltaNet) kernel's dumped tensors against this library.
%
%   ok = gdn_verify (folder)
%   [ok, report] = gdn_verify (folder)
%   [ok, report] = gdn_verify (s)
%
%   folder: a dump of one call of a GDN kernel (e.g. FLA's chunk_gated_delta_rule) in
%   FLA layout ([B, T, H, K] row-major etc., docs/conventions.md):
%     inputs     q k v g beta (g: [B, T, HV], one gate per step), optional h0 (and A_log, dt_bias, cu_seqlens)
%     outputs    o, optional ht
%     backward   optional do, dht with the kernel's dq dk dv dg dbeta
%                (or db), dh0, dA_log, ddt_bias
%     intermediates  optional g_cumsum (log2, as FLA keeps it), Akk, Aqk,
%                w, u, v_new, h ([B, NT, HV, K, V]); with do, the
%                backward's dh, dAqk, dAkk, dw, du, dv_new
%   each as NAME.npy, an entry NAME of any .safetensors or .npz file, or a
%   variable NAME of any .mat file in the folder, and meta.json with FLA's
%   option names: scale, chunk_size, cu_seqlens, use_qk_l2norm_in_kernel,
%   use_gate_in_kernel, lower_bound, safe_gate, use_beta_sigmoid_in_kernel,
%   allow_neg_eigval, state_v_first, output_final_state, and dtype (the
%   kernel's compute dtype: float64, float32, bfloat16, float16).  Unknown
%   keys are an error (gdn:badOption).  s: the same as a struct of arrays
%   in FLA layout, with meta data in its field 'meta'.
%
%   Everything present is recomputed in double from the dumped inputs with
%   gdn_chunk / gdn_chunk_bwd ('Intermediates' for the intermediates) and
%   compared: per tensor the ratio rms(ref - x)/rms(ref), the largest
%   absolute error, the cosine similarity, the error a correct kernel of
%   that dtype has (expected: for bfloat16 / float16 the library's 'Emulate'
%   run on the same inputs), the tolerance (verify_tolerance: 4 x expected,
%   at least the format's unit roundoff; fixed for float32 / float64) and
%   pass/fail; for a failing tensor the first
%   divergence (sequence, chunk, step, head, channel; 0-based) and, in a
%   folder, a heat map verify_NAME.png of the error over (step, head).
%   The Markdown report goes to folder/verify_report.md and is printed when
%   no output is asked for the report.
%
%   ok: true when every checked tensor passes.  report: struct with fields
%   ok, rows (name, shape, ratio, max_abs, cosine, tol, pass, where,
%   expected, rule),
%   notes (tensors not checked and why), markdown, file.
%
%   In a CI script:  octave --eval "exit (~gdn_verify ('dump'))"
%
%   Example:
%     K = 8; V = 8; T = 40; H = 2;
%     q = randn (K, T, H);  k = randn (K, T, H);  k = k ./ sqrt (sum (k .^ 2, 1));
%     v = randn (V, T, H);  g = -rand (T, H) / 4;  beta = rand (T, H);
%     o = gdn_chunk (q, k, v, g, beta);    % stands for the kernel under test
%     s = struct ('q', la_to_fla ('q', q), 'k', la_to_fla ('k', k), ...
%                 'v', la_to_fla ('v', v), ...
%                 'g', la_to_fla ('g', g, 'Op', 'gdn'), ...
%                 'beta', la_to_fla ('beta', beta), 'o', la_to_fla ('o', o), ...
%                 'meta', struct ('dtype', 'float64'));
%     [ok, report] = gdn_verify (s);
%     assert (ok)
%
%   See also: kda_verify, la_load, la_from_fla, docs/verify.md.

function [ok, report] = gdn_verify (dump, varargin)
  if (nargin ~= 1 && nargin ~= 3)
    error ('gdn:nargin', 'gdn_verify: needs one dump folder or struct, and optionally ''ReportDir'', FOLDER');
  end
  out = [];
  if (nargin == 3)
    if (~ischar (varargin{1}) || ~strcmpi (varargin{1}, 'ReportDir') || ~ischar (varargin{2}))
      error ('gdn:badOption', 'gdn_verify: the only option is ''ReportDir'', a folder name (or '''')');
    end
    out = varargin{2};
  end
  [ok, report] = verify_run ('gdn', dump, out);
  if (nargout < 2)
    fprintf ('%s', report.markdown);
  end
end
