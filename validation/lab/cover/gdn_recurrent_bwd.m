function varargout = gdn_recurrent_bwd (varargin)
% GDN_RECURRENT_BWD  The lab's recording stand-in of the public gdn_recurrent_bwd (lab_cover).
  [varargout{1:max (nargout, 1)}] = lab_cover ('call', 'gdn_recurrent_bwd', varargin);
end
