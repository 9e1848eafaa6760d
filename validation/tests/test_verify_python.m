% test_verify_python.m -- the verifier from a kernel's own Python test suite:
% kdagdn_dump.verify (octave/python/kdagdn_dump.py) runs kda_verify /
% gdn_verify through octave-cli and returns verify_report.json parsed, raising
% on FAIL; a folder of dumps in one call with one summary table; a gradient
% given to the writer as None named in the report, not dropped.  Runs
% validation/tests/python/test_kdagdn_dump.py and the pytest example of
% docs/verify.md as written (with a stand-in for the kernel under test)
% under Debian's python3-pytest, against this library (KDAGDN_LIBRARY).

%!function [status, out] = pytest_ (folder, files)
%!  here = fileparts (which ('test_verify_python'));
%!  lib = fullfile (here, '..', '..', 'octave');
%!  path = strjoin ({fullfile(lib, 'python'), fullfile(here, 'python')}, pathsep ());
%!  cmd = sprintf (['cd "%s" && KDAGDN_LIBRARY="%s" PYTHONPATH="%s" /usr/bin/python3 -m pytest -q ' ...
%!                  '-p no:cacheprovider "%s" 2>&1'], folder, lib, path, files);
%!  [status, out] = system (cmd);
%!endfunction

%!test
%! here = fileparts (which ('test_verify_python'));
%! [status, out] = pytest_ (tempdir (), fullfile (here, 'python', 'test_kdagdn_dump.py'));
%! assert (status == 0, out);
%! assert (~isempty (regexp (out, '6 passed', 'once')), out);

%!test
%! % the pytest example of docs/verify.md, as written
%! here = fileparts (which ('test_verify_python'));
%! doc = fileread (fullfile (here, '..', '..', 'docs', 'verify.md'));
%! blocks = regexp (doc, '```python\n(.*?)```', 'tokens');
%! example = blocks{find (cellfun (@(b) ~isempty (strfind (b{1}, 'def test_')), blocks), 1)}{1};
%! assert (~isempty (strfind (example, 'kdagdn_dump.verify')));
%! folder = tempname ();  mkdir (folder);
%! stand_in = {'import torch.nn.functional as F', 'from torch_kernel import Kernel', '', ...
%!             'def chunk_kda(q, k, v, g, beta, initial_state, output_final_state,', ...
%!             '              use_qk_l2norm_in_kernel, chunk_size):', ...
%!             '    q, k = F.normalize(q, dim=-1), F.normalize(k, dim=-1)', ...
%!             '    o, ht, _, _ = Kernel("kda", "fp32", "none", chunk_size).forward(', ...
%!             '        q, k, v, g, beta, initial_state, [0, q.shape[1]], q.shape[-1] ** -0.5)', ...
%!             '    return o, ht'};
%! fid = fopen (fullfile (folder, 'my_kernels.py'), 'w');  fprintf (fid, '%s\n', stand_in{:});  fclose (fid);
%! fid = fopen (fullfile (folder, 'test_example.py'), 'w');  fprintf (fid, '%s', example);  fclose (fid);
%! [status, out] = pytest_ (folder, 'test_example.py');
%! assert (status == 0, out);
%! assert (~isempty (regexp (out, '1 passed', 'once')), out);
%! confirm_recursive_rmdir (false, 'local');  rmdir (folder, 's');
