% REF_DECODE  A serving kernel's decode call with a state pool, step by step.
%
%   [o, S] = ref_decode (q, k, v, g, beta, pool, slots, accepted, inplace, cu, scale)
%
%   The plain Octave reference of kda_recurrent / gdn_recurrent with
%   'Slots' (docs/decode.md), in the library's layouts, raw gates, no
%   transforms: q, k K x T x H x B; v V x T x HV x B; g K x T x HV x B (KDA)
%   or T x HV x B (GDN); beta T x HV x B or V x T x HV x B; pool
%   K x V x HV x P; slots a vector of N (one per sequence) or Tmax x N (one
%   per step), numbered from 1, below 1 padding; accepted [] or N counts;
%   inplace true or false; cu [] or [0, t1, ..., T] (then B = 1); scale the
%   factor of q.  For every sequence n with steps and value head:
%       r   = slots(accepted(n), n)  (slots(1, n) without accepted)
%       r < 1: skipped, o = 0 for its steps (and per-token states 0)
%       else from S_0 = pool(:, :, hv, r), ref_recurrence's steps; with
%       inplace the state after step t goes to slot slots(t, n) (slots(n)
%       for one slot per sequence) unless that is padding; without, to
%       S(:, :, hv, t, b), the per-token states.
%   S: the pool after the call (inplace) or K x V x HV x T x B.  Written
%   straight from FLA's fused_recurrent_kda kernel's semantics; every slot
%   not written is the input's, bit for bit.
%
%   See also: ref_recurrence, kda_recurrent.

function [o, S] = ref_decode (q, k, v, g, beta, pool, slots, accepted, inplace, cu, scale)
  [K, T, H, B] = size (q);
  [V, ~, HV, ~] = size (v);
  kda = numel (g) == K * T * HV * B;
  per_channel = numel (beta) == V * T * HV * B && V > 1;
  if (isempty (cu))
    N = B;
  else
    N = numel (cu) - 1;
  end
  if (numel (slots) == N)
    slots = reshape (slots, 1, N);
  end
  o = zeros (V, T, HV, B, class (v));
  if (inplace)
    S = pool;
  else
    S = zeros (K, V, HV, T, B, class (v));
  end
  for n = 1:N
    if (isempty (cu))
      b = n;  t0 = 0;  len = T;
    else
      b = 1;  t0 = cu(n);  len = cu(n + 1) - cu(n);
    end
    if (len == 0)
      continue;
    end
    a = 1;
    if (! isempty (accepted))
      a = accepted(n);
    end
    r = slots(a, n);
    if (r < 1)
      continue;  % padding: skipped (o stays zero)
    end
    steps = t0 + (1:len);
    for hv = 1:HV
      h = floor ((hv - 1) / (HV / H)) + 1;
      if (kda)
        gt = g(:, steps, hv, b);
      else
        gt = reshape (g(steps, hv, b), 1, len);
      end
      if (per_channel)
        bt = beta(:, steps, hv, b);
      else
        bt = beta(steps, hv, b);
      end
      [o(:, steps, hv, b), ~, st] = ref_recurrence (q(:, steps, h, b), k(:, steps, h, b), ...
                                                     v(:, steps, hv, b), gt, bt, ...
                                                     pool(:, :, hv, r), scale);
      for t = 1:len
        if (inplace)
          w = slots(min (t, rows (slots)), n);
          if (w >= 1)
            S(:, :, hv, w) = st.S(:, :, t);
          end
        else
          S(:, :, hv, t0 + t, b) = st.S(:, :, t);
        end
      end
    end
  end
end

%!test
%! % one sequence, one step, in place: slot 2 read, slot 3 written, 1 kept
%! pool = cat (4, ones (2), 2 * ones (2), zeros (2));
%! [o, S] = ref_decode ([1; 0], [1; 0], [1; 1], [0; 0], 0.5, pool, [3; 2], 2, true, [], 1);
%! assert (S(:, :, 1, 3), [2 2; 2 2] + [1; 0] * (0.5 * ([1 1] - [2 2])));
%! assert (S(:, :, 1, 1:2), pool(:, :, 1, 1:2));
%! assert (o, [1.5; 1.5]);
