## (help text: see issue 2)
function varargout = kda_recurrent_bwd (varargin)
  [varargout{1:max (nargout, 1)}] = la_mex ('kda_recurrent_bwd', varargin{:});
endfunction
