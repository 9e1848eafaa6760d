% LA_ZIP_READ  The members of a zip archive (a .npz file), as bytes.
%
%   [names, data] = la_zip_read (bytes, file)
%
%   bytes: uint8 vector of the whole archive.  names: cell of member names;
%   data: cell of uint8 vectors, their uncompressed contents.  Reads the
%   central directory (zip64 extra fields included, as numpy writes them),
%   then each member: stored (method 0) as is, deflated (method 8) through
%   la_inflate.  Anything else, or an archive that is cut short, is a
%   'la:badFile' error.

function [names, data] = la_zip_read (bytes, file)
  bytes = uint8 (bytes(:)');
  eocd = find_eocd (bytes, file);
  count = u16 (bytes, eocd + 10);
  cd_pos = u32 (bytes, eocd + 16) + 1;
  names = cell (1, count);
  data = cell (1, count);
  pos = cd_pos;
  for i = 1:count
    need (bytes, pos, 46, file);
    if (u32 (bytes, pos) ~= hex2dec ('02014b50'))
      la_bad_file (file, 'broken zip central directory');
    end
    method = u16 (bytes, pos + 10);
    crc = bytes(pos + 16:pos + 19);
    csize = u32 (bytes, pos + 20);
    usize = u32 (bytes, pos + 24);
    nlen = u16 (bytes, pos + 28);
    xlen = u16 (bytes, pos + 30);
    clen = u16 (bytes, pos + 32);
    loc = u32 (bytes, pos + 42);
    need (bytes, pos + 46, nlen + xlen, file);
    names{i} = char (bytes(pos + 46:pos + 45 + nlen));
    extra = bytes(pos + 46 + nlen:pos + 45 + nlen + xlen);
    [usize, csize, loc] = zip64_sizes (extra, usize, csize, loc);
    data{i} = member (bytes, loc + 1, method, csize, usize, crc, file, names{i});
    pos = pos + 46 + nlen + xlen + clen;
  end
end

function out = member (bytes, lpos, method, csize, usize, crc, file, name)
  need (bytes, lpos, 30, file);
  if (u32 (bytes, lpos) ~= hex2dec ('04034b50'))
    la_bad_file (file, 'member %s: broken local header', name);
  end
  start = lpos + 30 + u16 (bytes, lpos + 26) + u16 (bytes, lpos + 28);
  need (bytes, start, csize, file);
  raw = bytes(start:start + csize - 1);
  if (method == 0)
    out = raw;
  elseif (method == 8)
    out = la_inflate (raw, crc, usize, file, name);
  else
    la_bad_file (file, 'member %s: compression method %d is not supported', name, method);
  end
  if (numel (out) ~= usize)
    la_bad_file (file, 'member %s: %d bytes, the directory says %d', name, numel (out), usize);
  end
end

function eocd = find_eocd (bytes, file)
  sig = uint8 ([80 75 5 6]);
  first = max (1, numel (bytes) - 65557);
  hits = strfind (char (bytes(first:end)), char (sig));
  if (isempty (hits))
    la_bad_file (file, 'not a zip archive (no end of central directory)');
  end
  eocd = first + hits(end) - 1;
  need (bytes, eocd, 22, file);
end

function [usize, csize, loc] = zip64_sizes (extra, usize, csize, loc)
  % replace 0xFFFFFFFF fields by those of the zip64 extra field (id 1)
  p = 1;
  while (p + 3 <= numel (extra))
    id = u16 (extra, p);
    len = u16 (extra, p + 2);
    if (id == 1)
      q = p + 4;
      big = 2 ^ 32 - 1;
      if (usize == big && q + 7 <= numel (extra))
        usize = u64 (extra, q);
        q = q + 8;
      end
      if (csize == big && q + 7 <= numel (extra))
        csize = u64 (extra, q);
        q = q + 8;
      end
      if (loc == big && q + 7 <= numel (extra))
        loc = u64 (extra, q);
      end
    end
    p = p + 4 + len;
  end
end

function need (bytes, pos, n, file)
  if (pos < 1 || pos + n - 1 > numel (bytes))
    la_bad_file (file, 'truncated zip archive');
  end
end

function v = u16 (b, p)
  v = double (b(p)) + 256 * double (b(p + 1));
end

function v = u32 (b, p)
  v = u16 (b, p) + 65536 * u16 (b, p + 2);
end

function v = u64 (b, p)
  v = u32 (b, p) + 2 ^ 32 * u32 (b, p + 4);
end
