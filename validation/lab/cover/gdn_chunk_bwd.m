function varargout = gdn_chunk_bwd (varargin)
% GDN_CHUNK_BWD  The lab's recording stand-in of the public gdn_chunk_bwd (lab_cover).
  [varargout{1:max (nargout, 1)}] = lab_cover ('call', 'gdn_chunk_bwd', varargin);
end
