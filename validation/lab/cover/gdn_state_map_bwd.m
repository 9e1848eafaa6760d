function varargout = gdn_state_map_bwd (varargin)
% GDN_STATE_MAP_BWD  The lab's recording stand-in of the public gdn_state_map_bwd (lab_cover).
  [varargout{1:max (nargout, 1)}] = lab_cover ('call', 'gdn_state_map_bwd', varargin);
end
