#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# steward-cli signing in to a server that wants it (tests/servers/
# oauth-server.py), which echoes the token it gets back in a tool result:
# once with the address printed and followed here as a browser would, once
# through a stand-in OpenURI portal on a private bus, the Flatpak path. The
# token must never be shown, on stdout or in the verbose stderr. Then a
# server of the servers file, run twice: the second run uses the token the
# first kept in the session's keyring and opens nothing. The client it
# registers as: the Client ID Metadata Document of the setting, of the
# servers file or of the flag, or the servers file's pre-registered client
# with its secret from the keyring and its scopes. Signing out revokes the
# token at the server and removes it from the keyring.
#
#   test-cli-auth.py STEWARD-CLI
#
# Prints TAP.

import os
import json
import re
import secrets
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
PUBLISHED = "https://stewardmcp.github.io/steward/client-metadata.json"
ADDRESS = re.compile(r"^  (https?://\S+)$")


def start_server():
    process = subprocess.Popen([sys.executable, SERVER], stdout=subprocess.PIPE, text=True)
    url = process.stdout.readline().strip()
    if not url.startswith("http://127.0.0.1:"):
        process.kill()
        raise AssertionError("the OAuth server did not start: %r" % url)
    return process, url + "/mcp"


def seen(url):
    """What the OAuth server was asked since the last look."""
    with urllib.request.urlopen(url[:-len("/mcp")] + "/seen", timeout=20) as response:
        return json.load(response)


def write_servers(directory, entry):
    path = os.path.join(directory, "servers.json")
    with open(path, "w") as f:
        json.dump({"mcpServers": {"signed": entry}}, f)
    return path


def settings_env(directory, client_metadata_url):
    """An environment whose settings come from a key file holding this
    client-metadata-url, as dconf would give them on a desktop."""
    folder = os.path.join(directory, "glib-2.0", "settings")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "keyfile"), "w") as f:
        f.write("[io/github/stewardmcp/Steward]\nclient-metadata-url='%s'\n"
                % client_metadata_url)
    env = dict(os.environ, GSETTINGS_BACKEND="keyfile", XDG_CONFIG_HOME=directory)
    return env


def follow(url):
    with urllib.request.urlopen(url, timeout=20) as response:
        response.read()


def check_secret_never_shown(out, err):
    assert "you sent Bearer [redacted]" in out, "the echoed token was not redacted: %r" % out
    assert "canary" not in out and "canary" not in err, \
        "the token reached the output:\n%s\n%s" % (out, err)


def run_following(argv, env=None):
    """Runs steward-cli, opening every address it prints as a browser
    would. Returns the exit status, stdout, stderr and the addresses."""
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=env)
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


def test_metadata_document(cli, url):
    argv = [cli, "--authorize", "print", "--timeout", "15000", "tools", "call", "whoami",
            "--url", url]
    cases = [
        ("the setting's default", None, [], PUBLISHED),
        ("the setting", "https://example.test/steward.json", [],
         "https://example.test/steward.json"),
        ("the flag over the setting", "https://example.test/steward.json",
         ["--client-metadata-url", "https://example.test/flag.json"],
         "https://example.test/flag.json"),
        ("an empty setting: registration", "", [], "client-1"),
    ]
    seen(url)
    for name, setting, flags, expected in cases:
        with tempfile.TemporaryDirectory() as directory:
            env = settings_env(directory, setting) if setting is not None else None
            code, out, err, opened = run_following(argv + flags, env)
        assert code == 0 and opened == 1, "%s: %r" % (name, (code, out, err))
        asked = seen(url)
        clients = [request["client_id"] for request in asked["authorize"]]
        assert clients == [expected], "%s: signed in as %r, not %r" % (name, clients, expected)
        assert asked["register"] == (1 if expected == "client-1" else 0), \
            "%s: registered %d times" % (name, asked["register"])
    return None


def store_secret(secret_id, value):
    completed = subprocess.run(["secret-tool", "store", "--label", "test client secret",
                                "xdg:schema", "io.github.stewardmcp.Steward.Secret",
                                "id", secret_id, "kind", "server-header"],
                               input=value, text=True, capture_output=True)
    assert completed.returncode == 0, completed.stderr


