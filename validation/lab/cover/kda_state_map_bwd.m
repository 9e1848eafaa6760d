function varargout = kda_state_map_bwd (varargin)
% KDA_STATE_MAP_BWD  The lab's recording stand-in of the public kda_state_map_bwd (lab_cover).
  [varargout{1:max (nargout, 1)}] = lab_cover ('call', 'kda_state_map_bwd', varargin);
end
