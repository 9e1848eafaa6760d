function varargout = kda_chunk (varargin)
% KDA_CHUNK  The lab's recording stand-in of the public kda_chunk (lab_cover).
  [varargout{1:max (nargout, 1)}] = lab_cover ('call', 'kda_chunk', varargin);
end
