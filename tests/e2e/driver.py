# SPDX-License-Identifier: GPL-3.0-or-later
"""What every end-to-end driver shares: one guarded start, the steps, and
how a failure is reported.

Import this module first, before a11y, pyatspi or anything else that loads
GLib. GLib reads G_DEBUG once, when it loads, and the test environment
(tests/meson.build) makes warnings fatal. That is right for the app under
test, but in the driver the accessibility library warns while an app
registers on the bus (dbind's "Error in GetItems"), which is the session's
doing and no bug of Steward's: as a fatal warning it would kill the driver
with SIGTRAP. So the driver runs with G_DEBUG=gc-friendly, and every app
it starts with APP_G_DEBUG, where a critical is still fatal.

A driver registers its steps with @step, subclasses AppSession, and ends
with `sys.exit(driver.main(Session, prefix=…))`. It prints TAP, one case a
step; steps run in order, each on what the steps before it left, and a
step whose prerequisite failed is skipped. A failing step prints what it
waited for, the part of the accessibility tree it looked at and the end
of the app's output, and saves the screen in the artifacts folder.
"""

import argparse
import json
import os
import subprocess
import sys
import time
import traceback

os.environ['G_DEBUG'] = 'gc-friendly'

# A critical is a bug; a warning may be the session's, such as the one GIO
# gives when no notification service runs.
APP_G_DEBUG = 'gc-friendly,fatal-criticals'

HERE = os.path.dirname(os.path.abspath(__file__))
PEERS = os.environ.get('STEWARD_PEERS_DIR', os.path.join(HERE, '..', 'peers', 'node_modules'))
EVERYTHING_JS = os.path.realpath(os.path.join(
    PEERS, '@modelcontextprotocol', 'server-everything', 'dist', 'index.js'))

QUIT_TIMEOUT = 10

try:
    import a11y  # it brings pyatspi, and with it GLib
except ImportError as error:
    print("1..0 # SKIP %s: run me with the system's python3, which has pyatspi" % error)
    sys.exit(0)

STEPS = []


def write_json(path, value):
    """Write @value to @path as the app's own files are, making folders."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(value, f, indent=2)


def step(*requires):
    """Registers a step; it is skipped when a step it requires did not pass."""
    def register(function):
        STEPS.append((function, requires))
        return function
    return register


def check(condition, what):
    if not condition:
        raise a11y.E2EError(what)


def app_environment(extra=None):
    """The environment for an app the driver starts: the test's, with the
    app's own G_DEBUG, and extra on top (a value of None removes it)."""
    env = dict(os.environ)
    env['G_DEBUG'] = APP_G_DEBUG
    for name, value in (extra or {}).items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def start_app(argv, log_path, extra_env=None, append=False):
    """Starts argv with app_environment(extra_env), its output to log_path."""
    with open(log_path, 'a' if append else 'w') as log:
        return subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT,
                                env=app_environment(extra_env))


def stop_process(process, timeout=QUIT_TIMEOUT):
    """Ends process, as a session ending would, then for sure."""
    if process is None or process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def log_tail(path, lines=30):
    try:
        with open(path, errors='replace') as log:
            return ''.join(log.readlines()[-lines:])
    except OSError:
        return ''


def skip_all(reason, cases):
    """Says the whole program skipped, and how many cases that is."""
    print('1..0 # SKIP %s (%d case%s)' % (reason, cases, '' if cases == 1 else 's'))


def session_missing():
    """Why the driver cannot run here, or None."""
    if 'STEWARD_TEST_HOME' not in os.environ:
        return 'not in a test session; run me under tests/run-in-session'
    return None


