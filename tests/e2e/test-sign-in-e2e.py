#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Signing in to a remote server from end to end: the real app against
# tests/servers/oauth-server.py, an MCP server that wants a sign-in with its
# authorization server beside it, and tests/stand-in-browser.py registered
# as the desktop's handler for http and https, which follows the
# authorization address and the redirect to the app's loopback address as
# a person's browser would once they signed in. The server waits for a
# sign-in, Sign In connects it, a tool answers; the app quits and starts
# again and the server connects with the keyring's token: no second
# authorization request reaches the authorization server. The tool echoes
# the token it got, and the log viewer must never show it.
#
#   test-sign-in-e2e.py STEWARD [--artifacts DIR]
#
# Runs inside tests/run-in-session, like the other drivers; prints TAP.

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import driver  # noqa: E402  (first: it sets up G_DEBUG before GLib loads)
import a11y  # noqa: E402
import pyatspi  # noqa: E402
from driver import check, step  # noqa: E402

SERVER = "notes"
ACCOUNT = "ada@example.com"
HERE = os.path.dirname(os.path.abspath(__file__))
OAUTH_SERVER = os.path.join(HERE, "..", "servers", "oauth-server.py")
BROWSER = os.path.join(HERE, "..", "stand-in-browser.py")
MAIN_SIZE = (1100, 720)


class Session(driver.AppSession):
    def __init__(self, steward, artifacts):
        super().__init__(steward, artifacts)
        self.server = None
        self.url = None
        self.oauth_log = os.path.join(self.top, "oauth.log")
        self.browser = os.path.join(self.top, "browser")

    def start_server(self):
        self.server = subprocess.Popen([sys.executable, OAUTH_SERVER, "--log", self.oauth_log,
                                        "--account", ACCOUNT],
                                       stdout=subprocess.PIPE, text=True)
        base = self.server.stdout.readline().strip()
        check(base.startswith("http://127.0.0.1:"), "the OAuth server to listen, not %r" % base)
        self.url = base + "/mcp"

    def requests(self, what):
        try:
            with open(self.oauth_log) as log:
                return sum(1 for line in log if line.strip() == what)
        except FileNotFoundError:
            return 0

    def opened(self):
        try:
            with open(os.path.join(self.browser, "opened")) as opened:
                return [line for line in opened.read().splitlines() if line]
        except FileNotFoundError:
            return []

    def cleanup(self):
        self.stop()
        if self.server is not None:
            driver.stop_process(self.server)


def servers(s):
    return a11y.find(s.main, "list", "Servers")


def answer_consent(s):
    """The first connection of a remote server asks first; the test agrees."""
    for consent in [w for w in a11y.toplevels(s.app) if w.name == "Start Server?"]:
        a11y.activate(a11y.find(consent, "push button", a11y.labelled("Start Server")))
        a11y.closed(s.app, "Start Server?")
        a11y.focus(s.main)


def wait_row(s, status):
    prefix = "%s, %s" % (SERVER, status)

    def shown():
        answer_consent(s)
        return a11y.find_all(servers(s), "list item",
                             where=lambda row: a11y.name(row).startswith(prefix))
    return a11y.wait_until("the row to say %r" % prefix, shown, timeout=60)[0]


def server_page(s):
    rows = servers(s)
    row = a11y.find(rows, "list item", contains=SERVER)
    if not a11y.has_state(row, pyatspi.STATE_SELECTED):
        a11y.select(rows, row)
    return a11y.find(s.main, "filler", SERVER)


def row_of(node):
    while a11y.role(node) != "list item":
        node = node.parent
        if node is None:
            raise a11y.E2EError("no row holds the node")
    return node


def call_whoami(s):
    page = server_page(s)
    tab = a11y.find(page, "page tab", "Tools")
    if not a11y.has_state(tab, pyatspi.STATE_SELECTED):
        a11y.activate(tab)
    tools = a11y.find(page, "list", "Tools")
    a11y.select(tools, row_of(a11y.find(tools, "label", "whoami")))
    pane = a11y.find(page, "filler", "StewardToolPane",
                     where=lambda pane: a11y.find_all(pane, "label", "whoami"))
    a11y.activate(a11y.find(pane, "push button", a11y.labelled("Call")))
    view = a11y.find(pane, "filler", "StewardToolResultView")
    return a11y.wait_until("the tool's answer",
                           lambda: [t for t in a11y.texts(view) if "you sent Bearer" in t])


