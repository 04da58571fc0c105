#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Check build-aux/count-results, the counter CI reads the last line of.

Each case writes a small meson-logs/testlog.json into a throwaway build
folder, puts a stand-in `meson` first on PATH that lists the tests' protocols
(count-results asks `meson introspect --tests` for them), runs the counter
and checks its last line, what it names above it and its exit status.

Usage: test-count-results.py COUNT_RESULTS
Output is TAP.
"""

import json
import os
import subprocess
import sys
import tempfile
import time

PROTOCOLS = {'jsonrpc': 'tap', 'e2e': 'tap', 'po': 'tap', 'http': 'tap', 'crash': 'tap',
             'schema': 'exitcode', 'metainfo': 'exitcode'}

MIXED = [
    {'name': 'steward / jsonrpc', 'result': 'OK',
     'stdout': 'ok 1 /a\nok 2 /b\nok 3 /c # SKIP not here\n1..3\n'},
    {'name': 'steward / e2e', 'result': 'SKIP',
     'stdout': '1..0 # SKIP not in a test session (12 cases)\n'},
    {'name': 'steward / po', 'result': 'SKIP', 'stdout': '1..0 # SKIP msgfmt is missing\n'},
    {'name': 'steward / http', 'result': 'FAIL', 'stdout': 'ok 1 /a\nnot ok 2 /b\n1..2\n'},
    {'name': 'steward / crash', 'result': 'ERROR', 'stdout': 'ok 1 /a\n'},
    {'name': 'steward / schema', 'result': 'OK', 'stdout': ''},
    {'name': 'steward / metainfo', 'result': 'SKIP', 'stdout': ''},
]


def run(counter, log, since=None, ci=False):
    """Returns (exit status, output lines) of the counter on log, a list of
    entries, or None for no log at all."""
    with tempfile.TemporaryDirectory() as top:
        bin_dir = os.path.join(top, 'bin')
        build = os.path.join(top, 'build')
        os.makedirs(bin_dir)
        os.makedirs(os.path.join(build, 'meson-logs'))
        fake = os.path.join(bin_dir, 'meson')
        with open(fake, 'w') as f:
            f.write('#!/bin/sh\nprintf "%%s\\n" %s\n' % json.dumps(json.dumps(
                [{'name': n, 'protocol': p} for n, p in PROTOCOLS.items()])))
        os.chmod(fake, 0o755)
        if log is not None:
            with open(os.path.join(build, 'meson-logs', 'testlog.json'), 'w') as f:
                for entry in log:
                    f.write(json.dumps(entry) + '\n')
        env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get('PATH', ''))
        env.pop('CI', None)
        if ci:
            env['CI'] = 'true'
        args = [sys.executable, counter] + (['--since', str(since)] if since else []) + [build]
        done = subprocess.run(args, env=env, capture_output=True, text=True)
        return done.returncode, done.stdout.splitlines()


def case_mixed(counter):
    status, lines = run(counter, MIXED, since=time.time() - 60)
    assert lines[-1] == '5 passed, 2 failed, 15 skipped', lines
    assert status == 1, status
    assert any('e2e (not in a test session (12 cases))' in line for line in lines), lines
    assert any(line == 'failed: http, crash' for line in lines), lines


def case_ci(counter):
    status, lines = run(counter, MIXED, ci=True)
    assert lines[-1] == '5 passed, 17 failed, 0 skipped', lines
    assert status == 1, status


def case_all_passed(counter):
    log = [{'name': 'steward / jsonrpc', 'result': 'OK', 'stdout': 'ok 1 /a\nok 2 /b\n1..2\n'}]
    for ci in (False, True):
        status, lines = run(counter, log, ci=ci)
        assert lines == ['2 passed, 0 failed, 0 skipped'], lines
        assert status == 0, status


def case_stale(counter):
    log = [{'name': 'steward / schema', 'result': 'OK', 'stdout': ''}]
    status, lines = run(counter, log, since=time.time() + 60)
    assert lines[-1] == '0 passed, 1 failed, 0 skipped', lines
    assert 'earlier run' in lines[0], lines
    assert status == 1, status


def case_missing(counter):
    status, lines = run(counter, None, since=time.time())
    assert lines[-1] == '0 passed, 1 failed, 0 skipped', lines
    assert status == 1, status


def case_nothing_ran(counter):
    status, lines = run(counter, [])
    assert lines == ['no test ran', '0 passed, 1 failed, 0 skipped'], lines
    assert status == 1, status


CASES = [case_mixed, case_ci, case_all_passed, case_stale, case_missing, case_nothing_ran]


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    counter = sys.argv[1]
    print('1..%d' % len(CASES))
    failed = 0
    for number, case in enumerate(CASES, 1):
        try:
            case(counter)
            print('ok %d - %s' % (number, case.__name__))
        except AssertionError as error:
            failed += 1
            print('not ok %d - %s' % (number, case.__name__))
            for line in str(error).splitlines():
                print('# ' + line)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
