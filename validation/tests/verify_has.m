% VERIFY_HAS  Assert that a text holds every given piece (tests' helper).
%
%   verify_has (text, piece, ...)

function verify_has (text, varargin)
  for i = 1:numel (varargin)
    assert (~isempty (strfind (text, varargin{i})), 'no "%s" in: %s', varargin{i}, text);
  end
end
