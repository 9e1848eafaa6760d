% FUZZ_FIXED  The fixed cases every fuzz run starts with.
%
%   cases = fuzz_fixed ()
%
%   A cell of cases (fields as in fuzz_case), each for KDA and GDN:
%   - issue-crash: z = zeros (2^32, 0); kda_recurrent (z, z, zeros (2^31, 0), z, [])
%     (the workspace size overflowed and Octave crashed): an error;
%   - issue-alloc: K = V = 2^16, T = 0, so that the final state alone is
%     2^35 bytes (Octave's allocation failed without an identifier): an
%     identified error (or, with that much memory free, a success);
%   - issue-chunk: 'ChunkSize', 2^31 on a small valid problem (was refused):
%     must succeed and agree with the reference;
%   - strict: an option name with a NUL inside ('Scale\0x'), a 2 x 1 char
%     StateLayout, {} / struct([]) / int32 empties where "not given" is
%     exactly [], a function name with a NUL for the private MEX: errors.
%   Their random parts are seeded, so they are the same in every run.
%
%   See also: fuzz_case.

function cases = fuzz_fixed ()
  rand ('state', 13);
  randn ('state', 13);
  cases = {};
  for op = {'kda', 'gdn'}
    o = op{1};
    rec = [o '_recurrent'];
    z = zeros (2^32, 0);
    cases{end+1} = mk(rec, {z, z, zeros(2^31, 0), gate(o, z), []}, 'error', 'issue-crash');
    z = zeros (2^16, 0);
    cases{end+1} = mk(rec, {z, z, z, gate(o, z), []}, 'any', 'issue-alloc');
    c = fuzz_valid ([o '_chunk']);
    c.args(end+1:end+2) = {'ChunkSize', 2^31};
    c.kind = 'issue-chunk';
    cases{end+1} = c;
    for bad = {{['Scale' char(0) 'x'], 0.5}, {'StateLayout', ['K'; 'V']}, ...
               {'InitialState', {}}, {'InitialState', struct([])}, ...
               {'CuSeqlens', int32([])}, {'LowerBound', int32([])}, {'ALog', {}}}
      c = fuzz_valid (rec);
      c.args(end+1:end+2) = bad{1};
      cases{end+1} = strict (c, sprintf ('%s = %s', fuzz_show (bad{1}{1}), ...
                                         fuzz_show (bad{1}{2})));
    end
    c = fuzz_valid (rec);
    c.args = [{[rec char(0) 'x']}, c.args];
    c.fname = 'la_mex';
    c.family = 'any';
    cases{end+1} = strict (c, 'la_mex called with a NUL inside the function name');
  end
end

function g = gate (op, z)
  % the gate of an empty problem: like q for KDA, T x HV (0 x 1) for GDN
  if (strcmp (op, 'kda'))
    g = z;
  else
    g = zeros (0, 1);
  end
end

function c = mk (fname, args, expect, kind)
  c = struct ('fname', fname, 'args', {args}, 'nout', 2, 'expect', expect, ...
              'family', fname(1:3), 'kind', kind, 'desc', '', 'ref', []);
end

function c = strict (c, desc)
  c.expect = 'error';
  c.kind = 'strict';
  c.desc = desc;
  c.ref = [];
end
