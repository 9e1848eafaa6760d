
## (help text: see issue 2; filled in by the tests/help work)
function varargout = gdn_recurrent (varargin)
  [varargout{1:max (nargout, 1)}] = la_mex ('gdn_recurrent', varargin{:});
endfunction
