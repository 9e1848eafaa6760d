% kdagdn_version  Version of the kdagdn library, as a string.
%
%   v = kdagdn_version ()
%
%   Returns the semantic version 'MAJOR.MINOR.PATCH' of the library.  The
%   build reads it from this file into the package's DESCRIPTION, and
%   NEWS.md lists what each version changed.
%
%   Example:
%     fprintf ('kdagdn %s\n', kdagdn_version ());
%
%   See also: kdagdn.

function v = kdagdn_version ()
  v = '0.2.0';
end

%!test
%! v = kdagdn_version ();
%! assert (ischar (v));
%! assert (~isempty (regexp (v, '^\d+\.\d+\.\d+$', 'once')));

%!demo
%! % the version and where the library was found
%! fprintf ('kdagdn %s in %s\n', kdagdn_version (), fileparts (which ('kda_chunk')));
