#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# steward-cli signing in to a server that wants it (tests/servers/
# oauth-server.py), which echoes the token it gets back in a tool result:
# once with the address printed and followed here as a browser would, once
# through a stand-in OpenURI portal on a private bus, the Flatpak path. The
# token must never be shown, on stdout or in the verbose stderr. Then a
# server of the servers file, run twice: the second run uses the token the
# first kept in the session's keyring and opens nothing.
#
#   test-cli-auth.py STEWARD-CLI
#
# Prints TAP.

import os
import json
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
SERVER = os.path.join(HERE, "servers", "oauth-server.py")
PORTAL = os.path.join(HERE, "stand-in-portal.py")
SYSTEM_PYTHON = "/usr/bin/python3"
TIMEOUT = 60
ADDRESS = re.compile(r"^  (https?://\S+)$")


def start_server():
    process = subprocess.Popen([sys.executable, SERVER], stdout=subprocess.PIPE, text=True)
    url = process.stdout.readline().strip()
    if not url.startswith("http://127.0.0.1:"):
        process.kill()
        raise AssertionError("the OAuth server did not start: %r" % url)
    return process, url + "/mcp"


def follow(url):
    with urllib.request.urlopen(url, timeout=20) as response:
        response.read()


def check_secret_never_shown(out, err):
    assert "you sent Bearer [redacted]" in out, "the echoed token was not redacted: %r" % out
    assert "canary" not in out and "canary" not in err, \
        "the token reached the output:\n%s\n%s" % (out, err)


def run_following(argv):
    """Runs steward-cli, opening every address it prints as a browser
    would. Returns the exit status, stdout, stderr and the addresses."""
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    err = []
    followers = []
    for line in process.stderr:
        err.append(line)
        match = ADDRESS.match(line.rstrip("\n"))
        if match:
            follower = threading.Thread(target=follow, args=(match.group(1),))
            follower.start()
            followers.append(follower)
    out = process.stdout.read()
    code = process.wait(timeout=TIMEOUT)
    for follower in followers:
        follower.join()
    return code, out, "".join(err), len(followers)


def test_keyring(cli, url):
    if not os.environ.get("STEWARD_IN_SESSION"):
        return "not in a session with a keyring (tests/run-in-session)"
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "servers.json")
        with open(path, "w") as f:
            json.dump({"mcpServers": {"signed": {"url": url}}}, f)
        argv = [cli, "--authorize", "print", "--timeout", "15000", "--server", "signed",
                "--config", path, "tools", "call", "whoami"]
        first = run_following(argv)
        assert first[0] == 0 and first[3] == 1, "the first run did not sign in: %r" % (first,)
        second = run_following(argv)
        assert second[0] == 0, "the second run failed: %r" % (second,)
        assert second[3] == 0, "the second run asked to sign in again:\n%s" % second[2]
        check_secret_never_shown(second[1], second[2])
    return None


def test_print(cli, url):
    process = subprocess.Popen([cli, "-v", "--authorize", "print", "--timeout", "15000",
                                "tools", "call", "whoami", "--url", url],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    err = []
    followers = []
    for line in process.stderr:
        err.append(line)
        match = ADDRESS.match(line.rstrip("\n"))
        if match:
            follower = threading.Thread(target=follow, args=(match.group(1),))
            follower.start()
            followers.append(follower)
    out = process.stdout.read()
    code = process.wait(timeout=TIMEOUT)
    for follower in followers:
        follower.join()
    err = "".join(err)

    assert code == 0, "exit %d\n%s\n%s" % (code, out, err)
    assert len(followers) == 1, "expected one address to open:\n%s" % err
    assert "[auth] signed in" in err, err
    check_secret_never_shown(out, err)
    return None


def test_portal(cli, url):
    runner = shutil.which("dbus-run-session")
    if runner is None or not os.path.exists(SYSTEM_PYTHON):
        return "dbus-run-session or the system Python is missing"
    probe = subprocess.run([SYSTEM_PYTHON, "-c", "from gi.repository import Gio"],
                           capture_output=True)
    if probe.returncode != 0:
        return "the system Python has no PyGObject"

    completed = subprocess.run([runner, "--", SYSTEM_PYTHON, PORTAL, cli, "-v",
                                "--authorize", "browser", "--timeout", "15000",
                                "tools", "call", "whoami", "--url", url],
                               capture_output=True, text=True, timeout=TIMEOUT)
    out, err = completed.stdout, completed.stderr
    assert completed.returncode == 0, "exit %d\n%s\n%s" % (completed.returncode, out, err)
    assert "stand-in portal: opened %s" % url.replace("/mcp", "/authorize") in err, \
        "the address did not go through the portal:\n%s" % err
    check_secret_never_shown(out, err)
    return None


def main():
    cli = sys.argv[1]
    tests = [("signs in with the address printed, token never shown", test_print),
             ("signs in through the OpenURI portal, token never shown", test_portal),
             ("keeps a servers-file entry signed in between runs", test_keyring)]
    print("1..%d" % len(tests), flush=True)
    server, url = start_server()
    failed = 0
    try:
        for number, (name, function) in enumerate(tests, 1):
            try:
                skipped = function(cli, url)
            except Exception as error:  # noqa: BLE001 — reported as the test's failure
                failed += 1
                print("not ok %d - %s" % (number, name))
                for line in str(error).splitlines():
                    print("# " + line)
                continue
            if skipped:
                print("ok %d - %s # SKIP %s" % (number, name, skipped))
            else:
                print("ok %d - %s" % (number, name))
            sys.stdout.flush()
    finally:
        server.kill()
        server.wait()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
