function [lines, open] = lab_cover_matrix (recs)
% LAB_COVER_MATRIX  The coverage matrix of the lab's report, from lab_cover's records.
%
%   [lines, open] = lab_cover_matrix (recs)
%
%   lines: the markdown of the matrix: one row per class of
%   lab_cover_classes, one column per public function, each cell the number
%   of the lab's calls of that function in that class (and the sections
%   that made them in the CSV, lab_report); an empty cell shows the letter
%   of its argument (lab_cover_reasons), listed under the table.  open: the
%   empty cells no argument covers, as 'class x function' strings: the
%   report lists them as holes.

  fns = {};
  for op = {'kda', 'gdn'}
    for f = {'recurrent', 'recurrent_bwd', 'chunk', 'chunk_bwd', 'state_map', ...
             'state_map_bwd', 'verify'}
      fns{end+1} = [op{1} '_' f{1}];
    end
  end
  classes = {'Scale', 'InitialState', 'CuSeqlens', 'ChunkSize', 'UseQKL2Norm', ...
             'L2NormEps', 'GateInKernel', 'ALog', 'DtBias', 'LowerBound', 'SafeGate', ...
             'BetaSigmoid', 'AllowNegEigval', 'StateLayout VK', 'Intermediates', 'Emulate', ...
             'GK', 'GV', ...
             'B > 1', 'V > K', 'V < K', 'odd V', 'HV = H', 'HV = 2H', 'HV = 4H', ...
             'T < C', 'T = C', 'T > C', 'short last chunk', 'varlen', 'length-1 sequence', ...
             '1 thread', '2 threads', '3+ threads', 'threads do not divide the heads', ...
             'double', 'single', 'two phases', 'several windows', ...
             'column blocks with a remainder'};
  count = zeros (numel (classes), numel (fns));
  for r = 1:numel (recs)
    j = find (strcmp (fns, recs(r).fn));
    i = find (ismember (classes, recs(r).classes));
    count(i, j) = count(i, j) + 1;
  end
  reasons = lab_cover_reasons ();
  letters = char ('a' + (0:numel (reasons) - 1));
  used = false (1, numel (reasons));
  short = strrep (strrep (strrep (fns, '_recurrent', ' rec'), '_state_map', ' map'), '_', ' ');
  lines = {['| class | ' strjoin(short, ' | ') ' |'], ...
           ['|---|' repmat('---:|', 1, numel (fns))]};
  open = {};
  for i = 1:numel (classes)
    cells = cell (1, numel (fns));
    for j = 1:numel (fns)
      if (count(i, j) > 0)
        cells{j} = sprintf ('%d', count(i, j));
        continue;
      end
      k = find (arrayfun (@(z) ~isempty (regexp (classes{i}, z.class, 'once')) && ...
                          ~isempty (regexp (fns{j}, z.fn, 'once')), reasons), 1);
      if (isempty (k))
        cells{j} = '**0**';
        open{end+1} = sprintf ('%s x %s', classes{i}, fns{j});
      else
        cells{j} = ['(' letters(k) ')'];
        used(k) = true;
      end
    end
    lines{end+1} = sprintf ('| %s | %s |', classes{i}, strjoin (cells, ' | '));
  end
  lines{end+1} = '';
  lines{end+1} = ['A number is the calls the lab made in that class; a letter, an empty ' ...
                  'cell and its argument:'];
  lines{end+1} = '';
  for k = find (used)
    lines{end+1} = sprintf ('- (%s) %s', letters(k), reasons(k).why);
  end
  if (~isempty (open))
    lines{end+1} = '';
    lines{end+1} = sprintf ('Empty cells without an argument (**0**): %d.', numel (open));
  end
end
