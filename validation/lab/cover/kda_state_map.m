function varargout = kda_state_map (varargin)
% KDA_STATE_MAP  The lab's recording stand-in of the public kda_state_map (lab_cover).
  [varargout{1:max (nargout, 1)}] = lab_cover ('call', 'kda_state_map', varargin);
end