def test_servers_file_client(cli, url):
    if not os.environ.get("STEWARD_IN_SESSION") or shutil.which("secret-tool") is None:
        return "not in a session with a keyring and secret-tool"
    secret = "hush-" + secrets.token_hex(8)
    store_secret("test-client-secret", secret)
    with tempfile.TemporaryDirectory() as directory:
        path = write_servers(directory, {"url": url, "oauth": {
            "clientId": "pre-1", "clientSecret": "${keyring:test-client-secret}",
            "scopes": ["read", "write"],
            "clientMetadataUrl": "https://example.test/unused.json"}})
        seen(url)
        code, out, err, opened = run_following(
            [cli, "-v", "--authorize", "print", "--timeout", "15000", "--server", "signed",
             "--config", path, "tools", "call", "whoami"])
        assert code == 0 and opened == 1, (code, out, err)
        assert secret not in out and secret not in err, "the client secret was shown"
        asked = seen(url)
        assert asked["authorize"] == [{"client_id": "pre-1", "scope": "read write"}], asked
        assert asked["register"] == 0, "registered although a client id was configured"
        assert asked["token_clients"] == ["pre-1:" + secret], \
            "the token request did not authenticate as the configured client"

    # The entry's own document, where it has no client id, over the
    # setting's; on a server of its own, where nobody is signed in yet.
    other, other_url = start_server()
    try:
        with tempfile.TemporaryDirectory() as directory:
            path = write_servers(directory, {"url": other_url, "oauth": {
                "clientMetadataUrl": "https://example.test/own.json"}})
            code, out, err, opened = run_following(
                [cli, "--authorize", "print", "--timeout", "15000", "--server", "signed",
                 "--config", path, "tools", "call", "whoami"],
                settings_env(directory, "https://example.test/setting.json"))
        assert code == 0 and opened == 1, (code, out, err)
        clients = [request["client_id"] for request in seen(other_url)["authorize"]]
        assert clients == ["https://example.test/own.json"], clients
    finally:
        other.kill()
        other.wait()
    return None


def test_client_credentials(cli, url):
    if not os.environ.get("STEWARD_IN_SESSION") or shutil.which("secret-tool") is None:
        return "not in a session with a keyring and secret-tool"
    secret = "hush-" + secrets.token_hex(8)
    store_secret("test-machine-secret", secret)
    with tempfile.TemporaryDirectory() as directory:
        path = write_servers(directory, {"url": url, "oauth": {
            "clientId": "machine-1", "clientSecret": "${keyring:test-machine-secret}"}})
        seen(url)
        code, out, err, opened = run_following(
            [cli, "--client-credentials", "--timeout", "15000", "--server", "signed",
             "--config", path, "tools", "call", "whoami"])
        assert code == 0 and opened == 0, (code, out, err)
        asked = seen(url)
        assert asked["authorize"] == [] and asked["register"] == 0, asked
        assert asked["token_clients"] == ["machine-1:" + secret], \
            "the token request did not authenticate as the entry's client"

        # An entry without a client id cannot sign in as a client; the
        # sign-in kept from the run above goes first.
        code, out, err = run_cli([cli, "auth", "sign-out", "--server", "signed",
                                  "--config", path])
        assert code == 0, (code, out, err)
        path = write_servers(directory, {"url": url})
        code, out, err, opened = run_following(
            [cli, "--client-credentials", "--timeout", "15000", "--server", "signed",
             "--config", path, "tools", "call", "whoami"])
        assert code != 0 and "needs a client id" in err, (code, out, err)
    return None


def keyring_labels():
    completed = subprocess.run(["secret-tool", "search", "--all", "kind", "sign-in"],
                               capture_output=True, text=True)
    return [line.split(" = ", 1)[1] for line in (completed.stdout + completed.stderr).splitlines()
            if line.startswith("label = ")]


def run_cli(argv):
    completed = subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT)
    return completed.returncode, completed.stdout, completed.stderr


def test_sign_out(cli, url):
    if not os.environ.get("STEWARD_IN_SESSION") or shutil.which("secret-tool") is None:
        return "not in a session with a keyring and secret-tool"
    with tempfile.TemporaryDirectory() as directory:
        path = write_servers(directory, {"url": url})
        server = ["--server", "signed", "--config", path]
        call = [cli, "--authorize", "print", "--timeout", "15000"] + server + \
            ["tools", "call", "whoami"]
        mine = "Steward sign-in to %s at %s" % (url, url[:-len("/mcp")])

        code, out, err, opened = run_following(call)
        assert code == 0 and opened == 1, (code, out, err)
        assert mine in keyring_labels(), "no keyring item after signing in: %r" % keyring_labels()
        seen(url)

        code, out, err = run_cli([cli, "auth", "status"] + server)
        assert code == 0 and "Signed in to %s" % url in out, (code, out, err)
        assert "canary" not in out + err, "status showed the token"

        code, out, err = run_cli([cli, "auth", "sign-out"] + server)
        assert code == 0, (code, out, err)
        assert "the server revoked the sign-in" in out, out
        assert "canary" not in out + err, "sign-out showed the token"
        revoked = seen(url)["revoked"]
        assert len(revoked) == 1 and revoked[0].startswith("canary-"), \
            "the revocation endpoint was not given the token: %d calls" % len(revoked)
        assert mine not in keyring_labels(), "the keyring still holds the sign-in"

        code, out, err = run_cli([cli, "auth", "status"] + server)
        assert code == 0 and "Not signed in to %s" % url in out, (code, out, err)
        code, out, err = run_cli([cli, "auth", "sign-out"] + server)
        assert code == 0 and "nothing to sign out of" in out, (code, out, err)
        assert seen(url)["revoked"] == [], "revoked again with nothing kept"

        # Signed out means the next call signs in again.
        code, out, err, opened = run_following(call)
        assert code == 0 and opened == 1, "the next call did not sign in again: %r" % (
            (code, out, err, opened),)

        # The --url form ends the same sign-in: the keyring keeps it by
        # authorization server and server, not by name.
        code, out, err = run_cli([cli, "auth", "sign-out", "--url", url])
        assert code == 0 and "the server revoked the sign-in" in out, (code, out, err)
        assert mine not in keyring_labels(), "the keyring still holds the sign-in"

        # Without a server, every remote entry of the file: the signed-in
        # one, one signed out, and a local one left out.
        code, out, err, opened = run_following(call)
        assert code == 0 and opened == 1, (code, out, err)
        other, other_url = start_server()
        try:
            with open(path, "w") as f:
                json.dump({"mcpServers": {"signed": {"url": url},
                                          "elsewhere": {"url": other_url},
                                          "local": {"command": "true"}}}, f)
            code, out, err = run_cli([cli, "auth", "status", "--config", path])
        finally:
            other.kill()
            other.wait()
        assert code == 0, (code, out, err)
        expected = "elsewhere:\n  Not signed in to %s.\nsigned:\n  Signed in to %s through" % (
            other_url, url)
        assert out.startswith(expected), "unexpected listing:\n%s" % out
        assert "local" not in out and "canary" not in out + err, out

    code, out, err = run_cli([cli, "auth", "sign-out", "--stdio", "true"])
    assert code == 2 and "goes with a remote server" in err, (code, out, err)
    code, out, err = run_cli([cli, "auth", "forget", "--url", url])
    assert code == 2 and "`auth` is followed by status, sign-out or set-client" in err, (code, out, err)
    return None


