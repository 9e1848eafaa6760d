## (help text: see issues 3 and 4)
function varargout = gdn_chunk (varargin)
  [varargout{1:max (nargout, 1)}] = la_mex ('gdn_chunk', varargin{:});
endfunction
