% build_mex  Build the MEX file of kdagdn under Octave or MATLAB.
%
%   build_mex ()
%   build_mex (Name, Value, ...)
%
%   Compiles the C core (mex/core/*.c), the gateway (mex/gateway/*.c) and
%   the tensor-file readers (mex/files/*.c)
%   into octave/private/la_mex.<mexext>, the one MEX file behind the public
%   functions of octave/, and copies it to octave/kda_recurrent.<mexext> and
%   octave/gdn_recurrent.<mexext>, which serve those two functions without
%   their .m wrappers (a decode step).  Run it from anywhere; `make` does the same build
%   under Octave with the flags of the Makefile.
%
%   Octave:  mkoctfile --mex, linking OpenBLAS (-lopenblas).
%   MATLAB:  mex with the default API (-R2017b: the gateway reads real
%            arrays through mxGetData and rejects complex ones before
%            reading them, so it needs no interleaved-complex accessors),
%            linking MATLAB's own BLAS (-lmwblas) through its Fortran
%            interface (sgemm_, dgemm_ with 64-bit integers): the core
%            is compiled with -DLA_BLAS_ILP64 (and, on Windows, where
%            libmwblas has no trailing underscores, -DLA_BLAS_NO_UNDERSCORE).
%
%   Options:
%     OpenMP   true     compile with OpenMP (-fopenmp), the parallel loop
%                       over sequences and heads; false builds serially
%     OutDir   ''       where to write the MEX file (default octave/private)
%     Verbose  false    print the compiler commands
%     Testing  false    true: the test build instead, la_mex_testing.<mexext>
%                       (-DLA_TESTING: the instruments the repository's
%                       tests call, never needed to use the library), in
%                       OutDir (default build/testing, where the tests look)
%
%   The tensor-file readers (mex/files) are compiled without zlib, which
%   MATLAB does not ship: la_load refuses deflated .npz members and
%   compressed .mat variables (save -v7) with la:badFile saying so; stored
%   members and save -v6 files are read in full.
%
%   What was checked by reading and what was run: docs/matlab.md.
%
%   Example:
%     build_mex ();                   % then addpath ('octave')
%     build_mex ('OpenMP', false);    % a compiler without OpenMP (Apple clang)
%
%   See also: kdagdn, mex, mkoctfile.

function build_mex (varargin)
  opts = struct ('OpenMP', true, 'OutDir', '', 'Verbose', false, 'Testing', false);
  for i = 1:2:numel (varargin)
    opts.(validatestring (varargin{i}, fieldnames (opts))) = varargin{i + 1};
  end
  root = fileparts (mfilename ('fullpath'));
  name = 'la_mex';
  defs = '';
  if (opts.Testing)
    name = 'la_mex_testing';
    defs = ' -DLA_TESTING';
  end
  if (isempty (opts.OutDir) && opts.Testing)
    opts.OutDir = fullfile (root, 'build', 'testing');
  elseif (isempty (opts.OutDir))
    opts.OutDir = fullfile (root, 'octave', 'private');
  end
  if (~exist (opts.OutDir, 'dir'))
    mkdir (opts.OutDir);
  end
  src = [c_files(fullfile (root, 'mex', 'gateway')), c_files(fullfile (root, 'mex', 'files')), ...
         c_files(fullfile (root, 'mex', 'core'))];
  omp = '';
  if (opts.OpenMP)
    omp = ' -fopenmp';
  end
  out = fullfile (opts.OutDir, [name '.' mexext()]);
  if (exist ('OCTAVE_VERSION', 'builtin'))
    build_octave (src, out, defs, omp, opts.Verbose);
  else
    build_matlab (src, out, defs, omp, opts.Verbose);
  end
  fprintf ('build_mex: wrote %s\n', out);
  if (opts.Testing)
    return;
  end
  % the decode path's functions: copies under their own names, next to
  % their .m help files (the gateway serves the function it is named after)
  pub = fileparts (opts.OutDir);
  for f = {'kda_recurrent', 'gdn_recurrent'}
    copyfile (out, fullfile (pub, [f{1} '.' mexext()]));
    fprintf ('build_mex: wrote %s\n', fullfile (pub, [f{1} '.' mexext()]));
  end
end

function build_octave (src, out, defs, omp, verbose)
  % mkoctfile takes its compiler flags from the environment
  old = {getenv('CFLAGS'), getenv('LDFLAGS')};
  setenv ('CFLAGS', ['-std=c11 -O2 -fPIC -fno-math-errno' defs omp]);
  setenv ('LDFLAGS', strtrim (omp));
  % mkoctfile hands its -o to the linker unquoted: link under a temporary
  % name without spaces, then move the file to an OutDir that may have them
  tmp = [tempname() '.' mexext()];
  args = [{'--mex', '-o', tmp}, src, {'-lopenblas'}];
  if (verbose)
    args = [{'--verbose'}, args];
  end
  try
    [output, status] = mkoctfile (args{:});
  catch err
    output = err.message;
    status = 1;
  end
  setenv ('CFLAGS', old{1});
  setenv ('LDFLAGS', old{2});
  if (status == 0)
    [moved, msg] = movefile (tmp, out, 'f');
    if (~moved)
      status = 1;
      output = sprintf ('cannot move %s to %s: %s', tmp, out, msg);
    end
  end
  if (exist (tmp, 'file'))
    delete (tmp);
  end
  if (status ~= 0)
    error ('build_mex:failed', 'mkoctfile failed:\n%s', output);
  elseif (verbose)
    fprintf ('%s\n', output);
  end
end

function build_matlab (src, out, defs, omp, verbose)
  [outdir, name] = fileparts (out);
  blas = {'-DLA_BLAS_ILP64'};
  if (ispc ())
    blas{end + 1} = '-DLA_BLAS_NO_UNDERSCORE';
  end
  args = [{'-R2017b'}, blas, { ...
           ['CFLAGS=$CFLAGS -std=c11 -fno-math-errno' defs omp], ...
           ['LDFLAGS=$LDFLAGS' omp], '-outdir', outdir, '-output', name}, ...
          src, {'-lmwblas'}];
  if (verbose)
    args = [{'-v'}, args];
  end
  mex (args{:});
end

function c = c_files (folder)
  % full paths of the .c files in folder
  d = dir (fullfile (folder, '*.c'));
  c = cellfun (@(nm) fullfile (folder, nm), sort ({d.name}), 'UniformOutput', false);
end
