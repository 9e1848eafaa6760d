function varargout = gdn_verify (varargin)
% GDN_VERIFY  The lab's recording stand-in of the public gdn_verify (lab_cover).
  [varargout{1:max (nargout, 1)}] = lab_cover ('call', 'gdn_verify', varargin);
end
