% FUZZ_REPRO  Write a failing fuzz case as a stand-alone Octave script.
%
%   file = fuzz_repro (cfg, i, verdict, detail)
%
%   Writes cfg.OutDir/repro_SEED_I.m: the call of case i of seed cfg.Seed,
%   every argument written out as a literal (fuzz_literal), with what went
%   wrong in its header.  Run it from the repository root, in a fresh Octave:
%       octave-cli --norc --no-history build/fuzz/repro_1_123.m
%
%   See also: fuzz_summary, fuzz_literal, fuzz_case.

function file = fuzz_repro (cfg, i, verdict, detail)
  here = fileparts (mfilename ('fullpath'));
  addpath (fullfile (fileparts (here), 'lib'));
  c = fuzz_case (cfg.Seed, i);
  file = fullfile (cfg.OutDir, sprintf ('repro_%d_%d.m', cfg.Seed, i));
  fid = fopen (file, 'w');
  fprintf (fid, '%% fuzz reproducer: seed %d, case %d, kind %s, verdict %s\n', ...
           cfg.Seed, i, c.kind, verdict);
  fprintf (fid, '%% %s\n', regexprep (c.desc, '[\r\n]', ' '));
  fprintf (fid, '%% found: %s\n', regexprep (detail, '[\r\n]', ' '));
  fprintf (fid, '%% expected: %s (identifier family %s)\n', c.expect, c.family);
  fprintf (fid, 'addpath (fullfile (pwd, ''octave''));\n');
  if (strcmp (c.fname, 'la_mex'))
    fprintf (fid, 'cd (fullfile (''octave'', ''private''));   %% the private MEX itself\n');
  end
  fprintf (fid, 'args = {');
  for a = 1:numel (c.args)
    fprintf (fid, ' ...\n  %s', fuzz_literal (c.args{a}));
    if (a < numel (c.args))
      fprintf (fid, ',');
    end
  end
  fprintf (fid, '};\n');
  fprintf (fid, 'out = cell (1, %d);\n', c.nout);
  if (c.nout == 0)
    fprintf (fid, '%s (args{:});\n', c.fname);
  else
    fprintf (fid, '[out{:}] = %s (args{:});\n', c.fname);
  end
  fprintf (fid, 'disp (''returned'');\n');
  fclose (fid);
end
