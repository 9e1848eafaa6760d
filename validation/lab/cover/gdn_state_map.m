function varargout = gdn_state_map (varargin)
% GDN_STATE_MAP  The lab's recording stand-in of the public gdn_state_map (lab_cover).
  [varargout{1:max (nargout, 1)}] = lab_cover ('call', 'gdn_state_map', varargin);
end
