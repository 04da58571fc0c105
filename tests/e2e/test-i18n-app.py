#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The desktop app speaks the language LANGUAGE asks for.

Starts the built app under LANGUAGE=de, then LANGUAGE=zh_CN, with
LC_ALL=C.UTF-8 (gettext reads LANGUAGE in any locale but "C", so no locale
has to be generated), and reads its main window through the accessibility
tree: the empty sidebar's title, the header bar's button and the views
below the servers must carry the translations, which come from the .ui
templates through the text domain main.c sets.

The app runs from the build tree as build-aux/run starts it: with
STEWARD_LOCALEDIR naming BUILD_PO_DIR, where meson builds the catalogues,
since nothing is installed in the LOCALEDIR it was configured with.

Usage (in a session of its own, see tests/run-in-session):
  test-i18n-app.py STEWARD BUILD_PO_DIR
Output is TAP.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import driver  # noqa: E402  (first: it sets up G_DEBUG before GLib loads)
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


def check_language(steward, localedir, language, log_path):
    """Returns a list of problems."""
    process = driver.start_app([steward], log_path, {
        'LANGUAGE': language,
        'LC_ALL': 'C.UTF-8',
        'LANG': None,
        'STEWARD_LOCALEDIR': localedir,
    })
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
        driver.stop_process(process)
        # The next start must not find this one on the bus.
        a11y.closed(None, 'Steward')
        a11y.wait_until('the app to leave the accessibility bus', lambda: not any(
            app is not None and app.name == 'steward' for app in a11y.children(
                a11y.pyatspi.Registry.getDesktop(0))))


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    reason = driver.session_missing()
    if reason:
        driver.skip_all(reason, len(EXPECTED))
        return 0

    steward, localedir = map(os.path.abspath, sys.argv[1:])
    print('1..%d' % len(EXPECTED), flush=True)
    failed = 0
    for n, language in enumerate(EXPECTED, 1):
        log_path = os.path.join(os.environ['STEWARD_TEST_HOME'], 'steward-%s.log' % language)
        problems = check_language(steward, localedir, language, log_path)
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
