function cfg = lab_random_draw (seed, i, threads)
% LAB_RANDOM_DRAW  Configuration i of the lab's random section, from seed.
%
%   cfg = lab_random_draw (seed, i, threads)
%
%   A struct that lab_random_case runs: op, cls, K, V, T, H, HV, B, cu
%   (CuSeqlens or []), C (ChunkSize), gate (gate strength), the options
%   s0 (InitialState), l2 (UseQKL2Norm), gik (GateInKernel), lb (LowerBound
%   or 0), bsig (BetaSigmoid), neg (AllowNegEigval), vk (StateLayout VK),
%   scale (Scale or 0: the default), gkgv (GDN's GK and GV: recurrent
%   only), eps (L2NormEps), safe (SafeGate), inter (Intermediates of the
%   chunked calls) and seed (the inputs' seed).  Drawn from the space of issue 36:
%   B > 1, V > K, V < K, odd V, T below / at / above one chunk and past one
%   window of the two-phase schedule (for `threads`), short
%   last chunks, varlen batches with length-1 sequences (CuSeqlens must
%   increase strictly: an empty sequence is an error), HV = H,
%   2H, 4H, every option.  The first six are the corners the lab missed
%   (a backward with B > 1 and grouped heads, V > K, GateInKernel with
%   T B > 256, GK / GV, several windows with a remainder column block, odd
%   V with heads the threads do not divide); the rest are uniform draws.
%   The same (seed, i, threads) give the same cfg on every machine.

  st = seed * 1000 + i;
  rand ('state', st);
  cfg = struct ('op', pick1 ({'kda', 'gdn'}), 'cls', 'double', 'K', 0, 'V', 0, 'T', 0, ...
                'H', 1, 'HV', 1, 'B', 1, 'cu', [], 'C', 64, 'gate', 1, 's0', false, ...
                'l2', false, 'gik', false, 'lb', 0, 'bsig', false, 'neg', false, ...
                'vk', false, 'scale', 0, 'gkgv', false, 'eps', 0, 'safe', false, ...
                'inter', false, 'seed', st);
  if (rand < 0.25)
    cfg.cls = 'single';
  end
  cfg.H = randi (3);
  cfg.HV = cfg.H * pick1 ({1, 2, 4});
  cfg.B = pick1 ({1, 1, 2, 3});
  cfg.K = randi ([4, 24]);
  switch (randi (4))
    case 1
      cfg.V = cfg.K + randi (12);                    % V > K
    case 2
      cfg.V = max (1, cfg.K - randi (cfg.K));        % V < K (can be 1)
    case 3
      cfg.V = 2 * randi ([16, 20]) + 1;              % odd V, >= 2 column blocks
    otherwise
      cfg.V = 2 * randi ([1, 12]) - 1;               % odd V
  end
  cfg.C = pick1 ({16, 32, 64});
  cfg.gate = pick1 ({0.05, 1, 1, 4});
  cfg.s0 = rand < 0.5;
  cfg.l2 = rand < 0.3;
  cfg.gik = rand < 0.35;
  if (cfg.gik && rand < 0.3)
    cfg.lb = -(0.5 + 4 * rand);
  end
  cfg.bsig = rand < 0.3;
  cfg.neg = cfg.bsig && rand < 0.5;
  cfg.vk = rand < 0.2;
  if (rand < 0.2)
    cfg.scale = 0.3 + rand;
  end
  cfg.gkgv = strcmp (cfg.op, 'gdn') && rand < 0.25;
  if (cfg.l2)
    cfg.eps = pick1 ({0, 1e-6, 1e-6, 10 ^ -randi(5)});  % 1e-6: FLA's, what verify assumes
  end
  cfg.safe = cfg.lb < 0 && rand < 0.5;
  cfg.inter = rand < 0.3;
  tclass = pick1 ({'below', 'at', 'above', 'above', 'varlen', 'windows'});
  cfg = shape (cfg, tclass, threads);

  % the corners the lab never ran (issue 36), then random draws
  switch (i)
    case 1    % the backward with B > 1 and grouped value heads
      cfg = setf (cfg, 'cls', 'double', 'B', 3, 'H', 2, 'HV', 4, 'cu', [], 'gkgv', false);
      cfg = shape (cfg, 'above', threads);
    case 2    % V > K directly
      cfg = setf (cfg, 'cls', 'double', 'K', 8, 'V', 21, 'gkgv', false);
    case 3    % GateInKernel with T B > 256: more than one block of dALog partials,
              % large enough (T B HV K V > 2^18) for the heads to run on the threads
      cfg = setf (cfg, 'op', 'kda', 'cls', 'double', 'gik', true, 'B', 2, 'T', 300, ...
                  'cu', [], 'C', 64, 'K', 16, 'V', 16, 'H', 1, 'HV', 2, 'gkgv', false);
    case 4    % GDN's GK and GV, with an initial state and V a multiple of 4 (the
              % recurrent forward's direct path, which must not be taken with GV)
      cfg = setf (cfg, 'op', 'gdn', 'cls', 'double', 'gkgv', true, 'B', 2, 'H', 1, 'HV', 2, ...
                  'V', 12, 's0', true, 'vk', false);
    case 5    % two phases: several windows, column blocks with a remainder
      cfg = setf (cfg, 'op', 'kda', 'cls', 'double', 'K', 8, 'V', 33, 'H', 3, 'HV', 3, ...
                  'B', 1, 'C', 64, 'gkgv', false, 'l2', false, 'gate', 0.05);
      cfg = shape (cfg, 'windows', threads);
    case 6    % odd V, heads the threads do not divide
      cfg = setf (cfg, 'op', 'gdn', 'cls', 'double', 'K', 16, 'V', 35, 'H', 1, 'HV', 1, ...
                  'B', 1, 'cu', [], 'T', 150, 'C', 32, 'gkgv', false);
  end
  if (~isempty (cfg.cu))
    cfg.B = 1;
    cfg.T = cfg.cu(end);
  end
end

function cfg = shape (cfg, tclass, threads)
  C = cfg.C;
  cfg.cu = [];
  switch (tclass)
    case 'below'
      cfg.T = randi (C - 1);
    case 'at'
      cfg.T = C;
    case 'above'
      cfg.T = C * randi (4) + randi (C - 1);            % a short last chunk
    case 'varlen'
      n = randi ([3, 6]);
      lens = randi ([2, 2 * C + 5], 1, n);
      lens(randperm (n, 2)) = [1, C];                  % a length-1 and a whole-chunk sequence
      cfg.cu = [0, cumsum(lens)];
    case 'windows'
      % past one window: small sizes, chunk 64, double (2^19 elements of slots)
      cfg.K = min (cfg.K, 8);
      cfg.V = min (cfg.V, 33);
      cfg.C = 64;
      cfg.cls = 'double';
      cfg.HV = cfg.H;
      cfg.B = 1;
      % (a chunk's slot holds about 3 K C + V C + 2 C^2 numbers; the
      % forward keeps 4 MB of them at once)
      E = 3 * cfg.K * 64 + cfg.V * 64 + 2 * 64 * 64 + cfg.K;
      wn = floor (2 ^ 19 / E / cfg.HV);
      cfg.T = 64 * (wn + 1 + randi (3)) + randi (63);
      % one sequence per head runs per item where the threads divide the
      % heads (la_fwd_plan_make): then uneven lengths force the two phases
      if (mod (cfg.HV, threads) == 0)
        cfg.cu = [0, cfg.T, cfg.T + randi(64)];
      end
  end
end

function cfg = setf (cfg, varargin)
  for j = 1:2:numel (varargin)
    cfg.(varargin{j}) = varargin{j + 1};
  end
end

function x = pick1 (c)
  x = c{randi (numel (c))};
end
