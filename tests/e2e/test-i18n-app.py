#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The desktop app speaks the language LANGUAGE asks for.

Starts the built app under LANGUAGE=de, then LANGUAGE=zh_CN, with
LC_ALL=C.UTF-8 (gettext reads LANGUAGE in any locale but "C", so no locale
has to be generated), and reads its main window through the accessibility
tree: the empty sidebar's title, the header bar's button and the views
below the servers must carry the translations, which come from the .ui
templates through the text domain main.c sets.

The app looks for its catalogues in the LOCALEDIR it will be installed
with; tests/i18n-preload.c, loaded with LD_PRELOAD, points its text domain
at the ones meson builds under BUILD_PO_DIR instead.

Usage (in a session of its own, see tests/run-in-session):
  test-i18n-app.py STEWARD PRELOAD_LIBRARY BUILD_PO_DIR TEXTDOMAIN
Output is TAP.
"""

import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import a11y  # noqa: E402

# What each language shows: (role, accessible name) in the main window.
EXPECTED = {
    'de': [
        ('label', 'Noch keine Server'),
        ('push button', 'Server hinzufügen'),
        ('list', 'Ansichten'),
        ('label', 'Protokolle'),
        ('label', 'Stammordner'),
    ],
    'zh_CN': [
        ('label', '尚无服务器'),
        ('push button', '添加服务器'),
        ('list', '视图'),
        ('label', '日志'),
        ('label', '根目录'),
    ],
}

QUIT_TIMEOUT = 10


def run_app(steward, preload, localedir, domain, language, log_path):
    env = dict(os.environ)
    env.update({
        'LANGUAGE': language,
        'LC_ALL': 'C.UTF-8',
        'LD_PRELOAD': preload,
        'STEWARD_TEST_LOCALEDIR': localedir,
        'STEWARD_TEST_TEXTDOMAIN': domain,
        # A critical is a bug; a warning may be the session's.
        'G_DEBUG': 'gc-friendly,fatal-criticals',
    })
    env.pop('LANG', None)
    with open(log_path, 'w') as log:
        return subprocess.Popen([steward], stdout=log, stderr=subprocess.STDOUT, env=env)


def stop(process):
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(QUIT_TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def check_language(steward, preload, localedir, domain, language, log_path):
    """Returns a list of problems."""
    process = run_app(steward, preload, localedir, domain, language, log_path)
    try:
        app = a11y.application('steward')
        main = a11y.toplevel(app, 'Steward')
        problems = []
        for role, name in EXPECTED[language]:
            try:
                a11y.find(main, role, name, timeout=10)
            except a11y.E2EError as error:
                problems.append(str(error))
        if problems:
            problems.append('what the window shows:\n' + a11y.dump(main, limit=80))
        return problems
    except a11y.E2EError as error:
        with open(log_path, errors='replace') as log:
            return [str(error), 'the app said:\n' + log.read()[-2000:]]
    finally:
        stop(process)
        # The next start must not find this one on the bus.
        a11y.closed(None, 'Steward')
        a11y.wait_until('the app to leave the accessibility bus', lambda: not any(
            app is not None and app.name == 'steward' for app in a11y.children(
                a11y.pyatspi.Registry.getDesktop(0))))


def main():
    if len(sys.argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    if 'STEWARD_TEST_HOME' not in os.environ:
        print('1..0 # SKIP not in a test session; run me under tests/run-in-session')
        return 0

    steward, preload, localedir, domain = sys.argv[1:]
    steward, preload, localedir = map(os.path.abspath, (steward, preload, localedir))
    print('1..%d' % len(EXPECTED), flush=True)
    failed = 0
    for n, language in enumerate(EXPECTED, 1):
        log_path = os.path.join(os.environ['STEWARD_TEST_HOME'], 'steward-%s.log' % language)
        problems = check_language(steward, preload, localedir, domain, language, log_path)
        print('%s %d - LANGUAGE=%s: the main window speaks it'
              % ('not ok' if problems else 'ok', n, language), flush=True)
        if problems:
            failed += 1
            for problem in problems:
                for line in problem.splitlines():
                    print('# ' + line)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
