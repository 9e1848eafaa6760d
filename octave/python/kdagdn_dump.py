"""Dump one call of a KDA / GDN kernel for kda_verify / gdn_verify.

    import kdagdn_dump
    o, ht = chunk_kda(q, k, v, g, beta, initial_state=h0, output_final_state=True)
    kdagdn_dump.dump('dump', {'q': q, 'k': k, 'v': v, 'g': g, 'beta': beta,
                              'h0': h0, 'o': o, 'ht': ht}, chunk_size=64)

verify(folder) runs kda_verify / gdn_verify on it through octave-cli and
returns the parsed verify_report.json; it raises VerificationFailed, with
the report's first failing rows, when the verdict is FAIL, so that a
pytest test is two lines:

    kdagdn_dump.dump(tmp_path, {...}, chunk_size=64)
    kdagdn_dump.verify(tmp_path)

A folder whose subfolders are dumps is verified in one octave-cli call;
the result maps each subfolder to its report, with one summary table.

dump(folder, tensors, **meta) writes folder/tensors.safetensors (every
tensor as it is stored: bfloat16 stays bfloat16) and folder/meta.json (the
keyword arguments: FLA's option names, e.g. chunk_size, scale, cu_seqlens,
use_qk_l2norm_in_kernel, and optionally dtype).  Tensors are torch tensors
(any device; gradients are detached) or numpy arrays (bfloat16 from
ml_dtypes included), in FLA layout ([B, T, H, K] etc.), under FLA's names:
q k v g beta h0 o ht do dht dq dk dv dg dbeta dh0 g_cumsum Akk Aqk w u
v_new h cu_seqlens (docs/verify.md).  A dict is used because `do` is a
Python keyword.  Needs numpy; torch only when given torch tensors.  The
safetensors file is written by this module (the published format: an
8-byte little-endian header length, a JSON header, the raw little-endian
data), so the safetensors package is not needed.
"""
import json
import os
import subprocess
import warnings

import numpy as np

__all__ = ['dump', 'write_safetensors', 'verify', 'VerificationFailed']

# safetensors' dtype names by numpy dtype name (bfloat16: ml_dtypes)
_ST_DTYPE = {'float64': 'F64', 'float32': 'F32', 'float16': 'F16', 'bfloat16': 'BF16',
             'int64': 'I64', 'int32': 'I32', 'int16': 'I16', 'int8': 'I8',
             'uint8': 'U8', 'bool': 'BOOL'}


def _as_bytes(x):
    """(safetensors dtype, shape, little-endian bytes) of a tensor or array."""
    if type(x).__module__.startswith('torch'):
        import torch
        x = x.detach().cpu().contiguous()
        if x.dtype == torch.bfloat16:     # numpy has no bfloat16: its bits
            return 'BF16', list(x.shape), x.view(torch.int16).numpy().astype('<i2').tobytes()
        x = x.numpy()
    x = np.asarray(x)
    name = x.dtype.name
    if name not in _ST_DTYPE:
        raise TypeError('kdagdn_dump: dtype %s cannot be dumped (%s)'
                        % (name, ', '.join(sorted(_ST_DTYPE))))
    if name == 'bfloat16':                # ml_dtypes: store its raw 16 bits
        raw = np.ascontiguousarray(x).view(np.uint16).astype('<u2')
    else:
        raw = np.ascontiguousarray(x).astype(x.dtype.newbyteorder('<'))
    return _ST_DTYPE[name], list(x.shape), raw.tobytes()


def write_safetensors(path, tensors):
    """Write a dict of tensors / arrays as one .safetensors file."""
    header, blobs, offset = {}, [], 0
    for name, x in tensors.items():
        dtype, shape, raw = _as_bytes(x)
        header[name] = {'dtype': dtype, 'shape': shape,
                        'data_offsets': [offset, offset + len(raw)]}
        blobs.append(raw)
        offset += len(raw)
    text = json.dumps(header).encode('utf-8')
    text += b' ' * (-len(text) % 8)
    tmp = path + '.part'
    with open(tmp, 'wb') as f:
        f.write(len(text).to_bytes(8, 'little'))
        f.write(text)
        for blob in blobs:
            f.write(blob)
    os.replace(tmp, path)


