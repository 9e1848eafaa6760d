function varargout = lab_cover (what, varargin)
% LAB_COVER  Record what the lab's calls of the public functions exercise.
%
%   lab_cover ('start')          bind the public kda_* / gdn_* functions and
%                                put the stand-ins of lab/cover/ before them
%                                on the path: from then on every call the
%                                lab makes is recorded
%   lab_cover ('section', name)  the section the next calls belong to
%   rec = lab_cover ('records')  the records so far (struct array)
%   lab_cover ('stop')           take the stand-ins off the path
%   [...] = lab_cover ('call', fname, args)   (the stand-ins) record the
%                                call, then make it
%
%   A record holds the section, the function, and the classes of the call
%   (lab_cover_classes): its options, shape classes, threads and precision,
%   read from the arguments as the call passed them.  The coverage matrix
%   of the report (lab_cover_matrix) is built from these records only, so
%   it says what the lab's checks actually ran.

  persistent fns recs section
  if (isempty (recs))
    recs = struct ('section', {}, 'fn', {}, 'classes', {});
  end
  here = fileparts (mfilename ('fullpath'));
  switch (what)
    case 'start'
      names = {'recurrent', 'recurrent_bwd', 'chunk', 'chunk_bwd', 'state_map', ...
               'state_map_bwd', 'verify'};
      fns = struct ();
      off (fullfile (here, 'cover'));
      for op = {'kda', 'gdn'}
        for i = 1:numel (names)
          n = [op{1} '_' names{i}];
          fns.(n) = str2func (n);      % bound now: the public function
        end
      end
      addpath (fullfile (here, 'cover'));
      recs = recs([]);
      section = '';
    case 'stop'
      off (fullfile (here, 'cover'));
    case 'section'
      section = varargin{1};
    case 'records'
      varargout{1} = recs;
    case 'call'
      fname = varargin{1};
      args = varargin{2};
      try
        cls = lab_cover_classes (fname, args);
      catch
        cls = {'unparsed'};
      end
      recs(end+1) = struct ('section', section, 'fn', fname, 'classes', {cls});
      [varargout{1:max (nargout, 1)}] = fns.(fname) (args{:});
    otherwise
      error ('lab_cover: unknown request %s', what);
  end
end

function off (d)
  if (any (strcmp (strsplit (path (), pathsep ()), d)))
    rmpath (d);
  end
end
