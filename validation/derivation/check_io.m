function res = check_io ()
  % res = check_io (): evaluate (IO1)-(IO3) of docs/io.md.  The staged
  % forward's traffic is summed tensor by tensor from its stage list (what
  % each of FLA's five forward kernels reads and writes, per chunk) and
  % compared with the closed form (IO2); the ratios the page quotes at
  % K = V = 128, c = 64 (traffic, flops of (67) and (68) per chunk, flop per
  % byte in bf16) are recomputed here and compared, rounded to the two
  % digits the page prints, with the page's numbers.
  %
  % Returns a struct array with fields eq, name, file, residual, bound, pass
  % (eq the strings 'IO1', 'IO2', 'IO3').
  F = 'docs/io.md';
  res = lab_row ();

  %% section 'forward': (IO1), (IO2)
  worst = 0;
  for K = [16 64 128]
    for V = [8 64 128]
      for c = [1 16 64]
        sz = sizes (K, V, c);
        stages = { {'g'},                          {'G'};                    % cumulative gate
                   {'q', 'k', 'G', 'beta'},        {'Aqk', 'Akk'};           % intra
                   {'k', 'v', 'beta', 'Akk', 'G'}, {'w', 'u', 'kg'};         % recompute_w_u_fwd
                   {'kg', 'w', 'u', 'G'},          {'h', 'vnew'};            % fwd_h
                   {'q', 'vnew', 'G', 'Aqk', 'h'}, {'o'} };                  % output
        n = 0;
        for s = 1:rows (stages)
          n = n + total (sz, stages{s, 1}) + total (sz, stages{s, 2});
        end
        worst = max (worst, abs (n - io2 (K, V, c)));
      end
    end
  end
  res(end+1) = lab_row ('derivations', 'staged forward: stage lists summed tensor by tensor vs the closed form (27 sizes)', ...
                        worst, 0, 'eq', 'IO2', 'file', F);
  K = 128;  V = 128;  c = 64;
  f_fwd = 6 * c * K * V + c ^ 2 * (3 * K + 2 * V) + c ^ 3 / 3;         % (67), one chunk
  f_bwd = 16 * c * K * V + c ^ 2 * (9 * K + 5 * V) + 5 / 3 * c ^ 3;    % (68), one chunk
  d1 = io1 (K, V, c);  d2 = io2 (K, V, c);  d3 = io3 (K, V, c);
  got = [f_fwd / 1e6, d1, d2, d2 / d1, f_fwd / (2 * d1), f_fwd / (2 * d2), ...
         (2 * K * V + 4 * c ^ 2) / d2];
  stated = [9.0, 4.1e4, 2.1e5, 5.2, 1.1e2, 21, 0.23];
  res(end+1) = lab_row ('derivations', sprintf (['K = V = 128, c = 64: forward %.2f Mflop, (IO1) %d, (IO2) %d numbers, ' ...
                        'ratio %.2f, %.1f and %.1f flop/byte in bf16, h and c x c %.3f of (IO2)'], got), ...
                        max (abs (sig2 (got) - stated) ./ stated), 1e-12, 'eq', 'IO1', 'file', F);

  %% section 'backward': (IO3)
  got = [f_bwd / 1e6, d3, d3 / d1, f_bwd / f_fwd];
  stated = [25, 2.0e5, 4.8, 2.7];
  res(end+1) = lab_row ('derivations', sprintf (['K = V = 128, c = 64: backward %.2f Mflop, (IO3) %d numbers, ' ...
                        '%.2f times (IO1) for %.2f times the flops'], got), ...
                        max (abs (sig2 (got) - stated) ./ stated), 1e-12, 'eq', 'IO3', 'file', F);
end

% x rounded to the two significant digits the page prints
function y = sig2 (x)
  e = 10 .^ (floor (log10 (abs (x))) - 1);
  y = round (x ./ e) .* e;
end

function d = io1 (K, V, c)
  d = c * (3 * K + 2 * V + 1);
end

function d = io2 (K, V, c)
  d = 14 * c * K + 6 * c * V + 4 * c ^ 2 + 2 * c + 2 * K * V;
end

function d = io3 (K, V, c)
  d = 2 * c * (3 * K + V + 1) + c * V + 2 * (K * V + 3 * c ^ 2 + c * (max (K, V) + V)) ...
      + c * (3 * K + V + 1);
end

% numbers per chunk of each tensor a forward stage moves
function sz = sizes (K, V, c)
  sz = struct ('q', c * K, 'k', c * K, 'g', c * K, 'G', c * K, 'v', c * V, 'beta', c, ...
               'Aqk', c ^ 2, 'Akk', c ^ 2, 'w', c * K, 'u', c * V, 'kg', c * K, ...
               'h', K * V, 'vnew', c * V, 'o', c * V);
end

function n = total (sz, names)
  n = 0;
  for i = 1:numel (names)
    n = n + sz.(names{i});
  end
end