def _plain(value):
    """A meta value as JSON: tensors and numpy scalars become lists / numbers."""
    if type(value).__module__.startswith('torch'):
        value = value.detach().cpu().numpy()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value


def dump(folder, tensors, **meta):
    """Write tensors (a dict name -> tensor) and meta data into folder.

    An entry that is None (a gradient the kernel did not return, such as a
    beta.grad left None) is not written; it is named in a warning and in
    meta.json's "absent", and the verifier's report lists it."""
    absent = sorted(name for name, x in tensors.items() if x is None)
    if absent:
        warnings.warn('kdagdn_dump: %s None, not written (meta.json "absent" names %s)'
                      % (', '.join(absent), 'them' if len(absent) > 1 else 'it'), stacklevel=2)
        meta = dict(meta, absent=absent)
    tensors = {name: x for name, x in tensors.items() if x is not None}
    os.makedirs(folder, exist_ok=True)
    write_safetensors(os.path.join(folder, 'tensors.safetensors'), tensors)
    with open(os.path.join(folder, 'meta.json'), 'w') as f:
        json.dump({key: _plain(value) for key, value in meta.items()}, f, indent=1)


# ---- verify: run the library on a dump --------------------------------------

class VerificationFailed(AssertionError):
    """The verdict was FAIL; .report holds the parsed report (or, for a
    folder of dumps, the dict of them)."""

    def __init__(self, message, report):
        super().__init__(message)
        self.report = report


_TENSOR_FILES = ('.npy', '.npz', '.safetensors', '.mat')
_MALLOC_REUSE = 'glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=17179869184'


def _is_dump(folder):
    names = os.listdir(folder)
    return 'meta.json' in names or any(n.endswith(_TENSOR_FILES) for n in names)


def _gate_ndim(folder):
    """The number of axes of the dump's g (None when it cannot be told
    without a reader): 4 for KDA ([B, T, HV, K]), 3 for GDN."""
    path = os.path.join(folder, 'g.npy')
    if os.path.exists(path):
        return np.load(path, mmap_mode='r').ndim
    for name in sorted(os.listdir(folder)):
        if name.endswith('.safetensors'):
            with open(os.path.join(folder, name), 'rb') as f:
                size = int.from_bytes(f.read(8), 'little')
                header = json.loads(f.read(size))
            if 'g' in header:
                return len(header['g']['shape'])
        elif name.endswith('.npz'):
            with np.load(os.path.join(folder, name)) as z:
                if 'g' in z.files:
                    return z['g'].ndim
    return None


def _op_of(folder):
    """kda or gdn: GDN's gate g is [B, T, HV] (or absent, with gk / gv)."""
    nd = _gate_ndim(folder)
    if nd is None:
        names = os.listdir(folder)
        return 'gdn' if any(n.startswith(('gk.', 'gv.')) for n in names) else 'kda'
    return 'kda' if nd == 4 else 'gdn'


def _octave_str(text):
    return "'" + str(text).replace("'", "''") + "'"


def _first_failures(report, count=3):
    rows = [r for r in report['rows'] if r['status'] == 'fail']
    lines = ['%s: ratio %s, fail above %s; %s' % (r['name'], r['ratio'], r['tol'], r['where'])
             for r in rows[:count]]
    lines += ['%s not checked: %s' % (u['name'], u['reason'])
              for u in report['unchecked'] if u['severity'] == 'fail'][:count]
    return lines


def _summary(reports):
    lines = ['| dump | op | verdict | failing | warning |', '| --- | --- | --- | --- | --- |']
    for name, r in reports.items():
        bad = ', '.join(x['name'] for x in r['rows'] if x['status'] == 'fail')
        warn = ', '.join(x['name'] for x in r['rows'] if x['status'] == 'warn')
        lines.append('| %s | %s | %s | %s | %s |' % (name, r['op'], r['verdict'].upper(),
                                                     bad or '-', warn or '-'))
    return '\n'.join(lines)


