% LA_CRC32  CRC-32 (IEEE 802.3, as zip and gzip use) of a uint8 vector.
%
%   crc = la_crc32 (bytes)     crc: a double in [0, 2^32)

function crc = la_crc32 (bytes)
  persistent table;
  if (isempty (table))
    table = zeros (1, 256, 'uint32');
    for n = 0:255
      c = uint32 (n);
      for j = 1:8
        if (bitand (c, 1))
          c = bitxor (uint32 (3988292384), bitshift (c, -1));
        else
          c = bitshift (c, -1);
        end
      end
      table(n + 1) = c;
    end
  end
  c = uint32 (4294967295);
  bytes = uint8 (bytes);
  for i = 1:numel (bytes)
    c = bitxor (table(double (bitand (bitxor (c, uint32 (bytes(i))), 255)) + 1), bitshift (c, -8));
  end
  crc = double (bitxor (c, uint32 (4294967295)));
end
