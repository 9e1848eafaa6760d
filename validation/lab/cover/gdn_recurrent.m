function varargout = gdn_recurrent (varargin)
% GDN_RECURRENT  The lab's recording stand-in of the public gdn_recurrent (lab_cover).
  [varargout{1:max (nargout, 1)}] = lab_cover ('call', 'gdn_recurrent', varargin);
end
