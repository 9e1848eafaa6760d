% REF_RECURRENCE_BWD  Backpropagation through time of ref_recurrence, with checkpoints.
%
%   [dq, dk, dv, dg, dbeta, dS0] = ref_recurrence_bwd (q, k, v, g, beta, S0, scale, dO, dST)
%   [..., nstored] = ref_recurrence_bwd (..., C)
%   [...] = ref_recurrence_bwd (..., C, rnd)
%
%   The gradients of L = <dO, o> + <dST, S_T> for one sequence and head, no
%   transforms (arguments as ref_recurrence: q, k K x T; v, dO V x T; g
%   K x T, KDA, or a T-vector, GDN; beta a T-vector; S0 and dST K x V, dST
%   may be []), line by line as eq. (13)-(18) of docs/recurrence.md.  It is
%   the plain backward of the lab and of the derivation checks and shares
%   no code with the C core.
%
%   The gate gradient of step t is formed with its own decay, as
%   a_t .* rowsum (S_{t-1} .* dS'_t) (eq. (17)): a product of terms that
%   all carry their decay, so nothing cancels however strong the gates
%   (unlike the chunked (51), a reverse sum of terms that cancel).
%   dg is K x T (KDA) or 1 x T (GDN, summed over K); dbeta is 1 x T.
%   The work is done in the class of q, so the same code run in single
%   estimates its own rounding error.
%
%   C, the checkpoint interval of eq. (20) (default 64): states are kept
%   only at the start of every segment of C steps, and a segment is
%   recomputed from its checkpoint before it is reversed; the result does
%   not depend on C.  nstored counts the K x V states actually written and
%   held at the peak: the checkpoints stored plus the most states of one
%   segment, ceil (T / C) + min (C, T).
%
%   rnd, a function handle (e.g. @(x) ref_round (x, 'bf16')), rounds every
%   state S_t and every dS after a step, as a plain kernel that stores them
%   in a 16-bit format would: the emulated plain reference of the lab's
%   emulation section.  Default: none.
%
%   See also: ref_recurrence, fd_gradient, ref_round.

function [dq, dk, dv, dg, dbeta, dS0, nstored] = ref_recurrence_bwd (q, k, v, g, beta, S0, s, dO, dST, C, rnd)
  if (nargin < 10 || isempty (C))
    C = 64;
  end
  if (nargin < 11 || isempty (rnd))
    rnd = @(x) x;
  end
  [K, T] = size (q);
  V = size (v, 1);
  cls = class (q);
  beta = beta(:)';
  if (~(size (g, 1) == K && size (g, 2) == T))
    g = reshape (g, 1, T);                % GDN: one gate per step
  end
  if (isempty (dST))
    dST = zeros (K, V, cls);
  end
  C = max (1, min (C, max (T, 1)));
  nseg = ceil (T / C);
  ckpt = zeros (K, V, nseg, cls);
  S = cast (S0, cls);
  for n = 1:nseg                          % forward sweep: checkpoints only
    ckpt(:, :, n) = S;
    for t = (n - 1) * C + 1:min (n * C, T)
      S = rnd (step (S, k, v, g, beta, t));
    end
  end
  dq = zeros (size (q), cls);  dk = dq;
  dv = zeros (size (v), cls);  dg = zeros (size (g), cls);
  dbeta = zeros (size (beta), cls);
  dS = cast (dST, cls);
  nheld = 0;
  for n = nseg:-1:1                       % reverse sweep, segment by segment
    t0 = (n - 1) * C + 1;  t1 = min (n * C, T);
    seg = zeros (K, V, t1 - t0 + 1, cls); % seg(:,:,i) = S_{t0+i-2}, the state before step
    seg(:, :, 1) = ckpt(:, :, n);
    for t = t0:t1 - 1
      seg(:, :, t - t0 + 2) = rnd (step (seg(:, :, t - t0 + 1), k, v, g, beta, t));
    end
    nheld = max (nheld, t1 - t0 + 1);
    for t = t1:-1:t0
      Sprev = seg(:, :, t - t0 + 1);
      a = exp (g(:, t));
      Sp = a .* Sprev;                    % S'_t = Diag(a_t) S_{t-1}
      p = Sp' * k(:, t);
      u = beta(t) * (v(:, t) - p);
      St = rnd (Sp + beta(t) * k(:, t) * (v(:, t) - p)');   % S_t, as step forms it
      dS = dS + s * q(:, t) * dO(:, t)';  % (13)
      dq(:, t) = s * (St * dO(:, t));     % (13)
      du = dS' * k(:, t);                 % (14)
      dk(:, t) = dS * u;                  % (14)
      dbeta(t) = (v(:, t) - p)' * du;     % (15)
      dv(:, t) = beta(t) * du;            % (15)
      dp = -beta(t) * du;                 % (15)
      dSp = dS + k(:, t) * dp';           % (16)
      dk(:, t) = dk(:, t) + Sp * dp;      % (14)
      da = sum (Sprev .* dSp, 2);         % (17), with the decay kept apart
      if (size (g, 1) == K)
        dg(:, t) = a .* da;
      else
        dg(t) = a * sum (da);             % GDN: summed over k
      end
      dS = rnd (a .* dSp);                % (18)
    end
  end
  dS0 = dS;
  nstored = nseg + nheld;
end

function S = step (S, k, v, g, beta, t)
  % one forward step (1), (12)
  Sp = exp (g(:, t)) .* S;
  S = Sp + beta(t) * k(:, t) * (v(:, t) - Sp' * k(:, t))';
end

%!function L = loss (x, a, in, s, dO, dST)
%! in{a} = x;
%! [o, S] = ref_recurrence (in{:}, s);
%! L = sum (sum (dO .* o)) + sum (sum (dST .* S));
%!test
%! % every gradient against central differences, KDA and GDN (T-vector gate)
%! K = 3;  V = 2;  T = 5;  s = 0.7;
%! for gdn = [false true]
%!   in = {randn(K, T), randn(K, T) / 2, randn(V, T), -rand(K - 2 * gdn, T), rand(1, T), randn(K, V)};
%!   dO = randn (V, T);  dST = randn (K, V);
%!   G = cell (1, 6);
%!   gg = in;
%!   if (gdn)
%!     gg{4} = in{4}(:);               % a T-vector, as the lab passes it
%!   end
%!   [G{:}] = ref_recurrence_bwd (gg{:}, s, dO, dST, 2);
%!   for a = 1:6
%!     d = fd_gradient (@(x) loss (x, a, in, s, dO, dST), in{a});
%!     assert (size (G{a}), size (in{a}));
%!     assert (la_ratio (d, G{a}) < 1e-7);
%!   end
%! end
%!test
%! % checkpoints change nothing, and hold ceil(T/C) + min(C, T) states
%! K = 4;  V = 3;  T = 23;
%! args = {randn(K, T), randn(K, T) / 2, randn(V, T), -rand(K, T), rand(1, T), randn(K, V), 0.5, randn(V, T), []};
%! ref = cell (1, 6);
%! [ref{:}] = ref_recurrence_bwd (args{:}, T);
%! for C = [1 2 5 7 40]
%!   G = cell (1, 7);
%!   [G{:}] = ref_recurrence_bwd (args{:}, C);
%!   assert (isequal (G(1:6), ref));
%!   assert (G{7}, ceil (T / C) + min (C, T));
%! end
%!test
%! % single in, single out; a rounding handle changes the result, within bf16
%! K = 4;  V = 3;  T = 9;
%! args = {randn(K, T), randn(K, T) / 2, randn(V, T), -rand(1, T), rand(1, T), randn(K, V), 0.5, randn(V, T), []};
%! sg = cellfun (@single, args, 'UniformOutput', false);
%! G = cell (1, 6);  R = G;  D = G;
%! [G{:}] = ref_recurrence_bwd (sg{:});
%! [R{:}] = ref_recurrence_bwd (sg{:}, [], @(x) ref_round (x, 'bf16'));
%! [D{:}] = ref_recurrence_bwd (args{:});
%! assert (all (cellfun (@(x) isa (x, 'single'), [G, R])));
%! assert (max (cellfun (@la_ratio, D, G)) < 1e-5);
%! assert (~isequal (G, R));
%! assert (max (cellfun (@la_ratio, D, R)) < 0.05);
