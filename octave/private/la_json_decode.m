% LA_JSON_DECODE  Parse JSON text with bounds, keeping keys exactly.
%
%   v = la_json_decode (bytes, file)
%
%   bytes: the UTF-8 text (uint8 or char).  Objects become 1 x 1 structs
%   whose field names are the keys as written (a key such as "do" or "a-b"
%   stays itself: read it with v.("do")), arrays 1 x n cells, numbers
%   doubles, strings char rows, true / false logicals, null a 0 x 0 double.
%   The parser (la_mex ('file', 'json'), mex/files/la_json.c) is
%   iterative and stops at nesting deeper than 64; a duplicate key, a
%   malformed literal or number, invalid UTF-8 or trailing text is a
%   'la:badFile' error naming FILE.  Unlike jsondecode, nothing is renamed
%   and no array is turned into a matrix.

function v = la_json_decode (bytes, file)
  [v, err] = la_mex ('file', 'json', uint8 (bytes(:)'), 64);
  if (~isempty (err))
    la_bad_file (file, 'not valid JSON: %s', err);
  end
end
