function varargout = kda_recurrent_bwd (varargin)
% KDA_RECURRENT_BWD  The lab's recording stand-in of the public kda_recurrent_bwd (lab_cover).
  [varargout{1:max (nargout, 1)}] = lab_cover ('call', 'kda_recurrent_bwd', varargin);
end
