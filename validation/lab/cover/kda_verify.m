function varargout = kda_verify (varargin)
% KDA_VERIFY  The lab's recording stand-in of the public kda_verify (lab_cover).
  [varargout{1:max (nargout, 1)}] = lab_cover ('call', 'kda_verify', varargin);
end