class AppSession:
    """What the steps share: the app, its main window, its output."""

    def __init__(self, steward, artifacts):
        self.steward = steward
        self.artifacts = artifacts
        self.top = os.environ['STEWARD_TEST_HOME']
        self.home = os.environ['HOME']
        self.log_path = os.path.join(self.top, 'steward.log')
        self.process = None
        self.quitting = False
        self.app = None
        self.main = None

    def launch(self, main_size, extra_env=None, append=False, focus=True):
        """Starts the app and waits for its main window, sized and, unless
        a dialog the app opens at once should keep it, focused."""
        self.process = start_app([self.steward], self.log_path, extra_env, append)
        self.app = a11y.application('steward')
        self.main = a11y.toplevel(self.app, 'Steward')
        a11y.resize(self.main, *main_size)
        if focus:
            a11y.focus(self.main)

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def check_alive(self):
        if self.quitting:
            return
        if self.process is not None and self.process.poll() is not None:
            raise a11y.E2EError('steward exited with status %d:\n%s' %
                                (self.process.returncode, self.log_tail()))

    def log_tail(self, lines=30):
        return log_tail(self.log_path, lines)

    def stop(self):
        stop_process(self.process)

    def cleanup(self):
        """After the last step, whatever happened: stop what is still running."""
        self.stop()

    def after_failure(self):
        """After a failed step, before the next one."""


def report_failure(s, number, function, error, prefix='', dump_limit=150):
    print('not ok %d - %s' % (number, function.__name__))
    lines = []
    if isinstance(error, a11y.E2EError):
        lines.append(str(error))
        lines.append(''.join(traceback.format_tb(error.__traceback__)[-2:]))
    else:
        lines.append(''.join(traceback.format_exception(type(error), error,
                                                        error.__traceback__)))
    if s.app is not None and s.alive() and 'the tree there' not in str(error):
        try:
            for window in a11y.toplevels(s.app):
                lines.append(a11y.dump(window, limit=dump_limit))
        except Exception as dump_error:
            lines.append('no accessibility tree: %s' % dump_error)
    tail = s.log_tail()
    if tail:
        lines.append("steward's output:\n" + tail)
    if s.artifacts:
        os.makedirs(s.artifacts, exist_ok=True)
        path = os.path.join(s.artifacts, '%s%s.png' % (prefix, function.__name__))
        try:
            a11y.screenshot_screen(path)
            lines.append('the screen: %s' % path)
        except Exception as shot_error:
            lines.append('no screenshot: %s' % shot_error)
    for line in '\n'.join(lines).splitlines():
        print('# ' + line)


def run_steps(s, prefix='', dump_limit=150):
    """Runs every step on s, prints TAP, and returns the exit status."""
    print('1..%d' % len(STEPS), flush=True)
    outcome = {}
    failed = 0
    try:
        for number, (function, requires) in enumerate(STEPS, 1):
            missing = [r.__name__ for r in requires if outcome.get(r) is not True]
            if missing:
                outcome[function] = None
                print('ok %d - %s # SKIP needs %s' % (number, function.__name__,
                                                      ', '.join(missing)), flush=True)
                continue
            started = time.monotonic()
            try:
                s.check_alive()
                function(s)
                s.check_alive()
                outcome[function] = True
                print('ok %d - %s (%.1f s)' % (number, function.__name__,
                                              time.monotonic() - started), flush=True)
            except Exception as error:
                outcome[function] = False
                failed += 1
                report_failure(s, number, function, error, prefix, dump_limit)
                s.after_failure()
                sys.stdout.flush()
    finally:
        s.cleanup()
    return 1 if failed else 0


def main(session_class, prefix='', dump_limit=150, needs_everything=True):
    """The command line every step-based driver takes: STEWARD [--artifacts DIR]."""
    parser = argparse.ArgumentParser()
    parser.add_argument('steward')
    parser.add_argument('--artifacts')
    args = parser.parse_args()

    if needs_everything and not os.path.exists(EVERYTHING_JS):
        skip_all('the npm peers are not installed in %s' % PEERS, len(STEPS))
        return 0
    reason = session_missing()
    if reason:
        skip_all(reason, len(STEPS))
        return 0

    s = session_class(os.path.abspath(args.steward), args.artifacts)
    return run_steps(s, prefix, dump_limit)
