## (help text: see issue 2)
function varargout = gdn_recurrent_bwd (varargin)
  [varargout{1:max (nargout, 1)}] = la_mex ('gdn_recurrent_bwd', varargin{:});
endfunction
