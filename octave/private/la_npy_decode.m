% LA_NPY_DECODE  Decode the bytes of one .npy file (format versions 1-3).
%
%   [x, dtype] = la_npy_decode (bytes, file)
%
%   bytes: uint8 vector of the whole .npy file; file: the name used in
%   error messages.  The header is a Python dict literal with exactly the
%   keys 'descr', 'fortran_order' and 'shape' (numpy's format.py), read
%   token by token as Python's literal_eval would: a duplicate key, another
%   key, a value of the wrong type, a 1-tuple without its comma or any
%   malformed literal is a 'la:badFile' error (numpy rejects such a file,
%   or reads it differently); so are a format version other than 1.0, 2.0
%   or 3.0 (a minor version byte not 0) and a character between the
%   header's tokens that Python's tokenizer refuses (a vertical tab).  descr is a type string such as '<f4' or
%   '>i8'.  bfloat16 has no numpy type: ml_dtypes (JAX) arrays are saved
%   with descr '<V2' (a 2-byte void), read here as bfloat16, as is the
%   descr 'bfloat16' itself.  Structured or object arrays are refused.
%   Bounds, checked before anything is allocated: the header at most
%   10000 bytes (numpy's own limit), at most 64 dimensions, and the shape's
%   byte count equal to the data's.

function [x, dtype] = la_npy_decode (bytes, file)
  bytes = uint8 (bytes(:)');
  magic = uint8 ([147 double('NUMPY')]);
  if (numel (bytes) < 10 || any (bytes(1:6) ~= magic))
    la_bad_file (file, 'not a .npy file (no \\x93NUMPY magic)');
  end
  major = bytes(7);
  if (bytes(8) ~= 0 && any (major == [1 2 3]))
    la_bad_file (file, 'format version %d.%d: numpy reads versions 1.0, 2.0 and 3.0 only', major, bytes(8));
  end
  if (major == 1)
    hlen = double (bytes(9)) + 256 * double (bytes(10));
    hstart = 11;
  elseif (major == 2 || major == 3)
    if (numel (bytes) < 12)
      la_bad_file (file, 'truncated header');
    end
    hlen = double (typecast (bytes(9:12), 'uint32'));
    hstart = 13;
  else
    la_bad_file (file, 'unknown .npy format version %d', major);
  end
  if (hlen > 10000)
    la_bad_file (file, 'header of %d bytes, longer than numpy reads (10000)', hlen);
  end
  if (hstart + hlen - 1 > numel (bytes))
    la_bad_file (file, 'truncated header (%d bytes announced)', hlen);
  end
  header = bytes(hstart:hstart + hlen - 1);
  if (any (header > 127))
    la_bad_file (file, 'the header is not ASCII');
  end
  [descr, c_order, shape] = canonical_header (char (header));
  if (isempty (descr))
    [descr, c_order, shape] = parse_header (char (header), major < 3, file);
  end
  [dtype, big] = descr_dtype (descr, file);
  x = la_bytes_to_array (bytes(hstart + hlen:end), dtype, big, shape, c_order, file, 'data');
end

function [descr, c_order, shape] = canonical_header (header)
  % the header exactly as numpy writes it (one of each key, in its order):
  % read at once; descr = '' for any other header
  descr = '';
  c_order = true;
  shape = [];
  tok = regexp (header, ['^\{''descr'': ''([<>|=]?[a-zA-Z]\d+|bfloat16)'', ''fortran_order'': (True|False), ' ...
                         '''shape'': \((|[1-9]\d*,|0,|(?:(?:[1-9]\d*|0), )+(?:[1-9]\d*|0))\), \} *\n$'], ...
                'tokens', 'once');
  if (~isempty (tok) && sum (tok{3} == ',') < 64)
    descr = tok{1};
    c_order = strcmp (tok{2}, 'False');
    shape = sscanf (tok{3}, '%f,')';    % exact to 2^53; larger is refused later
  end
end

function [descr, c_order, shape] = parse_header (header, old_ints, file)
  % tokens: strings, names, integers (2L in headers of numpy under Python
  % 2, read by numpy for versions 1 and 2), punctuation; anything else
  % is an error.  Then a loop over the tokens: {key: value, ...}.
  [tok, rest] = regexp (header, ['''[^''\\\n]*''|"[^"\\\n]*"|[A-Za-z_]\w*|\d+L?|[{}(),:]'], ...
                        'match', 'split');
  if (any (~cellfun (@(r) all (isspace (r)), rest)))
    la_bad_file (file, 'malformed header: %s', strtrim (header));
  end
  % between tokens Python's literal_eval takes space, tab, form feed and
  % line ends only: a vertical tab (isspace here) makes numpy refuse
  odd = cellfun (@(r) ~all (any (double (r(:)) == [32 9 10 13 12], 2)), rest);
  if (any (odd))
    r = rest{find (odd, 1)};
    c = r(~any (double (r(:)) == [32 9 10 13 12], 2));
    la_bad_file (file, 'character 0x%02x between the header''s tokens, which numpy refuses', double (c(1)));
  end
  bad = @(what) la_bad_file (file, 'malformed header (%s): %s', what, strtrim (header));
  n = numel (tok);
  i = 1;
  if (n < 2 || ~strcmp (tok{1}, '{'))
    bad ('not a dict');
  end
  i = 2;
  seen = struct ();
  while (i <= n && ~strcmp (tok{i}, '}'))
    key = tok{i};
    if (~any (key(1) == '''"') || i + 2 > n || ~strcmp (tok{i + 1}, ':'))
      bad ('expected ''key'': value');
    end
    key = key(2:end - 1);
    if (~any (strcmp (key, {'descr', 'fortran_order', 'shape'})))
      bad (sprintf ('key ''%s''; numpy reads only descr, fortran_order, shape', key));
    elseif (isfield (seen, key))
      bad (sprintf ('key ''%s'' twice', key));
    end
    i = i + 2;
    switch (key)
      case 'descr'
        if (~any (tok{i}(1) == '''"'))
          bad ('descr is not a string: structured arrays are not supported');
        end
        seen.descr = tok{i}(2:end - 1);
        i = i + 1;
      case 'fortran_order'
        if (~any (strcmp (tok{i}, {'True', 'False'})))
          bad ('fortran_order is not True or False');
        end
        seen.fortran_order = strcmp (tok{i}, 'True');
        i = i + 1;
      case 'shape'
        [seen.shape, i] = parse_tuple (tok, i, old_ints, bad);
    end
    if (i <= n && strcmp (tok{i}, ','))
      i = i + 1;
    elseif (i > n || ~strcmp (tok{i}, '}'))
      bad ('expected , or }');
    end
  end
  if (i ~= n || ~strcmp (tok{n}, '}'))
    bad ('text after the dict');
  end
  if (~all (isfield (seen, {'descr', 'fortran_order', 'shape'})))
    bad ('descr, fortran_order and shape are all needed');
  end
  descr = seen.descr;
  c_order = ~seen.fortran_order;
  shape = seen.shape;
end

function [shape, i] = parse_tuple (tok, i, old_ints, bad)
  % a Python tuple of integers: (), (n,), (n, m) or (n, m,)
  if (~strcmp (tok{i}, '('))
    bad ('shape is not a tuple');
  end
  i = i + 1;
  shape = zeros (1, 0);
  commas = 0;
  while (i <= numel (tok) && ~strcmp (tok{i}, ')'))
    t = tok{i};
    if (isempty (regexp (t, '^(0|[1-9]\d*)L?$', 'once')) || (t(end) == 'L' && ~old_ints))
      bad (sprintf ('shape entry ''%s'' is not an integer', t));
    end
    if (numel (shape) == 64)
      bad ('more than 64 dimensions');
    end
    shape(end + 1) = str2double (t(1:end - (t(end) == 'L')));
    i = i + 1;
    if (i <= numel (tok) && strcmp (tok{i}, ','))
      commas = commas + 1;
      i = i + 1;
    elseif (i > numel (tok) || ~strcmp (tok{i}, ')'))
      bad ('expected , or ) in shape');
    end
  end
  if (i > numel (tok))
    bad ('shape is not closed');
  end
  if (numel (shape) == 1 && commas == 0)
    bad ('shape (n) is an integer, not a tuple: numpy writes (n,)');
  end
  i = i + 1;
end

function [dtype, big] = descr_dtype (descr, file)
  % byte order ('<' little, '>' big, '|' and '=' none or native), kind
  % and size, exactly; '<V2' and 'bfloat16' are bfloat16 (ml_dtypes)
  codes = {'f2', 'f4', 'f8', 'i1', 'u1', 'i2', 'u2', 'i4', 'u4', 'i8', 'u8', 'b1', 'V2'};
  names = {'float16', 'float32', 'float64', 'int8', 'uint8', 'int16', 'uint16', ...
           'int32', 'uint32', 'int64', 'uint64', 'bool', 'bfloat16'};
  big = false;
  if (strcmp (descr, 'bfloat16'))
    dtype = 'bfloat16';
    return;
  end
  code = descr;
  if (numel (descr) == 3 && any (descr(1) == '<>|='))
    big = (descr(1) == '>');
    code = descr(2:3);
  end
  i = find (strcmp (code, codes), 1);
  if (isempty (i))
    la_bad_file (file, 'unsupported descr ''%s''', descr);
  end
  dtype = names{i};
end
