% LA_INFLATE  Uncompress one raw deflate stream (a deflated zip member).
%
%   out = la_inflate (raw, crc, usize, file, name)
%
%   Neither Octave nor MATLAB has an in-memory inflate, but both have
%   gunzip for files (Octave runs the gzip program, part of every Debian
%   system; MATLAB has its own).  A gzip file is a raw deflate stream
%   between a 10-byte header and a trailer of the CRC-32 and the size, both
%   of which the zip directory gives, so the member is wrapped as such a
%   file and gunzip checks the CRC on the way.  A failure is a 'la:badFile'
%   error naming the member.

function out = la_inflate (raw, crc, usize, file, name)
  tmpdir = tempname ();
  mkdir (tmpdir);
  cleanup = onCleanup (@() rmdir (tmpdir, 's'));
  gz = fullfile (tmpdir, 'member.gz');
  header = uint8 ([31 139 8 0 0 0 0 0 0 255]);
  isize = typecast (uint32 (mod (usize, 2 ^ 32)), 'uint8');
  fid = fopen (gz, 'w');
  fwrite (fid, [header, uint8(raw(:)'), uint8(crc(:)'), isize(:)'], 'uint8');
  fclose (fid);
  try
    unpacked = gunzip (gz, tmpdir);
    fid = fopen (unpacked{1}, 'r');
    out = fread (fid, Inf, 'uint8=>uint8')';
    fclose (fid);
  catch err
    la_bad_file (file, 'member %s: cannot inflate (%s)', name, err.message);
  end
end
