## (help text: see issues 3 and 4)
function varargout = kda_chunk_bwd (varargin)
  [varargout{1:max (nargout, 1)}] = la_mex ('kda_chunk_bwd', varargin{:});
endfunction
