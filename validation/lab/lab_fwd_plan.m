function plan = lab_fwd_plan (K, V, C, cls, emulate, lens, HV, threads)
% LAB_FWD_PLAN  The chunked forward's schedule for a problem: a model of the core's plan.
%
%   plan = lab_fwd_plan (K, V, C, cls, emulate, lens, HV, threads)
%
%   K, V sizes, C the chunk size, cls 'double' or 'single', emulate true for
%   'Emulate', lens the steps of each sequence, HV value heads, threads the
%   threads of the call.  A model, written in plain Octave from the comments
%   of chunk_fwd_plan (mex/core/la_chunk_fwd.tmpl.h), so that the lab can
%   say which schedule a call ran and aim its random configurations at the
%   two-phase schedule's corners:
%     per_item  every item (sequence, value head) has the same number of
%               chunks and the threads divide the items (and LA_FWD_PHASES
%               is not set): each item's chunks in order
%     wn, ncb   two phases: chunks per window and windows of chunks
%     nvb       column blocks of the state pass (V split as V vb / nvb)
%     rem       true when nvb does not divide V
%   A wrong model only misnames a coverage class; no check depends on it.

  lens = lens(:)';
  items = numel (lens) * HV;
  nc = ceil (lens / C);
  maxnc = max ([1, nc]);
  uniform = all (nc == nc(1));
  if (strcmp (cls, 'single'))
    store = 2 ^ 20;
  else
    store = 2 ^ 19;
  end
  E = 3 * K * C + V * C + 2 * C * C + K;             % the slot of one chunk
  per_item = uniform && mod (items, threads) == 0 && isempty (getenv ('LA_FWD_PHASES'));
  wn = 1;
  if (~per_item && items <= floor (store / E))
    wn = min (floor (floor (store / E) / items), maxnc);
    parts = ceil (maxnc / wn);
    wn = ceil (maxnc / parts);
  end
  ncb = 1;
  nvb = 1;
  if (~per_item)
    ncb = ceil (maxnc / wn);
    while (mod (items * nvb, threads) && items * nvb < 4 * threads && floor (V / (nvb + 1)) >= 16)
      nvb = nvb + 1;
    end
  end
  plan = struct ('per_item', per_item, 'wn', wn, 'ncb', ncb, 'nvb', nvb, ...
                 'rem', mod (V, nvb) ~= 0, 'maxnc', maxnc, 'emulate', logical (emulate));
end
