function files = fuzz_mat_seeds (folder)
  % FUZZ_MAT_SEEDS  The valid .mat files the .mat fuzzers start from.
  %
  %   files = fuzz_mat_seeds (folder)
  %
  %   Writes into folder, and returns the names of: Octave's save -v7
  %   (compressed) and -v6 of numeric (complex too), logical and char
  %   arrays; la_save's .mat; and save -v7 / -v6 files holding what
  %   la_load refuses (a cell, a struct, a sparse matrix).  Used by
  %   fuzz_files ('Formats', {'.mat'}) (make fuzz-mat) and by the C fuzzer
  %   of the reader under the sanitizers, validation/fuzz/c/fuzz_mat.c
  %   (make fuzz-mat-c).
  addpath (fullfile (fileparts (fileparts (fileparts (mfilename ('fullpath')))), 'octave'));
  s = struct ('q', single (randn (2, 3, 4)), 'i', int64 ([1; -2; 3]), 'b', [true; false], ...
              'z', 1 + 2i, 'ch', 'abc');
  o7 = struct ('c', {{1, 'ab'}}, 'st', struct ('a', 1), 'ch', 'abc');
  o6 = struct ('sp', sparse ([1 0; 0 2]), 'z', single (1 + 2i));
  files = {fullfile(folder, 'z.mat'), fullfile(folder, 'x.mat'), fullfile(folder, 'l.mat'), ...
           fullfile(folder, 'o7.mat'), fullfile(folder, 'o6.mat')};
  save ('-v7', files{1}, '-struct', 's');
  save ('-v6', files{2}, '-struct', 's');
  la_save (files{3}, rmfield (s, {'z', 'ch'}));
  save ('-v7', files{4}, '-struct', 'o7');
  save ('-v6', files{5}, '-struct', 'o6');
end
