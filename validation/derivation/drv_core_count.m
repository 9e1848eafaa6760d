function [flops, peak, why] = drv_core_count (path, op, T, C, K, V)
  % [flops, peak, why] = drv_core_count (path, op, T, C, K, V): run one path
  % of the instrumented C core (build/flops_driver, built here by make) on one
  % sequence and one head, in double, on one thread.  flops: what
  % mex/core/la_flops.h counted; peak: the most bytes the core held allocated
  % at once during the call (malloc/free wrapped at link time), i.e. one
  % thread's workspace with everything else the call allocates.
  % path: 'rec_fwd', 'rec_bwd', 'chunk_fwd', 'chunk_bwd', or 'chunk_fwd_wy',
  % 'chunk_bwd_wy' (the WY form of v_new: the core's tuning wy_form); op:
  % 'kda' or 'gdn'.
  % Both NaN and why set when the driver cannot be built or fails.
  persistent driver build_why
  if (isempty (build_why))
    [driver, build_why] = build_driver ();
  end
  flops = NaN;  peak = NaN;  why = build_why;
  if (isempty (driver))
    return;
  end
  [st, out] = system (sprintf ('OMP_NUM_THREADS=1 "%s" %s %s %d %d %d %d', ...
                               driver, path, op, T, C, K, V));
  counts = sscanf (out, '%f');
  if (st ~= 0 || numel (counts) ~= 2)
    why = sprintf ('flops_driver %s failed: %s', path, strtrim (out(1:min (end, 120))));
    return;
  end
  flops = counts(1);  peak = counts(2);  why = '';
end

function [driver, why] = build_driver ()
  % make build/flops_driver at the repository root; '' and the reason if not
  root = fileparts (fileparts (fileparts (mfilename ('fullpath'))));
  driver = fullfile (root, 'build', 'flops_driver');
  [st, out] = system (sprintf ('make -s -C "%s" build/flops_driver 2>&1', root));
  why = 'ok';
  if (st ~= 0)
    driver = '';
    why = ['no instrumented build: ' strtrim(out(1:min (end, 120)))];
  end
end