@step()
def needs_sign_in(s):
    os.environ["STEWARD_TEST_BROWSER_DIR"] = s.browser
    subprocess.run([sys.executable, BROWSER, "--install"], check=True)
    s.start_server()
    config = os.path.join(os.environ.get("XDG_CONFIG_HOME",
                                         os.path.join(s.home, ".config")), "steward")
    os.makedirs(config, exist_ok=True)
    with open(os.path.join(config, "servers.json"), "w") as f:
        json.dump({"mcpServers": {SERVER: {"url": s.url}}}, f)
    s.launch(MAIN_SIZE, focus=False)
    # The row and the page name the server and its authorization server.
    wait_row(s, "Sign in to %s at 127.0.0.1" % SERVER)
    page = server_page(s)
    a11y.find(page, "label", "Sign in to %s" % SERVER)
    a11y.find(page, "label", contains="wants you to sign in at 127.0.0.1")
    check(s.requests("authorize") == 0, "no authorization before Sign In")


@step(needs_sign_in)
def signs_in_from_page(s):
    page = server_page(s)
    a11y.activate(a11y.find(page, "push button", a11y.labelled("Sign In…")))
    wait_row(s, "Ready")
    a11y.find(server_page(s), "label", "Signed in as %s at 127.0.0.1" % ACCOUNT)
    a11y.find(server_page(s), "label", contains="The sign-in ends on ")
    check(s.requests("authorize") == 1, "one authorization request")
    check(len(s.opened()) == 1, "the browser opened once: %r" % s.opened())
    # The app may be ready before the browser has kept the page it was
    # sent; the browser writes it whole before it appears.
    page_path = os.path.join(s.browser, "page.html")
    a11y.wait_until("the browser keeping its page", lambda: os.path.exists(page_path))
    with open(page_path) as page_html:
        check("You may close this tab." in page_html.read(),
              "the browser's tab was told it may close")


@step(signs_in_from_page)
def calls_tool_signed_in(s):
    call_whoami(s)


@step(calls_tool_signed_in)
def connects_again_after_restart(s):
    s.quitting = True
    driver.stop_process(s.process)
    s.launch(MAIN_SIZE, append=True, focus=False)
    s.quitting = False
    wait_row(s, "Ready")
    call_whoami(s)
    check(s.requests("authorize") == 1,
          "no second authorization request: %d" % s.requests("authorize"))
    check(len(s.opened()) == 1, "no browser opened again: %r" % s.opened())


@step(calls_tool_signed_in)
def token_never_in_log_viewer(s):
    views = a11y.find(s.main, "list", "Views")
    a11y.select(views, a11y.find(views, "list item", "Logs"))
    logs = a11y.find(s.main, "filler", "StewardLogView")
    a11y.set_text(a11y.find(logs, "entry", "Search logs"), "you sent")
    entries = a11y.find(logs, "list", "Log entries")
    row = a11y.find(entries, "list item",
                    where=lambda row: any(" result id " in a11y.name(child)
                                          for child in a11y.children(row)))
    a11y.select(entries, row)
    detail = a11y.find(logs, "text", "Entry detail")
    shown = a11y.wait_until("the answer's detail",
                            lambda: (a11y.text_of(detail) or "") if "you sent" in
                            (a11y.text_of(detail) or "") else None)
    check("canary" not in shown, "the token shows in the log's detail:\n%s" % shown)
    # Searching for the token finds nothing.
    a11y.set_text(a11y.find(logs, "entry", "Search logs"), "canary")
    a11y.wait_until("no log entry to hold the token",
                    lambda: not a11y.find_all(entries, "list item"))

if __name__ == "__main__":
    sys.exit(driver.main(Session, prefix="sign-in-", needs_everything=False))
