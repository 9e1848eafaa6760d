function varargout = kda_recurrent (varargin)
% KDA_RECURRENT  The lab's recording stand-in of the public kda_recurrent (lab_cover).
  [varargout{1:max (nargout, 1)}] = lab_cover ('call', 'kda_recurrent', varargin);
end
