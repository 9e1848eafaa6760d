"""pytest tests of kdagdn_dump.verify: the library run from Python.

Run by validation/tests/test_verify_python.m (python3 -m pytest), with
KDAGDN_LIBRARY naming the library's octave folder.  Dumps come from the
test suite's independent kernels: torch_kernel.py (through
kdagdn_dump.dump) and kda_dump.py (plain numpy files).
"""
import json
import os
import shutil

import pytest

import kda_dump
import kdagdn_dump
import torch_kernel


def _case(root, spec):
    torch_kernel.make_case(str(root), spec)
    return root / spec.replace(':', '_')


def test_a_passing_dump_returns_its_report(tmp_path):
    folder = _case(tmp_path, 'kda:fp32:none:1')
    report = kdagdn_dump.verify(folder)
    assert report['schema'] == 'kdagdn.verify_report' and report['schema_version'] == 1
    assert report['verdict'] == 'pass' and report['ok'] is True and report['op'] == 'kda'
    assert report['fla']['commit'].startswith('bc3b101')
    assert report['library']['name'] == 'kdagdn' and report['library']['version']
    names = [r['name'] for r in report['rows']]
    assert {'o', 'ht', 'dq', 'dh0'} <= set(names)
    assert all(r['status'] == 'pass' for r in report['rows'])
    assert report['locations'] == [] and report['slips'] == []
    assert (folder / 'verify_report.md').exists()


def test_a_failing_dump_raises_with_its_first_failing_rows(tmp_path):
    folder = _case(tmp_path, 'gdn:fp32:varlen:1')
    with pytest.raises(kdagdn_dump.VerificationFailed) as e:
        kdagdn_dump.verify(folder, report_dir=tmp_path / 'out')
    text = str(e.value)
    assert 'gdn_verify' in text and 'FAIL' in text
    assert 'o: ratio' in text and 'sequence 1, chunk 0, step 0' in text
    report = e.value.report
    assert report['verdict'] == 'fail' and report['ok'] is False
    assert any(loc['tensor'] == 'o' for loc in report['locations'])
    assert (tmp_path / 'out' / 'verify_report.json').exists()


def test_a_gradient_given_as_none_is_named_not_dropped(tmp_path):
    with pytest.warns(UserWarning, match='dbeta None, not written'):
        folder = _case(tmp_path, 'kda:fp32:nodbeta:1')
    with open(folder / 'meta.json') as f:
        assert json.load(f)['absent'] == ['dbeta']
    report = kdagdn_dump.verify(folder)
    assert report['verdict'] == 'warn' and report['ok'] is True
    assert [u['name'] for u in report['unchecked']] == ['dbeta']
    assert 'returned no gradient' in report['unchecked'][0]['reason']
    assert report['unchecked'][0]['severity'] == 'warn'


def test_a_folder_of_dumps_in_one_call_with_one_table(tmp_path):
    for spec in ('kda:fp32:none:1', 'kda:fp32:exp2:1'):
        _case(tmp_path, spec)
    kda_dump.main(str(tmp_path / 'numpy_gdn'), 'gdn', 7)  # plain .npy; g [B, T, HV]: GDN
    with pytest.raises(kdagdn_dump.VerificationFailed) as e:
        kdagdn_dump.verify(tmp_path)
    result = e.value.report
    reports = result['reports']
    assert sorted(reports) == ['kda_fp32_exp2_1', 'kda_fp32_none_1', 'numpy_gdn']
    assert [reports[n]['verdict'] for n in sorted(reports)] == ['fail', 'pass', 'pass']
    assert reports['numpy_gdn']['op'] == 'gdn' and reports['kda_fp32_none_1']['op'] == 'kda'
    table = result['summary'].splitlines()
    assert len(table) == 2 + 3
    assert any('kda_fp32_exp2_1' in line and 'FAIL' in line for line in table)
    assert '1 of 3 dumps FAIL' in str(e.value) and 'kda_fp32_exp2_1: o:' in str(e.value)


def test_a_malformed_dump_is_an_error_that_says_what(tmp_path):
    kda_dump.main(str(tmp_path / 'x'), 'double', 7)
    os.remove(tmp_path / 'x' / 'q.npy')
    with pytest.raises(RuntimeError, match='lacks the input'):
        kdagdn_dump.verify(tmp_path / 'x')
    (tmp_path / 'empty' / 'sub').mkdir(parents=True)
    with pytest.raises(RuntimeError, match='holds no dump'):
        kdagdn_dump.verify(tmp_path / 'empty')


def test_octave_starts_with_malloc_reuse_unless_set(tmp_path, monkeypatch):
    folder = _case(tmp_path, 'kda:fp32:none:1')
    seen = tmp_path / 'seen'
    fake = tmp_path / 'fake-octave'       # records what it was given, then fails
    fake.write_text('#!/bin/sh\nprintf "%%s" "$GLIBC_TUNABLES" > "%s"\nexit 3\n' % seen)
    fake.chmod(0o755)
    monkeypatch.delenv('GLIBC_TUNABLES', raising=False)
    with pytest.raises(RuntimeError, match='exit 3'):
        kdagdn_dump.verify(folder, octave=str(fake))
    assert seen.read_text() == 'glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=17179869184'
    monkeypatch.setenv('GLIBC_TUNABLES', 'glibc.malloc.arena_max=1')
    with pytest.raises(RuntimeError, match='exit 3'):
        kdagdn_dump.verify(folder, octave=str(fake))
    assert seen.read_text() == 'glibc.malloc.arena_max=1'
