function varargout = kda_chunk_bwd (varargin)
% KDA_CHUNK_BWD  The lab's recording stand-in of the public kda_chunk_bwd (lab_cover).
  [varargout{1:max (nargout, 1)}] = lab_cover ('call', 'kda_chunk_bwd', varargin);
end
