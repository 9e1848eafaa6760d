% RAND_PROBLEM  Random inputs for the KDA / GDN functions, so tests stay short.
%
%   P = rand_problem (op)
%   P = rand_problem (op, Name, Value, ...)
%
%   op is 'kda' or 'gdn'.  Sizes and generator settings (defaults):
%     'K' 8, 'V' 6, 'T' 10, 'H' 1, 'HV' (= H), 'B' 1     problem sizes
%     'Class'         'double'   class of every generated array
%     'GateStrength'  1          g = -GateStrength * rand (...), i.e. gates
%                                uniform in [-GateStrength, 0] per step (and
%                                channel for KDA)
%     'Seed'          []         if given, seeds rand and randn first
%   Every other Name/Value pair is a public option and goes into P.opts,
%   with these conveniences:
%     'InitialState', true   a random state of the right shape (layout and
%                            number of sequences respected); an array is used
%                            as given; false leaves it out
%     'GateInKernel', true   g becomes a raw gate randn (...), and ALog
%                            (log (GateStrength * (0.5 + rand (HV, 1)))) and
%                            DtBias (0.5 * randn, K x HV for KDA, HV x 1 for
%                            GDN) are generated unless given; 'DtBias', false
%                            leaves DtBias out
%     'BetaSigmoid', true    beta becomes a logit randn (T, HV, B)
%     'CuSeqlens', cu        passed on; needs B = 1
%   Without UseQKL2Norm the columns of k have unit norm and q is randn/sqrt(K),
%   so the recurrence stays bounded (beta * |k|^2 <= 1, or <= 2 with
%   AllowNegEigval); with UseQKL2Norm q and k are plain randn.  v is randn,
%   beta is rand in (0, 1) unless BetaSigmoid.
%
%   P is a struct with fields
%     op, K, V, T, H, HV, B, N (number of sequences), cls
%     q, k, v, g, beta            the five positional inputs
%     opts                        the Name/Value cell for the public call
%     dout, dS                    random gradients of o and of the final state
%     fwd, bwd                    'kda_recurrent', 'kda_recurrent_bwd' (or gdn)
%   so a call reads
%     [o, S] = feval (P.fwd, P.q, P.k, P.v, P.g, P.beta, P.opts{:});
%
%   See also: ref_forward, fd_check.

function P = rand_problem (op, varargin)
  op = lower (op);
  if (~any (strcmp (op, {'kda', 'gdn'})))
    error ('rand_problem: op must be ''kda'' or ''gdn''');
  end
  if (mod (numel (varargin), 2) ~= 0)
    error ('rand_problem: arguments must come in Name, Value pairs');
  end
  P = struct ('op', op, 'K', 8, 'V', 6, 'T', 10, 'H', 1, 'HV', [], 'B', 1, ...
              'cls', 'double');
  strength = 1;
  seed = [];
  rest = {};
  for i = 1:2:numel (varargin)
    nm = varargin{i};
    val = varargin{i + 1};
    switch (lower (nm))
      case {'k', 'v', 't', 'h', 'b'}
        P.(upper (nm)) = val;
      case 'hv'
        P.HV = val;
      case 'class'
        P.cls = val;
      case 'gatestrength'
        strength = val;
      case 'seed'
        seed = val;
      otherwise
        rest(end+1:end+2) = {nm, val};
    end
  end
  if (isempty (P.HV))
    P.HV = P.H;
  end
  if (~isempty (seed))
    rand ('state', seed);
    randn ('state', seed);
  end
  K = P.K;  V = P.V;  T = P.T;  H = P.H;  HV = P.HV;  B = P.B;

  % which conveniences are asked for
  [l2, rest] = take_option (rest, 'UseQKL2Norm', false);
  [gik, rest] = take_option (rest, 'GateInKernel', false);
  [bsig, rest] = take_option (rest, 'BetaSigmoid', false);
  [s0, rest] = take_option (rest, 'InitialState', false);
  [alog, rest] = take_option (rest, 'ALog', []);
  [dtb, rest] = take_option (rest, 'DtBias', []);
  [cu, rest] = take_option (rest, 'CuSeqlens', []);
  [lay, rest] = take_option (rest, 'StateLayout', 'KV');

  if (isempty (cu))
    P.N = B;
  else
    if (B ~= 1)
      error ('rand_problem: CuSeqlens needs B = 1');
    end
    P.N = numel (cu) - 1;
  end

  if (l2)
    q = randn (K, T, H, B);
    k = randn (K, T, H, B);
  else
    q = randn (K, T, H, B) / sqrt (K);
    k = randn (K, T, H, B);
    k = k ./ sqrt (sum (k .^ 2, 1));
  end
  v = randn (V, T, HV, B);
  if (strcmpi (op, 'kda'))
    gsz = [K, T, HV, B];
  else
    gsz = [T, HV, B];
  end
  if (gik)
    g = randn (gsz);
    if (isempty (alog))
      alog = log (strength * (0.5 + rand (HV, 1)));
    end
    if (isempty (dtb))
      if (strcmp (op, 'kda'))
        dtb = 0.5 * randn (K, HV);
      else
        dtb = 0.5 * randn (HV, 1);
      end
    end
  else
    g = -strength * rand (gsz);
  end
  if (bsig)
    beta = randn (T, HV, B);
  else
    beta = rand (T, HV, B);
  end
  if (strcmpi (lay, 'VK'))
    ssz = [V, K, HV, P.N];
  else
    ssz = [K, V, HV, P.N];
  end
  if (islogical (s0) && isscalar (s0))
    if (s0)
      s0 = 0.5 * randn (ssz);
    else
      s0 = [];
    end
  end

  c = P.cls;
  P.q = cast (q, c);  P.k = cast (k, c);  P.v = cast (v, c);
  P.g = cast (g, c);  P.beta = cast (beta, c);
  P.dout = cast (randn (V, T, HV, B), c);
  P.dS = cast (randn (ssz), c);

  opts = rest;
  if (l2),   opts(end+1:end+2) = {'UseQKL2Norm', true};  end
  if (bsig), opts(end+1:end+2) = {'BetaSigmoid', true};  end
  if (gik)
    opts(end+1:end+4) = {'GateInKernel', true, 'ALog', cast(alog, c)};
    if (~(islogical (dtb) && isscalar (dtb) && ~dtb))
      opts(end+1:end+2) = {'DtBias', cast(dtb, c)};
    end
  end
  if (~isempty (s0)), opts(end+1:end+2) = {'InitialState', cast(s0, c)}; end
  if (~isempty (cu)), opts(end+1:end+2) = {'CuSeqlens', cu};             end
  if (strcmpi (lay, 'VK')), opts(end+1:end+2) = {'StateLayout', 'VK'};   end
  P.opts = opts;
  P.fwd = [op '_recurrent'];
  P.bwd = [op '_recurrent_bwd'];
end

