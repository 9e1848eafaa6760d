function y = drv_emu_round (x, fmt, name, change)
  % y = drv_emu_round (x, fmt, name, change): x rounded to fmt (ref_round)
  % where drv_chunk_fwd / drv_chunk_bwd emulate a kernel that stores `name`
  % in fmt; x itself without fmt ('') or when change is 'no NAME'.
  if (isempty (fmt) || strcmp (change, ['no ' name]))
    y = x;
  else
    y = ref_round (x, fmt);
  end
end
