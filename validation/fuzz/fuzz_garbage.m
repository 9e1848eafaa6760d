% FUZZ_GARBAGE  Random arguments for a public function, or the private MEX.
%
%   c = fuzz_garbage (fname)
%
%   Half the cases call fname with 0 to 12 random arguments (random classes:
%   double, single, integers, logical, char, cell, struct, complex, sparse,
%   handles, NaN/Inf, empties of every kind, option names) and 0 to 9
%   outputs: the call must not crash and must fail, if it fails, with an
%   identifier of fname's family.  The other half call the private MEX
%   octave/private/la_mex directly with a bad or missing function name
%   (numbers, other case, blanks, NUL inside, too long, a char matrix, a
%   cell), followed by a valid argument list: an identified error, of any
%   of the kda, gdn or la families.
%
%   See also: fuzz_case, fuzz_verdict.

function c = fuzz_garbage (fname)
  op = fname(1:3);
  if (rand () < 0.5)
    n = randi ([0 12]);
    args = cell (1, n);
    for i = 1:n
      args{i} = random_value ();
    end
    c = struct ('fname', fname, 'args', {args}, 'nout', randi ([0 9]), ...
                'expect', 'any', 'family', op, 'kind', 'garbage', ...
                'desc', sprintf ('%d random arguments', n), 'ref', []);
    return;
  end
  names = {fname, upper(fname), [fname ' '], [' ' fname], [fname char(0)], ...
           [fname char(0) 'x'], [fname '_x'], repmat('x', 1, 40), repmat(fname, 1, 4), ...
           fname(1:end-1), '', [fname; fname], {fname}, 42, [], 'options'};
  m = randi (numel (names) + 1);
  base = fuzz_valid (fname);
  if (m > numel (names))
    args = {};                                   % la_mex with no argument at all
    desc = 'la_mex called with no argument';
  else
    args = [names(m), base.args];
    desc = ['la_mex called as ' fuzz_show(names{m})];
  end
  expect = 'error';
  family = 'any';
  if (m == 1)
    expect = 'ok';
    family = op;
  elseif (m == numel (names))
    expect = 'any';                              % a query of the gateway, if it has one
  end
  c = struct ('fname', 'la_mex', 'args', {args}, 'nout', base.nout, ...
              'expect', expect, 'family', family, 'kind', 'mex-name', ...
              'desc', desc, ...
              'ref', []);
end

function x = random_value ()
  sz = randi ([0 3], 1, randi ([1 4]));
  makers = {@() randn(sz), @() single(randn(sz)), @() int32(randi(9, sz)), ...
            @() rand(sz) > 0.5, @() char(64 + randi(26, sz)), @() cell(sz), ...
            @() struct('a', 1), @() complex(randn(sz), 1), @() sparse(randn(sz(1), 3)), ...
            @() @sin, @() NaN(sz), @() -Inf, @() [], @() zeros(0, 3, 'single'), ...
            @() fuzz_prefix(pick(fuzz_prefix())), @() 'StateLayout', @() 'VK', ...
            @() -30 * rand(sz), @() uint64(2^60), @() 2^62, @() {}, @() struct([]), ...
            @() [0 3 7], @() true};
  x = makers{randi (numel (makers))} ();
end

function x = pick (list)
  x = list{randi (numel (list))};
end
