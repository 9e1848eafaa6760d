% LA_ZIP_READ  The members of a zip archive (a .npz file), as bytes.
%
%   [names, data, keys] = la_zip_read (bytes, file)
%
%   bytes: uint8 vector of the whole archive.  names: cell of member names
%   as written; data: cell of uint8 rows, their uncompressed contents;
%   keys: the names as np.load keys them (".npy" dropped).
%   Reads the end record (zip64 too) and the central directory (zip64 extra
%   fields included, as numpy writes them), then each member: stored
%   (method 0) as is, deflated (method 8) through zlib in the MEX with the
%   directory's size as a hard cap (la_mex ('file', 'inflate')), and its
%   CRC-32 checked.  Bounds, all checked before anything is inflated: the
%   directory's entries fit in its bytes, members lie inside the archive
%   without overlapping, a stored member's two sizes agree, a deflated
%   member claims at most 1032 bytes per compressed byte (deflate's
%   ceiling), the total claimed fits in the memory available, and there
%   are at most 4096 members (each costs milliseconds in Octave;
%   numpy's savez of a dump writes tens).  A
%   name twice, a local header that names its member otherwise than the
%   directory does (zipfile, so numpy, refuses that), an encrypted
%   member, another method, or an archive cut
%   short, or two members that np.load would key alike (q.npy and q) is a
%   'la:badFile' error.  A MEX built without zlib (build_mex.m)
%   refuses deflated members with that reason.

function [names, data, keys] = la_zip_read (bytes, file)
  bytes = uint8 (bytes(:)');
  [count, cd_pos, cd_size] = end_record (bytes, file);
  if (count * 46 > cd_size)
    la_bad_file (file, 'zip directory of %.0f bytes cannot hold %.0f entries', cd_size, count);
  elseif (count > 4096)
    la_bad_file (file, '%.0f members, more than this reader takes (4096)', count);
  end
  names = cell (1, count);
  info = zeros (count, 7);   % method, crc, csize, usize, data start, local start, flags
  pos = cd_pos;
  for i = 1:count
    % the 46-byte entry as 23 little-endian 16-bit words (w(k) holds
    % bytes 2k-1, 2k); signatures 0x02014b50, 0x04034b50
    if (pos + 45 > numel (bytes))
      need (bytes, pos, 46, file);
    end
    w = double (typecast (bytes(pos:pos + 45), 'uint16'));
    if (w(1) ~= 19280 || w(2) ~= 513)
      la_bad_file (file, 'broken zip central directory');
    end
    nlen = w(15);
    xlen = w(16);
    clen = w(17);
    csize = w(11) + 65536 * w(12);
    usize = w(13) + 65536 * w(14);
    loc = w(22) + 65536 * w(23);
    if (pos + 45 + nlen + xlen + clen > numel (bytes))
      need (bytes, pos + 46, nlen + xlen + clen, file);
    end
    names{i} = char (bytes(pos + 46:pos + 45 + nlen));
    if (xlen > 0)
      [usize, csize, loc] = zip64_sizes (bytes(pos + 46 + nlen:pos + 45 + nlen + xlen), usize, csize, loc);
    end
    if (loc + 30 > numel (bytes))
      need (bytes, loc + 1, 30, file);
    end
    lw = double (typecast (bytes(loc + 1:loc + 30), 'uint16'));
    if (lw(1) ~= 19280 || lw(2) ~= 1027)
      la_bad_file (file, 'member %s: broken local header', names{i});
    end
    need (bytes, loc + 31, lw(14) + lw(15), file);
    local = char (bytes(loc + 31:loc + 30 + lw(14)));
    if (~strcmp (local, names{i}))     % zipfile (so numpy) refuses such an archive
      la_bad_file (file, 'member %s: its local header names it %s', names{i}, local);
    end
    start = loc + 31 + lw(14) + lw(15);
    need (bytes, start, csize, file);
    info(i, :) = [w(6), w(9) + 65536 * w(10), csize, usize, start, loc + 1, w(5)];
    pos = pos + 46 + nlen + xlen + clen;
  end
  keys = npz_keys (names);
  check_members (names, keys, info, cd_pos, file);
  data = cell (1, count);
  for i = 1:count
    data{i} = member (bytes, info(i, :), file, names{i});
  end
end

function keys = npz_keys (names)
  % each name without a final ".npy" (plain comparison: a name need not be
  % valid UTF-8, which regexprep refuses)
  keys = names;
  for i = 1:numel (names)
    if (numel (names{i}) >= 4 && strcmp (names{i}(end - 3:end), '.npy'))
      keys{i} = names{i}(1:end - 4);
    end
  end
end

function check_members (names, keys, info, cd_pos, file)
  % every bound before any byte is inflated
  [sorted, k] = sort (names);
  twice = find (strcmp (sorted(1:end - 1), sorted(2:end)), 1);
  if (~isempty (twice))
    la_bad_file (file, 'member %s appears twice', sorted{twice});
  end
  % members are arrays by their names without ".npy", as numpy's NpzFile
  % keys them: q.npy and q would be the same array
  [sorted, k] = sort (keys);
  twice = find (strcmp (sorted(1:end - 1), sorted(2:end)), 1);
  if (~isempty (twice))
    la_bad_file (file, 'members %s and %s are both array ''%s''', ...
                 names{k(twice)}, names{k(twice + 1)}, sorted{twice});
  end
  if (any (bitand (info(:, 7), 1)))
    la_bad_file (file, 'encrypted members are not supported');
  end
  [~, order] = sort (info(:, 6));
  ends = info(order, 5) + info(order, 3);            % one past each member's data
  if (any (info(order(2:end), 6) < ends(1:end - 1)) || (~isempty (ends) && ends(end) > cd_pos))
    la_bad_file (file, 'members overlap each other or the directory');
  end
  stored = info(:, 1) == 0;
  if (any (stored & info(:, 3) ~= info(:, 4)))
    i = find (stored & info(:, 3) ~= info(:, 4), 1);
    la_bad_file (file, 'member %s: stored with %.0f bytes, the directory says %.0f', ...
                 names{i}, info(i, 3), info(i, 4));
  end
  if (any (info(:, 4) > 1032 * info(:, 3) + 64))
    i = find (info(:, 4) > 1032 * info(:, 3) + 64, 1);
    la_bad_file (file, 'member %s claims %.0f bytes from %.0f, more than deflate can give', ...
                 names{i}, info(i, 4), info(i, 3));
  end
  avail = la_mex ('file', 'mem_available');
  if (avail >= 0 && sum (info(:, 4)) > avail)
    la_bad_file (file, 'members claim %.0f bytes, more than the %.0f bytes of memory available', ...
                 sum (info(:, 4)), avail);
  end
end

function out = member (bytes, info, file, name)
  raw = bytes(info(5):info(5) + info(3) - 1);
  if (info(1) == 0)
    out = raw;
  elseif (info(1) == 8)
    [out, err] = la_mex ('file', 'inflate', raw, info(4));
    if (~isempty (err))
      la_bad_file (file, 'member %s: cannot inflate: %s', name, err);
    end
  else
    la_bad_file (file, 'member %s: compression method %d is not supported', name, info(1));
  end
  if (numel (out) ~= info(4))
    la_bad_file (file, 'member %s: %d bytes, the directory says %.0f', name, numel (out), info(4));
  end
  if (la_mex ('file', 'crc32', out) ~= info(2))
    la_bad_file (file, 'member %s: CRC-32 mismatch', name);
  end
end

function [count, cd_pos, cd_size] = end_record (bytes, file)
  % the last end-of-central-directory record; its zip64 twin when a field
  % is saturated
  sig = uint8 ([80 75 5 6]);
  first = max (1, numel (bytes) - 65557);
  hits = strfind (char (bytes(first:end)), char (sig));
  if (isempty (hits))
    la_bad_file (file, 'not a zip archive (no end of central directory)');
  end
  eocd = first + hits(end) - 1;
  need (bytes, eocd, 22, file);
  count = u16 (bytes, eocd + 10);
  cd_size = u32 (bytes, eocd + 12);
  cd_pos = u32 (bytes, eocd + 16) + 1;
  if (count == 65535 || cd_size == 2 ^ 32 - 1 || cd_pos == 2 ^ 32)
    loc = eocd - 20;
    need (bytes, loc, 20, file);
    if (u32 (bytes, loc) ~= 117853008)
      la_bad_file (file, 'zip64 end record locator missing');
    end
    rec = u64 (bytes, loc + 8) + 1;
    need (bytes, rec, 56, file);
    if (u32 (bytes, rec) ~= 101075792)
      la_bad_file (file, 'broken zip64 end record');
    end
    count = u64 (bytes, rec + 32);
    cd_size = u64 (bytes, rec + 40);
    cd_pos = u64 (bytes, rec + 48) + 1;
  end
  need (bytes, cd_pos, cd_size, file);
  if (cd_pos + cd_size > eocd)
    la_bad_file (file, 'zip directory overlaps its end record');
  end
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
