function st = lab_styles ()
% LAB_STYLES  Colours and markers shared by the lab's figures.
%
%   st = lab_styles ()
%
%   KDA is blue, GDN red; recurrent paths have open markers (circles for
%   KDA, squares for GDN), chunked ones filled; single precision is drawn
%   solid, double dashed; bounds are orange lines with a label.

  blue = [0.00 0.35 0.75];  red = [0.80 0.10 0.10];
  st.kda_recurrent = struct ('color', blue, 'marker', 'o', 'face', 'none', 'label', 'KDA recurrent');
  st.kda_chunk     = struct ('color', blue, 'marker', 'o', 'face', blue, 'label', 'KDA chunked');
  st.gdn_recurrent = struct ('color', red,  'marker', 's', 'face', 'none', 'label', 'GDN recurrent');
  st.gdn_chunk     = struct ('color', red,  'marker', 's', 'face', red, 'label', 'GDN chunked');
  st.single_line = '-';
  st.double_line = '--';
  st.bound_color = [0.95 0.55 0.00];
end