def verify(folder, op=None, library=None, octave='octave-cli', report_dir=None,
           timeout=None):
    """Run kda_verify / gdn_verify on a dump folder (or on every dump in the
    subfolders of folder, in one octave-cli call) and return the parsed
    verify_report.json.

    op: 'kda' or 'gdn' (default: told by the shape of g in a .npy,
    .safetensors or .npz file, 3 axes for GDN; 'kda' when g is in a .mat
    file, which needs op=);
    library: the library's octave folder (or the repository holding it) to
    addpath, else $KDAGDN_LIBRARY, else the installed package (pkg load
    kdagdn); octave: the Octave to run; report_dir: where the reports go
    (default the dump folder; for a folder of dumps, one subfolder each).
    Octave runs with GLIBC_TUNABLES set to keep freed memory for reuse
    (unless the environment sets GLIBC_TUNABLES): the same verdict, about
    twice as fast on a large dump where new pages are slow to touch.
    Returns the report dict (schema kdagdn.verify_report: verdict, rows,
    locations, unchecked, notes, slips, library and FLA versions), or for a
    folder of dumps {'reports': {name: report}, 'summary': Markdown table}.
    Raises VerificationFailed with the first failing rows when a verdict is
    FAIL, RuntimeError when Octave cannot run the verification (a malformed
    dump: its message says what to fix).
    """
    folder = os.path.abspath(os.fspath(folder))
    many = not _is_dump(folder)
    if many:
        names = sorted(n for n in os.listdir(folder)
                       if os.path.isdir(os.path.join(folder, n)) and _is_dump(os.path.join(folder, n)))
        if not names:
            raise RuntimeError('kdagdn_dump.verify: %s holds no dump (tensor files and meta.json) '
                               'and no subfolder with one' % folder)
        dumps = [os.path.join(folder, n) for n in names]
    else:
        names, dumps = [os.path.basename(folder)], [folder]
    outs = []
    for name, d in zip(names, dumps):
        out = d
        if report_dir is not None:
            out = os.path.join(os.path.abspath(os.fspath(report_dir)), name if many else '')
            os.makedirs(out, exist_ok=True)
        outs.append(out)
    library = library if library is not None else os.environ.get('KDAGDN_LIBRARY')
    if library:
        library = os.path.abspath(os.fspath(library))
        if os.path.isdir(os.path.join(library, 'octave')):
            library = os.path.join(library, 'octave')
        load = 'addpath (%s);' % _octave_str(library)
    else:
        load = 'pkg load kdagdn;'
    calls = ['%s_verify (%s, \'ReportDir\', %s);' % (op or _op_of(d), _octave_str(d), _octave_str(o))
             for d, o in zip(dumps, outs)]
    script = load + ' try, ' + ' '.join('[~, ~] = ' + c for c in calls) + \
        ' catch err, fprintf (2, \'%s\\n\', err.message); exit (2); end'
    # glibc keeps freed memory for reuse: a large verify about twice as fast
    # where first touches of new pages are slow (docs/verify.md); a setting
    # the caller's environment already holds is left as it is
    env = dict(os.environ)
    env.setdefault('GLIBC_TUNABLES', _MALLOC_REUSE)
    run = subprocess.run([octave, '--no-gui', '--quiet', '--norc', '--eval', script],
                         capture_output=True, text=True, timeout=timeout, env=env)
    if run.returncode != 0:
        raise RuntimeError('kdagdn_dump.verify: octave failed (exit %d): %s'
                           % (run.returncode, (run.stderr or run.stdout).strip()))
    reports = {}
    for name, out in zip(names, outs):
        with open(os.path.join(out, 'verify_report.json')) as f:
            reports[name] = json.load(f)
    if not many:
        report = reports[names[0]]
        if report['verdict'] == 'fail':
            raise VerificationFailed('%s_verify %s: FAIL\n  %s' % (report['op'], folder,
                                     '\n  '.join(_first_failures(report))), report)
        return report
    result = {'reports': reports, 'summary': _summary(reports)}
    failed = [n for n in names if reports[n]['verdict'] == 'fail']
    if failed:
        detail = ['%s: %s' % (n, '; '.join(_first_failures(reports[n], 1))) for n in failed]
        raise VerificationFailed('%d of %d dumps FAIL\n%s\n  %s' % (
            len(failed), len(names), result['summary'], '\n  '.join(detail)), result)
    return result
