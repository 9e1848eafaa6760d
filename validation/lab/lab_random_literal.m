function s = lab_random_literal (cfg)
% LAB_RANDOM_LITERAL  A random configuration as a line to paste into Octave.
%
%   s = lab_random_literal (cfg)
%
%   s reads  lab_random_case (struct ('op', 'kda', ...))  and re-runs the
%   configuration cfg of lab_random_draw (run it from validation/ with lib/,
%   lab/ and ../octave on the path, under the same OMP_NUM_THREADS).

  f = fieldnames (cfg);
  parts = cell (1, numel (f));
  for i = 1:numel (f)
    v = cfg.(f{i});
    if (ischar (v))
      vs = ['''' v ''''];
    elseif (islogical (v))
      vs = mat2str (v);
    elseif (isempty (v))
      vs = '[]';
    elseif (isscalar (v))
      vs = sprintf ('%.17g', v);
    else
      vs = mat2str (v, 17);
    end
    parts{i} = sprintf ('''%s'', %s', f{i}, vs);
  end
  s = ['lab_random_case (struct (' strjoin(parts, ', ') '))'];
end
