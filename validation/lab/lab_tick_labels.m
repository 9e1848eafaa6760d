function c = lab_tick_labels (x)
% LAB_TICK_LABELS  Plain tick labels ('0.05', '2003') for the tested values x.
%
%   c = lab_tick_labels (x)   a cell of strings, one per element of x

  c = cell (1, numel (x));
  for i = 1:numel (x)
    c{i} = sprintf ('%g', x(i));
  end
end
