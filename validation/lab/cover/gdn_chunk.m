function varargout = gdn_chunk (varargin)
% GDN_CHUNK  The lab's recording stand-in of the public gdn_chunk (lab_cover).
  [varargout{1:max (nargout, 1)}] = lab_cover ('call', 'gdn_chunk', varargin);
end