def test_set_client(cli, url):
    if not os.environ.get("STEWARD_IN_SESSION") or shutil.which("secret-tool") is None:
        return "not in a session with a keyring and secret-tool"
    secret = "hush-" + secrets.token_hex(8)
    with tempfile.TemporaryDirectory() as directory:
        path = write_servers(directory, {"url": url, "oauth": {"scopes": ["read"],
                                                               "x-other": 1}})
        secret_file = os.path.join(directory, "secret")
        with open(os.open(secret_file, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
            f.write(secret + "\n")
        server = ["--server", "signed", "--config", path]

        code, out, err = run_cli([cli, "auth", "set-client", "--client-id", "pre-9",
                                  "--client-secret-file", secret_file] + server)
        assert code == 0 and "signs in as client pre-9" in out, (code, out, err)
        with open(path) as f:
            written = f.read()
        assert secret not in written, "the client secret went into the servers file"
        block = json.loads(written)["mcpServers"]["signed"]["oauth"]
        assert block["clientId"] == "pre-9" and block["scopes"] == ["read"], block
        assert block["x-other"] == 1, "a member of another host was lost: %r" % block
        assert re.fullmatch(r"\$\{keyring:[^}]+\}", block["clientSecret"]), block
        found = subprocess.run(["secret-tool", "search", "--all", "kind", "client-secret"],
                               capture_output=True, text=True)
        assert "label = Steward: signed client secret" in found.stdout + found.stderr, found

        seen(url)
        code, out, err, opened = run_following(
            [cli, "--authorize", "print", "--timeout", "15000"] + server +
            ["tools", "call", "whoami"])
        assert code == 0 and opened == 1, (code, out, err)
        asked = seen(url)
        assert asked["token_clients"] == ["pre-9:" + secret], "not signed in as the client set"
        assert asked["authorize"][0]["scope"] == "read", asked

        # Another, public client: the old secret leaves the file and the keyring.
        code, out, err = run_cli([cli, "auth", "set-client", "--client-id", "pub-1"] + server)
        assert code == 0, (code, out, err)
        with open(path) as f:
            block = json.load(f)["mcpServers"]["signed"]["oauth"]
        assert block["clientId"] == "pub-1" and "clientSecret" not in block, block
        found = subprocess.run(["secret-tool", "search", "--all", "kind", "client-secret"],
                               capture_output=True, text=True)
        assert "signed client secret" not in found.stdout + found.stderr, found

        code, out, err = run_cli([cli, "auth", "set-client"] + server)
        assert code == 2 and "needs --server NAME, and --client-id" in err, (code, out, err)
    return None


def main():
    cli = sys.argv[1]
    tests = [("signs in with the address printed, token never shown", test_print),
             ("signs in through the OpenURI portal, token never shown", test_portal),
             ("keeps a servers-file entry signed in between runs", test_keyring),
             ("offers the Client ID Metadata Document of the setting or the flag",
              test_metadata_document),
             ("signs in as the servers file's client, its secret from the keyring",
              test_servers_file_client),
             ("signs in as the servers file's client without a person",
              test_client_credentials),
             ("signs out: revoked at the server, gone from the keyring", test_sign_out),
             ("keeps the client set for an entry, its secret in the keyring",
              test_set_client)]
    print("1..%d" % len(tests), flush=True)
    failed = 0
    for number, (name, function) in enumerate(tests, 1):
        # A server of its own for each, holding no token of another.
        server, url = start_server()
        try:
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
