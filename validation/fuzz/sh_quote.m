% SH_QUOTE  A path as one word of a shell command, whatever it holds.
%
%   q = sh_quote (path)
%
%   Single quotes around path, each quote in it written '\'' (spaces,
%   quotes and $ stay literal).  For the fuzzers' child commands.

function q = sh_quote (path)
  q = ['''' strrep(path, '''', '''\''''') ''''];
end

%!test
%! addpath (fullfile (fileparts (which ('la_ratio')), '..', 'fuzz'));  % run_tests puts lib on the path
%! assert (sh_quote ('/tmp/a b'), '''/tmp/a b''');
%! [status, out] = system (['printf %s ' sh_quote('/tmp/a b''c $HOME')]);
%! assert (status == 0 && strcmp (out, '/tmp/a b''c $HOME'));
